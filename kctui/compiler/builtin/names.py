"""Named things from evidence in the text, not from lists.

A name is a span the text marks as one: capitalised away from the start of a sentence ("Priya Raman",
"Tomás Okafor"), an inner capital or digit (SQLite, PagerDuty, k8s), a link text, a name the text types
with a noun ("the billing-api service", "Datadog, a monitoring vendor"), a `Name:` owner of an action
item, the subject of "X is a/an Y". Common words are told apart by their frequency in English
(`wordfreq`), never by a hand-written stop list: a single capitalised word that is frequent in lower
case is a common word unless it shows an inner capital or digit, and a word the document also writes
in lower case is not a name there. An acronym the document counts like a common noun ("an RFC to …",
"this PR proposes …", "RFCs") is a kind of thing, not a name; a lower-case identifier is a name by its
shape only when it is a domain or a compound of no ordinary words (crates.io, pkg-config) and recurs.

This module finds the candidate spans of a sentence: among the words that may make a name
(`kctui.compiler.builtin.name_tokens`), where a run of them begins and ends as one name, and which of its
first words are no part of it. The spans are judged in `kctui.compiler.builtin.name_checks` (`name_like`,
`clean_title`); what the document's own usage says about a word (the words it writes in lower case, how
many capitalised sentences make a frequent word a name) is in `kctui.compiler.builtin.usage`; the
word-level tests are in `kctui.compiler.builtin.words` (frequency, shape, the closed-class grammar of
English) and the generic nouns that say what kind of thing a name is, and who is a person, in
`kctui.compiler.builtin.name_types`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kctui.compiler.builtin import models
from kctui.compiler.builtin.name_edges import record_label, verb_form, without_dates
from kctui.compiler.builtin.name_tokens import JUNK_TOKEN, junk_token, tokens
from kctui.compiler.builtin.name_types import COMPANY_SUFFIX, ROLE_NOUNS, TYPE_NOUNS, person_like
from kctui.compiler.builtin.words import (  # noqa: F401 - common_phrase, ident_name, one_word: re-exported for the tests
    CALENDAR,
    COMMON_ZIPF,
    FUNCTION_WORDS,
    IDENT,
    RARE_ZIPF,
    RECORD_ID,
    VERSIONISH,
    WORD_SUFFIX,
    common_phrase,
    common_word,
    ident_name,
    one_word,
    shaped,
    zipf,
)

_LINK_TEXT = re.compile(r"\[([^\]\n]{2,60})\]\((?:[^()\s]|\([^()\s]*\))*\)")


@dataclass
class Span:
    text: str  # the name as written (markup removed)
    start: int  # character offset in the plain sentence
    end: int
    at_start: bool  # begins the sentence (capitalisation says nothing there)
    kind: str  # caps | shaped | link | code | handle | ident | path | channel
    tokens: tuple[str, ...] = ()
    subject: bool = False  # one word opening its sentence as the bare subject of a verb ("Sentry handles …")


_INNER_OPENERS = frozenset(":;—–-(")  # … of which these open no sentence: a label's value, an aside, a dash
_OPENERS = frozenset(":;—–-(\"“‘>|.!?*[")  # a capital after these says nothing: a new sentence, a label, a quote
_MARKED = re.compile(r"[^\W\d_a-z]|[`@]|[a-z][-_.][a-z0-9]|[a-z]\d|\d[a-z]")  # a capital, code, a handle, a-b, k8
_FIRST_WORD = re.compile(r"\W*([^\W_][\w'’.+-]*)")
_GAP = re.compile(r"^ (?:(?:de|van|von|der|den|da|del|di|du|la|le|bin|al|of) ){0,2}$")  # "Jan van der Berg"
_FIRST = re.compile(r"[\w`@]")
_NEXT = re.compile(r"\s+([A-Za-z]+)")
# a root path of one segment written in prose ("/scratch at 81% full", "(/home)"): a mount or a share
_ROOT_PATH = re.compile(r"(?:(?<=[\s(])|^)/[a-z][a-z0-9_-]{1,30}(?![\w/.-])")
_NUMBER_GAP = re.compile(r"^ \d{1,4} $")
_RECORD_NUMBER = re.compile(r"^[A-Z]{2,5}\d{6,}$")  # a ticket's or an update's number: RITM0048812, KB5046617
_CODE_NAME = re.compile(r"[A-Za-z][\w.+-]{1,40}")
_HEX_COLOUR = re.compile(r"^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$")


def plain_spans(plain: str, link_texts: frozenset[str] = frozenset()) -> list[Span]:
    """Candidate name spans of one sentence (inline links already reduced to their text)."""
    paths = [Span(m.group(0), m.start(), m.end(), m.start() == 0, "path", (m.group(0),))
             for m in _ROOT_PATH.finditer(plain)] if "/" in plain else []
    if not _MARKED.search(plain, 1):  # nothing past the first letter marks a name: only the first word can be one
        m = _FIRST_WORD.match(plain)
        if not m or not m.group(1)[:1].isupper() or common_word(m.group(1)) or junk_token(m.group(1)):
            return paths
    toks = tokens(plain)
    if not toks:
        return paths
    first = _FIRST.search(plain)
    first_pos = first.start() if first else 0
    out: list[Span] = []
    i = 0
    n = len(toks)
    while i < n:
        tok, s, e = toks[i]
        c0 = tok[0]
        if c0 == "`":
            _code_span(plain, tok, s, e, first_pos, out)
        elif c0 == "@":
            out.append(Span(tok[1:], s, e, False, "handle", (tok[1:],)))
        elif c0 == "#":
            if not _HEX_COLOUR.match(tok):  # a chat channel with a hyphen ("#ops-platform"), not "#fff"
                out.append(Span(tok, s, e, s == first_pos, "channel", (tok,)))
        elif c0.isupper() or shaped(tok):
            group = _run(plain, toks, i)
            if named := without_dates(plain, group):  # ("3 Sep Wrekin main transmitter": Wrekin)
                _run_spans(plain, named, first_pos, link_texts, out)
            i += len(group)
            continue
        elif IDENT.match(tok) and not VERSIONISH.match(tok):
            out.append(Span(tok, s, e, s == first_pos, "ident", (tok,)))
        i += 1
    if paths:
        out = sorted(out + [p for p in paths if not any(o.start < p.end and p.start < o.end for o in out)],
                     key=lambda sp: sp.start)
    return out


def _code_span(plain: str, tok: str, s: int, e: int, first_pos: int, out: list[Span]) -> None:
    """A code span names only what the text types or defines ("the `rg` tool", "`rg` is a …")."""
    inner = tok.strip("`").strip()
    nxt = _NEXT.match(plain, e)
    if nxt and (nxt.group(1).casefold() in TYPE_NOUNS or nxt.group(1) in ("is", "are")) \
            and _CODE_NAME.fullmatch(inner) and not JUNK_TOKEN.search(inner):  # not `x.tar.gz`
        out.append(Span(inner, s, e, s == first_pos, "code", (inner,)))


def _run(plain: str, toks: list[tuple[str, int, int]], i: int) -> list[tuple[str, int, int]]:
    """The run of capitalised or shaped tokens from toks[i] on that may make one name: separated by a
    space or a name particle ("Vincent van Gogh"), not by a possessive ("Sourcegraph's Cloudflare")."""
    group = [toks[i]]
    j = i
    n = len(toks)
    while j + 1 < n:
        nxt = toks[j + 1]
        gap = plain[group[-1][2]:nxt[1]]
        if nxt[0][0] in "`@" or not (nxt[0][0].isupper() or shaped(nxt[0])):
            break
        if group[-1][0].endswith(("'s", "’s")) or nxt[0] == group[-1][0] \
                or record_label(group[-1][0], nxt[0], toks[j + 2][0] if j + 2 < n else ""):
            break  # "Sourcegraph's Cloudflare" is two names; "FrostLine CRITICAL FRZ-04": an alert's parts
        if nxt[0].casefold() in ROLE_NOUNS and plain.startswith(" of ", nxt[2]):
            break  # "Moira Kettleby Head of Infrastructure": a name, then the role it holds
        if len(group) == 1 and RECORD_ID.match(nxt[0]) and plain[:group[0][1]].rstrip()[-1:] in _OPENERS | {""}:
            break  # the word opening a sentence before a record's identifier: "Supersedes ADR-0011"
        if RECORD_ID.match(group[-1][0]) or _RECORD_NUMBER.match(group[-1][0]) or _RECORD_NUMBER.match(nxt[0]):
            break  # a record's identifier ends a name: "CHG-0342 AMOS cutover" names the change and AMOS;
            # a record's long number is a name of its own ("ServiceNow RITM0048812")
        if not (gap == " " or _GAP.match(gap) or (gap == ". " and (group[-1][0] in HONORIFICS or (
                _initial(plain, group) and not common_word(nxt[0]))))
                or (_NUMBER_GAP.match(gap) and group[-1][0].isupper() and group[-1][0].isalpha() and len(group[-1][0]) > 1)
                or joined_inside(gap, [t for t, _, _ in group], nxt, toks[j + 2] if j + 2 < n else None, plain)):
            break  # (an acronym, a number and a capitalised word are one name: "SOC 2 Type II")
        group.append(nxt)
        j += 1
    return group


def joined_inside(gap: str, run: list[str], word: tuple[str, int, int], after: tuple[str, int, int] | None,
                  plain: str) -> bool:
    """Is the token `word`, after `gap` inside a run of capitals, still part of the name (`run` the run's
    words so far)? "for" and a capitalised ordinary word closing the run: the edition of a product for a
    market ("Defender for Business", "Untappd for Business"; not "Microsoft for Business Premium", two
    names, nor a day: "Jira for Monday"); "&" between two words: a firm or a product named by its
    parts (`ampersand_joins`)."""
    text = word[0]
    goes_on = after is not None and plain[word[2]:after[1]] == " "
    if gap == " for ":
        return not goes_on and text[:1].isupper() and text[1:].islower() and common_word(text) \
            and text.casefold() not in CALENDAR
    if gap == " & ":
        return ampersand_joins(run, text, after[0] if goes_on and after is not None else "")
    return False


def ampersand_joins(run: list[str], word: str, after: str) -> bool:
    """Does "&" join `word` to the run of capitals before it (`after`: the capitalised token right after
    `word`, "" when none)? A company's mark ("Grind & Co") or two words a company suffix closes ("Harlan &
    Moss LLP"): a firm named by its partners; or two capitalised words English has on either side, in a
    run not all of ordinary words ("Kite & Key", "Ardent Fire & Security", "Veeam Backup & Replication"):
    a firm's or a product's name, which the text writes whole (its short form alone, "Kite", names
    nothing). Not two given names English does not have ("Tomasz & Ines": two people), nor a heading of
    ordinary words ("Platform & Infrastructure", "Science & Engineering": what the section is about)."""
    before = run[-1]
    if not (before.isalpha() and before[:1].isupper() and word.isalpha() and word[:1].isupper()):
        return False
    if word == "Co" or COMPANY_SUFFIX.match(after) is not None:
        return True
    return before[1:].islower() and word[1:].islower() and zipf(before) >= RARE_ZIPF and zipf(word) >= RARE_ZIPF \
        and not all(common_word(t) for t in (*run, word))


_VERSION_AFTER = re.compile(r"\s+v?\d+\.\d+(?:\.\d+)?\b")  # a release number after a run of capitals
_BEFORE_INITIAL = re.compile(r"[(,;:]\**\s*$")


def _initial(plain: str, group: list[tuple[str, int, int]]) -> bool:
    """Does the run so far hold only a given name's initial, in a list of people or after a label ("A"
    of "Present: T. Wierzbicki, A. Castellanos"; not "rev B" of "on rev B. MCUboot …", nor "C" of
    "Alternatives B and C. Instead …")?"""
    return len(group) == 1 and len(group[0][0]) == 1 and group[0][0].isupper() and (
        _BEFORE_INITIAL.search(plain, 0, group[0][1]) is not None)


def _run_spans(plain: str, group: list[tuple[str, int, int]], first_pos: int, link_texts: frozenset[str],
               out: list[Span]) -> None:
    """The name spans of one run of capitalised or shaped tokens: the run less its leading ordinary
    words, and where it opens the sentence and is shaped like a person's name, the whole run too."""
    s = group[0][1]
    before = plain[:s].rstrip()[-1:]
    at_start = s == first_pos or (before != "" and before in _OPENERS) or (
        before.isdigit() and _MESSAGE_HEAD.match(plain, 0, s) is not None)
    if at_start and 2 <= len(group) <= 3 and (zipf(group[-1][0]) < RARE_ZIPF or (
            before in _INNER_OPENERS and _inner_person(group))) and person_like(whole := plain[group[0][1]:group[-1][2]]) \
            and not _asks(plain, group) and not verb_form(group[0][0]):
        # a run shaped like a person's name whose surname is no English word may be one even
        # where it opens the sentence ("Daniel Micay on June 24"), and so may any such run after a
        # bracket, a colon or a dash inside the sentence ("Owner: Rafael Costa", "(Fiona Reid)"): a
        # loose mention, a name once it recurs; the words after the sentence's first are kept as
        # their own span too ("Later Zorblat": "Zorblat")
        out.append(Span(whole, group[0][1], group[-1][2], True, "caps", tuple(whole.split())))
    k = 0 if len(group) > 1 and _initial(plain, group[:1]) and plain[group[0][2]:group[0][2] + 1] == "." \
        else _leading_words(group, at_start, models.names_a_model(plain, group))  # "A. Castellanos": an initial opens the name
    if any(plain[group[i][2]:group[i + 1][1]] == " & " for i in range(len(group) - 1)):
        k = min(k, next((i for i, t in enumerate(group) if t[0].casefold() not in FUNCTION_WORDS), k))
        # a firm's name "&" joins is whole however ordinary its words: "(Coastline Data & Electrical)",
        # "Kite & Key have run …" open with it (not "The" of "The Kite & Key team")
    if k == len(group) > 1 and at_start and group[0][0].casefold() not in FUNCTION_WORDS \
            and (version := _VERSION_AFTER.match(plain, group[-1][2])) and _FINITE_VERB.match(plain, version.end()):
        k = 0  # "Fluent Bit 2.2 drops lines": a release number names the run of capitals it follows as
        # the subject of the sentence's verb (not "See Section 2.1 for …", "Read Chapter 3.1 first")
    if not k and group[0][0] in MERIDIEM and _TIME_BEFORE.search(plain, 0, s):
        k = 1  # "8:12 AM MS225 is end of sale": the meridiem ends the time before it, no name opens with it
    if k < len(group) and len(group) - k <= 4:
        start, end = group[k][1], group[-1][2]
        text = plain[start:end]
        for suffix in ("'s", "’s"):
            if text.endswith(suffix):
                text = text[: -len(suffix)]
        words = tuple(text.split())
        if at_start and k == 0 and len(words) == 1 and not shaped(words[0]) and _DETERMINER_AFTER.match(plain, start + len(text)):
            return  # "Reinstall the previous package: …", "Drain the node": a word that opens a sentence
            # before a determiner is a verb (a step, a request), as no name stands bare before one
        kind = "shaped" if any(shaped(w) for w in words) else ("link" if text in link_texts else "caps")
        subject = at_start and k == 0 and len(words) == 1 and bool(_FINITE_VERB.match(plain, start + len(text)))
        out.append(Span(text, start, start + len(text), at_start and k == 0, kind, words, subject))


