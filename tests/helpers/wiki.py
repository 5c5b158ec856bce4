"""A small knowledge base for the built-in compiler (a product page, a text guide, an HTML page, a PDF, an
RFC) and independent checks of a compiled wiki: every link resolves, every citation holds, every live page
cites its evidence."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

from kctui.compiler.runner import CompileRequest
from kctui.core.claims import unescape_text
from kctui.core.frontmatter import parse_document
from kctui.core.pages import parse_claim_line
from kctui.core.source_text import source_lines
from kctui.publish.validate import validate_staged_tree
from tests.helpers.pdf import make_pdf

WIDGET_FRONTMATTER = """---
title: Widget Server
category: server-app
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
"""  # a product with two release cycles (shared by the fake model's tests)
WIDGET = WIDGET_FRONTMATTER + """
> [Widget Server](https://example.org/) is an open-source server for widgets.

Releases are supported for 18 months.

*[LTS]: Long-Term Support
"""
SETUP = "- Owner: Acme Ltd.\n- Port: 8080\n\nThe `regex` crate is used by the installer. Acme Ltd. signs every release.\n"
ABOUT = ("<html><head><title>About widgets</title></head><body>\n<h1>About</h1>\n"
         "<p>A sprocket is a toothed wheel that drives a chain.</p>\n"
         "<table><tr><th>part</th><th>weight</th></tr>\n<tr><td>sprocket</td><td>12 g</td></tr></table>\n</body></html>\n")
RFC = ("- Start Date: 2014-04-08\n\n## Summary\n\nSplit `libstd` into a facade over smaller crates.\n\n"
       "A *facade crate* is a crate that re-exports the items of other crates.\n"
       "The core team agreed. Cargo is the package manager of Rust.\n")
CONFLICT_NOTE = "# Widget Server\n\nOur support desk says:\n\n| releaseCycle | eol |\n| --- | --- |\n| 1.10 | 2024-12-01 |\n"


def make_kb(root: Path) -> Path:
    src = root / "kb" / "sources"
    (src / "products").mkdir(parents=True)
    (src / "guides").mkdir()
    (src / "web").mkdir()
    (src / "papers").mkdir()
    (src / "rfcs").mkdir()
    (src / "products" / "widget.md").write_text(WIDGET, encoding="utf-8")
    (src / "guides" / "setup.txt").write_text(SETUP, encoding="utf-8")
    (src / "web" / "about.html").write_text(ABOUT, encoding="utf-8")
    (src / "papers" / "gizmo report.pdf").write_bytes(make_pdf(["A gizmo is a small widget with 3 gears."]))
    (src / "rfcs" / "0040-facade.md").write_text(RFC, encoding="utf-8")
    return src


def request(src: Path, job: str, prev: Path | None = None, at: str = "2026-08-22T00:00:00Z", style: str = "wikilink",
            out: str | None = None) -> CompileRequest:
    """A job; `out` names another output folder for the same job (to compare two runs of it)."""
    out = src.parent / ".a3s" / "compilation-output" / (out or job) / "wiki"
    return CompileRequest(job, "manual", "sha256:" + job.encode().hex().ljust(64, "0")[:64], at, src, prev, out, style)


# -- independent checks (shared with the corpus tests) --------------------------------------------

CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_WIKI = re.compile(r"\[\[([^\]|\\]+)(?:\|[^\]]*)?\]\]")
_MD = re.compile(r"(?<!\\)\]\((/[^)\s]+\.md)\)")
_CITE = re.compile(r"\^\[((?:\\.|[^\]\\])+):(?:L(\d+)-L(\d+)|p(\d+))\]$")


def tree(wiki: Path) -> dict[str, bytes]:
    return {p.relative_to(wiki).as_posix(): p.read_bytes() for p in sorted(wiki.rglob("*")) if p.is_file()}


def pages(wiki: Path) -> dict[str, tuple[dict, str]]:
    out = {}
    for p in sorted(wiki.glob("*/*.md")):
        data, body, _ = parse_document(p.read_text(encoding="utf-8"))
        out[p.relative_to(wiki).as_posix()] = (data, body)
    return out


def assert_links_resolve(wiki: Path) -> int:
    slugs = {p.stem for p in wiki.glob("*/*.md")}
    count = 0
    for p in wiki.rglob("*.md"):
        text = CODE_SPAN.sub("", p.read_text(encoding="utf-8"))
        for slug in _WIKI.findall(text):
            assert slug in slugs, f"{p.name}: [[{slug}]] resolves to no page"
            count += 1
        for target in _MD.findall(text):
            assert (wiki / target.lstrip("/")).is_file(), f"{p.name}: {target} resolves to no page"
            count += 1
    return count


def _plain(text: str) -> str:
    text = re.sub(r"^\s*(?:>\s?)+", "", text, flags=re.M)
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text, flags=re.M)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", html.unescape(text))
    text = re.sub(r"!?\[([^\]]+)\]\[[^\]]*\]", r"\1", text)  # reference-style links
    return " ".join(text.split()).casefold()


def cited_text(sources: Path, path: str, a: str | None, b: str | None, page: str | None) -> str:
    file = sources / path
    if page:
        from pypdf import PdfReader

        return PdfReader(io.BytesIO(file.read_bytes())).pages[int(page) - 1].extract_text()
    lines = source_lines(file)  # decoded as the compiler decodes it (Windows-1252 when not UTF-8)
    return "\n".join(lines[int(a) - 1 : int(b)])


def _cells(row: str) -> list[str]:
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip()[1:-1])]


def _row_holds(sources: Path, rel: str, header: list[str], row: str, digests: dict) -> int:
    """A record table's row: every value it shows is in its cited lines, on a line under its column's key
    (when the value fits on one line), never another key's."""
    cells = _cells(row)
    assert len(cells) == len(header) and header[-1] == "Source", f"{rel}: malformed table row {row!r}"
    m = _CITE.search(cells[-1])
    assert m, f"{rel}: a table row without its citation: {row!r}"
    path = re.sub(r"\\(.)", r"\1", m.group(1))
    assert path in digests or digests == {}, f"{rel}: cites {path}, not among its sources"
    lines = cited_text(sources, path, m.group(2), m.group(3), m.group(4)).split("\n")
    checked = 0
    for key, cell in zip(header[:-1], cells[:-1]):
        if not cell or cell == "⚑":
            continue
        value = _plain(re.sub(r"\\([\\\[\]<&])", r"\1", cell)).strip("`")
        assert value in _plain("\n".join(lines)), f"{rel}: {value!r} not in cited {path}"
        holding = [ln for ln in lines if value in _plain(ln)]
        assert not holding or any(key.casefold() in ln.casefold() for ln in holding), f"{rel}: {key}: {value!r}"
        checked += 1
    return checked


def assert_citations_hold(wiki: Path, sources: Path) -> int:
    """Every claim line's cited lines contain its value; every mention's contain the mentioned name; every
    value of a record table's row is in the lines its row cites."""
    checked = 0
    for rel, (data, body) in pages(wiki).items():
        digests = {s["resource"]: s["digest"] for s in data.get("sources") or []}
        header: list[str] = []
        for line in body.split("\n"):
            if line.startswith("| ") and line.endswith(" |"):
                if line.endswith(" | Source |"):
                    header = _cells(line)
                elif not line.startswith("| ---"):
                    checked += _row_holds(sources, rel, header, line, digests if not data.get("sources_omitted") else {})
                continue
            line = line.removeprefix("> ")
            m = _CITE.search(line)
            if not m:
                continue
            path = re.sub(r"\\(.)", r"\1", m.group(1))
            assert path in digests or data.get("sources_omitted"), f"{rel}: cites {path}, not among its sources"
            cited = _plain(cited_text(sources, path, m.group(2), m.group(3), m.group(4)))
            claim = parse_claim_line(line, digests)
            if claim is not None:
                needle = claim.value  # (read back as the page's reader does: unescaped outside its code spans)
            elif line.startswith("* Mentioned as “"):
                needle = unescape_text(line.split("“", 1)[1].split("”", 1)[0])
            else:
                needle = unescape_text(line[: m.start()].removeprefix("* ").strip())
            needle = _plain(needle).strip("`")
            assert needle in cited, f"{rel}: {needle!r} not in cited {path} ({cited[:200]!r})"
            checked += 1
    return checked


def assert_every_live_page_has_evidence(wiki: Path) -> None:
    """Every page but an archived one and a held create (a stub that holds nothing until a person
    approves it) cites its evidence."""
    for rel, (data, body) in pages(wiki).items():
        if data["compile_status"] != "archived" and data.get("awaiting_review") != "create":
            assert _CITE.search("\n".join(ln for ln in body.split("\n") if ln.rstrip().endswith("]"))) or any(
                _CITE.search(ln) for ln in body.split("\n")), f"{rel} has no evidence"


def check_wiki(wiki: Path, sources: Path) -> None:
    validate_staged_tree(wiki)
    assert assert_links_resolve(wiki) > 0
    assert assert_citations_hold(wiki, sources) > 0
    assert_every_live_page_has_evidence(wiki)


# -- tests ----------------------------------------------------------------------------------------


def generation_two(src: Path) -> None:
    widget = src / "products" / "widget.md"
    widget.write_text(WIDGET.replace('latest: "2.1.4"', 'latest: "2.1.5"').replace(
        "releases:\n", 'releases:\n  - releaseCycle: "3.0"\n    releaseDate: 2026-05-01\n    eol: false\n    latest: "3.0.0"\n'),
        encoding="utf-8")
    (src / "guides" / "setup.txt").unlink()
    (src / "guides" / "faq.md").write_text("# FAQ\n\nRustup is not needed. The `serde` crate is optional.\n", encoding="utf-8")
