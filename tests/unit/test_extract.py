"""Extraction: structured facts, prose patterns, entities, the typed form and the compile-loss guard."""

from __future__ import annotations

import json

from kctui.compiler.builtin.document import Claim, Evidence, Extraction, cited_lines, extract_document
from kctui.compiler.readers import read_source
from kctui.core.values import cited_lines_contain, normalise_value

DIGEST = "sha256:" + "1" * 64

ENDOFLIFE = """---
title: Widget Server
category: server-app
tags: java-runtime web
releases:
  - releaseCycle: "2.1"
    releaseDate: 2025-03-18
    eol: false
    latest: "2.1.4"

  - releaseCycle: "1.10"
    releaseDate: 2023-06-13
    eol: 2024-11-06
    latest: "1.10.2"
---

> [Widget Server](https://example.org/) is an open-source server for widgets used by thousands of
> companies.

All major releases are supported for 18 months.

*[LTS]: Long-Term Support
"""


def extract(path: str, text: str) -> Extraction:
    doc = read_source(path, text.encode("utf-8"), DIGEST)
    return extract_document(doc)


def _find(ex: Extraction, attribute: str, scope: str = "") -> Claim:
    return next(c for c in ex.claims if c.attribute == attribute and c.scope == scope)


def test_frontmatter_releases_become_scoped_claims_citing_their_record() -> None:
    ex = extract("products/widget.md", ENDOFLIFE)
    lines = ENDOFLIFE.split("\n")
    latest = _find(ex, "latest", "2.1")
    assert latest.subject == "Widget Server" and latest.value == "2.1.4" and latest.form == "fact"
    # one record, one citation: its first key to its last value (a table row on the page)
    ev = latest.evidence
    assert lines[ev.start - 1] == '  - releaseCycle: "2.1"' and lines[ev.end - 1] == '    latest: "2.1.4"'
    record = [c for c in ex.claims if c.scope == "2.1"]
    assert {c.attribute for c in record} == {"releaseCycle", "releaseDate", "eol", "latest"}
    assert {c.evidence for c in record} == {ev} and _find(ex, "releaseCycle", "2.1").value == "2.1"
    # a list of one record is no record list: its values cite their own lines, as before
    single = ENDOFLIFE.split('  - releaseCycle: "1.10"')[0] + "---\n"
    one = extract("products/widget.md", single)
    latest = _find(one, "latest", "2.1")
    assert lines[latest.evidence.start - 1] == '    latest: "2.1.4"' == lines[latest.evidence.end - 1]
    assert not [c for c in one.claims if c.attribute == "releaseCycle"]
    assert _find(ex, "latest", "1.10").value == "1.10.2"  # 1.10 stays 1.10, not the float 1.1
    assert _find(ex, "eol", "2.1").value == "false" and _find(ex, "eol", "1.10").value == "2024-11-06"
    assert _find(ex, "category").value == "server-app"
    assert ex.subject is not None and ex.subject.name == "Widget Server" and ex.subject.entity_type == "product"
    assert ex.tags == ("java-runtime", "web") and ex.source_type == "data"
    assert ex.summary and ex.summary[0].startswith("Widget Server is an open-source server")


def test_every_claim_cites_lines_containing_its_value() -> None:
    ex = extract("products/widget.md", ENDOFLIFE)
    doc = read_source("products/widget.md", ENDOFLIFE.encode(), DIGEST)
    assert ex.claims
    for claim in ex.claims:
        assert claim.evidence.digest == DIGEST and claim.evidence.path == "products/widget.md"
        assert cited_lines_contain(cited_lines(doc, claim.evidence), claim.value), claim


def test_prose_statement_about_the_subject_and_abbreviation_concept() -> None:
    ex = extract("products/widget.md", ENDOFLIFE)
    statement = next(c for c in ex.claims if c.form == "statement")
    assert statement.subject == "Widget Server" and statement.attribute == "is"
    assert statement.value.startswith("an open-source server for widgets")
    assert (statement.evidence.start, statement.evidence.end) == (17, 18)
    lts = next(c for c in ex.concepts if c.name == "Long-Term Support")
    assert lts.aliases == ("LTS",)
    assert _find(ex, "stands for").subject == "LTS"