# a determiner right after a word (closed class): the word before it is a verb or a preposition, no name
_DETERMINER_AFTER = re.compile(r" (?:the|a|an|our|your|their|its|my|each|every)\b")
# a finite verb right after a word that opens its sentence: an auxiliary, or a known word in -s ("Sentry
# handles …", "Quillstack stays …"); English puts a determiner before a common noun that is a subject
# ("The sentry handles …"), so a bare capitalised word there is a name (name_checks.SUBJECT_BAND: not a mass noun)
_FINITE_VERB = re.compile(r" (?:is|was|has|had|will|would|can|could|should|must|does|did|[a-z]{2,}[^s\W]s)\b"
                          r"(?! (?:is|are|was|were|has|have|had|will|would|can|could|should|must|do|does)\b)")
# (a word in -s before another verb is a noun in the plural: "Heterogeneous lists are …")

MERIDIEM = frozenset({"AM", "PM"})  # after a time of day (closed class)
_TIME_BEFORE = re.compile(r"\d\s?$")

# a chat message's head, its sender in bold and its time, on a line of its own above the message
# ("**Gareth Pugh** 14:40" / "Retested 6 orders …"): the message's first word opens a sentence
_MESSAGE_HEAD = re.compile(r"\*\*[^*]{1,40}\*\*,? \d{1,2}:\d{2} ?$")


