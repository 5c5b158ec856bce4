"""Action items and decisions said in so many words where no heading, lead-in or table says so (issue 31,
point 3), read from the sentence's structure:

- a pledge: the writer's first person, a modal of the future and a verb ("I'll email their lab lead",
  "ill draft something", "I'm going to reorder"), or the modal opening its clause with no subject, the
  writer's "I" left out ("not happy, will push back", "Will update the questionnaire answers"), or a
  task under way opening its clause with the time it is done ("swapping it tmrw", "enrolling in SOTI
  this week"), is an action item of the note;
- a request: a clause opening with "please" / "pls" / "can you" / "could you" and a verb, after a name
  or not ("Please send the order form to Hana", "Tom, can you check the switch?", "Marek add it to the
  handover pls") is an action item, of the person named where one is (a request asked as a question is
  still one);
- an owner's item: a list item led by a person's name written as a label ("- raj: extend gis-srv-02 by
  200GB", a name of the document's people in any case) says what they are to do;
- an owner closing a list item after a dash or in brackets ("TeamCity 2026.2 upgrade w/c 30 Nov — Dev",
  "upgrade when we get to it (Tom)") hands the item to them; in any sentence of the item, so does one
  in brackets closing it ("… flag in ResourceSpace (Tom)", "(owner: Seun)", "(aiko)"), after an
  arrow ("→ Felix, target v2.4.0", "-> raj, by 20 oct") or after a dash before a comma or a stop
  ("— Tom, once 23..28 are all stable");
- a group's commitment: the first person plural with a modal of the future or "let's" and a verb ("we'll
  bill as a flat line", "let's stay", "we're going to keep Tableau") is a decision of the note.

The words below are English's pronouns, modals and request words (closed class), no word of any corpus.
Each claim's value is its sentence as written, a span of its cited lines.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import agenda, assigned, named_tasks, owner_place
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.named_owner import Lazy, Written
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, as_written, bare, ev
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key

# where a clause opens: the sentence's start, a stop, a colon, a dash, a comma, or a word that only leads
# a reply ("ok", "yes", "fine", "so", "and", "also", "then") before it
_CLAUSE = r"(?:^|(?<=[.!?;:,—–(>→])\s*|\b(?:ok|okay|yes|yep|yeah|sure|fine|so|and|also|then|but)\s+)"
_PLEDGE = re.compile(r"(?:(?<![\w'’])(?:I\s*(?:'ll|’ll|\s+will|'m going to|’m going to|\s+am going to|'m gonna)|i'll|i’ll)|" + _CLAUSE + r"ill|(?:^|(?<=[.!?;:,—–(>→])\s*|(?<=\s-\s))[Ww]ill)"
                     r"\s+(?:also\s+|just\s+|then\s+)?(?P<verb>[a-z][a-z'’-]+)")
_GROUP = re.compile(r"(?:(?<![\w'’])(?:[Ww]e\s*(?:'ll|’ll|\s+will|'re going to|’re going to|\s+are going to|\s+shall))|" + _CLAUSE + r"(?:[Ll]et's|[Ll]et’s|[Ll]ets))"
                    r"\s+(?:also\s+|just\s+|then\s+)?(?P<verb>[a-z][a-z'’-]+)"
                    # the group's choice under way: "we're staying put", "we're sticking with Tableau", "we're not doing the 3yr"
                    r"|(?<![\w'’])[Ww]e\s*(?:'re|’re|\s+are)\s+(?:now\s+)?(?P<choice>staying|sticking|keeping|going with|not|moving|switching|dropping|replacing|migrating)\b"
                    # a choice not to, opening its clause: "not doing it now", "no. not launching a new store into BF"
                    r"|" + _CLAUSE + r"(?:\*\*|__)?(?P<refusal>[Nn]ot\s+[a-z]+ing)\b(?!\s+(?:yet|well|great)\b)")
# the writer's "I'm" left out, a task under way with the time it is done: "swapping it tmrw", "Swapping for
# the spare Optiplex today.", "enrolling in SOTI this week" (not "going", "waiting": REPORTING_ING)
_NEXT = r"today|tonight|tmrw|tomorrow|this\s+(?:week|afternoon|morning|evening)|next\s+week"
_SOON = r"(?:" + _NEXT + r"|(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?)"
_SOON_NEXT = r"(?:" + _NEXT + r")\b"
# what a task's verb takes after it: its object or a preposition ("swapping it", "deploying to", "writing
# up"), or the time itself ("sending today"); not a noun's next word ("Boxing Day", "seeding starts Sat")
_TAKES = r"(?:it|them|him|her|the|a|an|to|on|in|into|for|with|w/|up|out|back|off|over|this|that|these|those|my|our|his|their)\b"
_UNDER_WAY = re.compile(r"(?:^|(?<=[.!;:,—–(>→])\s*)(?P<verb>[A-Za-z][a-z]{2,}ing)\s+(?:" + _SOON_NEXT + "|" + _TAKES +
                        r"[^.;!?]{0,60}?(?<!since )(?<!last )(?<!from )\b" + _SOON + r"\b)", re.I)
_NAME = r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?"
_REQUEST = re.compile(_CLAUSE + rf"(?:@?(?P<who>{_NAME})\s*,?\s*)?(?:please|pls|plz|can you|could you|can u|would you)\s+(?P<verb>[a-z][a-z'’-]+)", re.I)
# "Marek add it to the handover pls": a name, a verb and a request word closing the clause
_NAMED_REQUEST = re.compile(_CLAUSE + rf"@?(?P<who>{_NAME})\s+(?P<verb>[a-z][a-z'’-]+)\b[^.!?;]*?\b(?:pls|please|plz)\b")
# the verbs a pledge or a request opens with that say no task ("I'll be on the call", "can you believe")
NO_TASK = frozenset("be been bet believe guess say admit see hear imagine find note let own sort".split())
NEGATIONS = frozenset("don't dont do not never not nobody".split())  # "please don't touch": a standing rule, no task
_LABELLED = re.compile(r"^(?:\*\*|__)?(?P<label>[A-Za-z][\w-]{0,20}(?:\s+[A-Za-z][\w-]{0,20})?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(?P<task>\S.*)$")
_CLOSING_OWNER = re.compile(rf"(?:\s(?:—|–|-)\s*|\(|\.\s+)(?:\*\*|__)?(?P<who>{_NAME})(?:\*\*|__)?\)?\s*[.!]*$")
PLAN_LABELS = frozenset("t today tmrw tomorrow".split())  # a standup item's label for what the writer does next
ACTION_VALUE_WORDS = 3  # a task names something to do: a word or two is a label, no task


def commitment_claims(doc: Document, us: list[Unit], names: dict[str, str], people: set[str],
                      taken: set[int]) -> list[Claim]:
    """The pledges, requests, plan items and owned items of the document (action items) and its group's
    commitments (decisions); no action item on a line another rule typed one on (`taken`, updated). `people` are the keys of
    the names the document's people go by."""
    out: list[Claim] = []
    written = Lazy(doc.lines)
    for u in us:
        if u.kind == "row" or len(u.plain) > MAX_STATEMENT_CHARS or not as_written(doc, u, u.plain):
            continue
        for first, last, value in pieces(doc, u):
            text = bare(value)
            if len(text.split()) < 2:
                continue
            said = [(kind, owner) for kind, owner in said_commitment(text, names, people, first=u.kind == "item" and u.index == 0,
                                                                     item=u.kind == "item", written=written)
                    if kind == "decision" or first not in taken and u.first not in taken]
            e = ev(doc, first, last)
            for kind, owner in said:
                if kind == "decision":
                    out.append(Claim(doc.title, "decision", value, "", "fact", "statement", e))
                else:
                    page = owner if owner and identity_key(owner) in names else doc.title
                    out.append(Claim(page, "action item", value, "", "fact", "statement", e))
            if any(kind == "action" for kind, _ in said):
                taken.add(first)  # (a group's decision leaves the line's other sentences free to ask: "We'll go with …. Please send …")
    return out


