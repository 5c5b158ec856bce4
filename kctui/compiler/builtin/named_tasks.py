"""Action items handed to someone in more of the ways notes write it (issue 31 point 3; session 30, D),
beside commitments' pledges, requests and owners' places:

- *a person written in lower case before "to" or "will" and a verb*, opening its clause, where the
  document writes the word where a person goes elsewhere ("ask jess", "ping kofi", "kofi's", a line's
  label "- jess — founder") or knows it as one of its people: "nadia to call Polar Process", "jules to
  tell Framelock", "jess to tell marieke", "mel will set it up" (not an ordinary word: "plan to …");
- *someone needed for a task*: "need(s) <someone> to <verb>" ("blocked: need Marta to name 2 testers",
  "need Bea to sort it", "need marcus to open 443 …"; not "need someone to …", nor "needs to");
- *an ask answered by a name after an arrow*: a question, "need" or "who" and, closing the item, an arrow
  and who takes it ("who owns the Airship cert going forward? -> Tunde", "need someone at goods-in Weds
  → Kieran", "Lukas needs a namespace … -> Dana"; not a menu's path "UI → Services → Restart", nor an
  escalation list "Tash → Dev", which ask nothing);
- *a person's given name alone*, where one of the document's people goes by it and no other does, before
  "to" / "will" and a verb or a task's verb in the present and what it takes ("Tom stops the sync on
  lab-01" where the note names Tom Wróbel; "Sam to grant this week"); *a person written in lower case*
  (as above) before a task's verb in the present ("tomek adds her as staff", "jen covers phones");
- *an owner in brackets with the time the task is to be done*: "(Tom, today)", "(Devin, by 16 Feb)" (not "raised
  to 17.4 (Gus, Thu)": done);
- *a common given name before "to" and a verb*, the word no noun, adjective or verb of English by its forms'
  frequencies: "Tom to request via ServiceNow", "Dave P to send IdP metadata" (not "Failure to follow",
  "Requests to …", "Glad to help");
- *a pledge reported*: "Tom said he'd do them", "Jonas said he'll take it after cutover";
- *a task under way with the time it is done*, a capitalised name opening its clause and a verb of doing a
  task in -ing ("Ruth sending the signed order form this week", "Fran signing this week", "Pri checking it
  against the PDF this week"; not "Castlegate coming tomorrow", "Dev leaning yes").

The words are English's (function words, a closed set of verbs of doing a task, frequencies), no word of
any corpus.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kctui.compiler.builtin import agenda, assigned
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.named_owner import NAME_ZIPF, Lazy, Written, name_word
from kctui.core.slugs import identity_key

_SOON = (r"(?:today|tonight|tmrw|tomorrow|asap|eod|eow|this\s+(?:week|wk|afternoon|morning|evening)|next\s+(?:week|wk)"
         r"|(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?|(?:by|before)\s+(?:the\s+)?(?:\d|end\b|eod\b|eow\b|next\b|tomorrow\b|tmrw\b|(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b))")
_START = r"(?:^|(?<=[.!;:,—–→(])\s*|(?<=\s-\s)|(?<=->\s))"
_LOWER_WHO = r"[a-z][a-z'’-]{1,15}"
# (each way is looked for from the words it cannot match without, "to" / "will", then the words before them are
# read: a pattern opening with a clause's start would try every position of every sentence)
_TO_VERB = re.compile(r"\s(?P<modal>to|will)\s+(?P<verb>[a-z][a-z'’-]+)\b(?=\s+\S)")
_LOWER_BEFORE = re.compile(r"(?:^|[.!;:,—–→(]\s*|\s-\s|->\s)(?P<who>" + _LOWER_WHO + r")(?:\s*(?:\+|&|\band\b)\s*" + _LOWER_WHO + r")?\s*$")
_CAPITAL_BEFORE = re.compile(r"(?:^|[.!;,—–→(]\s*|:\s|\s-\s)(?P<who>[A-Z][a-zß-öø-ÿ]+)(?:\s+[A-Z]\.?)?\s*$")
_GIVEN_BEFORE = re.compile(r"(?:^|[.!;:,—–→(]\s*|\s-\s|->\s)(?P<who>[A-Z][a-zß-öø-ÿ]+)\s*$")
_NEEDED = re.compile(r"\bneeds?\s+(?P<who>[A-Za-z][\w'’-]+)\s+to\s+(?P<verb>[a-z][a-z'’-]+)\b\s+\S")
_ANSWERED = re.compile(r"(?:->|→)\s*(?P<who>[A-Za-z][\w'’-]+)\s*[.!)]?\s*$")
_OBJECT = r"(?=\s+(?:it|them|him|her|you|me|us|the|a|an|this|that|his|their|our|my|your|all|up|out|back|off|over|to|on|in|into|with|for|\d|[A-Z`\"'“]))"
_GIVEN_PRESENT = re.compile(r"(?:^|(?<=[.!;:,—–→(])\s*|(?<=\s-\s)|(?<=->\s))(?P<who>[A-Z][a-zß-öø-ÿ]+)\s+(?P<present>[a-z]{3,}s)\b" + _OBJECT)
_LOWER_PRESENT = re.compile(rf"^(?P<who>{_LOWER_WHO})\s+(?P<present>[a-z]{{3,}}s)\b" + _OBJECT)
# an owner in brackets with the time the task is done: "(Tom, today)", "(Devin, by 16 Feb)"
_BRACKETED = re.compile(r"\((?P<who>[A-Z][a-zß-öø-ÿ]+),\s*(?:today|tonight|tmrw|tomorrow|asap|eod|eow|this\s+(?:week|wk)|next\s+(?:week|wk)"
                        r"|(?:by|before)\s+\S)[^()]{0,20}\)", re.I)  # (not "(Gus, Thu)" after a change done)
# a pledge reported: "Tom said he'd do them", "Jonas said he'll take it after cutover" (not "Sam said he can do $7,200")
_REPORTED = re.compile(r"\b(?P<who>[A-Z][a-zß-öø-ÿ]+)\s+(?:said|says)\s+(?:he|she)\s*(?:'ll|’ll|'d|’d|\s+will|\s+would)\s+(?P<verb>[a-z]+)\b")
# a capitalised word opening its clause before "to" and a verb ("Tom to request via ServiceNow", "Dave P to send …")
# words that take "to" and a verb and are no one's ("Glad to help", "Ready to ship", "Free to …")
_TAKES_TO = frozenset("glad keen ready able unable likely unlikely free sure due willing eager pleased sorry happy nice good great "
                      "important necessary possible hard easy safe fine ok okay worth prior close subject open back down up next time "
                      "heavy".split())
_ROLE_VERBS = frozenset("does gives takes runs".split())  # (reporting after a name the document knows as a thing; a task after a person)
_ASKED = re.compile(r"\?|\bneeds?\b|\bwho\b", re.I)
_UNDER_WAY = re.compile(_START + r"(?P<who>[A-Z][a-z]+)\s+(?P<verb>" + "|".join(sorted(assigned.CLOSING_TASK_ING)) + r")\b(?P<rest>[^.;!?]{0,60}?)\b" + _SOON + r"\b")
_UNDER_WAY_VERB = re.compile(r"\s(?:" + "|".join(sorted(assigned.CLOSING_TASK_ING)) + r")\b")
# after "to": a pronoun's or a preposition's object, no task; a verb of being or wanting
_PLURAL_ZIPF = 3.3  # a word whose plural is this frequent is a noun of English, no one's name ("vendors" 3.8; "jens" 3.0)
_NOT_VERBS = frozenset("me him her us you it them be been being the a an this that don't dont never not".split())
_NO_ONE = frozenset("someone somebody anyone anybody everyone everybody nobody people more".split())


def handed_owner(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None,
                 item: bool = False) -> str | None:
    """The one a sentence (read bare) hands a task to in one of the ways above, or None (a person in lower
    case before a verb in the present only in a list item: "tomek adds her as staff"; a paragraph's
    "pnkfelix acknowledges that …" reports)."""
    for way in _WAYS if item else _PROSE_WAYS:
        if (owner := way(text, names, people, written)) is not None:
            return owner
    return None


def _named(who: str, names: dict[str, str]) -> str:
    return names.get(identity_key(who), who)


def _lower_to(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"jules to tell Framelock", "mel will set it up"."""
    for m in _to_verbs(text):
        if (before := _LOWER_BEFORE.search(text, 0, m.start())) and _task(m.group("verb")) \
                and lower_person(before.group("who"), names, people, written):
            return _person_named(before.group("who"), names, people)
    return None


