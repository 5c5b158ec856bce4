"""The owners a list item names after a dash (issue 31 point 3; session 29, D): a task, a dash, and who does
it, where commitments' closing owner reads one person of the document's only:

- a common given name the document writes where a name goes ("**FortiCare 6/30** — Marcus", "**Microsoft
  true-up 7/31** — Dana. count seats …", "Incredibuild coordinator 10.22 → 10.26 — Tom"; named_owner);
- several owners joined by "/", "+", "&" or "and" ("symbol archive … — Ines/Dev", "Intune compliance policy
  … — Gus + Tash after standup", "decide on the day 1 patch pipeline — me + Ben + Callum, meeting 12 Nov");
- the writer, "me" ("build v3 client in carepoint-bridge — me, 2 sprints, target end of April").

The owners close their sentence or stand before a comma, a stop or a word of when ("after", "by", "once",
…). Not a list of people and what each looks after ("Tomasz Wójcik — Kubernetes, ArgoCD, CI", "Claire
Dobson – Finance, invoices & contracts"): the words before the dash must not be a person's name alone, and
after the dash only people are read. Closed class: English's function words, a frequency; no corpus words.

Beside these, a reply's mark of assent ("👍") before a verb's base form and what it takes asks for a task
("👍 put a change in", "👍 add the channel plan to the site doc pls"; `ordered_after_assent`).
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import agenda
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.named_owner import Lazy, Written, name_word
from kctui.core.slugs import identity_key

_ONE = r"(?:me|[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)"
_OWNERS = re.compile(r"\s[—–-]\s*(?:\*\*|__)?(?P<owners>" + _ONE + r"(?:\s*(?:/|\+|&|\band\b)\s*" + _ONE + r")*)(?:\*\*|__)?"
                     r"(?=\s*(?:[,.;]|$|\s(?:after|before|by|once|when|from|on|this|next|w/c)\b))")
_JOIN = re.compile(r"\s*(?:/|\+|&|\band\b)\s*")


def dash_owner(text: str, names: dict[str, str], people: set[str], written: Written | Lazy | None) -> str | None:
    """The owner a list item's sentence (read bare) names after a dash ("" for the writer, "me"), or None.
    Every owner joined there must read as a person's; the first that is not the writer is the claim's."""
    if "—" not in text and "–" not in text and " - " not in text:
        return None
    for m in _OWNERS.finditer(text):
        before = text[:m.start()].strip(" *_")
        if len(before.split()) < 2 or nt.person_shape(before) or identity_key(before) in people:
            continue  # (a task before its owner; not a roster's "Dana Okafor — Aurelian, Kestrel")
        whos = _JOIN.split(m.group("owners"))
        read = [_owner(who, names, people, written, several=len(whos) > 1) for who in whos]
        if all(r is not None for r in read):
            return next((r for r in read if r), "")
    return None


def _owner(who: str, names: dict[str, str], people: set[str], written: Written | Lazy | None, several: bool) -> str | None:
    """The name an owner's place gives, where it reads as a person's ("" for "me"), else None."""
    if who == "me":
        return ""
    key = identity_key(who)
    if key in people or identity_key(names.get(key, "")) in people or nt.person_shape(who):
        return names.get(key, who)
    if " " in who or key in names:
        return None  # (a thing of the document: "— Clinix, anything PMS")
    if agenda.given_name(who, names) and (several or _known(who, written)):
        return who  # "— Ines/Dev", "— Gus + Tash"
    if written is not None and name_word(who, written):
        return who  # a common given name the document writes where a name goes: "— Marcus", "— Dana. count seats"
    return None


def _known(who: str, written: Written | Lazy | None) -> bool:
    """A rare capitalised word the document writes where a name goes elsewhere too ("ask Kat", "w/ Kat")."""
    if written is None:
        return False
    w = written.get() if isinstance(written, Lazy) else written
    return who in w.placed and who.casefold() not in w.lower


# after a reply's mark of assent ("👍"), a verb's base form and what it takes: a task asked for ("👍 put a change
# in", "👍 add the channel plan to the site doc pls"); not a choice, which decides ("👍 go for it", "leave it",
# decided.py), nor a task under way or done ("👍 rolling back now", "👍 CHG-2026-0214 updated")
_ORDER = re.compile(r"^(?P<verb>[a-z]{2,})\s+(?:it|them|the|a|an|this|that|these|those|all|our|my|[A-Z0-9@`*#])")
CHOICE_VERBS = frozenset("go leave hold keep stay do let".split())


def ordered_after_assent(text: str) -> bool:
    """Whether a reply's text after its mark of assent opens on an order of a task (read bare)."""
    m = _ORDER.match(text)
    return bool(m) and m.group("verb") not in CHOICE_VERBS and ordered(m.group("verb"))


# words in an order's place that order nothing: being, having, knowing, saying, thanks, modals (decided.py's
# order after a word of assent reads them too)
_NOT_ORDER = frozenset("is was are were be been has have had need needs want wants think thats got see saw know mean guess "
                       "looks sounds thanks thank ty nice good great cool ok yes yep yeah fair done agreed already probably "
                       "prob maybe pls please will can could would should did does fine sure".split())


def ordered(verb: str) -> bool:
    """A verb in an order's place after a word of assent: no function word, no verb of being, having,
    knowing or saying, no task under way or past ("resubmitting", "deployed")."""
    low = verb.casefold()
    return low not in wd.FUNCTION_WORDS and low not in _NOT_ORDER and not low.endswith(("ing", "ed"))
