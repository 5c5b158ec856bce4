"""Readers: Markdown (frontmatter positions), text, HTML, PDF, and the common bad-input rules."""

from __future__ import annotations

from kctui.compiler.readers import Document, Skipped, read_source
from kctui.compiler.readers.markdown import mapping_get
from tests.helpers.pdf import make_pdf

DIGEST = "sha256:" + "0" * 64


def read(path: str, data: bytes, **kw) -> Document | Skipped:
    return read_source(path, data, DIGEST, **kw)


def test_markdown_frontmatter_keeps_scalar_lines() -> None:
    text = "---\ntitle: Widget\nreleases:\n  - releaseCycle: \"2.0\"\n    latest: \"2.0.3\"\n---\n\n# Widget\n\nBody.\n"
    doc = read("w.md", text.encode())
    assert isinstance(doc, Document) and doc.kind == "markdown" and doc.title == "Widget"
    releases = mapping_get(doc.frontmatter, "releases")
    latest = mapping_get(releases.value[0], "latest")
    assert latest.value == "2.0.3"
    assert doc.lines[latest.start_mark.line + 1 + doc.frontmatter_offset - 1] == '    latest: "2.0.3"'
    heading = next(b for b in doc.blocks if b.kind == "heading")
    assert doc.lines[heading.start - 1] == "# Widget"


def test_markdown_blocks_carry_source_lines() -> None:
    text = "Intro line one\nline two.\n\n> quoted\n> more\n\n- Key: value\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode 42\n```\n"
    doc = read("n.md", text.encode())
    kinds = [(b.kind, b.start, b.end) for b in doc.blocks]
    assert kinds == [("paragraph", 1, 2), ("quote", 4, 5), ("item", 7, 7), ("table", 9, 11), ("code", 13, 15)]
    para = doc.blocks[0]
    assert para.lines == (1, 2) and para.text == "Intro line one\nline two."
    table = doc.blocks[3]
    assert table.rows == ((9, ("a", "b")), (11, ("1", "2")))


