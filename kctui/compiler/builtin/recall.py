"""Recall first: which named things a sentence states a fact about, by its structure, not its phrasing.

A sentence (or list item) states a fact about a name when it holds a value — a token with a digit (a
version, a date, an amount, a duration, a count), a month or weekday (dateutil's own calendar words) —
or when the name is its subject (the first name, after at most a short lead and a `Label:`, with more
said after it), or the value of a `Key: Name` shape. Every name of a sentence with a value is what the
value is said of ("Postgres 16", "renews on 2026-09-30"); without a value only the subject is, and a
bare passing mention stays on the source page.

Names come from the candidates of kctui.compiler.builtin.candidates (never one whose only capital is a
sentence start), plus a code span shaped as an identifier (`checkout-db`, `etl-01`) and the names written
in lower case of kctui.compiler.builtin.coined ("pgbouncer", "telvane_sup"), which only a fact vouches for. `fact_mentions` returns the (candidate key, sentence) pairs and
creates the candidates it admits; kctui.compiler.builtin.recognise cites each pair.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import bracketed_given as bg
from kctui.compiler.builtin import cell_people as cp
from kctui.compiler.builtin import code_named, coined, identifiers, lone_names, lower_names, named_once, people_signals
from kctui.compiler.builtin import code_things as ct
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.candidates import Candidate, SpansOf, key_of
from kctui.compiler.builtin.examples import without as without_examples
from kctui.compiler.builtin.item_leads import lead_keys
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.builtin.name_evidence import vouched
from kctui.compiler.builtin.name_tokens import junk_token
from kctui.compiler.builtin.sentences import Unit
from kctui.compiler.builtin.stated_values import stated_value, value_next_to, value_spans
from kctui.compiler.builtin.stated_values import valued_outside as _valued

_WORD = re.compile(r"[A-Za-z]+")
_LABEL = re.compile(r"^(?:[^\W\d][\w'’ -]{0,40}?|\*\*[^*]{1,40}\*\*):\s+")
_CODE = re.compile(r"`([^`\s]{2,60})`")
_CODE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)+$|^[A-Za-z]+\d+[a-z0-9]*$")
SUBJECT_LEAD = 2  # words a subject may follow ("The", "Our new")


def _subject(plain: str, spans: list[tuple[nm.Span, str]]) -> int:
    """The index of the span that is the sentence's subject, or -1: the first name, after a `Label:` and
    at most SUBJECT_LEAD words, with at least two words said after it."""
    if not spans:
        return -1
    span = spans[0][0]
    lead = plain[:span.start]
    label = _LABEL.match(lead)
    if label:
        lead = lead[label.end():]
    if len(lead.split()) > SUBJECT_LEAD or lead.rstrip().endswith((",", "(", "/")):
        return -1
    rest = plain[span.end:]
    if rest.lstrip()[:1] in (":", ")") or len(_WORD.findall(rest)) < 2:
        return -1
    return 0


def about(plain: str, spans: list[tuple[nm.Span, str]]) -> tuple[list[str], list[str]]:
    """The keys of the names the sentence states a fact about (see the module's docstring), and of those
    a fact is stated of strongly enough for a page on this one mention: the subject of a sentence that
    holds a value or names another thing (a relation), a name a value stands next to ("Postgres 16"),
    the value of a `Label: Name` line."""
    spans = [(s, k) for s, k in spans if _name_span(plain, s) and not unit(plain, s)
             and not any(o.start <= s.start and s.end <= o.end and (o.end - o.start) > (s.end - s.start) for o, _ in spans)]
    if not spans:
        return [], []
    inside = [(s.start, s.end) for s, _ in spans]
    values = [v for v in value_spans(plain) if not any(a <= v[0] < b for a, b in inside)]
    subject = _subject(plain, spans) == 0
    found: list[str] = []
    strong: list[str] = []
    if values:
        found = list(dict.fromkeys(k for _, k in spans))
        strong = [k for s, k in spans if value_next_to(plain, s, values)]
        if subject:
            strong.append(spans[0][1])
    elif subject:
        found.append(spans[0][1])
        # a relation: the subject and another named thing ("sluice subscribes to EMQX", "X replaces Y")
        others = [k for _, k in spans[1:] if k != spans[0][1]]
        if others:
            strong.append(spans[0][1])
            found += [k for k in others if k not in found]
    label = _LABEL.match(plain)
    if label:  # "Owner: Tomas", "On-call this week: Tomas"
        labelled = [k for s, k in spans if s.start >= label.end()]
        found += [k for k in labelled if k not in found]
        strong += labelled[:1]
    return found, list(dict.fromkeys(strong))


_NUMBER_BEFORE = re.compile(r"\d[\d.,]*\s?$")


def unit(plain: str, span: nm.Span) -> bool:
    """A short token right after a number is its unit ("11 µA", "12000 IOPS", "3 kW"), not a name."""
    return (len(span.tokens) == 1 and len(span.text) <= 4 and not any(ch.isdigit() for ch in span.text)
            and bool(_NUMBER_BEFORE.search(plain, max(0, span.start - 12), span.start)))


def _name_span(plain: str, span: nm.Span) -> bool:
    """Not a label opening the sentence ("Rollback: …"), not the local part of an address. A name shaped
    as one (an identifier, a code span, an inner capital) opening its line before a colon is the topic
    of the line, not a label ("checkout-db: storage at 81%")."""
    after = plain[span.end:span.end + 2].lstrip()
    if after.startswith("@") or (span.start and plain[span.start - 1] == "@" and span.kind != "handle"):
        return False
    return not (span.at_start and after.startswith(":") and span.kind not in ("ident", "code", "shaped"))


Values = dict[tuple[str, int], tuple[str, str]]  # (candidate key, sentence) -> (kind of value, value)


def fact_mentions(us: list[Unit], cands: dict[str, Candidate], spans_of: SpansOf, lower: ug.Lower,
                  named_ids: frozenset[str] = frozenset(), code_ids: frozenset[str] = frozenset()
                  ) -> tuple[set[tuple[str, int]], set[str], Values, set[tuple[str, int]], set[str]]:
    """(candidate key, sentence index) for every fact a sentence states about a name, the keys of the
    names a fact is stated of strongly enough for a page (`about`), and the value each of those is
    stated with, read by its form (`stated_value`), and the pairs found by a sentence's place only
    (`_inherited_subject`: cited, but no mention of the name), and the keys of the names whose form and
    the fact stated of them give them a page on one mention (people's full names, `person_named`; hosts'
    and assets' numbers, `numbered`; a product's name with its model, named_once.model_named; a name written in a
    name's shape in a sentence with a value, a record's identifier, a word alone in brackets after a word
    of a sentence with a value, kctui.compiler.builtin.named_once; a code span typed or stated of, code_things);
    the names only a fact vouches for are added to `cands`."""
    pairs: set[tuple[str, int]] = set()
    valued: set[str] = set()
    values: Values = {}
    borrowed: set[tuple[str, int]] = set()  # sentences about a name by their place only
    firsts: list[str] = []  # per sentence, the key of its first usable name ("" for none)
    passable: dict[str, bool] = {}  # (usable as a passing mention: asked once per name)
    once: set[str] = set()  # names a page on one mention by their form (`person_named`, `numbered`, named_once)
    for i, u in enumerate(us):
        spans = [(s, k) for s, k in spans_of[i] if k in cands and (
            passable[k] if k in passable else passable.setdefault(k, usable(cands[k], passing=True)))]
        extra = _extra_spans(u, i, spans_of[i], cands, lower, named_ids, code_ids)
        spans = without_examples(u.plain, sorted(spans + extra, key=lambda sk: sk[0].start) if extra else spans)
        firsts.append(spans[0][1] if spans else "")
        keys, strong = about(u.plain, spans)
        has_value = _valued(u.plain, [s for s, _ in spans])  # (asked once: the rules below all read it)
        keys, strong = lower_names.passing_only({k: cands[k].kinds for _, k in extra}, spans, u.kind, has_value, keys, strong)
        keys += [k for s, k in spans if k not in keys and named_once.states_of(u.plain, s)]
        named = [k for s, k in spans if k in strong and person_named(u.plain, s, cands[k])]
        once.update(named)
        once.update(k for _, k in spans if k in keys and numbered(cands[k].name, k in strong, u.plain, spans))
        once.update(k for _, k in spans if k in keys and named_once.model_named(cands[k].name, "shaped" in cands[k].kinds))
        once.update(_written_as_names(u.plain, spans, keys, cands, has_value))
        once.update(code_named.stated_once(u.plain, spans, keys, has_value))  # ("copperline-dev", "pg16-staging")
        coded = ct.once_named(u.plain, spans, strong, cands, code_ids)  # ("the `carrier_invoice_sftp` job": the noun a fact)
        keys += [k for k in coded if k not in keys]
        once.update(coded)
        set_apart = _bracketed(u.plain, spans, lower, has_value)  # (an apposition states what it names: a fact)
        set_apart += people_signals.apposed_keys(u.plain, spans_of[i] + extra, cands, lower)  # ("LaunchDarkly: Dan Reyes (AE)")
        set_apart += cp.keys(u.kind, u.plain, spans_of[i] + extra, cands, lower) \
            + bg.keys(u.plain, spans_of[i] + extra, cands, lower, u.kind)  # ("| Bluewake | Rachel Amos |", "IT (Hank)")
        set_apart += [k for k in lone_names.stated_of(u.kind, u.plain, spans, has_value) if usable(cands[k])]  # ("via Jamf, ~3 days")
        keys += [k for k in set_apart if k not in keys]
        once.update(set_apart)
        keys += lead_keys(us, i, cands, keys, once, spans)  # ("- code freeze: moved to Fri 6 Nov")
        strong = [k for k in strong if usable(cands[k]) or k in named]  # (the others: passing mentions at most)
        pairs.update((key, i) for key in keys)
        valued.update(strong)
        inherited = _inherited_subject(us, i, firsts) if not spans else (
            _parent_item(us, i, firsts) if u.kind == "item" and u.level >= 2 else "")
        if inherited and (inherited, i) not in pairs:  # (a nested item naming a ticket is about its parent's name too)
            pairs.add((inherited, i))
            borrowed.add((inherited, i))
            c = cands[inherited]
            if i not in c.units:
                c.units = sorted({*c.units, i})
        inside = [(s.start, s.end) for s, _ in spans]
        for k, (span, key) in enumerate(spans):
            if key in strong and (key, i) not in values and \
                    (found := stated_value(u.plain, span, inside, k == 0 and u.kind != "row")):
                values[(key, i)] = found
        if (held := _label_value(u.plain, spans)) and held[0] in strong and (held[0], i) not in values:
            values[(held[0], i)] = ("role", held[1])
        if spans and spans[0][1] in strong and (spans[0][1], i) not in values and u.kind != "row" \
                and (rel := relation(u.plain, [s for s, _ in spans])):
            values[(spans[0][1], i)] = rel
    return pairs, valued, values, borrowed, once


def _written_as_names(plain: str, spans: list[tuple[nm.Span, str]], keys: list[str],
                      cands: dict[str, Candidate], valued: bool) -> list[str]:
    """The keys of the names the sentence states a fact about whose form gives them a page on this one
    mention (kctui.compiler.builtin.named_once); `valued`: the sentence holds a value outside `spans`."""
    return [k for s, k in spans if k in keys and usable(cands[k])
            and named_once.written_as_name(plain, s, valued)]


def _bracketed(plain: str, spans: list[tuple[nm.Span, str]], lower: ug.Lower, valued: bool) -> list[str]:
    """The keys of the names the sentence writes alone in brackets after a word, as what the words before
    them are called (kctui.compiler.builtin.named_once.bracketed): the apposition is a fact stated of
    them, in a sentence with a value (`valued`: `_valued`); without one, of a word English does not have only (an English word
    in brackets glosses the words before it: "HTTP (Web) server", "regular (Weekly) releases")."""
    if "(" not in plain:
        return []
    starts = {b.start for b in named_once.bracketed(plain, lower, valued)}
    return [k for s, k in spans if s.start in starts and len(s.tokens) == 1] if starts else []


_PRONOUN = re.compile(r"^(?:It|Its|They|Their|Theirs|This|These|He|She|His|Her)\b")


def _inherited_subject(us: list[Unit], i: int, firsts: list[str]) -> str:
    """What a sentence that names nothing is about, by its place: the first name of the sentence before
    in the same block when it opens with a pronoun ("It depends on …"); a later sentence of a list item,
    the item's first name; a nested list item, the first name of the item it sits in (`_parent_item`,
    also where it names something of its own); a list item that holds a value, the first name of the
    lead-in paragraph right before its list ("… call with Acme. Summary:")."""
    u = us[i]
    if i and _PRONOUN.match(u.plain) and u.block - us[i - 1].block <= 1:
        return firsts[i - 1]
    if u.kind == "item" and u.index > 0:  # a list item is about one thing: a later sentence of it too
        return next((firsts[j] for j in range(i - 1, -1, -1) if us[j].block == u.block and firsts[j]), "")
    if u.kind == "item" and u.level >= 2:  # a nested item is about what the item it sits in names
        return _parent_item(us, i, firsts)  # ("- PermitTrack upgrade" / "  - new date thurs 15 oct")
    if u.kind != "item" or not any(a >= 0 for a, _ in value_spans(u.plain)):
        return ""
    k = i - 1
    while k >= 0 and us[k].kind == "item":
        k -= 1
    if k < 0 or us[k].kind != "paragraph" or not us[k].plain.rstrip().endswith(":"):
        return ""
    lead = [j for j in range(k, -1, -1) if us[j].block == us[k].block]
    return next((firsts[j] for j in sorted(lead) if firsts[j]), "")


def _parent_item(us: list[Unit], i: int, firsts: list[str]) -> str:
    """The first name of the list item a nested item sits in (the nearest item before it at a lower
    level, with only items between), "" for a top-level item or where there is none."""
    if us[i].level < 2:
        return ""
    for j in range(i - 1, -1, -1):
        if us[j].kind != "item":
            return ""
        if us[j].level < us[i].level:
            return next((firsts[k] for k in range(j, -1, -1) if us[k].block == us[j].block and firsts[k]), "")
    return ""


ASIDE = re.compile(r"\s*\([^()]*\)")  # a parenthesised aside


def _label_value(plain: str, spans: list[tuple[nm.Span, str]]) -> tuple[str, str] | None:
    """(key, label) when a `Label: Name` line's value is that one name and nothing more ("On-call this
    week: Tomas", "Owner: Lena Vogel (platform)"): the label is the role the line gives the name."""
    label = _LABEL.match(plain)
    after = [(s, k) for s, k in spans if s.start >= label.end()] if label else []
    if len(after) != 1:
        return None
    span, key = after[0]
    if any(ch.isdigit() for ch in span.text):
        return None  # "Severity: SEV-2": a value of the field, not someone or something it names
    rest = ASIDE.sub("", plain[label.end():span.start] + plain[span.end:]).strip(" .*`_")
    name_label = plain[:label.end()].strip(" *:_")
    if name_label.casefold() in wd.FUNCTION_WORDS or name_label.casefold() in ("cc", "bcc"):
        return None  # "From: Hannah Price", "Cc: Ravi": an email's header says who wrote or got it, no role
    return (key, name_label) if not rest and name_label else None


