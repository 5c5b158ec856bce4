"""A statement that opens with a name of another thing is that thing's, not its section's or its note's
(kctui.compiler.steps.statement_subject, used by kctui.compiler.steps.statement_pages `reaches`); a chat turn or
a list item naming its own thing does not go on with the topic before; a lead line's section is its own
list or paragraph (kctui.compiler.builtin.statements `section_leads`)."""

from __future__ import annotations

from functools import partial

import pytest

from kctui.compiler.extraction import Extraction, Statement
from kctui.compiler.steps.mentions import attach
from kctui.compiler.steps.name_finder import NameFinder, word_spans
from kctui.compiler.steps.statement_subject import TITLE, goes_on_topic, keeps_place, leading_pages, states_of_another
from kctui.core.claims import Claim, Evidence

PAGES = {
    "checkly": ["Checkly"],
    "grafana-cloud": ["Grafana Cloud"],
    "billing-api": ["Billing API"],
    "pg-prod-02": ["pg-prod-02"],
    "tom": ["Tom"],
    "nginx": ["nginx"],
    "payments": ["Payments"],
    "datadog": ["Datadog"],
    "python": ["Python"],
    "django": ["Django"],
    "castlebrook": ["Castlebrook"],
    "adr-007": ["ADR-007"],
    "priya-nair": ["Priya Nair"],
    "sectra": ["Sectra"],
    "standup": ["Standup"],
}
TITLES = {slug: names[0] for slug, names in PAGES.items()}
FINDER = NameFinder(PAGES)


def _leads(text: str) -> set[str]:
    places = sorted(FINDER.places(text), key=lambda p: (p[0], -p[1], p[2]))
    return leading_pages(text, places, partial(word_spans, text))


@pytest.mark.parametrize(("text", "leads"), [
    ("Grafana Cloud's renewal is due 31 Jan.", {"grafana-cloud"}),  # opening the sentence
    ("Also: Grafana Cloud's renewal is due 31 Jan.", {"grafana-cloud"}),  # after a function word and a colon
    ("The Sectra renewal quote came in on Friday.", {"sectra"}),  # after an article
    ("- 09:55 Tom upgraded nginx to 1.25", {"tom"}),  # after a list's dash and a time
    ("Datadog | Metrics, APM | $212,000", {"datadog"}),  # a table row's first cell
    ("Tom: upgraded nginx to 1.25", {"tom"}),
    ("runs on pg-prod-02", set()),  # an object after its verb
    ("Owner: Priya Nair", set()),  # a field's value
    ("waiting on Datadog quote", set()),
    ("after the Datadog renewal, so probably w/c 26 Oct", set()),  # after a preposition: a phrase of its own
    ("If Castlebrook commits to a 2-year term we can hold it at £5,090/yr.", set()),  # a clause of its own
    ("Python 3.11, Django 4.2 LTS locally", set()),  # a list of names opening the statement
    ("Last year we paid $9,600.", set()),  # no name at all
])
def test_a_name_stands_where_the_subject_does_when_no_content_word_precedes_it(text: str, leads: set[str]) -> None:
    assert _leads(text) == leads


@pytest.mark.parametrize(("leads", "placed", "keeps"), [
    (set(), {"checkly"}, True),  # names nothing where its subject stands
    ({"grafana-cloud"}, {"checkly"}, False),  # opens with another thing
    ({"checkly"}, {"checkly", "adr-007"}, True),  # opens with one of the things it is about by its place
])
def test_a_statement_keeps_its_place_unless_it_opens_with_another_thing(leads: set[str], placed: set[str],
                                                                        keeps: bool) -> None:
    assert keeps_place(leads, placed) is keeps


def _reached(title: str, statements: list[tuple[str, str, bool]]) -> dict[int, set[str]]:
    """Line -> the pages its statement reaches, for a note titled `title` of (text, scope, follows)."""
    ex = Extraction("n.md", "sha256:x", "markdown", title, "note", "general",
                    statements=[Statement(text, scope, line, line, "line", follows)
                                for line, (text, scope, follows) in enumerate(statements, start=3)])
    fed: dict = {}
    attach(ex, fed, FINDER, TITLES)
    out: dict[int, set[str]] = {}
    for slug, contribution in fed.items():
        for claim in contribution.claims:
            out.setdefault(claim.evidence.start, set()).add(slug)
    return out