_ASSENT_MARK = re.compile(r"^\s*(?:👍|👌|✅|\+1)[\s.,!:]*(?=\S)")
_TURN_HEAD = re.compile(r"^\s*(?:\*\*|__)[^*_]{1,60}(?:\*\*|__)[\s\d:.,APMapm\[\]()—–/-]*$")


_LAST_STOP = re.compile(r"[.!](?=\s+[^.!?]+\?$)")  # (the stop before a text's closing question)


def pieces(doc: Document, u: Unit) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of what a sentence says: the sentence itself, or, where it runs over
    a chat turn's header ("**Dave Kowalski** 10:10 AM" alone on its line: turns written without a blank
    line between them read as one paragraph), each line of it that is no header, said by one speaker."""
    lines = doc.lines[u.first - 1:u.last]
    if u.last == u.first or not any(_TURN_HEAD.match(line) for line in lines):
        return [(u.first, u.last, u.plain)]
    return [(u.first + k, u.first + k, _said_on(line.strip(), u.plain)) for k, line in enumerate(lines)
            if line.strip() and not _TURN_HEAD.match(line)]


def _said_on(line: str, sentence: str) -> str:
    """The part of a line a sentence that runs over it says: the sentence's words after the header line
    it opens with ("**Hannah** 10:31" + "let's do the heights, no rollback." of a line that goes on to
    "… Dev can you get a number?"), else the line."""
    for cut in range(len(sentence)):
        if cut == 0 or sentence[cut - 1] == " ":
            tail = sentence[cut:]
            if len(tail) >= 2 and line.startswith(tail):
                return tail
    return line


def said_commitment(text: str, names: dict[str, str], people: set[str], first: bool = False,
                    item: bool = False, written: Written | Lazy | None = None) -> list[tuple[str, str | None]]:
    """The commitments one sentence (read bare) makes: ("action", owner or None) for a pledge, a request
    or an owned list item, ("decision", None) for a group's commitment, both where it makes both ("let's
    go Dell then, I'll tell CDW-G today"). `first` when it is a list item's first sentence (an owner as
    its label is read there only), `item` when it is any sentence of a list item (an owner handed the
    sentence in brackets or after an arrow: "… flag in ResourceSpace (Tom)", "need DNS CNAME -> raj")."""
    out: list[tuple[str, str | None]] = []
    marked = _ASSENT_MARK.match(text)
    text = text[marked.end():] if marked else text  # (a reply's mark of assent opens its clause as "ok" does: "👍 will do this week")
    question = text.rstrip().endswith("?")
    if question and (stop := _LAST_STOP.search(text.rstrip())):
        # the sentences before a closing question may pledge or decide ("I'll get Nordmar on it first thing.
        # @Ines anything on the Peplink side?"); the question itself may still ask
        before = said_commitment(text[:stop.start() + 1], names, people, first, item, written)
        return before + [said for said in said_commitment(text[stop.end():].strip(), names, people) if said not in before]
    folded = text.casefold()
    if len(text.split()) < ACTION_VALUE_WORDS:  # (a task names what to do; "Let's stay." decides in two words)
        pass
    elif not question and _may_pledge(text) and (m := _pledge(text)) and _pledged(m, text) \
            and not ("?" in text[m.start():] and "will" in m.group(0).casefold()):  # ("so will dani still be around? she …")
        out.append(("action", None))
    elif not question and "ing" in text and (_UNDER_WAY_OPENS.match(text) or _UNDER_WAY_GATE.search(text)) \
            and any(m.group("verb").casefold() not in assigned.REPORTING_ING for m in _UNDER_WAY.finditer(text)):
        out.append(("action", None))
    elif (owner := _requested(text, names, people, folded)) is not None:
        out.append(("action", owner or None))
    elif (owner := _todo(text, names, people)) is not None:
        out.append(("action", owner or None))
    elif first and (owner := _item_owner(text, names, people)) is not None:
        out.append(("action", owner or None))
    elif item and not question and (owner := _handed_on(text, names, people)) is not None:
        out.append(("action", owner or None))
    elif marked and not question and owner_place.ordered_after_assent(text):
        out.append(("action", None))  # a task asked for in the reply: "👍 raise an FS ticket so we've got a record pls"
    elif item and not question and (owner := owner_place.dash_owner(text, names, people, written)) is not None:
        out.append(("action", owner or None))  # (after a dash: "— Marcus", "— Ines/Dev", "— me, 2 sprints")
    elif not question and (owner := named_tasks.handed_owner(text, names, people, written, item)) is not None:
        out.append(("action", owner or None))  # ("jules to tell Framelock", "need Bea to sort it", "who owns it? -> Tunde")
    if (not question and _GROUP_NEEDS.search(text) and (m := _GROUP.search(text))
            and (m.group("choice") or m.group("refusal") or _group_verb(m.group("verb")))):
        out.append(("decision", None))
    return out


# what each pattern cannot match without (the patterns try every position of a sentence; most sentences
# hold none of these words, so they are looked for first: the same answers, fewer searches)
_PLEDGE_NEEDS = ("ill", "'ll", "’ll", "going to", "gonna")  # ("will" holds "ill")
_REQUEST_NEEDS = ("please", "pls", "plz", "can you", "could you", "can u", "would you")
_NAMED_REQUEST_NEEDS = ("pls", "please", "plz")
# the words each of _GROUP's ways opens with, its clauses' starts left out ("we'll", "we are", "let's",
# "not doing"): found at once where the whole pattern tries every position
# (each way spelt from its first letter, so the engine skips to the letters they open with)
_GROUP_NEEDS = re.compile(r"W(?:e\s*['’\s])|w(?:e\s*['’\s])|L(?:et['’s])|l(?:et['’s])|N(?:ot\s+[a-z]+ing)|n(?:ot\s+[a-z]+ing)")
# what a pledge cannot match without, past its words (most sentences with "will" say it mid-clause, where no
# way of _PLEDGE reads it): "I" before a modal, "i'll", or "ill" / "will" opening a clause
_PLEDGE_GATE = re.compile(r"I\s*(?:['’]|will|am)|i['’]ll|[.!?;:,—–(>→]\s*[Ww]?ill\s|\s-\s[Ww]ill\s"
                          r"|\b(?:ok|okay|yes|yep|yeah|sure|fine|so|and|also|then|but)\s+ill\s")
# a task under way's verb opening the text or a clause (_UNDER_WAY's first part, found at once)
_UNDER_WAY_OPENS = re.compile(r"[A-Za-z][a-z]{2,}ing\s", re.I)
_UNDER_WAY_GATE = re.compile(r"[.!;:,—–(>→]\s*[A-Za-z][a-z]{2,}ing\s", re.I)


def _pledge(text: str) -> re.Match[str] | None:
    """`_PLEDGE.search(text)`, looked for only where its gate finds a way it may open."""
    if text.startswith(("ill", "will", "Will")) or _PLEDGE_GATE.search(text):
        return _PLEDGE.search(text)
    return None


def _may_pledge(text: str) -> bool:
    return any(w in text for w in _PLEDGE_NEEDS)


GROUP_VERBS = frozenset("do go get make take keep put stay".split())  # function-like verbs that still say a choice after "let's"


def _group_verb(verb: str) -> bool:
    return verb.casefold() in GROUP_VERBS or _task_verb(verb)


def _pledged(m: re.Match[str], text: str) -> bool:
    """A pledge's verb does a task ("sort" too where it is no "sort of": "will sort today")."""
    verb = m.group("verb").casefold()
    return _task_verb(verb) or verb == "sort" and not text[m.end():].lstrip().startswith("of")