def _person_named(who: str, names: dict[str, str], people: set[str]) -> str:
    """The name of the one a word in lower case names: the document's name for it, else the one of its
    people whose given name it is ("jonas" of Jonas Lindqvist), else the word."""
    return names.get(identity_key(who)) or _given_of(who, people, names) or who


def _to_verbs(text: str) -> tuple[re.Match[str], ...]:
    """The places "to" / "will" and a verb stand in a sentence (most sentences have none; asked by three ways)."""
    return _found_to_verbs(text) if " to " in text or " will " in text else ()


@lru_cache(maxsize=8)
def _found_to_verbs(text: str) -> tuple[re.Match[str], ...]:
    return tuple(_TO_VERB.finditer(text))


def _needed(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"need Bea to sort it"."""
    if "need" not in text:
        return None
    return next((_named(m.group("who"), names) for m in _NEEDED.finditer(text) if _task(m.group("verb"))
                 and m.group("who").casefold() not in _NO_ONE and _person(m.group("who"), names, people, written)), None)


def _answered(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"who owns the cert going forward? -> Tunde"."""
    if "->" not in text and "→" not in text:
        return None
    m = _ANSWERED.search(text)
    if m and _ASKED.search(text[:m.start()]) and _person(m.group("who"), names, people, written):
        return _named(m.group("who"), names)
    return None


def _bracketed(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"… (Tom, today)"."""
    if "(" in text and (m := _BRACKETED.search(text)) and _person(m.group("who"), names, people, written):
        return _given_of(m.group("who"), people, names) or _named(m.group("who"), names)
    return None


def _given_alone(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"Sam to grant this week", "Tom stops the sync" (Tom Wróbel of the document)."""
    if not people:
        return None
    firsts = {k.split()[0] for k in people if " " in k}
    if not firsts or not any(f.capitalize() in text for f in firsts):
        return None
    for m in _to_verbs(text):
        if (before := _GIVEN_BEFORE.search(text, 0, m.start())) and _task(m.group("verb")) \
                and (full := _given_of(before.group("who"), people, names)):
            return full
    for m in _GIVEN_PRESENT.finditer(text):
        if assigned._task_verb(m.group("present"), False) and (full := _given_of(m.group("who"), people, names)):
            return full
    return None


def _lower_present(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"tomek adds her as staff": the list item opens with the person."""
    return next((_person_named(m.group("who"), names, people) for m in _LOWER_PRESENT.finditer(text)
                 if (m.group("present") in _ROLE_VERBS or assigned._task_verb(m.group("present"), False))
                 and lower_person(m.group("who"), names, people, written)), None)


def _under_way(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"Ruth sending the signed order form this week"."""
    for m in _UNDER_WAY.finditer(text) if "ing " in text and _UNDER_WAY_VERB.search(text) else ():
        who = m.group("who")
        if who.casefold() not in wd.FUNCTION_WORDS and who.casefold() not in wd.CALENDAR \
                and (identity_key(who) in people or _given_of(who, people, names) or agenda.given_name(who, names)
                     or written is not None and name_word(who, written)):
            return _given_of(who, people, names) or _named(who, names)
    return None


def _reported(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"Tom said he'd do them", "Jonas said he'll take it after cutover"."""
    if "said" not in text and "says" not in text:
        return None
    return next((_given_of(m.group("who"), people, names) or _named(m.group("who"), names) for m in _REPORTED.finditer(text)
                 if _task(m.group("verb")) and m.group("who").casefold() not in wd.FUNCTION_WORDS), None)


def _common_given_to(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """"Tom to request via ServiceNow", "Dave P to send IdP metadata": a capitalised word that is no noun (no
    plural), no adjective (no comparative) nor a verb's form of English, before "to" and a task, that the
    document writes elsewhere where a name goes or that opens the name of one of its people."""
    for m in _to_verbs(text):
        if m.group("modal") != "to" or not (before := _CAPITAL_BEFORE.search(text, 0, m.start())):
            continue
        who, low = before.group("who"), before.group("who").casefold()
        if low in wd.FUNCTION_WORDS or low in wd.CALENDAR or low in _TAKES_TO or low.endswith(("ed", "ing", "ly", "ies")) \
                or identity_key(who) in names and identity_key(names[identity_key(who)]) not in people:
            continue  # (a thing the document names: "Relaybus to replace …")
        if not _task(m.group("verb")) or not _name_like(low):
            continue  # (a plural, "Steps to create …"; a verb, "Borrow to connect …"; a noun or an adjective by its
            # forms, "Ability to …", "Heavy to run")
        if full := _given_of(who, people, names):
            return full
        if written is not None and who in (written.get() if isinstance(written, Lazy) else written).placed:
            return _named(who, names)  # (written elsewhere where a name goes: "w/ Tom", "Tom's")
    return None


_WAYS = (_lower_to, _common_given_to, _needed, _answered, _bracketed, _given_alone, _lower_present, _under_way, _reported)
_PROSE_WAYS = tuple(way for way in _WAYS if way is not _lower_present)


@lru_cache(maxsize=4096)
def _name_like(low: str) -> bool:
    """A word (casefolded) that may be a given name by English's frequencies: rarer than an ordinary word, no
    plural ("steps"), no verb ("borrow") and without a plural or comparative of its own ("ability", "heavy")."""
    return wd.zipf(low) < NAME_ZIPF and not (low.endswith("s") and wd.zipf(low[:-1]) >= 3.0) and not _task(low) and not any(
        wd.zipf(form) >= _PLURAL_ZIPF for form in (low + "s", low + "es", low + "er", low + "est", low[:-1] + "ier", low[:-1] + "ies"))


def _given_of(who: str, people: set[str], names: dict[str, str]) -> str | None:
    """The name of the one person of the document whose name a given name alone opens ("Tom" of Tom Wróbel)."""
    low = who.casefold()
    if low in wd.FUNCTION_WORDS or low in wd.CALENDAR:
        return None
    full = [k for k in people if " " in k and k.split()[0] == low]
    return names.get(full[0], who) if len(full) == 1 else None


@lru_cache(maxsize=4096)
def _task(verb: str) -> bool:
    """A verb's base form that does something ("call", "tell", "set"; not "be", "the", "don't")."""
    low = verb.casefold()
    if low in _NOT_VERBS or low in wd.FUNCTION_WORDS or low in agenda.OBJECT_WORDS or low.endswith(("ed", "ing")):
        return False
    forms = (low + "ing", low[:-1] + "ing" if low.endswith("e") else "", low + low[-1] + "ing")
    return any(f and wd.zipf(f) >= 2.5 for f in forms)


@lru_cache(maxsize=4096)
def _plural_common(low: str) -> bool:
    return wd.zipf(low + "s") >= _PLURAL_ZIPF


def lower_person(word: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> bool:
    """A word in lower case that names a person: one of the document's people, or no ordinary word and
    written elsewhere in the document where a person goes ("ask jess", "kofi's", "- jess — founder"), and
    no noun's that English writes in the plural ("vendor", "broker")."""
    low = word.casefold()
    if low in wd.FUNCTION_WORDS or low in wd.CALENDAR:
        return False
    key = identity_key(word)
    if key in people or identity_key(names.get(key, "")) in people or _given_of(low, people, names):
        return True  # (or the given name, in lower case, of one of its people: "jonas" of Jonas Lindqvist)
    if wd.common_word(low) or written is None or _plural_common(low):
        return False  # (an ordinary word, or a noun written in the plural as often: "vendor", "broker")
    return written.placed_lower(low) if isinstance(written, Lazy) else low in written.named_lower


def _person(who: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> bool:
    """A word in a person's place that reads as a person's: one of the document's people, a given name,
    a common given name the document writes where a name goes, or a person written in lower case."""
    if not who[:1].isupper():
        return lower_person(who, names, people, written)
    key = identity_key(who)
    if who.casefold() in wd.FUNCTION_WORDS or who.casefold() in wd.CALENDAR or who.isupper():
        return False
    if key in people or identity_key(names.get(key, "")) in people or nt.person_shape(who) or _given_of(who, people, names):
        return True
    return agenda.given_name(who, names) or written is not None and name_word(who, written)