@pytest.mark.parametrize(("title", "statements", "reached"), [
    # an email on Checkly: the line opening with another thing is that thing's; one naming nothing is Checkly's
    ("Checkly renewal", [("Also: Grafana Cloud's renewal is due 31 Jan.", "", False),
                         ("Last year we paid $9,600.", "", False)],
     {3: {"grafana-cloud"}, 4: {"checkly"}}),
    # a heading's thing runs on the host: both pages
    ("Platform notes", [("runs on pg-prod-02 since March", "Billing API", False)],
     {3: {"billing-api", "pg-prod-02"}}),
    # a section headed by a name alone: the person's items, whatever they open with
    ("Payments standup", [("nginx upgraded to 1.25 on Monday", "Tom", False),
                          ("Datadog bill was $23,400 in January", "Tom", False)],
     {3: {"tom", "nginx"}, 4: {"tom", "datadog"}}),
    # a section whose heading opens with its thing (an agenda item); the person opening an item is the subject
    ("Payments standup", [("Tom: upgraded nginx to 1.25", "Standup", False),
                          ("Tom: upgraded nginx to 1.25", "", False),
                          ("upgraded nginx to 1.25", "", False)],
     # (session 25, title_scope: a line naming another thing and not the title's leaves the title's page)
     {3: {"standup", "tom", "nginx"}, 4: {"tom", "nginx"}, 5: {"nginx"}}),
    # a table row: its first cell is its subject; a row whose first cell is a label stays with the section
    ("Payments vendors", [("Datadog | Metrics, APM | $212,000", "", False),
                          ("Host | pg-prod-02 | 16 GB", "", False)],
     {3: {"datadog"}, 4: {"pg-prod-02"}}),
    # a record's fields and a clause of its own stay with the record (its write-up is the record's: title_scope)
    ("ADR-007: Move the ledger to Aurora", [("Deciders: Priya Nair, Tom", "", False),
                                            ("If Castlebrook commits to 2 years we hold £5,090/yr.", "", False)],
     {3: {"adr-007", "priya-nair", "tom"}, 4: {"adr-007", "castlebrook"}}),
    # a list opening a statement names each in passing (and names other things than the title's: title_scope)
    ("Payments onboarding", [("Python 3.11, Django 4.2 locally", "", False)],
     {3: {"python", "django"}}),
])
def test_a_statement_opening_with_another_thing_leaves_its_section_and_title(
        title: str, statements: list[tuple[str, str, bool]], reached: dict[int, set[str]]) -> None:
    assert _reached(title, statements) == reached


def test_a_continuation_opening_with_a_name_is_not_the_topic_before() -> None:
    reached = _reached("Vendor notes", [("Datadog sent the renewal quote", "", False),
                                        ("it is $23,400 a month", "", True),
                                        ("The Sectra quote came in at $9,000", "", True),
                                        ("new date thu 15 oct, Sectra signs", "", True)])
    assert reached == {3: {"datadog"}, 4: {"datadog"}, 5: {"sectra"}, 6: {"sectra"}}


@pytest.mark.parametrize(("text", "follows", "item", "turn", "goes_on"), [
    # a list item naming its own thing opens a topic of its own
    ("pg-prod-02 decommissioned", True, True, False, False),
    ("DDM config needs Datadog 11.x", True, True, False, False),
    ("09:40 Tom paged, on call", True, True, False, False),  # a time opening it is no value of its own
    # ... unless it names nothing, or states a value before the first thing it names
    ("new date thu 15 oct", True, True, False, True),
    ("new date thu 15 oct, ADR-007 re-approved", True, True, False, True),
    # a later sentence of a paragraph goes on as before (its opening words decide: `_carried`)
    ("It runs on pg-prod-02 now.", True, False, False, True),
    ("Datadog renewal is due 31 Jan.", False, False, False, False),  # continuing nothing
    # a chat turn goes on with the topic before only when it names nothing
    ("£96k year one incl. badges", False, False, True, True),
    ("fyi Sectra moved the backups", False, False, True, False),
])
def test_a_statement_goes_on_with_the_topic_before_unless_it_names_its_own_thing(
        text: str, follows: bool, item: bool, turn: bool, goes_on: bool) -> None:
    places = sorted(FINDER.places(text), key=lambda p: (p[0], -p[1], p[2]))
    assert goes_on_topic(text, places, partial(word_spans, text), follows, item, turn) is goes_on


