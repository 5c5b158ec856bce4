"""One firm, one page, across the sources of a base (kctui.compiler.steps.short_names): a vendor list names
"Veltrix Systems" in full, a standup and a todo call it "Veltrix"; their lines reach the firm's page and no
"Veltrix" page is made, and an incremental pass gives the wiki a full pass gives as the list comes and goes."""

from __future__ import annotations

from pathlib import Path

from kctui.core.frontmatter import parse_document
from tests.helpers.passes import compile_into as _compile
from tests.helpers.passes import same_either_way

VENDORS = """# Vendors and contracts

| Vendor | What | Contact | Renewal |
|---|---|---|---|
| Veltrix Systems | GPU nodes | Carla Reyes | 2027-03-31 |
| Norrland Compute | GPU nodes | Ivo Berg | 2027-06-30 |
"""
STANDUP = """# Standup 3 Mar

- Veltrix called back with a lower price ($47,500/node), lead time still 12 weeks.
- staying with Norrland for the new rack.
"""
TODO = """# Todo

- [x] Veltrix: told Carla we are going with Norrland on 2026-03-04
"""


def _entities(wiki: Path) -> set[str]:
    """The entity pages that stand (a page no source supports any more is archived)."""
    return {p.stem for p in (wiki / "entities").glob("*.md")
            if parse_document(p.read_text(encoding="utf-8"))[0].get("compile_status") != "archived"}


def _write(src: Path) -> None:
    src.mkdir(parents=True, exist_ok=True)
    (src / "vendors.md").write_text(VENDORS, encoding="utf-8")
    (src / "standup.md").write_text(STANDUP, encoding="utf-8")
    (src / "todo.md").write_text(TODO, encoding="utf-8")


def test_a_short_form_of_one_firm_lands_on_its_page(tmp_path: Path) -> None:
    _write(tmp_path / "sources")
    wiki = _compile(tmp_path, "job-1", None)
    slugs = _entities(wiki)
    assert {"veltrix-systems", "norrland-compute"} <= slugs
    assert not slugs & {"veltrix", "norrland"}
    data, body = parse_document((wiki / "entities" / "veltrix-systems.md").read_text(encoding="utf-8"))[:2]
    assert "Veltrix" in data["aliases"]
    assert "^[standup.md:L3-L3]" in body and "^[todo.md:L3-L3]" in body
    source, _, _ = parse_document((wiki / "sources" / "vendors-md.md").read_text(encoding="utf-8"))
    assert "Veltrix Systems" in source["own_companies"]


def test_incremental_passes_equal_full_passes_as_the_long_name_comes_and_goes(tmp_path: Path) -> None:
    src = tmp_path / "sources"
    _write(src)
    vendors = src / "vendors.md"
    vendors.unlink()
    cache = tmp_path / "cache"
    before = _compile(tmp_path, "g1", None, cache=cache)
    assert "veltrix-systems" not in _entities(before)
    vendors.write_text(VENDORS, encoding="utf-8")  # the long name comes: the unchanged notes' "Veltrix" is it
    inc = same_either_way(tmp_path, "g2", "g1", cache=cache)
    assert "veltrix-systems" in _entities(inc) and "veltrix" not in _entities(inc)
    vendors.unlink()  # and goes
    same_either_way(tmp_path, "g3", "g2", cache=cache)
    vendors.write_text(VENDORS, encoding="utf-8")
    same_either_way(tmp_path, "g4", "g3", cache=cache)
    vendors.write_text(VENDORS + "| Veltrix Cloud | hosting | Carla Reyes | 2027-01-31 |\n", encoding="utf-8")
    same_either_way(tmp_path, "g5", "g4", cache=cache)  # a second candidate: "Veltrix" stands for neither
