"""Which entity pages a statement names (kctui.compiler.steps.name_finder.NameFinder) and reaches
(kctui.compiler.steps.statement_pages), and the notes the mention step attaches (kctui.compiler.steps.mentions)."""

from __future__ import annotations

import pytest

from kctui.compiler.extraction import Extraction, Statement
from kctui.compiler.steps.mentions import PER_SOURCE, attach
from kctui.compiler.steps.name_finder import NameFinder
from kctui.compiler.steps.registry import Contribution
from kctui.core.claims import Claim, Evidence

PAGES = {
    "piano": ["Piano"],
    "prebid": ["prebid"],
    "paywall-api": ["paywall-api"],
    "control-room": ["control room"],
    "go": ["Go"],
    "tom-ellery": ["Tom Ellery", "Tom"],
    "the": ["The"],
    "kubernetes": ["Kubernetes", "k8s"],
    "burrow-rev-c": ["Burrow rev C", "rev C"],
    "ben": ["ben"],  # a roster's name written in lower case
}


@pytest.mark.parametrize(("text", "found"), [
    ("check Piano status page", {"piano"}),
    ("Piano support: support@piano.io, contract #NSM-2291", {"piano"}),  # at the start too
    ("Piano's webhook retries", {"piano"}),  # a possessive
    ("the piano in the lobby is out of tune", set()),  # an English word in lower case is that word
    ("check status.piano.io first", set()),  # a domain is a word of its own
    ("prebid bumped to 8.52", {"prebid"}),  # a name no dictionary knows: any case
    ("Prebid is flat", {"prebid"}),
    ("restart paywall-api now", {"paywall-api"}),
    ("paywall-api-v2 is next", set()),  # another name that begins with it
    ("paywall api is down", set()),
    ("the control room called", set()),  # lower-case common words alone say nothing
    ("Go 1.22 is out", {"go"}),  # a two-letter name only as written
    ("go ahead and merge", set()),
    ("Tom Ellery sent the quote", {"tom-ellery"}),
    ("thanks, Tom", {"tom-ellery"}),
    ("the tom-tom drum", set()),
    ("The end", set()),  # a function word is never looked for
    ("k8s upgrade to 1.29 next sprint", {"kubernetes"}),  # an alias
    ("rev C draws ~11 µA asleep", {"burrow-rev-c"}),  # common words, but a later word's capital marks them
    ("the rev was fine", set()),
    ("Ben's booked you on the course", {"ben"}),  # one ordinary word in lower case: found capitalised
    ("the ben nevis trip", set()),
    ("", set()),
])
def test_a_statement_names_the_pages_whose_names_it_holds(text: str, found: set[str]) -> None:
    assert NameFinder(PAGES).find(text) == found


def _statement(line: int, text: str) -> Statement:
    return Statement(text, "", line, line)


def test_each_statement_goes_once_to_each_page_it_names_unless_the_page_says_it_already() -> None:
    ex = Extraction("runbook.md", "sha256:x", "markdown", "Runbook", "note", "general",
                    statements=[_statement(3, "check Piano status page"), _statement(4, "Piano and prebid 8, see KF-881"),
                                _statement(5, "nothing here"), _statement(6, "prebid pinned")])
    at = Evidence("runbook.md", 4, 4, "sha256:x")
    fed = {"prebid": Contribution(claims=[Claim("prebid", "version", "8", "", "fact", "statement", at),
                                          Claim("prebid", "note", "prebid pinned", "", "fact", "statement",
                                                Evidence("runbook.md", 6, 6, "sha256:x"))])}
    attach(ex, fed, NameFinder(PAGES), {"piano": "Piano", "prebid": "prebid"})
    assert [(c.subject, c.value, c.evidence.start) for c in fed["piano"].claims] == [
        ("Piano", "check Piano status page", 3), ("Piano", "Piano and prebid 8, see KF-881", 4)]
    # the claim that took one value of line 4 does not say the rest of it; line 6 is on the page whole
    assert [(c.attribute, c.value) for c in fed["prebid"].claims] == [
        ("version", "8"), ("note", "prebid pinned"), ("note", "Piano and prebid 8, see KF-881")]