def test_tables_definition_lists_and_key_value_lines() -> None:
    text = (
        "# Gizmo\n\n- Start Date: 2014-03-20\n- Owner: Acme Ltd.\n\n"
        "| Version | Support | Minimum Java |\n| --- | --- | --- |\n| 10.1 | active | 21 |\n| 9.4 | - | 8 |\n\n"
        "Sprocket\n: a toothed wheel\n\nThe gizmo ships from Acme Ltd. twice a year.\n"
    )
    ex = extract("notes/gizmo.md", text)
    assert _find(ex, "Start Date").value == "2014-03-20"
    assert _find(ex, "Minimum Java", "10.1").value == "21" and _find(ex, "Minimum Java", "9.4").value == "8"
    assert not any(c.attribute == "Support" and c.scope == "9.4" for c in ex.claims)  # "-" is no value
    definition = next(c for c in ex.claims if c.subject == "Sprocket")
    assert definition.attribute == "definition" and definition.value == "a toothed wheel"
    assert any(c.name == "Sprocket" for c in ex.concepts)
    acme = next(e for e in ex.entities if e.name == "Acme")
    assert acme.entity_type == "company" and "Acme Ltd" in acme.aliases
    assert ex.subject is not None and ex.subject.name == "Gizmo"  # an opening H1 over facts


def test_definitions_and_named_entities_in_prose() -> None:
    text = (
        "- Start Date: 2014-04-08\n\n## Summary\n\nSplit `libstd` into a facade.\n\n"
        "A *trait object* is a value whose type is erased behind a trait.\n"
        "The `<p>` inside of `#[cfg(<p>)]` will be called a *cfg pattern* here.\n\n"
        "The core team and the lang team agree. The `regex` crate uses the standard library.\n"
        "Cargo is the package manager of Rust.\n\nShould we split further?\n"
    )
    ex = extract("text/0040-facade.md", text)
    names = {c.name for c in ex.concepts}
    assert {"trait object", "cfg pattern"} <= names
    trait = next(c for c in ex.claims if c.subject == "trait object")
    assert trait.form == "statement" and trait.value == "a value whose type is erased behind a trait"
    entities = {e.name: e.entity_type for e in ex.entities}
    assert "Cargo" not in entities  # a common English word is no name, even capitalised
    assert not any(n.endswith("team") for n in entities)  # "the core team" is a common word and "team"
    assert "regex" not in entities and "libstd" not in entities  # a code span alone is no name
    role = next(c for c in ex.claims if c.subject == "Rust")  # "X is the <role> of Y": Y's role is X
    assert (role.attribute, role.value, role.form) == ("package manager", "Cargo", "fact")
    assert [q.text for q in ex.questions] == ["Should we split further?"]
    assert ex.summary and ex.summary[0] == "Split `libstd` into a facade."
    assert ex.subject is None  # no frontmatter title, no opening H1: the RFC itself is no entity


def test_claim_id_is_a_fingerprint_of_normalised_fields() -> None:
    ev = Evidence("a.md", 1, 1, DIGEST)
    a = Claim("Apache Kafka", "Release Date", "2025-03-18", "4.0", "fact", "kv", ev)
    b = Claim("apache  KAFKA", "releaseDate", "'2025-03-18'", " 4.0 ", "fact", "table", Evidence("b.md", 9, 9, DIGEST))
    c = Claim("Apache Kafka", "releaseDate", "2025-03-19", "4.0", "fact", "kv", ev)
    assert a.claim_id == b.claim_id != c.claim_id
    assert a.key == b.key
    assert normalise_value("1,000") == "1000" and normalise_value("Yes") == "true"
    assert normalise_value("50 MB") == "50 mb" and Claim("x", "size", "50 MB", "", "fact", "kv", ev).unit == "mb"
    assert normalise_value("1.10") != normalise_value("1.1")


def test_compile_loss_guard_counts_numbers_that_reach_no_claim() -> None:
    text = "# Notes\n\nThe widget shipped in 2019 with 42 parts.\n\n- Version: 3.2.1\n\n```\nignored 777\n```\n"
    ex = extract("notes.md", text)
    assert "3.2.1" not in ex.unreached  # reached the Version claim
    assert {"2019", "42"} <= set(ex.unreached)
    assert "777" not in ex.unreached  # code is not prose