def _asks(plain: str, group: list[tuple[str, int, int]]) -> bool:
    """Does the run open a question with an auxiliary ("Was Niamh there?", "Did Tomás call?"): the verb
    of the question, glued in front of the name by its capital, is no part of it."""
    return group[0][0].casefold() in AUXILIARIES and _QUESTION.match(plain, group[-1][2]) is not None


_QUESTION = re.compile(r"[^.!?\n]*\?")
# the auxiliary verbs of English (closed class, like FUNCTION_WORDS): a question's opening verb, a verb after a noun
AUXILIARIES = frozenset("is are was were be been will would should could can may might must shall does do did "
                        "has have had".split())


def _inner_person(group: list[tuple[str, int, int]]) -> bool:
    """Could a run after a colon, a bracket or a dash be a person's name: its last word no ordinary
    word, its first no word with an English ending ("Expired Certificate", "Pending Changes"; a surname
    may have one: "Dave Pickering")?"""
    return zipf(group[-1][0]) < COMMON_ZIPF and not english_ending(group[0][0])


def english_ending(token: str) -> bool:
    """A word of five letters or more with an English ending or in the plural ("Expired", "Blockers";
    not "Reyes" … "Thomas": the closed class of endings is WORD_SUFFIX, a plural an -s after no s, u or i)."""
    low = token.casefold()
    return len(low) > 4 and (low.endswith(WORD_SUFFIX) or (low.endswith("s") and not low.endswith(("ss", "us", "is", "es"))))