def test_one_source_gives_one_page_at_most_per_source_statements_and_per_source_more_holding_a_value() -> None:
    steps = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
             "thirteen", "fourteen", "fifteen"]
    ex = Extraction("runbook.md", "sha256:x", "markdown", "Runbook", "note", "general",
                    statements=[_statement(k, f"Piano step {w}") for k, w in enumerate(steps, 1)]
                    + [_statement(20 + k, f"Piano renews on {k} March") for k in range(1, 4)])
    fed: dict = {}
    attach(ex, fed, NameFinder(PAGES), {"piano": "Piano"})
    assert len(fed["piano"].claims) == PER_SOURCE + 3  # the statements holding a value are counted apart
    ex.statements = [_statement(k, f"Piano renews on {k} March") for k in range(1, PER_SOURCE + 5)]
    fed = {}
    attach(ex, fed, NameFinder(PAGES), {"piano": "Piano"})
    assert len(fed["piano"].claims) == PER_SOURCE
    ex.title = "Piano renewal"  # the page of what the source is about gets every stated fact
    fed = {}
    attach(ex, fed, NameFinder(PAGES), {"piano": "Piano"})
    assert len(fed["piano"].claims) == PER_SOURCE + 4


def test_a_sentence_naming_nothing_continues_the_subject_of_the_one_before() -> None:
    def st(line: int, text: str, follows: bool) -> Statement:
        return Statement(text, "", line, line, "line", follows)

    ex = Extraction("n.md", "sha256:x", "markdown", "Notes", "note", "general",
                    statements=[st(3, "Piano sent the quote.", False), st(3, "It is $2,150/mo.", True),
                                st(3, "Tooling unchanged at $500.", True), st(4, "Budget is $9k.", False),
                                st(5, "prebid bumped to 8.52.", False), st(5, "Piano renews in May.", True),
                                st(5, "Signed by Friday.", True)])
    fed: dict = {}
    attach(ex, fed, NameFinder(PAGES), {"piano": "Piano", "prebid": "prebid"})
    assert {slug: [c.value for c in fed[slug].claims] for slug in fed} == {
        "piano": ["Piano sent the quote.", "It is $2,150/mo.", "Tooling unchanged at $500.", "Piano renews in May.",
                  "Signed by Friday."],
        "prebid": ["prebid bumped to 8.52."]}  # a new line is no continuation; a sentence naming a thing is its own


def test_a_paragraphs_later_sentence_on_the_same_line_follows_the_one_before() -> None:
    from kctui.compiler.builtin.sentences import units
    from kctui.compiler.builtin.statements import all_statements

    doc = _doc("# n\n\nPiano sent the quote. It is $2,150/mo.\nBudget is $9k.\n\n- Piano one\n- It two\n")
    got = [(s.value, s.follows) for s in all_statements(doc, units(doc))]
    assert got == [("Piano sent the quote.", False), ("It is $2,150/mo.", True), ("Budget is $9k.", False),
                   ("Piano one", False), ("It two", False)]


@pytest.mark.parametrize(("text", "follows"), [
    ("- Quarkbin 2.4 rollout paused\n- resumes mon 9 mar, 40% of hosts\n", True),  # a value, next item
    ("- Quarkbin 2.4 rollout paused\n- resume once ops signs off\n", False),  # no value of its own
    ("- Quarkbin 2.4 rollout paused\n\n- resumes mon 9 mar\n", False),  # a blank line: another list
    ("- Quarkbin 2.4 rollout paused\n  - resumes mon 9 mar\n", False),  # nested: its parent's (recall)
    ("Quarkbin rollout paused.\n- resumes mon 9 mar\n", False),  # an item after a paragraph
    ("1. stop the Quarkbin agent\n2. wait 90 s for the drain\n", True),  # a numbered step too
    ("- engine: Quarkbin\n- first release: 12 may 2019\n", False),  # a field of a list of fields
    ("- Quarkbin live since 1 Oct. Ops like it\n- cost £96/month\n", True),  # after an item of two sentences
])
def test_a_list_item_holding_a_value_right_after_its_sibling_follows_it(text: str, follows: bool) -> None:
    from kctui.compiler.builtin.sentences import units
    from kctui.compiler.builtin.statements import all_statements

    doc = _doc("# n\n\n" + text)
    got = [s.follows for s in all_statements(doc, units(doc))]
    assert got[-1] is follows and not got[0]