_VERB_PHRASE = re.compile(r"^\s+((?:[a-z]+\s){1,4})(?:the\s+|a\s+|an\s+|our\s+)?$")


def relation(plain: str, spans: list[nm.Span]) -> tuple[str, str] | None:
    """(verb phrase, object) when the sentence's subject, the first name, is followed by a few lower-case
    words and then the second name: "sluice subscribes to EMQX" -> ("subscribes to", "EMQX")."""
    if len(spans) < 2 or spans[0].start > 0 and plain[:spans[0].start].strip() not in ("The", "the", "Our"):
        return None
    m = _VERB_PHRASE.match(plain[spans[0].end:spans[1].start] + " ")
    if not m:
        return None
    words = m.group(1).split()
    while words and words[-1] in ("the", "a", "an", "our", "their", "its", "this", "that"):
        words.pop()  # "will book the Datadog call": the relation is "will book"
    verb = " ".join(words)
    if not words or words[0] in wd.FUNCTION_WORDS or len(verb) < 3:
        return None  # "X and Y", "X of Y": no verb between them
    return verb, spans[1].text


def usable(c: Candidate, passing: bool = False) -> bool:
    """A candidate a fact can make an entity: name-like somewhere on its own, a clean title; with
    `passing`, one a fact can make a passing mention (a page once another source names it too)."""
    if c.defined or c.known or c.listed or c.fact:
        return True
    if not c.vouched or not clean_title(c.name) or (any(
            w.casefold().removesuffix("s") in wd.CALENDAR for w in c.name.split()) and not nt.person_like(c.name)):
        return False
    if c.kinds <= {"caps"} and not c.marked and (wd.zipf(c.name.split()[-1]) >= wd.RARE_ZIPF
                                                 or (" " in c.name and not c.head_free and not named_once.MODEL.match(c.name))):
        # its only capital is a sentence start; a last word English does not know is a name still
        # ("Quokkabase", "Ilse Vandermeer"), and so is a model's designation after a maker's word the
        # document also writes in lower case ("Zebra ZD421 label printer" opening a cell, "zebra says …")
        return False
    if c.kinds <= {"path"}:
        return True  # a root path written in prose names a mount or a share ("/scratch")
    if c.kinds <= {"ident"}:  # a hyphenated word ("re-auth", "soak-test") unless it recurs or is code-shaped
        return _ident_shape(c.name) and (passing or len(c.units) >= 2 or wd.ident_name(c.name))
    return True


