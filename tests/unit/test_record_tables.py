"""Record tables (issue 12): a list of records on a page is one Markdown table, one cited row per record,
read back into the very claims it was rendered from; flagged values keep their own lines."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kctui.compiler.builtin.document import Claim, Evidence
from kctui.compiler.trust.changes import claim_order
from kctui.compiler.trust.kept import says
from kctui.core.pages import Page, SourceRef, kept_suffix, parse_page, render_body, render_page
from kctui.core.record_tables import explode, implode, tabulate
from kctui.search.extract import extract_page

PATH = "products/gadget.md"
DIGEST = "sha256:" + "c" * 64
R20 = Evidence(PATH, 5, 8, DIGEST)  # the record of cycle 2.0
R10 = Evidence(PATH, 9, 13, DIGEST)  # the record of cycle 1.0
L3 = Evidence(PATH, 3, 3, DIGEST)
SUBJECT = "Gadget Daemon"


def fact(attribute: str, value: str, scope: str = "", ev: Evidence = L3, subject: str = SUBJECT) -> Claim:
    return Claim(subject, attribute, value, scope, "fact", "frontmatter", ev)


def records(**override: str) -> list[Claim]:
    """Two records: 2.0 has no `lts` (a missing key), 1.0 has one."""
    r20 = {"releaseCycle": "2.0", "releaseDate": "2026-01-10", "eol": "2027-01-10", "latest": "2.0.3"}
    r10 = {"releaseCycle": "1.0", "releaseDate": "2025-01-10", "eol": "2026-01-10", "latest": "1.0.9", "lts": "true"}
    r20.update({k[4:]: v for k, v in override.items() if k.startswith("r20_")})
    return ([fact(k, v, "2.0", R20) for k, v in r20.items()] + [fact(k, v, "1.0", R10) for k, v in r10.items()])


IS = Claim(SUBJECT, "is", "a background service for gadgets", "", "statement", "statement", Evidence(PATH, 16, 16, DIGEST))


def page_of(claims: list[Claim], **kw) -> Page:  # noqa: ANN003
    """An entity page as a pass builds it: its claims in page order, a description first."""
    return Page(kind="entity", slug="gadget-daemon", title=SUBJECT, entity_type="product",
                sources=[SourceRef(PATH, DIGEST, "products-gadget-md")], claims=sorted([IS, *claims], key=claim_order),
                **kw)


def _sig(c: Claim) -> tuple:
    return (c.subject, c.attribute, c.value, c.scope, c.form, c.evidence)


def round_trip(page: Page) -> tuple[str, Page]:
    text = render_page(page, {}, "wikilink")
    return text, parse_page(text, page.slug)


def claim_section(text: str) -> list[str]:
    body = text.split("## Key Positions/Products/Claims\n\n", 1)[1]
    return body.split("\n\n## ", 1)[0].split("\n")


def test_a_record_list_renders_as_one_table_with_a_cited_row_per_record() -> None:
    claims = [fact("category", "server-app")] + records()
    text, back = round_trip(page_of(claims))
    assert claim_section(text) == [
        "* **Gadget Daemon** — category: server-app ^[products/gadget.md:L3-L3]",
        "",
        "**Gadget Daemon** — one row per releaseCycle:",
        "",
        "| releaseCycle | eol | latest | releaseDate | lts | Source |",
        "| --- | --- | --- | --- | --- | --- |",
        "| 2.0 | 2027-01-10 | 2.0.3 | 2026-01-10 |  | ^[products/gadget.md:L5-L8] |",  # no lts: an empty cell
        "| 1.0 | 2026-01-10 | 1.0.9 | 2025-01-10 | true | ^[products/gadget.md:L9-L13] |",
    ]
    assert sorted(map(_sig, back.claims)) == sorted(map(_sig, [IS, *claims]))  # the same claims, one per value
    assert {c.evidence.digest for c in back.claims} == {DIGEST}
    assert render_page(back, {}, "wikilink") == text  # read back, rendered again: the same bytes


def test_a_pipe_in_a_value_is_escaped_and_read_back() -> None:
    claims = records(r20_latest="2.0.3 | 2.0.4-rc1", r20_releaseDate="[see] <notes> & more")
    text, back = round_trip(page_of(claims))
    row = next(ln for ln in claim_section(text) if ln.startswith("| 2.0 |"))
    assert "| 2.0.3 \\| 2.0.4-rc1 |" in row and "\\[see\\] \\<notes> \\& more" in row
    assert sorted(map(_sig, back.claims)) == sorted(map(_sig, [IS, *claims]))
    assert render_page(back, {}, "wikilink") == text


def test_only_genuine_record_lists_become_tables() -> None:
    one = [c for c in records() if c.scope == "2.0"]  # a single record: its bullets, as before
    text, back = round_trip(page_of(one))
    assert not any(ln.startswith("|") for ln in claim_section(text)) and len(back.claims) == len(one) + 1
    # scoped facts without an identifying value (a Markdown table's cells in a note) stay bullets too
    cells = [fact("eol", "2024-12-01", "1.0", Evidence("notes.md", 7, 7, "")),
             fact("latest", "1.0.9", "1.0", Evidence("notes.md", 7, 7, "")),
             fact("eol", "2025-12-01", "2.0", Evidence("notes.md", 8, 8, "")),
             fact("latest", "2.0.1", "2.0", Evidence("notes.md", 8, 8, ""))]
    assert tabulate(cells, lambda c: c.value) == [c.value for c in cells]
    # a value a cell cannot give back exactly (a backslash with a pipe): its record keeps its lines; one
    # record left is no table
    odd = records(r20_latest="a\\|b")
    text, back = round_trip(page_of(odd))
    lines = claim_section(text)
    assert "* **Gadget Daemon** (2.0) — latest: a\\\\|b ^[products/gadget.md:L5-L8]" in lines
    assert not any(ln.startswith("|") for ln in lines) and sorted(map(_sig, back.claims)) == sorted(map(_sig, [IS, *odd]))


def test_a_kept_value_leaves_its_row_for_its_flagged_line() -> None:
    claims = records()
    kept_claim = next(c for c in claims if c.scope == "2.0" and c.attribute == "latest")
    entry = {"subject": SUBJECT, "attribute": "latest", "scope": "2.0", "value": "2.0.3",
             "citation": "products/gadget.md:L5-L8", "source": PATH, "pinned": "sha256:" + "d" * 64,
             "seen": DIGEST, "now": "2.0.4", "by": "human:ada", "at": "2026-05-28T10:00:00Z"}
    text, back = round_trip(page_of(claims, extra={"kept_claims": [entry]}))
    lines = claim_section(text)
    assert "| 2.0 | 2027-01-10 | ⚑ | 2026-01-10 |  | ^[products/gadget.md:L5-L8] |" in lines  # flagged in its cell
    flagged = [ln for ln in lines if ln.startswith("* ")]
    assert flagged == ["* **Gadget Daemon** (2.0) — latest: 2.0.3" + kept_suffix(entry) + " ^[products/gadget.md:L5-L8]"]
    assert "⚑ kept by a person on 2026-05-28: the source now says 2.0.4" in flagged[0]
    assert sorted(map(_sig, back.claims)) == sorted(map(_sig, [IS, *claims])) and _sig(kept_claim) in map(_sig, back.claims)
    assert render_page(back, {}, "wikilink") == text


def test_the_pages_side_of_an_open_disagreement_leaves_its_row() -> None:
    claims = records()
    head = next(c for c in claims if c.scope == "1.0" and c.attribute == "eol")
    other = fact("eol", "2026-02-01", "1.0", Evidence("notes.md", 7, 7, "sha256:" + "e" * 64))
    page = page_of(claims, compile_status="contradicted", conflicts=[[head, other]], disputed=[other])
    page.sources.append(SourceRef("notes.md", other.evidence.digest, "notes-md"))
    text, back = round_trip(page)
    lines = claim_section(text)
    assert "| 1.0 | ⚑ | 1.0.9 | 2025-01-10 | true | ^[products/gadget.md:L9-L13] |" in lines
    assert "* **Gadget Daemon** (1.0) — eol: 2026-01-10 ^[products/gadget.md:L9-L13]" in lines
    assert sorted(map(_sig, back.claims)) == sorted(map(_sig, [IS, *claims]))
    assert [[_sig(c) for c in g] for g in back.conflicts] == [[_sig(head), _sig(other)]]
    assert render_page(back, {}, "wikilink") == text


def test_explode_then_implode_gives_the_rendered_body_back() -> None:
    body = render_body(page_of([fact("category", "server-app")] + records()), {}, "wikilink")
    flat = explode(body)
    assert "|" not in flat and "* **Gadget Daemon** (1.0) — lts: true ^[products/gadget.md:L9-L13]" in flat
    assert implode(flat) == body
    assert implode(body) == body and explode(flat) == flat
    # a line edited while exploded (a person keeps a value) leaves the table; the rest is rebuilt
    line = "* **Gadget Daemon** (1.0) — latest: 1.0.9 ^[products/gadget.md:L9-L13]"
    marked = flat.replace(line, line.replace(" ^[", " (⚑ kept by a person on 2026-05-28: x) ^["))
    again = implode(marked)
    assert "| 1.0 | 2026-01-10 | ⚑ | 2025-01-10 | true | ^[products/gadget.md:L9-L13] |" in again
    assert "* **Gadget Daemon** (1.0) — latest: 1.0.9 (⚑ kept by a person on 2026-05-28: x) ^[" in again


def test_search_reads_a_row_as_its_claims() -> None:
    text = render_page(page_of(records()), {}, "wikilink")
    doc = extract_page("entities/gadget-daemon.md", text)
    eol = next(c for c in doc.claims if c["scope"] == "1.0" and c["attribute"] == "eol")
    assert eol["text"] == "Gadget Daemon (1.0) — eol: 2026-01-10" and eol["citation"] == "^[products/gadget.md:L9-L13]"
    assert eol["lines"] == [9, 13] and len(doc.claims) == len(records()) + 1


def test_a_kept_record_value_is_said_again_only_under_its_own_key(tmp_path) -> None:
    (tmp_path / "products").mkdir()
    record = '---\ntitle: Gadget Daemon\nreleases:\n  - releaseCycle: "2.0"\n    eol: {eol}\n    lts: false\n' \
             '  - releaseCycle: "1.0"\n    eol: false\n---\n'
    kept = Claim(SUBJECT, "eol", "false", "2.0", "fact", "frontmatter", Evidence(PATH, 4, 6, DIGEST))
    (tmp_path / PATH).write_text(record.format(eol="2027-06-01"), encoding="utf-8")
    assert not says(tmp_path, kept)  # `false` is on the record's lines, but as lts's value
    (tmp_path / PATH).write_text(record.format(eol="false"), encoding="utf-8")
    assert says(tmp_path, kept)


_cell = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp", "Zs")) | st.just(" "),
                min_size=1, max_size=20).map(lambda s: " ".join(s.split())).filter(bool)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_cell, st.dictionaries(st.sampled_from(["eol", "latest", "lts", "a|b", "x [y]"]), _cell,
                                                  min_size=1)), min_size=2, max_size=4, unique_by=lambda r: r[0]))
@example([("(⚑ kept by a person", {"eol": "x"}), ("b", {"eol": "y"})])  # a cell that reads like a kept mark
def test_any_record_list_reads_back_as_the_claims_it_shows(rows) -> None:  # noqa: ANN001
    claims = []
    for i, (scope, values) in enumerate(rows):
        ev = Evidence(PATH, 10 * i + 5, 10 * i + 9, DIGEST)
        claims.append(fact("version", scope, scope, ev))
        claims += [fact(k, v, scope, ev) for k, v in values.items()]
    text, back = round_trip(page_of(claims))
    assert sorted(map(_sig, back.claims)) == sorted(map(_sig, [IS, *claims]))
    assert render_page(back, {}, "wikilink") == text