def test_a_continuation_naming_nothing_or_a_thing_after_its_opening_words_reaches_the_topic_before() -> None:
    ex = Extraction("n.md", "sha256:x", "markdown", "Notes", "note", "general",
                    statements=[Statement("Piano renewal slipped from 8 oct", "", 3, 3, "line"),
                                Statement("new date thu 15 oct", "", 4, 4, "line", True),
                                Statement("moved to 16 oct, prebid 8.52 first", "", 5, 5, "line", True),
                                Statement("prebid bumped to 8.52", "", 6, 6, "line", True),
                                Statement("rolled back at 14:40", "", 7, 7, "line", True),
                                Statement("budget 3k, Piano pays", "", 8, 8, "line")])
    fed: dict = {}
    attach(ex, fed, NameFinder(PAGES), {"piano": "Piano", "prebid": "prebid"})
    assert {slug: [c.value for c in fed[slug].claims] for slug in fed} == {
        # a continuation naming a thing only after its opening words stays on the topic too; one that
        # opens with a name is its own; a statement that continues nothing is about what it names
        "piano": ["Piano renewal slipped from 8 oct", "new date thu 15 oct", "moved to 16 oct, prebid 8.52 first",
                  "budget 3k, Piano pays"],
        "prebid": ["moved to 16 oct, prebid 8.52 first", "prebid bumped to 8.52", "rolled back at 14:40"]}


def _doc(text: str):  # noqa: ANN202
    from kctui.compiler.readers.markdown import read_markdown

    return read_markdown("standup.md", text, "sha256:x", len(text))


STANDUP = """# standup mon 23 nov

**Tom**
- Fastly quote came in, £2,150/mo. pushing back
- will sort Stripe creds

## Grace (on call)
- iOS 5.12 in review

Notes:
- nothing else
"""


def test_a_statement_stands_in_the_section_its_heading_or_lead_line_heads() -> None:
    from kctui.compiler.builtin.statements import section_leads

    leads = section_leads(_doc(STANDUP))
    assert (leads.get(4), leads.get(5), leads.get(8), leads.get(11), leads.get(1)) == ("Tom", "Tom", "Grace (on call)", "Notes", None)


def test_a_statement_reaches_the_page_its_section_or_else_its_title_names() -> None:
    def st(line: int, text: str, scope: str = "") -> Statement:
        return Statement(text, scope, line, line)

    pages = {"tom": ["Tom"], "grace": ["Grace"], "paywall-api": ["paywall-api"]}
    ex = Extraction("n.md", "sha256:x", "markdown", "Runbook: paywall-api (owner Tom)", "note", "general",
                    statements=[st(3, "will sort Stripe creds", "Tom"), st(4, "restart it", "escalation"),
                                st(5, "roll back", ""), st(6, "Tom and Grace", "Tom, Grace"),
                                st(7, "sort the budget", "Tom, Grace"), st(8, "renew at £5,090", "Tom / Grace")])
    fed: dict = {}
    attach(ex, fed, NameFinder(pages), {"tom": "Tom", "grace": "Grace", "paywall-api": "paywall-api"})
    assert {slug: [c.evidence.start for c in fed[slug].claims] for slug in fed} == {
        "tom": [3, 6, 7, 8], "grace": [6, 8], "paywall-api": [4, 5]}  # a section naming two is about the
    # first; one headed by names joined ("Tom / Grace") is about each


def test_a_lead_line_of_two_names_joined_leads_its_list() -> None:
    from kctui.compiler.builtin.statements import section_leads

    leads = section_leads(_doc("# standup\n\nRosa / LibCal\n- going with the 2-yr deal at £5,090\n"))
    assert leads.get(4) == "Rosa / LibCal"


def test_a_title_or_heading_naming_several_things_is_about_the_one_it_names_first() -> None:
    finder = NameFinder({"primo": ["Primo"], "primo-ve": ["Primo VE"], "huaxin": ["Huaxin"], "dfm": ["DFM"]})
    assert finder.first("Postmortem: Primo VE login failures") == "primo-ve"  # the longest that starts there
    assert finder.first("email huaxin dfm review") == "huaxin"
    assert finder.first("Weekly notes") == ""


