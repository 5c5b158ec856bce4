"""A name one source mentions in a single sentence gets a page once another source names it too, and an
incremental pass gives the wiki a full pass gives (the unchanged source is read again)."""

from __future__ import annotations

from pathlib import Path

from kctui.core.frontmatter import parse_document
from tests.helpers.passes import assert_archived_without, same_either_way
from tests.helpers.passes import compile_into as _compile

POSTMORTEM = """# Postmortem: login errors

Between 09:12 and 09:40 the login service failed for some users.
The on-call engineer was paged through Opsgenie.
Meet on Monday to review it.
"""
# (no value in the sentence that names Opsgenie: a rare capitalised word in a sentence with one gets a
# page on one mention, kctui.compiler.builtin.lone_names)
RUNBOOK = """# Runbook: login service

Restart the login service with the deploy script.
Escalate in Opsgenie if errors stay above 1% for ten minutes.
Meet on Monday to review it.
"""


def _entities(wiki: Path) -> set[str]:
    return {p.stem for p in (wiki / "entities").glob("*.md")}


def test_one_passing_mention_is_listed_on_the_source_page_but_gets_no_page(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "postmortem.md").write_text(POSTMORTEM, encoding="utf-8")
    wiki = _compile(tmp_path, "job-1", None)
    assert "opsgenie" not in _entities(wiki)
    data, _, _ = parse_document((wiki / "sources" / "postmortem-md.md").read_text(encoding="utf-8"))
    assert data["mentioned_once"] == ["Opsgenie"]


def test_a_name_two_sources_mention_once_gets_a_page_citing_both(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "postmortem.md").write_text(POSTMORTEM, encoding="utf-8")
    (tmp_path / "sources" / "runbook.md").write_text(RUNBOOK, encoding="utf-8")
    wiki = _compile(tmp_path, "job-1", None)
    assert "opsgenie" in _entities(wiki)
    assert "monday" not in _entities(wiki)  # a common word capitalised by convention is never a name
    page = (wiki / "entities" / "opsgenie.md").read_text(encoding="utf-8")
    assert "paged through Opsgenie. ^[postmortem.md:L4-L4]" in page
    assert "Escalate in Opsgenie if errors stay above 1% for ten minutes. ^[runbook.md:L4-L4]" in page


def test_incremental_passes_equal_full_passes_as_a_second_mention_comes_and_goes(tmp_path: Path) -> None:
    src = tmp_path / "sources"
    src.mkdir()
    (src / "postmortem.md").write_text(POSTMORTEM, encoding="utf-8")
    (src / "other.md").write_text("# Other\n\nNothing to see here.\n", encoding="utf-8")
    cache = tmp_path / "cache"
    _compile(tmp_path, "g1", None, cache=cache)
    # a second source names it: the page appears, with the unchanged postmortem's sentence too
    (src / "runbook.md").write_text(RUNBOOK, encoding="utf-8")
    inc = same_either_way(tmp_path, "g2", "g1", cache=cache)
    assert "opsgenie" in _entities(inc)
    assert "^[postmortem.md:L4-L4]" in (inc / "entities" / "opsgenie.md").read_text(encoding="utf-8")
    # the second mention goes: the name is a passing mention again, the page keeps no evidence
    (src / "runbook.md").unlink()
    inc3 = same_either_way(tmp_path, "g3", "g2", cache=cache)
    # proposed for archiving: no claim stays without its evidence
    assert_archived_without(inc3 / "entities" / "opsgenie.md", "postmortem.md")


# A name one note gives a page ("Kwame Asante"), that another names only by a short form the page takes
# as an alias ("Kwame", in a table), and a third mentions once: the page lists the table's note, but that
# note does not name "Kwame Asante" (benchmarks/incremental_full.py, writer e, a note removed)
INCIDENT = """# Postmortem: EPR outage

**Incident lead:** Kwame Asante (on-call)

- 02:31 Kwame paged, starts looking at the app servers
- 04:45 Kwame spots TLS handshake errors on the F5
"""
VENDORS = """# Infra vendors

| Vendor | What | Renewal | Our contact |
|---|---|---|---|
| Paessler | PRTG monitoring, 2500 sensors | renews 12 Jun 2024 | Kwame |
| Paxton | door access (Net2) | no contract, ad hoc | Kwame |
"""
THREAD = """# Teams thread: bleeps

**Kwame Asante** 10:20
sorry late to this, agree. their engineer needs to look at the Block C transmitter, it's been flaky
"""


def _three_notes(root: Path) -> tuple[Path, Path]:
    """The incident, the vendor table that names Kwame by an alias, the thread: (sources, cache)."""
    src = root / "sources"
    src.mkdir()
    for name, text in (("incident.md", INCIDENT), ("vendors.md", VENDORS), ("thread.md", THREAD)):
        (src / name).write_text(text, encoding="utf-8")
    return src, root / "cache"


def test_a_name_another_note_gives_only_by_an_alias_stops_recurring_when_its_own_note_goes(tmp_path: Path) -> None:
    src, cache = _three_notes(tmp_path)
    g1 = _compile(tmp_path, "g1", None, cache=cache)
    page = (g1 / "entities" / "kwame-asante.md").read_text(encoding="utf-8")
    assert "resource: vendors.md" in page and "resource: thread.md" in page  # listed by the alias, and recurring
    data, _, _ = parse_document((g1 / "sources" / "vendors-md.md").read_text(encoding="utf-8"))
    assert "Kwame" in data["own_names"] and "Kwame Asante" not in data["own_names"]
    (src / "incident.md").unlink()
    inc = same_either_way(tmp_path, "g2", "g1", cache=cache)
    data, _, _ = parse_document((inc / "sources" / "thread-md.md").read_text(encoding="utf-8"))
    assert "Kwame Asante" not in data.get("mentioned_elsewhere", [])  # a passing mention again


def test_a_source_with_more_own_names_than_a_page_records_compiles_and_stays_incremental(
        tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """Over the budget (a table of thousands of named rows would pass a page's 64 KiB frontmatter cap)
    the page records no `own_names`: the source is counted from the entity pages that list it."""
    from kctui.compiler.steps import recurrence

    monkeypatch.setattr(recurrence, "MAX_OWN_NAMES_BYTES", 20)
    src, cache = _three_notes(tmp_path)
    g1 = _compile(tmp_path, "g1", None, cache=cache)
    data, _, _ = parse_document((g1 / "sources" / "vendors-md.md").read_text(encoding="utf-8"))
    assert "own_names" not in data
    (src / "thread.md").write_text(THREAD + "\nKwame Asante will call Multitone.\n", encoding="utf-8")
    same_either_way(tmp_path, "g2", "g1", cache=cache)


def test_a_name_that_stops_recurring_leaves_the_page_in_a_full_pass_as_in_an_incremental_one(tmp_path):
    """Two notes name the extension x4400 in passing (a page: it recurs); one goes: the other note's
    source page stops linking it, whether the next pass is incremental or full."""
    src = tmp_path / "sources"
    src.mkdir()
    (src / "handover.md").write_text("# Handover\n\n- Quen on leave Thu-Fri, cover is Ilse\n- ITS desk x4400\n")
    (src / "runbook.md").write_text("# Runbook\n\n- restart the proxy with `sudo systemctl restart ezp`\n"
                                    "- call the ITS service desk x4400 for the load balancer\n")
    _compile(tmp_path, "g0", None)
    (src / "runbook.md").unlink()
    same_either_way(tmp_path, "g1", "g0")
