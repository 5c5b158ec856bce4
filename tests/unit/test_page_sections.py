"""A section a person sets goes into the page's own section (QA session 29, item 17): `page revise
--section Relevance` sets `## Relevance`, every later render keeps it there, the compiler's lines stay
below it and read back unchanged, and a section the page does not have is refused with the ones it has."""

from __future__ import annotations

import pytest

from kctui.core.claims import Claim, Evidence
from kctui.core.page_edits import SECTION, with_section
from kctui.core.page_sections import page_sections, section_named
from kctui.core.page_status import split_page
from kctui.core.pages import Page, SourceRef, parse_page, render_page
from kctui.services.errors import InvalidInput
from kctui.services.page_edit import _page_section

DIGEST = "sha256:" + "c" * 64
EV = Evidence("vendors.md", 7, 7, DIGEST)
CLAIMS = [Claim("PagerDuty", "Owner", "Maya Okafor", "", "fact", "table", EV),
          Claim("PagerDuty", "Plan", "Business, 12 seats", "", "fact", "table", EV)]


def _entry(section: str, text: str, eid: str = "e1") -> dict:
    return {"id": eid, "kind": "section", "section": section, "text": text, "by": "human:root",
            "at": "2026-12-07T10:00:00Z"}


def _page(*entries: dict) -> Page:
    return Page(kind="entity", slug="pagerduty", title="PagerDuty", entity_type="company",
                sources=[SourceRef("vendors.md", DIGEST, "vendors-md")], claims=list(CLAIMS),
                extra={"page_edits": list(entries)} if entries else {})


def _section(text: str, name: str) -> list[str]:
    lines = text.split("\n")
    start = lines.index(f"## {name}") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return [ln for ln in lines[start:end] if ln.strip()]


def test_a_person_sets_the_pages_own_section() -> None:
    text = render_page(_page(_entry("Relevance", "We page through it.")), {}, "wikilink")
    assert _section(text, "Relevance") == ["We page through it. (written by a person (root) on 2026-12-07)"]
    assert f"## {SECTION}" not in text and "### Relevance" not in text


def test_the_compilers_lines_stay_below_and_read_back() -> None:
    text = render_page(_page(_entry("Key Positions/Products/Claims", "Ask Maya first.")), {}, "wikilink")
    section = _section(text, "Key Positions/Products/Claims")
    assert section[0].startswith("Ask Maya first. (written by") and section[1].startswith("* **PagerDuty**")
    back = parse_page(text, "pagerduty")
    assert sorted(c.value for c in back.claims) == sorted(c.value for c in CLAIMS)
    assert render_page(back, {}, "wikilink") == text  # read back, rendered again: the same bytes


def test_setting_it_again_replaces_the_text_and_other_sections_stay() -> None:
    once = render_page(_page(_entry("Relevance", "First.")), {}, "wikilink")
    fm, body = split_page(once)
    again = with_section(body, [_entry("relevance", "Second."), _entry("Runbook", "Restart it.", "e2")])
    assert _section(again, "Relevance") == ["Second. (written by a person (root) on 2026-12-07)"]
    assert "### Runbook" in again  # an earlier section of a name the page does not have stays listed last
    assert _section(again, "Related Concepts") == ["_None yet._"]
    assert _section(with_section(again, []), "Relevance") == ["_None yet._"]


@pytest.mark.parametrize(("name", "found"), [("Relevance", "Relevance"), (" relevance ", "Relevance"),
                                             ("Nonexistent", None), (SECTION, None)])
def test_section_names(name: str, found: str | None) -> None:
    body = render_page(_page(), {}, "wikilink")
    assert section_named(name, page_sections(body)) == found


def test_a_section_the_page_does_not_have_is_refused_with_the_ones_it_has() -> None:
    body = render_page(_page(), {}, "wikilink")
    with pytest.raises(InvalidInput) as err:
        _page_section("Nonexistent", body, "entities/pagerduty.md")
    message = str(err.value)
    assert "\n" not in message and "no section 'Nonexistent'" in message and "Relevance" in message
