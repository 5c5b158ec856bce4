"""Events and projects named by a thing's name and a noun of a doing (kctui.compiler.builtin.named_events),
and the sections and sources they title (kctui.compiler.steps.event_pages)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import named_events as ne
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.extraction import Extraction, Statement
from kctui.compiler.readers import read_source
from kctui.compiler.steps.event_pages import event_of
from kctui.compiler.steps.mentions import attach
from kctui.compiler.steps.name_finder import NameFinder
from kctui.compiler.steps.statement_pages import title_subjects

DIGEST = "sha256:" + "6" * 64


@pytest.mark.parametrize(("word", "event"), [
    ("cutover", True), ("rollout", True), ("failover", True), ("kickoff", True),  # a verb and a particle
    ("migration", True), ("renewal", True), ("replacement", True), ("deployment", True),  # a verb's noun
    ("upgrade", False), ("pilot", False), ("quote", False), ("price", False),  # the verb itself: left out
    ("router", False), ("printer", False), ("runbook", False), ("switch", False),  # things
    ("usage", False), ("final", False), ("portals", False),  # a stem of three letters; a plural
    ("central", False), ("portal", False), ("rental", True),  # "-al" more frequent than the verb's past
    ("migrated", False), ("renewing", False), ("other", False),  # a verb's forms, a function word
])
def test_a_noun_of_a_doing_is_made_of_a_verb(word: str, event: bool) -> None:
    assert ne.event_noun(word) is event


@pytest.mark.parametrize(("line", "found"), [
    ("- **CKF cutover moved** - was Sat 21 Nov, now **Sat 28 Nov**", ["CKF cutover"]),
    ("Subject: RE: Fastly renewal 2027", ["Fastly renewal"]),  # after a label
    ("## 2. PI migration (PI 2018 SP3 -> PI Server 2023)", ["PI migration"]),  # a numbered heading
    ("- [ ] Citrix 2.1 rollout — Marcus, this wk", ["Citrix 2.1 rollout"]),  # a release number kept
    ("| Tue 21 Apr | all | PI cutover – CDB final |", ["PI cutover"]),  # a table's cell
    ("we talked about the CKF cutover on Friday", []),  # not where a subject or a title goes
    ("- CKF router died again", []),  # a thing, no doing
    ("- CKF upgrade moved to Sat", []),  # the verb itself
    ("- Houdini renewal: 12 seats", ["Houdini renewal"]),  # a name by its shape alone (no name given)
    ("- The Sectra renewal came in", []),  # an ordinary word opens the line
    ("- Q1 replacement budget", []),  # a period of the year
])
def test_an_event_is_named_where_a_subject_or_title_goes(line: str, found: list[str]) -> None:
    assert [p for p, _ in ne.event_names([(3, line)], ["CKF", "Fastly", "PI", "Citrix"])] == found


def test_an_event_is_an_entity_of_its_document_titled_as_written() -> None:
    text = ("# Vendors\n\n- Fastly renewal: quote £2,150/mo, ends 31 Jan 2027\n"
            "- Fastly bandwidth at 118 TB/mo, Fastly support via Dana Whitfield\n"
            "- Dana to sign the Fastly renewal by 20 Jan\n")
    ex = extract_document(read_source("n.md", text.encode("utf-8"), DIGEST))
    events = [e for e in ex.entities if e.name == "Fastly renewal"]
    assert len(events) == 1 and events[0].entity_type == "event" and events[0].evidence.start == 3


def test_an_event_named_in_one_line_is_a_passing_mention() -> None:
    text = ("# Standup\n\n- SOTI renewal quote in, no change\n"
            "- SOTI MobiControl agent 15.2 on all 210 TC52s\n")
    ex = extract_document(read_source("n.md", text.encode("utf-8"), DIGEST))
    assert "SOTI renewal" not in {e.name for e in ex.entities}
    assert "SOTI renewal" in {e.name for e in ex.passing}  # (a page where another source names it too)


@pytest.mark.parametrize(("lines", "line", "again"), [
    (["- SOTI renewal quote in", "- **SOTI renewal** signed 3 Dec"], 1, True),  # a second line, bold or not
    (["- SOTI renewal quote in", "- SOTI MobiControl 15.2"], 1, False),  # one line
    (["## SOTI renewal", "quote in, no change"], 1, True),  # a heading titles what follows
    (["Subject: RE: SOTI renewal 2027", "quote attached"], 1, True),  # an email's subject
    (["- SOTI renewal quote in", "- SOTI renewals are due"], 1, False),  # another word
])
def test_an_event_is_named_again_on_a_second_line_or_a_title(lines: list[str], line: int, again: bool) -> None:
    assert ne.named_again(lines, "SOTI renewal", line) is again


def test_a_source_or_section_an_event_titles_is_about_the_event_and_its_thing() -> None:
    finder = NameFinder({"fastly": ["Fastly"], "fastly-renewal": ["Fastly renewal"], "primo": ["Primo"],
                         "primo-ve": ["Primo VE"]})
    assert title_subjects("RE: Fastly renewal 2027", finder) == ("fastly-renewal", "fastly")
    assert title_subjects("Primo VE login failures", finder) == ("primo-ve", "")  # a longer name, no event
    finder2 = NameFinder({"sqlite": ["SQLite"], "wal": ["SQLite write-ahead logging"]})
    assert title_subjects("SQLite write-ahead logging", finder2) == ("wal", "")  # no noun of a doing
    ex = Extraction("e.md", "sha256:x", "markdown", "Weekly", "note", "general",
                    statements=[Statement("Quote: £2,150/mo for 12 months", "Fastly renewal", 4, 4)])
    fed: dict = {}
    attach(ex, fed, finder, {"fastly": "Fastly", "fastly-renewal": "Fastly renewal"})
    assert sorted(fed) == ["fastly", "fastly-renewal"]


@pytest.mark.parametrize(("written", "places", "thing"), [
    (("Kestrel", "8.4", "cutover"), [(0, 3, "k-cutover"), (0, 1, "kestrel")], "kestrel"),  # a release between
    (("Primo", "VE"), [(0, 2, "primo-ve"), (0, 1, "primo")], ""),  # a capitalised word: a name of its own
    (("Fastly", "invoice"), [(0, 2, "f-invoice"), (0, 1, "fastly")], ""),  # a thing, no doing
    (("Fastly", "renewal"), [(0, 2, "f-renewal")], ""),  # no shorter name at its word
])
def test_an_event_title_is_about_the_thing_it_names_first_too(written: tuple[str, ...], places: list, thing: str) -> None:
    assert event_of(written, places) == thing
