"""Named things and definitions across real prose (the handbook and the RFCs of ../shared/corpus;
skipped when absent): no entity page is titled by a common word or "<common word> team", no page by a
section name (a heading that recurs across documents, such as "Alternatives"), and at most
20 % of concept and entity pages are stubs (fewer than two cited statements, or an empty first section).
The numbers are printed (run with -s to see them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.builtin.names import one_word, zipf
from kctui.compiler.builtin.usage import USAGE_MAX_ZIPF
from kctui.compiler.steps.pipeline import compile_pass
from kctui.core.pages import NONE_LINE, parse_claim_line, split_sections
from tests.helpers.wiki import check_wiki, pages, request

MAX_STUB_SHARE = 0.20


def _title_ok(title: str) -> bool:
    """A page title: no placeholder or \"<word> team\"; one frequent word only when a document's usage made it
    a name, and never a very frequent one (USAGE_MAX_ZIPF)."""
    return clean_title(title, common_ok=True) and not (len(title.split()) == 1 and one_word(title) and zipf(title) >= USAGE_MAX_ZIPF)


def _section_names(root: Path) -> set[str]:
    """Headings that recur as a section in many documents (at least 5 %, and three): template sections."""
    seen: dict[str, set[str]] = {}
    for path in root.rglob("*.md"):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("#"):
                seen.setdefault(line.lstrip("#").strip().casefold(), set()).add(path.name)
    total = sum(1 for _ in root.rglob("*.md"))
    return {heading for heading, files in seen.items() if len(files) >= max(3, total // 20) and heading}


def _measure(root: Path, folder: str, tmp_path: Path) -> tuple[int, int, list[str], list[str]]:
    src = tmp_path / "kb" / "sources"
    shutil.copytree(root, src / folder)
    req = request(src, "job-quality")
    compile_pass(req, cache_dir=None)
    check_wiki(req.output_path, src)
    templates = _section_names(root)
    topics = stubs = 0
    junk: list[str] = []
    stub_titles: list[str] = []
    for rel, (data, body) in pages(req.output_path).items():
        kind = rel.split("/", 1)[0]
        if kind not in ("entities", "concepts"):
            continue
        topics += 1
        first = split_sections(body).get("Description" if kind == "entities" else "Definition", [])
        claims = [c for line in body.splitlines() if (c := parse_claim_line(line, {})) is not None]
        if len(claims) < 2 or not [ln for ln in first if ln.strip() and ln.strip() != NONE_LINE]:
            stubs += 1
            stub_titles.append(data["title"])
        if kind == "entities" and not _title_ok(data["title"]):
            junk.append(data["title"])
        if data["title"].casefold() in templates:
            junk.append(data["title"])  # "Alternatives", "Action items": a section of many documents, not a topic
    return topics, stubs, junk, stub_titles


@pytest.mark.slow
@pytest.mark.parametrize("corpus,folder", [("handbook/engineering", "engineering"), ("rust-rfcs/text", "text")])
def test_entity_titles_are_names_and_few_pages_are_stubs(shared_dir: Path, tmp_path: Path, corpus: str, folder: str) -> None:
    root = shared_dir / "corpus" / corpus
    if not root.is_dir():
        pytest.skip(f"{root} is not present")
    topics, stubs, junk, stub_titles = _measure(root, folder, tmp_path)
    share = stubs / max(topics, 1)
    print(f"\n{corpus}: {topics} concept/entity pages, {stubs} stubs ({share:.1%}), {len(junk)} junk entity titles")
    assert topics >= 50
    assert junk == []
    assert share <= MAX_STUB_SHARE, stub_titles[:40]