def test_extraction_json_round_trip_is_exact() -> None:
    ex = extract("products/widget.md", ENDOFLIFE)
    back = Extraction.from_json(json.loads(json.dumps(ex.to_json())))
    assert back == ex and ex.statements  # every statement too, with its section
    assert [c.claim_id for c in back.claims] == [c.claim_id for c in ex.claims]


def test_extraction_is_deterministic() -> None:
    assert extract("products/widget.md", ENDOFLIFE).to_json() == extract("products/widget.md", ENDOFLIFE).to_json()


import pytest  # noqa: E402

from kctui.compiler.builtin import terms  # noqa: E402


def _defined_terms(text: str) -> dict[str, str]:
    """Defined term -> the value of its definitional claim, through the whole extractor's check that
    the value is in the cited lines."""
    ex = extract("notes/terms.md", text)
    return {c.subject: c.value for c in ex.claims if c.origin == "definition"}


@pytest.mark.parametrize("text, term, value_part", [
    # a definition inside a bold lead: the inner term is the one defined
    ("1. **Sealed traits:** A *sealed trait* is a trait that no other crate can implement.\n",
     "sealed trait", "a trait that no other crate"),
    # the defined value keeps its code marks, so it is found in the cited line
    ("A thin pointer is a pointer `p as T` where `T` has a known size.\n", "thin pointer", "a pointer `p as T`"),
    # a glossary item whose term is in a code span, a common word included
    ("## Terms\n\n- `matcher`: the left-hand side of a rule in a grammar.\n- `token`: an atomic element of a matcher.\n",
     "matcher", "the left-hand side of a rule"),
    # a marked term anywhere in the sentence, then a defining verb
    ("At this stage `Blob` is defined as a wrapper over a byte slice.\n", "Blob", "defined as a wrapper"),
    ('In this document, the "tool environment" refers to the set of tools a job can call.\n',
     "tool environment", "the set of tools"),
    # a quoted term after "known as", an unmarked one after "are called" / "(dubbed …)"
    ('The runtime keeps a hidden bit, known as the "drop-flag", in each value.\n', "drop-flag", "known as the"),
    ("Declarations that only create aliases are called (by the author) view items.\n", "view items", "are called"),
    ("Over time the compiler learned to build static archives (dubbed rlibs).\n", "rlibs", "dubbed rlibs"),
])
def test_definition_shapes_define_their_term(text: str, term: str, value_part: str) -> None:
    found = _defined_terms(text)
    assert term in found, found
    assert value_part in found[term]


@pytest.mark.parametrize("text", [
    "This is a problem.\n",
    "It is a trait that nobody implements.\n",
    "## A sealed trait is a trait\n\nSome text under it.\n",
    "```\nA widget is a thing that we draw.\n`x` means the input\n```\n",
    "The callback is called asynchronously.\n",
    "The hook is called often.\n",
    "The value is known as expected.\n",
    "- `see below`\n",
    "- `x`: 1\n",
    "1. **Tue** — api-gw 502s for 6 min, the cert on lb-03 expired.\n",  # a day dates its item, defines nothing
    "- **Sept**: Fastly renewal, $4,100.\n",
])
def test_shapes_that_do_not_define(text: str) -> None:
    assert _defined_terms(text) == {}


def test_a_bold_label_over_a_definition_is_not_itself_a_term() -> None:
    found = _defined_terms("1. **Sealed traits:** A *sealed trait* is a trait that no other crate can implement.\n")
    assert "Sealed traits" not in found
    assert terms.good_term("`Walker<'a>`") == "Walker"


@pytest.mark.parametrize(("text", "described"), [
    ("We moved alerts to Zentrix (a monitoring vendor) last year.", "a monitoring vendor"),
    ("Quick summary after today's call with Zentrix (our AE there is Mira Kowal).", None),  # a clause, not a type
    ("Ping Zentrix (the account manager has the quote) today.", None),
])
def test_a_noun_phrase_in_brackets_describes_the_name_before_it_and_a_clause_does_not(text: str, described: str | None) -> None:
    ex = extract("notes/zentrix.md", f"# Notes\n\n{text}\n\nZentrix renews on 2026-09-30.\n")
    got = [c.value for c in ex.claims if c.subject == "Zentrix" and c.attribute == "is"]
    assert got == ([described] if described else [])