def test_binary_markdown_is_skipped() -> None:
    result = read("image.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    assert isinstance(result, Skipped) and result.reason == "binary"


def test_invalid_utf8_is_decoded_with_replacement_and_reported() -> None:
    doc = read("latin.txt", "caf\xe9 costs 3 EUR\n".encode("latin-1"))
    assert isinstance(doc, Document)
    assert doc.lines[0] == "caf\xe9 costs 3 EUR"  # Windows-1252 decodes it cleanly (issue: QA s31 #15)
    assert doc.warnings[:1] == ["not valid UTF-8 (first bad byte at offset 3); read as Windows-1252 (Latin-1)"]
    doc = read("odd.txt", b"caf\x81 \x01 costs 3 EUR\n")  # undefined in Windows-1252, and a control byte
    assert isinstance(doc, Document) and "\ufffd" in doc.lines[0]
    assert any("replacement characters" in w for w in doc.warnings)


def test_size_cap_and_empty_file() -> None:
    big = read("big.txt", b"x" * 2048, max_bytes=1024)
    assert isinstance(big, Skipped) and big.reason == "too_large"
    empty = read("empty.md", b"  \n\n")
    assert isinstance(empty, Skipped) and empty.reason == "empty"


def test_alias_bomb_and_deep_nesting_refuse_the_frontmatter_but_keep_the_body() -> None:
    bomb = "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b]\n---\nWidget costs 5 USD.\n"
    doc = read("bomb.md", bomb.encode())
    assert isinstance(doc, Document) and doc.frontmatter is None
    assert any("aliases are not allowed" in w for w in doc.warnings)
    assert any(b.text == "Widget costs 5 USD." for b in doc.blocks)
    deep = "---\nx: " + "[" * 10_000 + "]" * 10_000 + "\n---\nStill here.\n"
    doc = read("deep.md", deep.encode())
    assert isinstance(doc, Document) and doc.frontmatter is None
    assert any("nested" in w for w in doc.warnings)


def test_unclosed_frontmatter_is_reported_and_read_as_body() -> None:
    doc = read("open.md", b"---\ntitle: x\n\nno closing fence\n")
    assert isinstance(doc, Document) and any("never closed" in w for w in doc.warnings)


def test_text_reader_paragraphs_and_items() -> None:
    doc = read("notes.txt", b"First para\ncontinues.\n\n- item one\n  more\n- item two\n")
    assert [(b.kind, b.start, b.end) for b in doc.blocks] == [("paragraph", 1, 2), ("item", 4, 5), ("item", 6, 6)]


def test_html_reader_headings_paragraphs_tables_and_definitions() -> None:
    html = (
        "<html><head><title>Widget Facts</title><script>var x = 1;</script></head><body>\n"
        "<h1>Widget</h1>\n<p>The widget is\nsmall.</p>\n"
        "<table><tr><th>version</th><th>eol</th></tr>\n<tr><td>1.0</td><td>2024-01-01</td></tr></table>\n"
        "<dl><dt>Gizmo</dt><dd>a small widget</dd></dl>\n</body></html>\n"
    )
    doc = read("w.html", html.encode())
    assert isinstance(doc, Document) and doc.title == "Widget Facts"
    para = next(b for b in doc.blocks if b.kind == "paragraph")
    assert para.text == "The widget is\nsmall." and para.lines == (3, 4)
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.rows == ((5, ("version", "eol")), (6, ("1.0", "2024-01-01")))
    deflist = next(b for b in doc.blocks if b.kind == "deflist")
    assert deflist.rows == ((7, ("Gizmo", "a small widget")),)
    assert all("var x" not in b.text for b in doc.blocks)


def test_pdf_reader_keeps_page_numbers() -> None:
    doc = read("paper.pdf", make_pdf(["Widget costs 5 USD.", "Gizmo is a small widget."]))
    assert isinstance(doc, Document) and doc.citation_unit == "page"
    assert len(doc.lines) == 2 and "Gizmo" in doc.lines[1]
    assert {(b.start, b.end) for b in doc.blocks} == {(1, 1), (2, 2)}


def test_broken_pdf_is_skipped_not_fatal() -> None:
    result = read("broken.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\ngarbage\n%%EOF")
    assert isinstance(result, Skipped) and result.reason == "unreadable" and "does not parse" in result.detail
    not_pdf = read("fake.pdf", b"hello")
    assert isinstance(not_pdf, Skipped) and not_pdf.reason == "unreadable"


def test_lone_surrogates_from_yaml_escapes_become_replacement_characters() -> None:
    doc = read("s.md", b'---\ntitle: "bad \\ud800 title"\nnote: "x \\udfff y"\n---\nBody.\n')
    assert isinstance(doc, Document) and doc.title == "bad \ufffd title"
    from kctui.compiler.builtin.document import extract_document

    ex = extract_document(doc)  # the note's line says `\udfff`, not the character: no claim can cite it
    # (the body sentence "Body." is the source page's own statement, origin "line": every sentence is cited)
    assert not [c for c in ex.claims if c.attribute == "note" and c.origin != "line"] and ex.dropped == 1


def test_a_pasted_email_is_titled_by_its_subject_line() -> None:
    text = ("From: Megan Cole <megan@vendor.example>\nTo: Rosa Mendes <rosa@uni.example>\nDate: Thu, 15 Oct 2026\n"
            "Subject: RE: Fwd: LibCal renewal 2027 - Castlebrook University\n\nHi Rosa,\n\nThe list price moves to £5,320/yr.\n")
    for path in ("email-renewal.md", "email-renewal.txt"):
        doc = read(path, text.encode())
        assert isinstance(doc, Document) and doc.title == "LibCal renewal 2027 - Castlebrook University", path
    bold = "**From:** Tom\n**Subject:** Kit list for the offsite\n\nBring laptops.\n"
    assert read("kit.md", bold.encode()).title == "Kit list for the offsite"


def test_a_subject_line_without_a_header_or_under_a_title_does_not_name_the_note() -> None:
    alone = "Subject: chemistry\n\nWe covered acids today.\n"
    assert read("lesson-notes.md", alone.encode()).title == "lesson notes"  # one field is no email header
    later = "Notes from the call.\n\nFrom: Ana\nSubject: Budget\n"
    assert read("call.md", later.encode()).title == "call"  # the header must open the note
    titled = "# Renewal thread\n\nFrom: Ana\nTo: Ben\nSubject: Budget\n"
    assert read("thread.md", titled.encode()).title == "Renewal thread"  # an H1 names it first


def test_a_note_opening_with_a_heading_of_any_level_is_named_by_it() -> None:
    assert read("standup-2026-11-16.md", b"## Standup 16-Nov-2026 (Mon)\n\n- done\n").title == "Standup 16-Nov-2026 (Mon)"
    assert read("rfc-7.md", b"## Summary\n\nText.\n").title == "rfc 7"  # a section's heading names no document
    assert read("n.md", b"Intro.\n\n## Later heading\n").title == "n"  # only the opening block names it