_MID_SENTENCE = re.compile(r"[a-z,;]$")
_NUMBER_NEXT = re.compile(r"\s*[^\s\w]?\s*\S*\d")


def person_named(plain: str, span: nm.Span, c: Candidate) -> bool:
    """Is this a person's full name, by its words and its place: not opening its sentence ("Revisit
    Quistbrand for the next run": its capitals say nothing), shaped as one (`nt.person_like`), its
    first word never written in lower case in the document, no word after the given name an ordinary
    word ("Becky Thorne", "Ben Kowalski"; not "Veeam Backup", "Northshore Media"), nor the given name
    where nothing marks it (at a sentence start or after a colon "Export Zendesk" and "Hi Lena" open
    with a verb or a greeting; after a lower-case word or a comma, "…, Ben Kowalski (AV)", "Ben" is a
    given name), its first word no word with an English ending ("Preconfigured Grafana"), and no number
    right after it (a model: "Dell Latitude 7450")."""
    words = span.text.split()
    before = plain[:span.start].rstrip()
    mid = bool(_MID_SENTENCE.search(before))
    return bool(before) and c.head_free and nt.person_like(span.text) and not _NUMBER_NEXT.match(plain, span.end) \
        and not nm.english_ending(words[0]) and all(wd.zipf(w) < wd.COMMON_ZIPF for w in words[1 if mid else 0:])