def _task_verb(verb: str) -> bool:
    low = verb.casefold()
    return low not in NO_TASK and low not in wd.FUNCTION_WORDS


def _requested(text: str, names: dict[str, str], people: set[str], folded: str | None = None) -> str | None:
    """The person a request asks ("" when it names none), or None when the sentence asks nothing
    (`folded`: the text casefolded, when the caller has it)."""
    folded = text.casefold() if folded is None else folded
    if not any(w in folded for w in _REQUEST_NEEDS):
        return None
    for m in _REQUEST.finditer(text):
        if not _task_verb(m.group("verb")) or m.group("verb").casefold() in NEGATIONS:
            continue
        who = m.group("who")
        if who and who.casefold() in ("please", "pls", "plz", "can", "could", "would"):
            who = None
        return _person(who, names, people) or "" if who else ""
    for m in _NAMED_REQUEST.finditer(text) if any(w in text for w in _NAMED_REQUEST_NEEDS) else ():
        if _task_verb(m.group("verb")) and (who := _person(m.group("who"), names, people)):
            return who
    return None


def _item_owner(text: str, names: dict[str, str], people: set[str]) -> str | None:
    """The owner of a list item led by a plan label ("" for "t:", "today:") or by a person's name as a
    label ("raj: extend …"), or closed by a person's name after a dash or in brackets; None for an item
    that names no one to do it."""
    m = _LABELLED.match(text)
    if m and len(m.group("task").split()) >= 2:
        label = m.group("label").strip()
        if label.casefold() in PLAN_LABELS:
            return ""  # the writer's plan for the day: "t: write up the ADR", "today: patching the app box"
        if identity_key(label) in people:
            return names.get(identity_key(label), label)
    m = _CLOSING_OWNER.search(text)
    if m and len(text[:m.start()].split()) >= 2:
        return _person(m.group("who"), names, people) or (m.group("who") if agenda.given_name(m.group("who"), names) else None)
    return None