def test_a_name_that_lands_on_a_page_by_its_alias_becomes_one_of_the_pages_names() -> None:
    """("Amazon Elastic Kubernetes Service (Amazon EKS)" on the page "Amazon EKS": the next pass finds the
    page by that name too, so a full pass does not take the source for changed and read it again.)"""
    from kctui.compiler.extraction import Entity
    from kctui.compiler.previous.wiki import PreviousWiki
    from kctui.compiler.steps.registry import Registry, route

    evidence = Evidence("eks.md", 1, 1, "sha256:x")
    ex = Extraction("eks.md", "sha256:x", "markdown", "Amazon EKS", "article", "general",
                    subject=Entity("Amazon EKS", "service", "Amazon EKS", (), evidence),
                    entities=[Entity("Amazon Elastic Kubernetes Service", "service", "Amazon EKS", ("Amazon EKS",), evidence)])
    registry = Registry(PreviousWiki())
    fed = route(ex, registry)
    assert list(fed) == ["amazon-eks"] and fed["amazon-eks"].aliases == {"Amazon Elastic Kubernetes Service"}


def test_a_section_headed_by_a_name_alone_is_about_it_in_any_case():
    from kctui.compiler.steps.name_finder import NameFinder
    finder = NameFinder({"tomasz-wrobel": ["Tomasz Wróbel", "Tom"], "grace": ["Grace"]})
    assert finder.find("tom") == set()  # a name English knows as a word: only as the note capitalises it
    assert finder.named("tom") == {"tomasz-wrobel"}  # … but a section headed "**tom**" is tom's
    assert finder.named("tom and grace") == set()  # the whole lead, nothing more
    assert finder.named("Grace") == {"grace"}


def test_a_name_without_its_company_suffix_is_one_of_its_forms() -> None:
    from kctui.compiler.steps.name_forms import short_forms

    assert short_forms({"polar": ["Polar Process Ltd"], "acme": ["Acme Inc.", "Acme"], "veeam": ["Veeam Backup"]}) \
        == {"polar": ["Polar Process"]}


def test_a_title_or_heading_holding_a_value_is_a_statement_and_a_less_than_sign_is_no_markup() -> None:
    from kctui.compiler.builtin.sentences import units
    from kctui.compiler.builtin.statements import all_statements

    doc = _doc("# Onboarding — Ravi Menon (starts Mon 16 Nov 2026)\n\n## Atlas cutover (14–15 Mar)\n\n## Notes\n\n"
               "p95 is ~41s, target is <20s.\n\nsee <https://example.com/x> now\n")
    got = [(s.value, s.scope, s.start) for s in all_statements(doc, units(doc))]
    assert got == [("p95 is ~41s, target is <20s.", "Notes", 7),
                   ("Onboarding — Ravi Menon (starts Mon 16 Nov 2026)", "Onboarding — Ravi Menon (starts Mon 16 Nov 2026)", 1),
                   ("Atlas cutover (14–15 Mar)", "Atlas cutover (14–15 Mar)", 3)]


def test_an_email_s_header_greeting_and_sign_off_say_nothing_of_its_subject() -> None:
    """The subject line names PagerDuty: the sentences of the email reach its page, but its header
    fields, its greeting and its sign-off do not (they said "Date: Mon, 30 Nov 2026" of PagerDuty)."""
    lines = ["Date: Mon, 30 Nov 2026 09:12", "Hi Omar,", "Your plan renews on 15 January 2027.", "restart it",
             "Thanks, Dana", "done"]
    ex = Extraction("email.md", "sha256:x", "markdown", "PagerDuty renewal", "note", "general",
                    statements=[_statement(k, text) for k, text in enumerate(lines, start=1)])
    fed: dict = {}
    attach(ex, fed, NameFinder({"pagerduty": ["PagerDuty"]}), {"pagerduty": "PagerDuty"})
    assert [c.value for c in fed["pagerduty"].claims] == ["Your plan renews on 15 January 2027.", "restart it"]


def test_a_table_row_read_as_facts_or_a_labelled_item_its_claim_holds_is_said_already() -> None:
    """The row "3.12 | 2023-10-02 | 2028-10-31" whose cells are the page's facts, and "Action: check the
    date" whose action-item claim holds it, are not listed again as notes (the demo's Python page had
    shown each twice); a claim that took one value of a sentence does not say the rest of it."""
    from kctui.compiler.steps.said import said

    ev = Evidence("r.md", 13, 13, "sha256:x")
    row = Claim("Python", "end of life", "2028-10-31", "3.12", "fact", "table", ev)
    item = Claim("Python", "Action", "check the date against the release page", "", "fact", "statement", ev)
    version = Claim("Python", "version", "3.12", "", "fact", "statement", ev)
    assert said("3.12 | 2023-10-02 | 2028-10-31", ev, [row])
    assert said("Action: check the date against the release page", ev, [item])
    assert not said("Python 3.12 ends its support on 2028-10-31.", ev, [version])