# a host's or an asset's number: an identifier in lower case with a number part ("etl-01", "db-1") or a
# zero-padded number at its end ("gcs01", "lims-db01"; not "p95", "x86", "sha256"), or
# one in capitals whose number is zero-padded, one of a numbered fleet ("WSUS-02", "TB-07"; its parts
# with digits, "PK2-0107", "BOS-3E-TST01", or letters before the number, "BOS-ADC01"; not a ticket's or
# a level's, "SRE-882", "SEV-2")
_HOST_NUMBER = re.compile(r"^[a-z]+(?:-[a-z][a-z0-9]*)*-\d{1,4}$|^[a-z]+(?:-[a-z]+)*[a-z]0\d{1,2}$")
_FLEET_NUMBER = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*-[A-Za-z]{0,4}0\d{1,3}$")


def numbered(name: str, strong: bool, plain: str, spans: list[tuple[nm.Span, str]]) -> bool:
    """Is this a host's or an asset's number a fact is stated of (a page on one mention): in lower case,
    named in a sentence that holds a value ("Disk on the metrics box (tsdb-2) is at 81%"); zero-padded,
    one of a numbered fleet (`_FLEET_NUMBER`), stated of strongly (a value next to it, the subject:
    "KIOSK-04 lost its network at 09:10") or named in a sentence that holds a value ("dropout after
    ~40min on PK2-0107"; a ticket's number is not zero-padded, "SRE-882", and is a record's of its own)?"""
    fleet = bool(_FLEET_NUMBER.match(name))
    if strong and fleet:
        return True
    if not fleet and not _HOST_NUMBER.match(name):
        return False
    return _valued(plain, [s for s, _ in spans])


