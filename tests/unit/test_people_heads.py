"""Issue 31: places for people a note written in lower case keeps (kctui.compiler.builtin.people_heads): a
standup's one-word headings over each person's items, a pasted chat's one-word turn headers before the time.
Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.people_heads import turn_head
from kctui.compiler.builtin.roster import roster_names
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def known(text: str) -> dict[str, str]:
    return {n.name: n.entity_type for n in roster_names(read_source("notes/n.md", text.encode("utf-8"), DIGEST))}


@pytest.mark.parametrize("text, wanted", [
    # a heading over the person's items, the person in the list of names: two places, a name however common
    ("# standup tue 4/3\n\npresent: ilse, ray, quen, bo, tam\n\n## ray\n- swapped the rig\n\n## quen\n- y: profiling\n",
     {"ray": "", "quen": ""}),
    # an aside after the heading's word
    ("# standup\n\npresent: ilse, ray, quen, bo\n\n### ray (remote)\n- site visit\n", {"ray": ""}),
    # a chat's turn headers: one word in bold before the time, mostly names: the speakers, people
    ("# #ops, wed\n\n**quen** 09:12\nthe rig is down\n\n**ray** 09:15\nlooking\n\n**ilse** 09:20\nfixed\n",
     {"quen": "person", "ray": "person", "ilse": "person"}),
])
def test_headings_and_turn_headers_are_places_for_people(text, wanted):
    assert known(text) == wanted


@pytest.mark.parametrize("text", [
    # one-word headings alone name no one: a note's sections
    "# Runbook\n\n## Rollback\n- revert the snapshot\n\n## Escalation\n- page the lead\n",
    # a heading word no list of names gives a first place ("Rollback: …" opening lines is a label)
    "# Change\n\n## Rollback\n\n- Rollback: revert the snapshot, 35 min\n",
    # a heading of a word with an English ending, though a list of rare words names it ("kinds: …")
    "# Conversions\n\nThe kinds of conversion: subtyping, coercion, casting.\n\n### Subtyping\n\nIt is implicit.\n",
    # a heading of a word in a list of English words
    "# shopping\n\nbuy: milk, bread, eggs, tea\n\n## milk\n- oat\n",
    # bold words before a time that are ordinary words: a schedule, not speakers
    "# Day\n\n**Breakfast** 08:00\neggs\n\n**Lunch** 12:30\nsoup\n",
])
def test_sections_and_schedules_name_nobody(text):
    assert known(text) == {}


@pytest.mark.parametrize("line, wanted", [
    ("**suni** 09:12", ["suni"]), ("**Jess** 4.05 pm", ["Jess"]), ("**quen**: 10:02", ["quen"]),
    ("**quen** said at 10:02", []), ("**Quen Ashby** 10:02", []), ("quen 10:02", []),
])
def test_a_turn_header_is_one_word_in_bold_before_the_time(line, wanted):
    assert turn_head(line) == wanted


def test_a_supplier_column_names_its_rows_things_in_any_case():
    """"Supplier" types its column's cells as companies, as "Vendor" does: a lower-case cell names one too
    (kctui.compiler.builtin.table_facts; name_types.TYPE_NOUNS)."""
    from kctui.compiler.builtin.document import extract_document

    text = ("# Suppliers\n\n| Supplier | What | Cost | Ends |\n|---|---|---|---|\n"
            "| Quorvex (hosting) | hosting | £2,300/month | rolling |\n| pingbarn | uptime checks | £199/yr | renews 14 Jan |\n"
            "| AWS | storage | £40/month | rolling |\n| Telvane Digital | CMS support | £24,000/yr | 31 Aug 2027 |\n")
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    assert {"Quorvex", "pingbarn", "AWS", "Telvane Digital"} <= {e.name for e in ex.entities}
    assert any(c.subject == "pingbarn" and c.value == "renews 14 Jan" for c in ex.claims)