def test_a_list_item_naming_its_own_thing_leaves_the_item_before_it() -> None:
    """"- mq-01 decommissioned" after an item on Tom's work is mq-01's, not Tom's; "- new date thu 15 oct,
    ADR-007 re-approved" after an item on Sectra states the date of Sectra's item."""
    names = {**PAGES, "mq-01": ["mq-01"]}
    ex = Extraction("n.md", "sha256:x", "markdown", "Weekly notes", "note", "general",
                    statements=[Statement(text, "", line, line, "line", line > 3) for line, text in enumerate(
                        ["Tom finished the nginx upgrade on 3 Nov", "mq-01 decommissioned on 4 Nov",
                         "Sectra upgrade slipped from 8 Oct", "new date thu 15 oct, ADR-007 re-approved"], start=3)])
    fed: dict = {}
    attach(ex, fed, NameFinder(names), {slug: ns[0] for slug, ns in names.items()})
    assert [c.evidence.start for c in fed["tom"].claims] == [3]
    assert [c.evidence.start for c in fed["mq-01"].claims] == [4]
    assert [c.evidence.start for c in fed["sectra"].claims] == [5, 6]


def test_a_chat_turn_naming_a_thing_is_not_about_the_turn_before() -> None:
    """A turn is its speaker's statement: naming a thing of its own, it leaves the topic of the turn before
    ("fyi Sectra moved the backups" after a turn on Datadog); naming nothing, it keeps it ("yes, do it")."""
    values = ["**Ana Ruiz** 09:30 Datadog bill came in at $23,400", "**Tom** 09:31 fyi Sectra moved the backups",
              "**Ana Ruiz** 09:32 yes, do it"]
    ex = Extraction("chat.md", "sha256:x", "markdown", "thread", "note", "general",
                    statements=[Statement(v, "", line, line) for line, v in enumerate(values, start=1)])
    names = {**PAGES, "ana-ruiz": ["Ana Ruiz"]}
    fed: dict = {}
    attach(ex, fed, NameFinder(names), {slug: ns[0] for slug, ns in names.items()})
    assert [c.evidence.start for c in fed["datadog"].claims] == [1]
    assert [c.evidence.start for c in fed["sectra"].claims] == [2, 3]
    assert [c.evidence.start for c in fed["tom"].claims] == [2]


@pytest.mark.parametrize(("text", "led"), [
    # a bold lead heads its own list; a paragraph after a blank line is the section's again
    ("## Standup\n\n**Tom**\n- Fastly quote came in\n- will sort Stripe creds\n\nDecisions: go with Fastly\n",
     {4: "Tom", 5: "Tom", 7: "Standup"}),
    # a list after a blank line under the lead, a loose list, a paragraph right under the list
    ("# n\n\n**Tom**\n\n- Fastly quote came in\n\n- will sort Stripe creds\nand the keys\n",
     {5: "Tom", 7: "Tom", 8: "Tom"}),
    # a paragraph the lead heads; the next after a blank line, a table after it, are not its
    ("# n\n\nRaj notes:\n\nRouter is on 4G.\n\nDoing C today.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
     {5: "Raj notes"}),
    # the next lead heads its own list
    ("# n\n\n**Tom**\n- on leave\n\n**Grace**\n- iOS 5.12 in review\n\nparking lot\n",
     {4: "Tom", 7: "Grace"}),
])
def test_a_lead_lines_section_ends_where_its_own_list_or_paragraph_does(text: str, led: dict[int, str]) -> None:
    from kctui.compiler.builtin.statements import section_leads
    from kctui.compiler.readers.markdown import read_markdown

    assert section_leads(read_markdown("standup.md", text, "sha256:x", len(text))) == led


@pytest.mark.parametrize(("text", "follows"), [
    ("- 13:20 Quarkbin pods OOMKilled, limit 512Mi\n- 13:31 limit raised to 1Gi, pods roll\n", False),  # a log's entries
    ("- [09:40] Quarkbin paged\n- [09:52] restart done, 3 of 4 nodes\n", False),
    ("- Quarkbin pods OOMKilled at 13:20\n- limit raised to 1Gi at 13:31\n", True),  # a time inside: goes on
    # the day before the time of day
    ("- Tue 01:12 — `quark-api` p99 over 800 ms\n- Thu 14:40 — disk 85 % on `pg-rep-02`\n", False),
    ("- Dec 3 06:50 Quarkbin paged\n- Dec 3 07:05 restart done, 3 of 4 nodes\n", False),
    ("- 11/12 02:10 queue over 500\n- 11/12 02:40 queue back to 0\n", False),
    ("- Quarkbin patched Tue 09:10\n- disk back at 61 % on Thu\n", True),  # only one opens with its time
])
def test_an_entry_of_a_log_does_not_go_on_with_the_entry_before(text: str, follows: bool) -> None:
    from kctui.compiler.builtin.sentences import units
    from kctui.compiler.builtin.statements import all_statements
    from kctui.compiler.readers.markdown import read_markdown

    text = "# n\n\n" + text
    doc = read_markdown("log.md", text, "sha256:x", len(text))
    assert [s.follows for s in all_statements(doc, units(doc))][-1] is follows