def _leading_words(group: list[tuple[str, int, int]], at_start: bool, model: bool = False) -> int:
    """How many of the run's first tokens are not part of the name: at a sentence start, ordinary words
    that are just capitalised there; elsewhere, function words ("The", "Of"). `model`: the run names a
    model (`models.names_a_model`), whose maker's word is kept unless it is a common word ("Dell
    PowerEdge T160")."""
    k = 0
    if at_start and group[0][0] in HONORIFICS and len(group) > 1:
        return 0  # "Prof. Rebecca Osei", "Dr Alan Pryce": a title opens a person's name
    if at_start:
        opener = group[0][0].casefold() in FUNCTION_WORDS  # "Your", "The", "Our": the capitals after it are the text's own
        while k < len(group) and (common_word(group[k][0]) or (
                not (k and opener) and not shaped(group[k][0]) and len(group) > 1 and zipf(group[k][0]) >= RARE_ZIPF
                and not model) or (k == 0 and len(group) > 1 and verb_form(group[0][0]))):
            k += 1  # ("Your Sentry Business plan" names Sentry Business; "Mei Wu said" names no "Wu";
            # "Reinstalled FTDI driver": a verb's past however rare the word)
    else:
        while k < len(group) and group[k][0].casefold() in FUNCTION_WORDS:
            k += 1
    return k


