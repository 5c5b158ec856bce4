"""Page classes of wiki.md §2: rendering, the claim/citation/link grammar, and parsing back."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kctui.compiler.builtin.document import Claim, Evidence, Question
from kctui.core.frontmatter import parse_document
from kctui.core.pages import (
    Mention,
    Page,
    SourceRef,
    citation,
    claim_line,
    escape_text,
    link,
    outgoing_links,
    parse_claim_line,
    parse_page,
    render_page,
    unescape_text,
)

EV = Evidence("products/apache-kafka.md", 39, 40, "sha256:" + "a" * 64)
PDF_EV = Evidence("papers/report 1.pdf", 3, 3, "sha256:" + "b" * 64, "page")
DIGESTS = {EV.path: EV.digest, PDF_EV.path: PDF_EV.digest}


def _sig(c: Claim) -> tuple:
    return (c.subject, c.attribute, c.value, c.scope, c.form, c.evidence, c.claim_id)


def test_citation_forms() -> None:
    assert citation(EV) == "^[products/apache-kafka.md:L39-L40]"
    assert citation(PDF_EV) == "^[papers/report 1.pdf:p3]"


def test_fact_and_statement_lines_round_trip() -> None:
    fact = Claim("Apache Kafka", "latest", "4.3.1", "4.3", "fact", "frontmatter", EV)
    line = claim_line(fact)
    assert line == "* **Apache Kafka** (4.3) — latest: 4.3.1 ^[products/apache-kafka.md:L39-L40]"
    assert _sig(parse_claim_line(line, DIGESTS)) == _sig(fact)
    statement = Claim("Apache Kafka", "is", "an event streaming platform", "", "statement", "statement", PDF_EV)
    line = claim_line(statement)
    assert line == "* **Apache Kafka** is an event streaming platform ^[papers/report 1.pdf:p3]"
    assert _sig(parse_claim_line(line, DIGESTS)) == _sig(statement)


def test_values_never_form_links_outside_code() -> None:
    claim = Claim("X", "note", "see [[secret]] and [t](/concepts/a.md) but `[[kept]]`", "", "fact", "kv", EV)
    line = claim_line(claim)
    assert outgoing_links(line) == set()
    assert "`[[kept]]`" in line
    assert parse_claim_line(line, DIGESTS).value == claim.value


_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=60).map(
    lambda s: " ".join(s.split())).filter(bool)


@settings(max_examples=300, deadline=None)
@given(_text, _text, _text, st.one_of(st.just(""), _text), st.sampled_from(["fact", "statement"]))
def test_claim_line_round_trip_property(subject: str, attribute: str, value: str, scope: str, form: str) -> None:
    if form == "statement":
        attribute, scope = "is", ""
    claim = Claim(subject, attribute, value, scope, form, "kv", EV)
    parsed = parse_claim_line(claim_line(claim), DIGESTS)
    assert parsed is not None and _sig(parsed) == _sig(claim)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_escape_round_trip(text: str) -> None:
    assert unescape_text(escape_text(text)) == text


def test_link_styles() -> None:
    assert link("std", "std", "entity", "wikilink") == "[[std|std]]"
    assert link("std", "The [std] lib", "entity", "markdown") == "[The \\[std\\] lib](/entities/std.md)"
    body = "see [[std|std]] and [Cargo](/entities/cargo.md) but not `[[code]]`"
    assert outgoing_links(body) == {"std", "cargo"}


def test_a_lone_backtick_in_a_quoted_line_hides_no_link_of_the_lines_after_it() -> None:
    """A claim quoting a line with one backtick ("the `5.3.405 branch") spans no code: the links after
    it are links (read as none, a full pass took every such source for changed: incremental != full)."""
    quoted = claim_line(Claim("Releases", "note", "ships from the `5.3.405 branch", "", "fact", "statement", EV))
    body = f"{quoted}\n\n## Entities Mentioned\n\n* [[cody|Cody]]\n* [[rfc|RFC]]\n\n* {EV.path} in `code` [[x]]`\n"
    assert outgoing_links(body) == {"cody", "rfc", "x"}


def _entity_page() -> Page:
    fact = Claim("Apache Kafka", "eol", "2024-11-06", "3.8", "fact", "frontmatter", EV)
    other = Claim("Apache Kafka", "eol", "2025-01-15", "3.8", "fact", "table",
                  Evidence("notes/kafka.md", 5, 5, "sha256:" + "c" * 64))
    desc = Claim("Apache Kafka", "is", "an event streaming platform", "", "statement", "statement", EV)
    return Page(
        kind="entity", slug="apache-kafka", title="Apache Kafka", description="Apache Kafka is a platform.",
        aliases=["Kafka"], tags=["product"], domain="server-app",
        sources=[SourceRef(EV.path, EV.digest, "products-apache-kafka-md"),
                 SourceRef("notes/kafka.md", "sha256:" + "c" * 64, "notes-kafka-md")],
        compile_status="contradicted", generated_by="kctui/0.3.0 builtin", generated_at="2026-08-22T00:00:00Z",
        last_updated="2026-08-22T00:00:00Z", entity_type="product",
        claims=[fact, other, desc], mentions=[Mention("Kafka", EV)], conflicts=[[fact, other]],
        links={"Sources": [("source", "products-apache-kafka-md", "Apache Kafka"), ("source", "notes-kafka-md", "Kafka note")],
               "Related Concepts": [("concept", "long-term-support", "Long-Term Support")]},
        history=["* 2026-08-22T00:00:00Z: created from `products/apache-kafka.md`.", "  * revised x: 1 → 2"],
    )


def test_entity_page_renders_okf_frontmatter_and_sections() -> None:
    page = _entity_page()
    text = render_page(page, {EV.path: "[[products-apache-kafka-md|Apache Kafka]]"}, "wikilink")
    data, body, _ = parse_document(text)
    assert data["type"] == "Entity" and data["title"] == "Apache Kafka"
    assert data["status"] == "draft" and data["compile_status"] == "contradicted"  # a person decides
    assert data["generated"] == {"by": "kctui/0.3.0 builtin", "at": "2026-08-22T00:00:00Z"}
    assert {"title", "entity_type", "domain", "last_updated", "aliases", "sources", "compile_status"} <= set(data)
    assert data["sources"][0] == {"id": "products-apache-kafka-md", "resource": EV.path, "digest": EV.digest}
    headings = [ln[3:] for ln in body.splitlines() if ln.startswith("## ")]
    assert headings == ["Description", "Relevance", "Key Positions/Products/Claims", "Related Concepts",
                        "Related Entities", "Sources", "Updates"]
    # the visible notice shows both values with both citations
    notice = [ln for ln in body.splitlines() if ln.startswith(">")]
    assert any("2024-11-06 ^[products/apache-kafka.md:L39-L40]" in ln for ln in notice)
    assert any("2025-01-15 ^[notes/kafka.md:L5-L5]" in ln for ln in notice)
    assert outgoing_links(body) == {"products-apache-kafka-md", "notes-kafka-md", "long-term-support"}


def test_page_parses_back_to_its_state() -> None:
    page = _entity_page()
    text = render_page(page, {}, "markdown")
    back = parse_page(text, "apache-kafka")
    assert back.kind == "entity" and back.title == page.title and back.aliases == page.aliases
    assert sorted(map(_sig, back.claims)) == sorted(map(_sig, page.claims))
    assert back.mentions == page.mentions
    assert back.history == page.history
    assert back.compile_status == "contradicted"
    assert [s.resource for s in back.sources] == [s.resource for s in page.sources]


def test_source_page_round_trip_with_summary_and_questions() -> None:
    claim = Claim("Report", "Start Date", "2014-03-20", "", "fact", "kv", PDF_EV)
    page = Page(kind="source", slug="papers-report-1-pdf", title="Report", description="A report.",
                sources=[SourceRef(PDF_EV.path, PDF_EV.digest, "papers-report-1-pdf")],
                generated_by="g", generated_at="2026-01-01T00:00:00Z", last_updated="2026-01-01T00:00:00Z",
                date_ingested="2026-01-01T00:00:00Z", source_type="pdf",
                summary=("A report about [widgets].", PDF_EV), claims=[claim],
                questions=[Question("Should we?", PDF_EV)], history=["* 2026-01-01T00:00:00Z: ingested."])
    text = render_page(page, {}, "wikilink")
    data, body, _ = parse_document(text)
    assert data["type"] == "Source" and data["source_type"] == "pdf" and data["status"] == "stable"
    assert "## Summary\n\nA report about \\[widgets\\]. ^[papers/report 1.pdf:p3]" in body
    back = parse_page(text, page.slug)
    assert back.summary == page.summary and back.questions == page.questions
    assert [_sig(c) for c in back.claims] == [_sig(claim)]
    assert render_page(back, {}, "wikilink") == text  # what the compiler reads back it writes identically


def test_archived_page_is_deprecated_with_a_visible_notice() -> None:
    page = Page(kind="concept", slug="x", title="X", compile_status="archived")
    text = render_page(page, {}, "wikilink")
    data, body, _ = parse_document(text)
    assert data["status"] == "deprecated"
    lines = [ln for ln in body.splitlines() if ln.strip()]
    # the one status format of kctui.core.page_status, at the top of the body
    assert lines[0].startswith("> **Status: archived** — Archived for recovery") and lines[1] == "# X"


def test_frontmatter_stays_under_the_cap_for_a_page_with_many_sources() -> None:
    refs = [SourceRef(f"notes/{i:04d}-a-rather-long-file-name-for-a-note.md", "sha256:" + "d" * 64, f"notes-{i:04d}-md")
            for i in range(1000)]
    page = Page(kind="entity", slug="cargo", title="Cargo", sources=refs, generated_by="g",
                generated_at="2026-01-01T00:00:00Z", last_updated="2026-01-01T00:00:00Z")
    text = render_page(page, {}, "wikilink")
    data, _, _ = parse_document(text)  # the capped loader accepts it
    assert len(data["sources"]) == 200 and data["sources_omitted"] == 800
    assert parse_page(text, "cargo").extra == {}
