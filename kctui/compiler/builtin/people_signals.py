"""Signals of the text's structure that a name is a person's (issue 31), whatever the word: notes name
vendor contacts, clients and teammates in passing, often by a given name alone or in lower case, and
only the place the text gives the name says it is a person's.

- **a pasted chat** (`chat_quote`): a quote whose lines open with a name in bold and a colon ("> **tomek:**
  70 on mobile …", "> **jess:** 70. you said it on the call") holds turns of a chat; the bold leads are
  its speakers, not terms a glossary defines;
- **a place set apart** (`apposed_person`): a full name with a role in brackets after it ("Dan Reyes
  (AE)"), alone or first in brackets ("IG (Fiona Reid)"), a label's value ("account mgr: Neil Foster"),
  what something is said to be ("our AE there is Rachel Kim"); its words may then be ordinary words;
- **someone of an organisation** (`member_spans`): a given name opening a bracket or a label's value
  before "from", "at" or "@" and the organisation ("(Stephanie from Statsig, email 14 Nov)");
- **an agent** (`agent`): a full name shaped as a person's, mid-sentence, before a verb in the third
  person or the past ("— Jenny Walsh runs it").

Each is a fact stated of the person (who they are to the writer, what they do), so the name gets a page
on one mention (kctui.compiler.builtin.recall). Tried and left out (notes a-aa): a role in brackets
after a note title's name ("onboarding — Ben Carter (OT/telemetry tech)"): one page more, one junk
("Integration Analyst (Clinical Informatics)"), no labelled thing more.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kctui.compiler.builtin import given_names
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.readers import Block

# a chat turn quoted in a note: a one-word name in bold and a colon, then what was said
_TURN = re.compile(r"^\*\*[A-Za-z][\w'’-]*:?\*\*:?\s+\S")
TURNS_MIN = 2  # quoted lines opening with a speaker that make a quote a chat


def chat_quote(block: Block) -> bool:
    """Is the block a quote of a chat: two lines or more, each opening with a one-word name in bold and
    a colon (`_TURN`)? A glossary is not quoted, and a quote of one line is as often a cited definition."""
    if block.kind != "quote":
        return False
    lines = [ln.strip() for ln in block.text.splitlines() if ln.strip()]
    return len(lines) >= TURNS_MIN and all(_TURN.match(ln) for ln in lines)


# what sets a person's full name apart as a person's, by its place in the sentence (`apposed`):
# a role in brackets right after it: a few lower-case words or one acronym ("Stephanie Moore (AE)",
# "Joanne Reilly (clinical specialist)", "Marcus Dole (support eng), support@…"; not a list of acronyms:
# "Technical Success (CE, IE, TA, SE)", a team)
_ROLE_AFTER = re.compile(r"\s*\((?:[a-z][a-z .&/'’-]{0,30}[),]|[A-Z]{2,4}\))")
# alone in brackets, or first in them before a comma ("IG (Fiona Reid) have signed off", "(Jon Reyes, their PM)")
_OPEN_BRACKET = re.compile(r"\(\s*$")
_CLOSE_OR_COMMA = re.compile(r"\s*[),]")
# the value of a label ("account mgr: Neil Foster", "Scanhire: Becky Thorne", "sales: Jo Park")
_LABEL_BEFORE = re.compile(r"(?:^|[.;|(]\s+|[|(]|—\s*|-\s+)[A-Za-z][\w&'’.-]*(?: [A-Za-z][\w&'’.-]*){0,3}:\s*$")
# what a role is said to be ("our AE there is Rachel Kim", "the contact is now Helen Marsh")
_IS_BEFORE = re.compile(r"\b(?:is|was|it's|it’s)(?: now)?\s*$")
# the value ends there: the end of the sentence, a bracket, a comma, a cell's end
_ENDS = re.compile(r"\s*(?:$|[,;)(|]|[.!?](?:\s|$)|\s[—–-]\s)")


def apposed(plain: str, start: int, end: int) -> bool:
    """Is the full name at plain[start:end] set apart as a person's by its place, whatever its words: a
    role in brackets right after it, alone (or first, before a comma) in brackets, the value of a label,
    or what something is said to be ("… is Rachel Kim)")? An apposition is a fact stated of a person:
    who they are to the writer (a vendor's contact, a role), which is why notes name them there."""
    before, after = plain[:start], plain[end:]
    if (role := _ROLE_AFTER.match(after)) and _a_role(after.split(")", 1)[0]) \
            and not _short_form(plain[start:end], role.group(0)):
        return True
    if _OPEN_BRACKET.search(before) and (after.lstrip().startswith(",") or (
            _CLOSE_OR_COMMA.match(after) and _glossed_by_nothing(before.rstrip()[:-1], plain[start:end]))):
        return True
    return bool((_LABEL_BEFORE.search(before) or _IS_BEFORE.search(before)) and _ENDS.match(after))


def _a_role(aside: str) -> bool:
    """Is the aside in brackets after a name a role ("(AE)", "(support eng)", "(head of IT)"): no number,
    no function word but "of" ("(ok for internal use)", "(only available for LTS …)": a remark)?"""
    words = aside.strip(" (").casefold().split()
    return not any(ch.isdigit() for ch in aside) and not any(w in wd.FUNCTION_WORDS and w != "of" for w in words)


def _glossed_by_nothing(before: str, name: str) -> bool:
    """Is a name alone in brackets said of the words before it, not their gloss: not after a function
    word ("an (Apache Licensed) open-source …") or the acronym it spells out ("CET (Central European
    Time)", "GA (General Availability)"), and after a capitalised word only a name shaped as a person's
    by its words ("Dell (Sam Whitfield)", "Tomek (Tomasz Wierzbicki)"; not "_Maintenance_ (Critical
    Support)", a gloss). After a lower-case word or another acronym it names who they are ("IG (Fiona
    Reid) have signed off")."""
    words = before.split()
    if not words:
        return True
    last = words[-1].strip("*_`'\"")
    if last.casefold() in wd.FUNCTION_WORDS:
        return False
    if last.isupper():
        return last[:1] != name[:1]
    return not last[:1].isupper() or nt.person_like(name)


def _short_form(name: str, aside: str) -> bool:
    """Is the aside the name's own short form, an acronym of its initials ("Remote Procedure Call (RPC)",
    "Amazon Machine Image (AMI)"), not a role?"""
    letters = aside.strip(" (),")
    return letters.isupper() and letters[:1] == name[:1].upper()


# a verb in the third person or the past right after a name: what someone says or does ("Jenny Walsh
# runs it", "Karen Liu joined for the last 15 min")
_VERB_AFTER = re.compile(r"\s+(?P<verb>[a-z]{3,}(?:s|ed))\b(?!['’-])")
VERB_STEM_ZIPF = 3.0  # the verb's stem is a word English uses at least this often


# a word opening a sentence this frequent is read as an English word there (an imperative: "Call",
# "Ask"), not a given name ("Karen", "Marcus": about 4)
IMPERATIVE_ZIPF = 5.0


def agent(plain: str, end: int) -> bool:
    """Is the name ending at `end` the agent of a verb right after it, in the third person or the past
    ("runs", "joined", "says"): a word English knows whose stem it knows too, not a plural's -ss?"""
    m = _VERB_AFTER.match(plain, end)
    if not m or m.group("verb").endswith("ss"):
        return False
    verb = m.group("verb")
    stems = (verb[:-1], verb[:-2], verb[:-3]) if verb.endswith("ed") else (verb[:-1], verb[:-2])
    return wd.zipf(verb) >= VERB_STEM_ZIPF and any(wd.zipf(s) >= VERB_STEM_ZIPF for s in stems if len(s) >= 2)


def apposed_person(plain: str, span) -> bool:  # noqa: ANN001 - a names.Span
    """Is the span a person's full name set apart by its place (`apposed`): two or three words shaped as
    a person's, which the place lets be ordinary words ("Rachel Kim", "Jo Park"; `person_like`'s
    `placed`); or one shaped as a person's by its words (`person_like`) that is the agent of a verb right
    after it (`agent`: "Jenny Walsh runs it")?"""
    words = span.text.split()
    if not 2 <= len(words) <= 3 or any(nm.english_ending(w) for w in words[:-1]):
        return False  # ("Automatic (Delayed Start)", "(Senior Integration Analyst)": a setting, a role)
    if not plain[:span.start].strip(" -*+") and wd.zipf(words[0]) >= IMPERATIVE_ZIPF:
        return False  # ("- Call Nadia (head brewer)": a verb opening a sentence, not a given name)
    if nt.person_like(span.text, placed=True) and apposed(plain, span.start, span.end):
        return True
    # (not opening its sentence, where a verb or a gerund capitalised opens it: "Check Cloudflare rules",
    # "Hardening Patroni failover takes"; a plural after a name of ordinary words reads as a verb, "Vault
    # Enterprise releases", "View Grafana logs": a verb in -s follows only a name no word of which is an
    # ordinary word, `person_shape`)
    return bool(plain[:span.start].strip()) and not nm.english_ending(words[0]) \
        and nt.person_like(span.text) and agent(plain, span.end) \
        and (nt.person_shape(span.text) or _VERB_AFTER.match(plain, span.end).group("verb").endswith("ed"))


# a full name as written: two or three capitalised words, none glued to a word, an address or a handle (the
# capital first, then the look-behind at the character before it: the scan skips to the next capital)
_FULL_NAME = re.compile(r"[A-Z](?<![\w@.'’-][A-Z])[a-z'’-]+(?: [A-Z][a-z'’-]+){1,2}(?![\w@'’-])")


def apposed_spans(plain: str) -> list[nm.Span]:
    """The full names of a sentence set apart as a person's by their place (`apposed_person`) where the
    candidates' rules see a sentence start ("sales: Jo Park", a cell's "Marcus Dole (support eng)"): a
    name after a colon or opening a cell capitalises nothing, but its place says who it is."""
    return [span for m in _FULL_NAME.finditer(plain)
            if apposed_person(plain, span := nm.Span(m.group(0), m.start(), m.end(), m.start() == 0, "caps",
                                                     tuple(m.group(0).split())))]


# someone of an organisation: a capitalised word opening a bracket or a label's value (not a sentence:
# "Apart from …", "Aside from …", "Graduates from …"), then "from", "at" or "@" and the organisation ("(Stephanie from Zorvex, email 14 Nov)", "(Pieter @ Telvane)", "contact:
# Elena at garmin dev relations")
_MEMBER = re.compile(r"(?:\(|:\s)\s*(?P<name>[A-Z][a-z'’]{1,24})\s+(?:from|at|@)\s+(?=[\w#])")
MEMBER_ZIPF = 5.0  # a word this frequent opening it is an ordinary word ("Support from …", "Login at …")


_last_members: tuple[str, ug.Lower | None, tuple[nm.Span, ...]] = ("", None, ())


def member_spans(plain: str, lower: ug.Lower) -> list[nm.Span]:
    """The one-word names the sentence gives as someone of an organisation (`_MEMBER`), as spans only
    this place vouches for: not a word the document writes in lower case, a function or calendar word, a
    frequent word or one with an English ending ("Pricing from …"). (The last answer is kept with the very
    sentence and words it was asked of: kctui.compiler.builtin.recall asks it twice of each sentence.)"""
    global _last_members
    last = _last_members
    if last[0] is plain and last[1] is lower:
        return list(last[2])
    out = []
    for m in _MEMBER.finditer(plain):
        word = m.group("name")
        low = word.casefold()
        if low in lower or low in wd.FUNCTION_WORDS or low in wd.CALENDAR or wd.zipf(word) >= MEMBER_ZIPF \
                or nm.english_ending(word):
            continue
        out.append(nm.Span(word, m.start("name"), m.end("name"), m.start("name") == 0, "bracketed", (word,)))
    taken = {s.start for s in out}  # (and a given name its place sets apart anywhere: kctui.compiler.builtin.given_names)
    found = sorted(out + [s for s in given_names.given_spans(plain, lower) if s.start not in taken], key=lambda s: s.start)
    _last_members = (plain, lower, tuple(found))
    return found


def apposed_keys(plain: str, spans: list[tuple[nm.Span, str]], cands: Mapping[str, Any], lower: ug.Lower) -> list[str]:
    """The keys of the people's full names the sentence sets apart as a person's by their place (a role
    in brackets, a label's value: `apposed_person`), and of the one-word names it gives as someone of an
    organisation (`member_spans`), the place vouching for them where their capitals alone would not
    (after a colon or a bracket). `cands`: the document's candidates by key
    (kctui.compiler.builtin.candidates.Candidate: `vouched`, `name`)."""
    members = {s.start for s in member_spans(plain, lower)}
    return [k for s, k in spans if k in cands and cands[k].vouched and (
        (apposed_person(plain, s) and clean_title(cands[k].name))
        or (s.start in members and " " not in s.text and clean_title(cands[k].name, common_ok=True)))]