# English titles written before a person's name (closed class, like PARTICLES): part of how the text names them
HONORIFICS = frozenset({"Dr", "Prof", "Mr", "Mrs", "Ms", "Mx", "Sir", "Dame", "Capt", "Cpt", "Col", "Maj", "Lt",
                        "Sgt", "Cllr", "Insp", "Supt", "Cdr"})
_LIST_GAP = re.compile(r"^\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)$")


def people_list(plain: str, spans: list[Span]) -> set[int]:
    """Indexes of the spans that are people because the sentence lists three or more person-like names
    in a row ("Coury Clark, David Veszelovszki, Eric Fritz and Quinn Slack")."""
    out: set[int] = set()
    run: list[int] = []

    def close() -> None:
        people = [k for k in run if person_like(spans[k].text)]
        if len(people) >= 3 and len(people) * 3 >= len(run) * 2:
            out.update(people)

    for k, sp in enumerate(spans):
        if run and _LIST_GAP.match(plain[spans[run[-1]].end:sp.start]):
            run.append(k)
            continue
        close()
        run = [k]
    close()
    return out


def link_texts(raw: str) -> frozenset[str]:
    if "](" not in raw:
        return frozenset()
    return frozenset(" ".join(m.group(1).strip("`*_ ").split()) for m in _LINK_TEXT.finditer(raw))