def test_a_sentence_about_a_person_by_their_given_name_is_one_claim_on_their_page() -> None:
    ex = extract("notes/team.md", "# Team\n\nPresent: Quen Ashby, Ilse Brandt, Rose Vail\n\n"
                                  "Ilse is the contact for Zentrix and Korvo.\n")
    said = [c for c in ex.claims if c.attribute == "is" and "contact for Zentrix" in c.value]
    assert [c.subject for c in said] == ["Ilse Brandt"]  # not "Ilse" beside it, the same line twice


@pytest.mark.parametrize("text", ["Dave is on leave Thu-Fri 29-30 Oct, cover is Quen.", "Backups run Mon–Wed only.",
                                  "The Jan/Feb invoices are late."])
def test_a_span_of_days_or_months_is_no_name(text: str) -> None:
    ex = extract("notes/leave.md", f"# Leave\n\n{text}\n")
    assert not [e.name for e in ex.entities if any(ch in e.name for ch in "-–/")]


def test_a_title_with_a_dot_opens_the_person_s_name() -> None:
    ex = extract("notes/efb.md", "# EFB\n\nAttendees: Quen, Capt. Ilse Brandt (Flight Ops), Rose\n\n"
                                 "- Capt. Ilse Brandt signs off the EFB policy by 12 Dec.\n")
    names = {e.name: e for e in ex.entities}  # one name, as "Prof. Osei" is, titled by the full name
    assert "Capt. Ilse Brandt" in names["Ilse Brandt"].aliases  # (builtin/titled_people.py, session 32)
    assert "Capt" not in names and "Capt. Ilse Brandt" not in names


def test_a_vendor_list_s_product_column_names_what_the_row_is_about() -> None:
    """"Vendor | Product / service | …": the row's cost and renewal are the product's facts too (with its
    vendor), a release after its name is its version, and a description in that column names nothing."""
    text = ("# Vendors\n\n| Vendor | Product / service | What we have | Cost | Renewal |\n|---|---|---|---|---|\n"
            "| Paessler | PRTG 500 | 500 sensors | £2,150/yr | 3 Mar 2027 |\n"
            "| Telvane Systems | Overwatch Historian 7.4 | bundled | — | 1 Apr 2027 |\n"
            "| Caledon Networks | Aruba support + on-site | 8x5 NBD | £9,800/yr | 31 Jan 2027 |\n")
    ex = extract("vendors.md", text)
    types = {e.name: e.entity_type for e in ex.entities}
    assert types["PRTG 500"] == "service" and types["Overwatch Historian"] == "service"  # not a person
    assert "Aruba support + on-site" not in types
    prtg = {(c.attribute, c.value) for c in ex.claims if c.subject == "PRTG 500"}
    assert {("Cost", "£2,150/yr"), ("Renewal", "3 Mar 2027"), ("Vendor", "Paessler")} <= prtg
    assert ("version", "7.4") in {(c.attribute, c.value) for c in ex.claims if c.subject == "Overwatch Historian"}
    assert _find(ex, "Cost", "").subject == "Paessler"  # the vendor keeps the row too


def test_a_table_of_tasks_names_no_thing_by_its_task_column() -> None:
    """"task | owner | due": a task is a phrase that may name something ("Renew PagerDuty seats"), not a
    thing of its own; the row is its owner's (their page says the task and its due date), and the vendor
    list's names still name things."""
    text = ("# TODO\n\n| task | owner | due |\n|---|---|---|\n"
            "| Migrate artefacts to R2 | Ines | 15 Jan |\n"
            "| Renew PagerDuty seats | Kwabena | 31 Dec |\n"
            "| Bluebeam licence for Amara | Harriet | asap |\n\n"
            "| vendor | cost |\n|---|---|\n| PagerDuty | $2,520/yr |\n| Jamf Pro | $4,100/yr |\n")
    ex = extract("todo.md", text)
    names = {e.name for e in ex.entities}
    assert not names & {"Migrate artefacts to R2", "Renew PagerDuty seats", "Bluebeam licence for Amara"}
    assert {"PagerDuty", "Jamf Pro"} <= names
    assert ("task", "Renew PagerDuty seats") in {(c.attribute, c.value) for c in ex.claims if c.subject == "Kwabena"}
