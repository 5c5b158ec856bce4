"""Recall first (issue 31): a statement that names a thing with a page reaches that page, from whichever
source it comes, and an incremental pass gives the wiki a full pass gives as the page comes and goes."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.passes import assert_archived_without, same_either_way
from tests.helpers.passes import compile_into as _compile

VENDORS = """# Vendors

| vendor | what for | cost | renewal | owner |
|---|---|---|---|---|
| Piano | paywall / entitlements | £52,000/yr | 1 Apr 2027 | Marek |
| Stripe | card payments | 1.5% + 20p/txn | rolling | Marek |
"""
RUNBOOK = """# Runbook: paywall

- nobody can log in:
  1. check the piano in the lobby is not on fire
  2. check Piano status page (status.piano.io)
- Piano support: support@piano.io, contract #NSM-2291, P1 response 1h
"""


def test_a_runbook_line_naming_a_vendor_reaches_the_vendor_page_made_from_another_note(tmp_path: Path) -> None:
    src = tmp_path / "sources"
    src.mkdir()
    (src / "vendors.md").write_text(VENDORS, encoding="utf-8")
    (src / "runbook.md").write_text(RUNBOOK, encoding="utf-8")
    page = (_compile(tmp_path, "g1", None) / "entities" / "piano.md").read_text(encoding="utf-8")
    assert "check Piano status page (status.piano.io) ^[runbook.md:L5-L5]" in page
    assert "Piano support: support@piano.io, contract #NSM-2291, P1 response 1h ^[runbook.md:L6-L6]" in page
    assert "lobby" not in page  # "piano" in lower case is the instrument
    assert "£52,000/yr" in page


def _one_then_another(root: Path, first: tuple[str, str], added: tuple[str, str]) -> tuple[Path, Path]:
    """A pass over one note, then another note added: (the first pass's wiki, the second's, which an
    incremental and a full pass give alike)."""
    src = root / "sources"
    src.mkdir()
    (src / first[0]).write_text(first[1], encoding="utf-8")
    wiki = _compile(root, "g1", None, cache=root / "cache")
    (src / added[0]).write_text(added[1], encoding="utf-8")
    return wiki, same_either_way(root, "g2", "g1", cache=root / "cache")


def test_the_page_a_new_note_makes_collects_an_unchanged_notes_lines_and_lets_go_of_them(tmp_path: Path) -> None:
    first, inc = _one_then_another(tmp_path, ("runbook.md", RUNBOOK), ("vendors.md", VENDORS))
    assert not (first / "entities" / "piano.md").exists()
    # the vendor list came: Piano gets a page, and the unchanged runbook's lines reach it
    assert "^[runbook.md:L5-L5]" in (inc / "entities" / "piano.md").read_text(encoding="utf-8")
    # the vendor list goes: the runbook alone gives Piano no page, and keeps none alive
    (tmp_path / "sources" / "vendors.md").unlink()
    inc3 = same_either_way(tmp_path, "g3", "g2", cache=tmp_path / "cache")
    # proposed for archiving: no claim stays without a page of its own to stand on
    assert_archived_without(inc3 / "entities" / "piano.md", "runbook.md")


FASTLY_NOTE = """# Fastly

- CDN for the site, 118 TB/mo
- Renewal: quote £2,150/mo for 12 months, ends 31 Jan 2027
"""
STANDUP = """# Standup 12 Nov

- Fastly renewal moved to Fri 20 Nov, Dana owns it
- Dana to sign the Fastly renewal by 20 Nov
"""


def test_an_event_page_a_new_note_makes_collects_the_unchanged_notes_lines_that_write_its_noun(tmp_path: Path) -> None:
    first, inc = _one_then_another(tmp_path, ("fastly.md", FASTLY_NOTE), ("standup.md", STANDUP))
    assert not (first / "entities" / "fastly-renewal.md").exists()
    # the standup named the event (on two lines): the note on Fastly writes "Renewal" alone, a line of the event's too
    page = (inc / "entities" / "fastly-renewal.md").read_text(encoding="utf-8")
    assert "^[standup.md:L3-L3]" in page and "^[fastly.md:L4-L4]" in page
    assert "^[fastly.md:L3-L3]" not in page  # (the CDN's traffic is Fastly's alone)
