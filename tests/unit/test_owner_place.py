"""Issue 31 point 3 (session 29, D): the owners a list item names after a dash (kctui.compiler.builtin.
owner_place) — a common given name the document writes where a name goes, several owners joined, the
writer's "me" — and a person written in lower case handed a task by "to" (assigned). Names and phrasings
are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import assigned, commitments, owner_place
from kctui.compiler.builtin.named_owner import written_words

NAMES = {"quen": "Quen Osei", "ilse": "Ilse Marr", "bruno": "Bruno Kell", "relaybus": "Relaybus"}
PEOPLE = {"quen osei", "ilse marr", "bruno kell"}
WRITTEN = written_words(["ask Martin about the quote", "w/ Harriet on Tue", "Kofi said"])


@pytest.mark.parametrize("item, owner", [
    ("**Firewall support 6/30** — Martin", "Martin"),  # a common given name written where a name goes
    ("**Office true-up 7/31** — Harriet. count seats after the summer", "Harriet"),
    ("archive the symbols to cold storage — Ilse/Bruno", "Ilse Marr"),  # several owners
    ("compliance policy for tablets — Kofi + Zuzanna after standup", "Kofi"),
    ("build the new client — me, 2 sprints, target end of April", ""),  # the writer
    ("decide on the patch pipeline — me + Quen, meeting 12 Nov", "Quen Osei"),
    ("Talia Brennick — Kubernetes, CI, alerting", None),  # a roster: a person and what they look after
    ("Printers — Kyocera, log it with them", None),  # a vendor after a dash
    ("**Tiers** — Gold, Silver and Bronze", None),
    ("cost tags on the bucket — Martina, whenever", None),  # a given name the document names nowhere else
    ("shipped the fix — Relaybus", None),  # a thing of the document
])
def test_dash_owner(item: str, owner: str | None) -> None:
    assert owner_place.dash_owner(item, NAMES, PEOPLE, WRITTEN) == owner


def test_dash_owner_is_an_action_item_of_a_list_item() -> None:
    said = commitments.said_commitment("**Firewall support 6/30** — Martin", NAMES, PEOPLE, item=True, written=WRITTEN)
    assert said == [("action", "Martin")]
    assert commitments.said_commitment("**Firewall support 6/30** — Martin", NAMES, PEOPLE, written=WRITTEN) == []  # prose


@pytest.mark.parametrize("sentence, owner", [
    ("ilse to find which robots have the bad boards, by wed", "Ilse Marr"),
    ("the vendor says it was a maintenance window. quen + bruno to raise it with them", "Quen Osei"),
    ("Tomás owns the shutdown", "Tomás"),  # a name with an accent
    ("talk to ilse about it", None),  # after a preposition
    ("ilse to the rescue", None),  # no verb after "to"
    ("bring the laptop to me", None),
])
def test_lower_case_person_to_a_task(sentence: str, owner: str | None) -> None:
    names = {**NAMES, "tomás": "Tomás"}
    assert assigned.present_owner(sentence, PEOPLE | {"tomás"}, names) == owner


@pytest.mark.parametrize("reply, said", [
    ("👍 will do this week", [("action", None)]),  # a mark of assent opens the clause as "ok" does
    ("👍 raise a ticket so we've got a record pls", [("action", None)]),  # a task asked for
    ("👍 put a change in", [("action", None)]),
    ("👍 go for it. don't want this dragging on", []),  # a choice: a decision's (decided.py)
    ("👍 rolling back now", []),  # a task under way, no time to come
    ("👍 ticket updated, she's ok with the 28th", []),  # done
    ("+1 to Quen. one at a time", []),
    ("ok put a change in", []),  # after a word, an order is a decision's (decided.py)
])
def test_reply_after_a_mark_of_assent(reply: str, said: list[tuple[str, str | None]]) -> None:
    assert commitments.said_commitment(reply, NAMES, PEOPLE) == said
