"""One person, one page, across the sources of a base (kctui.compiler.steps.people): a note names a
teammate in full, others call them "Tom" or "tom"; their lines reach the person's page and no "Tom" page
is made, a thing that shares a person's surname keeps its own page, and an incremental pass gives the
wiki a full pass gives as the note with the full name comes and goes."""

from __future__ import annotations

from pathlib import Path

from kctui.core.frontmatter import parse_document
from tests.helpers.passes import compile_into as _compile
from tests.helpers.passes import same_either_way

KICKOFF = """# Billing kickoff

Attendees: Tomasz Wójcik, Priya Nair, Maya Kafka, Lena Vogel

Tomasz Wójcik owns the ledger-api service.
Maya Kafka leads the data team.
"""
STANDUP = """# Standup 3 Dec

present: priya, tom, lena

**Tom**
- renewed the Brightmart cert on 2026-11-13

**Priya**
- ledger-api deploy moved to 2026-12-09

Tom did the 2027 renewal of the Brightmart contract.
"""
TODO = """# Todo

- [ ] tom: rotate the ledger-api keys by 2026-12-01
- [ ] ngozi: book the Brightmart review by 2026-12-04

Kafka is a message broker we run for billing events.
Kafka 3.6 was installed on 2026-10-01 by the platform team.
"""


def _entities(wiki: Path) -> set[str]:
    """The entity pages that stand (a page no source supports any more is archived)."""
    return {p.stem for p in (wiki / "entities").glob("*.md")
            if parse_document(p.read_text(encoding="utf-8"))[0].get("compile_status") != "archived"}


def _page(wiki: Path, slug: str) -> tuple[dict, str]:
    data, body, _ = parse_document((wiki / "entities" / f"{slug}.md").read_text(encoding="utf-8"))
    return data, body


def _write(src: Path) -> None:
    src.mkdir(parents=True, exist_ok=True)
    (src / "kickoff.md").write_text(KICKOFF, encoding="utf-8")
    (src / "standup.md").write_text(STANDUP, encoding="utf-8")
    (src / "todo.md").write_text(TODO, encoding="utf-8")


def test_a_short_name_of_one_person_lands_on_their_page(tmp_path: Path) -> None:
    _write(tmp_path / "sources")
    wiki = _compile(tmp_path, "job-1", None)
    slugs = _entities(wiki)
    assert "tomasz-wójcik" in slugs
    assert not slugs & {"tom", "tomasz"}
    data, body = _page(wiki, "tomasz-wójcik")
    assert data["entity_type"] == "person"
    assert {"tom", "Tom"} & set(data["aliases"])
    # the statements that call him Tom, in either note, are on his page
    assert "renewed the Brightmart cert on 2026-11-13 ^[standup.md:L6-L6]" in body
    assert "Tom did the 2027 renewal of the Brightmart contract. ^[standup.md:L11-L11]" in body
    assert "^[todo.md:L3-L3]" in body
    source, _, _ = parse_document((wiki / "sources" / "kickoff-md.md").read_text(encoding="utf-8"))
    assert "Tomasz Wójcik" in source["own_people"]


def test_a_thing_its_note_defines_keeps_its_page_beside_a_person_of_that_surname(tmp_path: Path) -> None:
    _write(tmp_path / "sources")
    wiki = _compile(tmp_path, "job-1", None)
    slugs = _entities(wiki)
    assert {"kafka", "maya-kafka"} <= slugs
    data, body = _page(wiki, "kafka")
    assert data["entity_type"] != "person"
    assert "Kafka 3.6 was installed" in body


def test_incremental_passes_equal_full_passes_as_the_full_name_comes_and_goes(tmp_path: Path) -> None:
    src = tmp_path / "sources"
    _write(src)
    kickoff = src / "kickoff.md"
    kickoff.unlink()
    cache = tmp_path / "cache"
    before = _compile(tmp_path, "g1", None, cache=cache)
    assert "tomasz-wójcik" not in _entities(before)  # nobody's full name: "tom" is no one's yet
    kickoff.write_text(KICKOFF, encoding="utf-8")  # the full name comes: the unchanged notes' "tom" is his
    inc = same_either_way(tmp_path, "g2", "g1", cache=cache)
    assert "tomasz-wójcik" in _entities(inc) and "tom" not in _entities(inc)
    _, body = _page(inc, "tomasz-wójcik")
    assert "^[standup.md:L6-L6]" in body and "^[todo.md:L3-L3]" in body
    kickoff.unlink()  # and goes
    same_either_way(tmp_path, "g3", "g2", cache=cache)
    kickoff.write_text(KICKOFF, encoding="utf-8")
    same_either_way(tmp_path, "g4", "g3", cache=cache)

