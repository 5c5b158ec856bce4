"""Lines the action rules typed that are no action item by the structure of their text (issue 31, point 3;
session 31): each becomes a claim of the same subject and value under what it is — a *role*, a *status*,
a *rule*, a step *checked off* — (what the line says stays on the page it is about, and keeps its page's
claim on the line, so the line does not drift to the page of the note's title as a bare note; it is no
longer listed among anyone's tasks), and the due date read off it goes.

- a **roster** line: a name, a separator and a role noun phrase before anything else ("Aisha Bello: tech
  lead, Lagos", "**Dan Okafor** — team lead, budgets, vendors", "Fen — packhouse ops mgr"): who someone
  is, not what they will do (a task handed on the line keeps it: "… — read-only admin first, Tom to create");
- a **status report**: a name or a label, a separator and a verb in the past tense first ("Tomas:
  finished the migration, now on alerts", "Mailchimp — cancelled Nov 2025") with no word of what comes
  next (will, to do, need, by a date, please, a question);
- a **rule's definition**: a threshold (a comparison's sign and a number) and an arrow to what follows
  ("HighLatency: p99 > 800ms for 5m → page on-call"): what the system does, not a task;
- a **ticked box that names no one** ("- [x] TLS renewals automated via cert-manager", "- [x] M365 /
  Teams"): a step of a checklist, done; a ticked box with its owner or its date ("- [x] fix the probe —
  Tom, done 19 Feb"), or under a heading or lead-in of actions ("# Platform TODO"), stays done.

The words below are closed classes of English (the role nouns of name_types, a few irregular past
forms, the words that say what comes next); no word of any corpus.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kctui.compiler.builtin import agenda
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin.sentences import bare
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key

ACTION_ATTRIBUTES = frozenset({"action item", "to do", "done"})
ROLE_WORDS = nt.ROLE_NOUNS | frozenset({"mgr"})  # (the manager's short form)
ROLE_MAX_WORDS = 5  # a role phrase is short: "head of RC", "packhouse ops mgr", "student staff coordinator"
IRREGULAR_PAST = frozenset("did sent got took made wrote ran built found met paid went came gave told "
                           "bought sold left kept brought broke fell held lost moved".split())
# what says a line still looks ahead: a task, a plan, a need, a request, a date to meet
_AHEAD = re.compile(r"\b(?:will|won't|to\s+[a-z]{2,}|need|needs|pls|please|can\s+you|could\s+you|next|tbd|todo|"
                    r"by|before|until|due|asap|chase|chasing|waiting|pending)\b|'ll\b|’ll\b|\?", re.I)
_ITEM = r"^\s*(?:[-*+]\s+|\d{1,2}[.)]\s+)?(?:\[[ xX]\]\s+)?"
# a name or a label opening the line, then its separator ("Aisha Bello:", "**Dan Okafor** —", "Fen -")
_OPENER = re.compile(_ITEM + r"(?:\*\*|__)?(?P<who>@?[A-Za-z][\w'’.&-]*(?:\s+[A-Z][\w'’.&-]*){0,2})(?:\*\*|__)?"
                     r"(?:\s*\([^()]*\))?\s*(?:\*\*|__)?\s*(?::|—|–|\s-)\s*(?:\*\*|__)?\s*(?P<rest>\S.*)$")
_CLAUSE_END = re.compile(r"[,;.(]|\s[—–-]\s|\s+(?:and|who|since|until|from)\s")
_ARROW = re.compile(r"→|⇒|=>|(?<![<-])->")
_THRESHOLD = re.compile(r"(?:(?<![-=<])[<>](?!-)=?|[≥≤])\s*~?\d")  # (a sign: "over 6.0m" in prose describes)
_BOX = re.compile(r"^\s*[-*+]\s+\[(?P<mark>[ xX])\]\s+(?P<rest>.*)$")
_OWNER_MARK = re.compile(r"\((?:[A-Z][\w'’-]+|[A-Z]{2,3})[,)\s+&/]|(?:—|–|\s-\s|,)\s*(?:\*\*)?(?:[A-Z][a-z'’-]+|[A-Z]{2,3})\b")


def retyped(doc: Document, claims: list[Claim], names: dict[str, str]) -> list[Claim]:
    """The claims, an action-typed one on a line that is no action item as a note of its subject, without
    the due dates read off those lines."""
    kinds = {c.evidence.start: kind for c in claims if c.attribute in ACTION_ATTRIBUTES
             and (kind := no_task(_line(doc, c.evidence.start), c.attribute, names))}
    if CHECKED in kinds.values():  # (a ticked box of a to-do list, under "TODO" or "Actions", is a task done)
        listed = _action_lines(doc)
        kinds = {line: kind for line, kind in kinds.items() if kind != CHECKED or line not in listed}
    if not kinds:
        return claims
    return [replace(c, attribute=kinds[c.evidence.start]) if c.attribute in ACTION_ATTRIBUTES and c.evidence.start in kinds else c
            for c in claims if not (c.attribute == "due" and c.evidence.start in kinds)]


def _action_lines(doc: Document) -> set[int]:
    """The lines of the blocks that stand under an actions heading or lead-in (agenda.section_kinds)."""
    kinds = agenda.section_kinds(doc)
    return {n for k, block in enumerate(doc.blocks) if kinds.get(k) == agenda.ACTION
            for n in range(block.start, block.end + 1)}


def _line(doc: Document, n: int) -> str:
    return doc.lines[n - 1] if 0 < n <= len(doc.lines) else ""


ROLE, STATUS, RULE, CHECKED = "role", "status", "rule", "checked off"


def no_task(line: str, attribute: str, names: dict[str, str]) -> str:
    """What the line is when its shape is no action item: ROLE (a roster line), STATUS (a report), RULE (a
    rule's definition), CHECKED (a ticked box naming no one, for "done"); else ""."""
    text = bare(line)
    if attribute == "done":
        return CHECKED if ticked_alone(text, names) else ""
    if attribute != "action item" or text.lstrip().startswith("|"):
        return ""  # (a table's row of tasks: "| alert >80% -> Opsgenie | Lukas | 7 Nov |" is one to set up)
    if rule_definition(text):
        return RULE
    if _AHEAD.search(text):
        return ""
    return ROLE if roster_line(text) else STATUS if past_report(text) else ""


def roster_line(text: str) -> bool:
    """A name, a separator and a role noun phrase first: "Aisha Bello: tech lead, Lagos"."""
    m = _OPENER.match(text)
    if not m or not m.group("who")[:1].isupper():
        return False
    first = _CLAUSE_END.split(m.group("rest"), maxsplit=1)[0]
    words = re.findall(r"[A-Za-z][\w'’-]*", first)
    if not words or len(words) > ROLE_MAX_WORDS:
        return False
    return any(w.casefold().removesuffix("s") in ROLE_WORDS for w in words)


def past_report(text: str) -> bool:
    """A name or a label, a separator and a verb in the past tense first: "Tomas: finished the migration"."""
    m = _OPENER.match(text)
    if not m:
        return False
    verb = m.group("rest").split()[0].casefold().strip(",.;:")
    return verb in IRREGULAR_PAST or len(verb) >= 5 and verb.endswith("ed") and verb.isalpha() and not verb.endswith("eed")


def rule_definition(text: str) -> bool:
    """A threshold and an arrow to what follows it: "p99 > 800ms for 5m → page on-call"."""
    arrow = _ARROW.search(text)
    return bool(arrow) and bool(_THRESHOLD.search(text[:arrow.start()]))


def ticked_alone(text: str, names: dict[str, str]) -> bool:
    """A ticked box whose item names no owner and no date: "[x] M365 / Teams"."""
    m = _BOX.match(text)
    if not m or m.group("mark") not in "xX":
        return False
    rest = m.group("rest")
    if _OWNER_MARK.search(rest) or agenda.owner_of(rest, names) or agenda.due_of(rest):
        return False
    known = {identity_key(w) for w in re.findall(r"[A-Za-z][\w'’-]+", rest)}
    return not any(k in names and nt.person_shape(names[k]) for k in known)