def _ident_shape(token: str) -> bool:
    """A lower-case identifier that is not an English compound: no prefix, closed-class or suffixed part."""
    parts = [p for p in re.split(r"[-_.]", token) if p]
    # (English compound modifiers end in their participle or suffix: "long-running", "data-driven";
    # a name may open with one: "tracking-ingest")
    return len(parts) >= 2 and not (parts[0] in wd.PREFIXES or parts[-1].endswith(wd.WORD_SUFFIX)
                                    or any(p in wd.FUNCTION_WORDS for p in parts))


def _extra_spans(u: Unit, i: int, have: list[tuple[nm.Span, str]], cands: dict[str, Candidate],
                 lower: ug.Lower, named_ids: frozenset[str] = frozenset(),
                 code_ids: frozenset[str] = frozenset()) -> list[tuple[nm.Span, str]]:
    """Names of the sentence the candidates' rules leave out but a fact vouches for: a code span shaped
    as an identifier, the names kctui.compiler.builtin.coined finds in lower case (a word before a
    release, a word English does not have, an identifier with underscores) and the identifiers with
    underscores the document names as things (`named_ids`), those in code spans of their own (`code_ids`); each added
    as a candidate (not yet accepted); and people's full names their place sets apart
    (people_signals.apposed_spans)."""
    taken = [(s.start, s.end) for s, _ in have]
    out: list[tuple[nm.Span, str]] = []
    label = _LABEL.match(u.plain)
    start = label.end() if label else 0  # (where the sentence's subject may stand)
    valued = _valued(u.plain, [s for s, _ in have])
    for span in ct.spans(u.plain, code_ids) + _code_spans(u.plain) + coined.versioned_words(u.plain) \
            + coined.unknown_words(u.plain, start, lower) + coined.snake_names(u.plain, start) \
            + identifiers.spans(u.plain, named_ids) + identifiers.numbered_records(u.plain) \
            + named_once.bracketed(u.plain, lower, valued) \
            + people_signals.apposed_spans(u.plain) + people_signals.member_spans(u.plain, lower) \
            + lower_names.placed_words(u.plain, u.kind, valued, lower) + cp.spans(u.plain, u.kind, lower) \
            + bg.spans(u.plain, lower, u.kind):
        if any(a < span.end and span.start < b for a, b in taken) or (span.kind == "code" and span.text.casefold() in lower):
            continue
        c = vouched(cands, span.text, span.kind, i, u.first, u.last)
        out.append((span, c.key))
        taken.append((span.start, span.end))
    return out


def _code_spans(plain: str) -> list[nm.Span]:
    out = []
    for m in _CODE.finditer(plain):
        inner = m.group(1)
        if _CODE_NAME.match(inner) and not wd.placeholder(inner) and not key_of(inner).replace(".", "").isdigit() \
                and not wd.code_identifier(inner) and not junk_token(inner):
            out.append(nm.Span(inner, m.start(), m.end(), m.start() == 0, "code", (inner,)))
    return out
