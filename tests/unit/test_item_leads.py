"""Issue 31, a list item's lead names what the item states a fact of (kctui.compiler.builtin.item_leads,
EXTRACTOR_VERSION 54-F, 55-F): which leads count, a page where the note writes the lead again, a passing mention
that recurs where another source writes it. Tables with phrasings of our own (not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.item_leads import lead, lead_shaped
from kctui.compiler.readers import read_source
from kctui.compiler.steps.written_names import SourceTexts, written_elsewhere

DIGEST = "sha256:" + "5" * 64


@pytest.mark.parametrize("raw, expected", [
    ("kiln rebuild: moved from Tue 3 Mar to Fri 6 Mar", "kiln rebuild"),        # lower case, a colon
    ("**Barrow kiosk:** back up since 2/14", "Barrow kiosk"),                   # bold, the colon inside
    ("**Barrow kiosk**: back up since 2/14", "Barrow kiosk"),                   # bold, the colon after
    ("Barrow kiosk — quote now £1,200 from Acme", "Barrow kiosk"),               # a dash
    ("east wing printer: 4 of 9 jams cleared", "east wing printer"),
    ("east wing printers: 4 of 9 replaced", None),                              # a plural in lower case
    ("[ ] kiln rebuild: book the crane by 3/3", None),                          # a checklist item: a task
    ("Status: done 3/4", None),                                                 # one word: a field's label
    ("kiln rebuild: nothing new", None),                                        # no value after it
    ("we agreed: 3 days", None),                                                # a pronoun
    ("next up: the kiln on 3/3", None),                                         # a function word
    ("Mon 12/10: 4 tickets", None),                                             # a day and a value
    ("Annual fee: £38,400 for 7 sites", None),                                  # an attribute's noun
    ("new go-live date: Sat 14 Nov", None),
    ("kiln controller created: `canary-7`", None),                              # a verb's past
    ("Lustre scratch down: since 02:10", None),                                 # a state
    ("Dana's hours: 50/50 until March", None),                                  # a possessive
    ("Hidden costs are bad: 3 of 4 quotes", None),                              # an auxiliary: a clause
    ("Interview length: 45 minutes", None),                                     # an attribute's noun
    ("RFC PR: #1234", None),                                                    # one value: a field
    ("visit https://example.org/a on 3 May", None),                             # a colon inside an address
    ("replacement kiln controller for the east wing: 3 weeks", None),          # five words or more
    ("Kiln sensor check — not started, due 3/3", None),                        # a check's noun: a task
    ("Option C: Acme does the kiln (£4,500)", None),                            # a single letter: a variant
    ("kiln creds: arrived 2/3, all working", None),                             # a plural in lower case
    ("Kiln fan belts: 3 of 4 replaced", None),
    ("Kiln fan belt: 3 of 4 spares left", "Kiln fan belt"),                     # (one of them: a thing)
])
def test_lead(raw: str, expected: str | None) -> None:
    span = lead("item", 0, raw, raw)
    assert (span.text if span else None) == expected


def test_only_a_list_items_first_sentence() -> None:
    assert lead("paragraph", 0, "kiln rebuild: 6 Mar", "kiln rebuild: 6 Mar") is None
    assert lead("item", 1, "kiln rebuild: 6 Mar", "kiln rebuild: 6 Mar") is None


def _extracted(text: str):  # noqa: ANN202
    return extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))


def test_a_lead_the_note_writes_again_gets_a_page() -> None:
    ex = _extracted("# Plant standup\n\n- kiln rebuild: moved from Tue 3 Mar to Fri 6 Mar\n\n"
                    "The kiln rebuild needs a crane.\n")
    assert "kiln rebuild" in {e.name for e in ex.entities}
    claims = [c for c in ex.claims if c.subject == "kiln rebuild"]
    assert any(c.value.startswith("kiln rebuild: moved") and c.evidence.start == 3 for c in claims)


def test_a_lead_written_once_is_a_passing_mention() -> None:
    ex = _extracted("# Plant standup\n\n- kiln rebuild: moved from Tue 3 Mar to Fri 6 Mar\n")
    assert "kiln rebuild" not in {e.name for e in ex.entities}
    assert "kiln rebuild" in {e.name for e in ex.passing}


@pytest.mark.parametrize("name, expected", [
    ("kiln rebuild", True), ("east wing printers", True), ("invoice", False), ("Kiln rebuild", False),
    ("replacement kiln controller east wing", False),
])
def test_lead_shaped(name: str, expected: bool) -> None:
    assert lead_shaped(name) is expected


class _File:
    def __init__(self, path: str, data: bytes) -> None:
        self.path, self.data, self.abs_path, self.digest = path, data, "", ""


@pytest.mark.parametrize("other, expected", [
    ("The kiln rebuild moved to Friday.", True),   # another source writes the lead in lower case
    ("The kiln is rebuilt.", False),
])
def test_a_lower_case_lead_recurs_where_another_source_writes_it(other: str, expected: bool) -> None:
    texts = SourceTexts({p: _File(p, t.encode()) for p, t in
                         {"a.md": "- kiln rebuild: 6 Mar", "b.md": other}.items()})
    once = {"kiln rebuild": ("kiln rebuild", frozenset({"a.md"}))}
    assert written_elsewhere(once, texts) == ({"kiln rebuild"} if expected else set())