def test_a_sentence_continues_what_the_one_before_is_about_not_a_page_it_names_later() -> None:
    """"Textual is a Python framework. It was created by Will McGugan." is about Textual (a term of the
    source, no entity page): the second sentence does not go to Python's page."""
    from kctui.compiler.extraction import Concept

    ev = Evidence("apps.txt", 3, 3, "sha256:x")
    ex = Extraction("apps.txt", "sha256:x", "text", "terminal apps", "note", "general",
                    concepts=[Concept("Textual", (), ev, "definition")],
                    statements=[Statement("Textual is a Python framework for terminals.", "", 3, 3),
                                Statement("It was created by Will McGugan.", "", 3, 4, "line", True),
                                Statement("Python releases come yearly.", "", 5, 5),
                                Statement("Each one gets five years of fixes.", "", 5, 5, "line", True)])
    fed: dict = {}
    attach(ex, fed, NameFinder({"python": ["Python"]}), {"python": "Python"})
    assert [c.evidence.start for c in fed["python"].claims] == [3, 5, 5]
    assert "It was created by Will McGugan." not in [c.value for c in fed["python"].claims]



def test_a_header_of_fields_reaches_its_senders_or_its_records_page() -> None:
    """A message's header lines (its date, its subject) reach the sender's page; a record's header fields
    reach the page of the record one field names by its identifier; a greeting after the header does not."""
    lines = ["From: Jo Quill <jo@example.com>", "To: Rafe Dunmore", "Date: Mon, 2 Nov 2026 14:12", "Hi Rafe,",
             "", "**Incident:** INC0042", "**Severity:** Sev 2 (no harm)", "**Status:** Final, circulated 3 Nov"]
    ex = Extraction("mail.md", "sha256:x", "markdown", "notes", "note", "general",
                    statements=[_statement(k, text) for k, text in enumerate(lines, start=1) if text])
    names = {"jo-quill": ["Jo Quill"], "rafe-dunmore": ["Rafe Dunmore"], "inc0042": ["INC0042"]}
    fed: dict = {}
    attach(ex, fed, NameFinder(names), {s: ns[0] for s, ns in names.items()})
    assert [c.evidence.start for c in fed["jo-quill"].claims] == [1, 2, 3]
    assert [c.evidence.start for c in fed["inc0042"].claims] == [6, 7, 8]


def test_a_chat_turn_naming_nothing_after_its_speaker_is_about_what_the_turn_before_is_about() -> None:
    """A reply names nothing of its own ("£96k year one incl. badges") yet answers the turn before,
    which asked about Quarkbin; the speakers' names are not what the turns are about."""
    values = ["**Ana Ruiz** 10:05 what did Quarkbin quote", "**Ben Ode** 10:07 £96k year one incl. badges",
              "Kick-off with Ana Ruiz next week"]
    starts = [1, 4, 7]
    ex = Extraction("chat.md", "sha256:x", "markdown", "thread", "note", "general",
                    statements=[Statement(v, "", s, s + 1) for v, s in zip(values, starts)])
    names = {"quarkbin": ["Quarkbin"], "ana-ruiz": ["Ana Ruiz"], "ben-ode": ["Ben Ode"]}
    fed: dict = {}
    attach(ex, fed, NameFinder(names), {s: ns[0] for s, ns in names.items()})
    assert [c.evidence.start for c in fed["quarkbin"].claims] == [1, 4]
    assert [c.evidence.start for c in fed["ben-ode"].claims] == [4]


@pytest.mark.parametrize(("title", "subjects"), [
    ("ADR-007: Move Quarkbin to the hosted plan", ("adr-007", "quarkbin")),  # a record and what it decides on
    ("ADR-007 — keep Quarkbin, drop Piano", ("adr-007", "quarkbin")),
    ("Quarkbin renewal, see ADR-007", ("quarkbin", "")),  # a title not opening with a record
    ("ADR-007: Message bus for telematics", ("adr-007", "")),
    ("Piano status", ("piano", "")),
    ("weekly notes", ("", "")),
])
def test_a_records_title_is_about_the_record_and_the_first_thing_its_decision_names(
        title: str, subjects: tuple[str, str]) -> None:
    from kctui.compiler.steps.statement_pages import title_subjects

    finder = NameFinder({**PAGES, "adr-007": ["ADR-007"], "quarkbin": ["Quarkbin"]})
    assert title_subjects(title, finder) == subjects