# a task the writer labels as one: "TODO: add the DPX agreements", "TODO(Jonah): kit -> person mapping",
# "(todo: write it properly, luis)"; the label opens its clause, its task has two words at least
_TODO = re.compile(r"(?:^|(?<=[.;(—–→])\s*)(?:\*\*|__)?(?:TODO|[Tt]odo|ToDo)(?:\s*\((?P<who>[^()]{1,40})\))?(?:\*\*|__)?\s*:\s*"
                   r"(?:\*\*|__)?(?P<task>[^\s:][^:]*\S\s+\S)")


def _todo(text: str, names: dict[str, str], people: set[str]) -> str | None:
    """The owner of a task labelled "TODO" ("" when the label names no person), or None."""
    if "odo" not in text and "ODO" not in text:
        return None
    m = _TODO.search(text)
    if m is None:
        return None
    who = (m.group("who") or "").strip()
    if not who:
        return ""
    return _person(who, names, people) or (who if agenda.given_name(who, names) else "")


# an owner handed a list item's sentence: in brackets closing it ("(Tom)", "(owner: Seun)", "(aiko)"), after
# an arrow ("→ Felix, target v2.4.0", "-> raj, by 20 oct", "-> Dana")
_HANDED_ON = re.compile(r"\((?:owner\s*:\s*)?(?P<who>[A-Za-z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\)\s*[.!]*$"
                        # after a dash, the item's rest after a comma or a stop: "— Tom, once 23..28 are stable", "— Dana. count seats"
                        r"|\s(?:—|–|-)\s*(?:\*\*|__)?(?P<dash>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)(?:\*\*|__)?\s*(?:[,.;]|$)"
                        r"|(?:→|->)\s*(?:\*\*|__)?(?P<to>[A-Za-z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)(?:\*\*|__)?\s*(?:$|[.,;(]|\s+(?:by|to|before|target)\b)")


def _handed_on(text: str, names: dict[str, str], people: set[str]) -> str | None:
    """The person a list item's sentence is handed to in brackets closing it or after an arrow, where
    the name is one of the document's people's (in any case: "(aiko)") or shaped as a person's."""
    for m in _HANDED_ON.finditer(text):
        who = m.group("who") or m.group("to") or m.group("dash")
        if len(text[:m.start()].split()) < 2:
            continue  # a task before its owner
        if who[:1].isupper() and (person := _person(who, names, people)):
            return person
        if identity_key(names.get(identity_key(who), who)) in people:
            return names.get(identity_key(who), who)
        if m.group("who") and agenda.given_name(who, names):
            return who  # (a given name alone in brackets: after an arrow a word alone is as often a menu's, "UI → Restart")
    return None


def _person(who: str | None, names: dict[str, str], people: set[str]) -> str | None:
    """The name a request or an item's owner gives, where it is a person's: one the document's people
    go by, or one shaped as a person's full name."""
    if not who:
        return None
    who = who.strip().lstrip("@")
    key = identity_key(who)
    if key in people or identity_key(names.get(key, who)) in people or nt.person_shape(who):
        return names.get(key, who)
    return None