@pytest.mark.parametrize(("said_of", "own", "another"), [
    ([{"lto-9"}], {"home"}, True),  # a price of LTO-9 in a decision record on /home
    ([set()], {"home"}, True),  # a value of a name without a page of its own: not the title's either
    ([{"lto-9"}, {TITLE}], {"home"}, False),  # ... and one of the note's title ("Running cost: …" its field)
    ([{"lto-9"}, {"home"}], {"home"}, False),  # ... and one of the title's thing
    ([], {"home"}, False),  # no value the reading states of a name: the statement stays with the title
])
def test_a_value_of_another_thing_is_not_the_titles(said_of: list[set[str]], own: set[str], another: bool) -> None:
    assert states_of_another(said_of, own) is another


def _claims_reached(title: str, statements: list[tuple[str, str]], claims: list[tuple[str, str, str]],
                    pages: dict[str, list[str]]) -> dict[int, set[str]]:
    """Line -> the pages its statement reaches, for a note titled `title` of (text, scope) and the claims its
    reading states, (subject, attribute, value), each of the line whose statement holds its value."""
    lines = {text: line for line, (text, _) in enumerate(statements, start=3)}
    found = [Claim(subject, attribute, value, "", "fact", "statement",
                   Evidence("n.md", line, line, "sha256:x", "line"))
             for subject, attribute, value in claims for text, line in lines.items() if value in text]
    ex = Extraction("n.md", "sha256:x", "markdown", title, "note", "general", claims=found,
                    statements=[Statement(text, scope, line, line, "line", False)
                                for line, (text, scope) in enumerate(statements, start=3)])
    fed: dict = {}
    attach(ex, fed, NameFinder(pages), {slug: names[0] for slug, names in pages.items()})
    out: dict[int, set[str]] = {}
    for slug, contribution in fed.items():
        for claim in contribution.claims:
            out.setdefault(claim.evidence.start, set()).add(slug)
    return out


RECORD_PAGES = {**PAGES, "adr-009": ["ADR-009"], "home": ["/home"], "lto-9": ["LTO-9"], "render": ["Render"],
                "shiftly": ["Shiftly"]}
RECORD = "ADR-009: Back up /home to tape"


@pytest.mark.parametrize(("statements", "claims", "reached"), [
    # a price the reading takes for LTO-9's: not the record's nor /home's (it stays on LTO-9's page)
    ([("Running cost: about 40 LTO-9 cartridges a year, roughly £3,200.", "Context")],
     [("LTO-9", "price", "£3,200")], {3: {"lto-9"}}),
    # ... the same line with the note's own field (the title's value) stays with the title
    ([("Running cost: about 40 LTO-9 cartridges a year, roughly £3,200.", "Context")],
     [("LTO-9", "price", "£3,200"), (RECORD, "Running cost", "about 40 LTO-9 cartridges a year, roughly £3,200.")],
     {3: {"adr-009", "home", "lto-9"}}),
    # a line naming nothing stays; one naming another thing and not the title's leaves what the decision names,
    # not the record (title_scope, session 25)
    ([("Tape is cheaper than Render per TB.", "Options"), ("Target go-live 7 Dec 2026.", "")],
     [], {3: {"adr-009", "render"}, 4: {"adr-009", "home"}}),
    # ... unless it is a field of the note
    ([("Options: tape, or Render per TB.", "")], [], {3: {"adr-009", "home", "render"}}),
    # a section headed by its own thing keeps what it holds: only the title's place is left
    ([("cheaper than Render, $19 a month", "Shiftly")], [("Render", "price", "$19")],
     {3: {"shiftly", "render"}}),
])
def test_a_statement_stating_a_value_of_another_thing_leaves_its_titles_pages(
        statements: list[tuple[str, str]], claims: list[tuple[str, str, str]], reached: dict[int, set[str]]) -> None:
    assert _claims_reached(RECORD, statements, claims, RECORD_PAGES) == reached
