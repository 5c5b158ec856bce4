"""Session 31 (QA 1): a person's rejection holds until the cited source lines change — a compile with no
source change, or one that changes other lines of the file, never files the rejected change again (on
any page of its change set: a page the change retracts a claim from included)."""

from __future__ import annotations

import json

import pytest

from kctui.services import review
from kctui.services.review_kept import kept_overrides, overrides_words
from kctui.services.review_undo import undo_decision
from tests.helpers.cli import run
from tests.helpers.hunks import make_three_hunks
from tests.helpers.review import Base

ROSTER = ("# Team roster\n\n| Name | Role | Location |\n| --- | --- | --- |\n"
          "| Mara Lind | Database lead | Stockholm |\n| Tobias Ek | {role} | Stockholm |\n"
          "| Ines Duarte | Data engineer | Lisbon |\n{extra}")
CDN = "# CDN notes\n\nThe CDN is Fastly.\n\nThe CDN costs $1,000 a month.\n"
VENDORS = "# Vendors\n\n| Vendor | Service | Cost |\n| --- | --- | --- |\n| Fastly | CDN | $4,200 / month |\n"
STANDUP = "# Standup 4 Nov\n\n- Tobias: the CDN renewal is on track.\n"


def roster(role: str, extra: str = "") -> str:
    return ROSTER.format(role=role, extra=extra)


def test_a_rejection_holds_on_every_page_of_the_change(svc, workspace) -> None:
    b = Base(svc, workspace, {"roster.md": roster("Edge / CDN"), "cdn.md": CDN, "vendors.md": VENDORS,
                              "standup.md": STANDUP})
    b.compile()
    b.write("roster.md", roster("Engineering manager"))
    b.compile()
    [item] = b.items()
    # the role's change retracts the row's note from the CDN page: that page is one of the change set
    assert "entities/cdn.md" in {p.page_path for p in item.page_list}
    # QA 11: the item is named by its source change, not by one of its pages ("CDN")
    assert item.json()["label"] == f"{len(item.page_list)} pages · roster.md"
    review.resolve(svc, item.id, "reject", actor="human:ada")
    # before: the CDN page's kept note was pinned against "no file", so every pass read roster.md again
    # and proposed the rejected change in full (a new item each compile, with no source change)
    for _ in range(2):
        b.compile()
        assert b.items() == [], [(i.id, i.summary) for i in b.items()]
    assert "⚑ kept by a person" in b.page("entities/cdn.md")[1]
    # another row of the file changes: what is asked is that row, never the rejected role again
    b.write("roster.md", roster("Engineering manager", "| Ruth Oka | Finance partner | London |\n"))
    b.compile()
    [row] = b.items()
    assert row.id != item.id and "Edge / CDN" not in row.summary and "Engineering manager" not in row.summary
    assert {p.page_path for p in row.page_list} == {"sources/roster-md.md"}
    body = row.page_list[0].proposed_body or ""
    assert "* **Tobias Ek** — Role: Edge / CDN (⚑ kept by a person" in body and "Role: Engineering manager" not in body
    b.compile()
    assert [i.id for i in b.items()] == [row.id]
    # the cited line itself changes: the person is asked again
    b.write("roster.md", roster("Director", "| Ruth Oka | Finance partner | London |\n"))
    b.compile()
    assert any("Director" in (p.proposed_body or "") for i in b.items() for p in i.page_list)


@pytest.mark.parametrize("action, chosen, words", [
    ("approve", [1, 3], "partly approved (2/3)"), ("reject", [2], "partly approved (2/3)"),
    ("approve", [2], "partly approved (1/3)"), ("approve", [1, 2, 3], "approved"), ("reject", [1, 2, 3], "rejected"),
    ("reject", None, "rejected")])
def test_a_decision_on_some_hunks_is_listed_as_what_happened(svc, workspace, action, chosen, words) -> None:
    """QA 4: rejecting 1 of 38 hunks was listed `rejected` although 37 were published."""
    b = make_three_hunks(svc, workspace)
    [item] = review.list_items(svc, kb_id=b.id)
    review.resolve(svc, item.id, action, hunks=chosen, actor="human:ada")
    done = review.get_item(svc, item.id)
    assert done.state == {"approve": "approved", "reject": "rejected"}[action]  # the field itself is unchanged
    assert done.state_words == words
    data = done.json()
    assert data["stateWords"] == words and data["state"] == done.state
    assert data["partial"] == ({"approved": int(words[17]), "of": 3} if words.startswith("partly") else None)
    if chosen == [2]:  # the CLI (a process of its own, on the same state) shows it in the list and the item
        listed = run("review", "list", "--all", check=True)
        assert words in listed.stdout
        assert f"— {words}" in run("review", "show", str(item.id), check=True).stdout
    undo_decision(svc, item_id=item.id)
    again = review.get_item(svc, item.id)
    assert again.state == "open" and again.state_words == "open" and again.json()["partial"] is None


SAAS = ("# Vendors\n\n| Vendor | Service | Cost | Owner |\n| --- | --- | --- | --- |\n"
        "| Datadog | Monitoring | {cost} | {owner} |\n| PagerDuty | Paging | $900 / month | Mara Lind |\n")


def test_rejecting_one_hunk_takes_the_lines_restating_its_value_with_it(svc, workspace) -> None:
    """QA 2: a person rejected only the owner's hunk; the row's `note:` (another, approved hunk) went on
    stating the rejected owner beside the kept one, on every later compile too."""
    b = Base(svc, workspace, {"vendors.md": SAAS.format(cost="$2,400 / month", owner="Jonas Weber"),
                              "standup.md": "# Standup\n\n- Jonas: Datadog dashboards cleaned up.\n"})
    b.compile()
    b.write("vendors.md", SAAS.format(cost="$2,750 / month", owner="Ines Duarte"))
    b.compile()
    [item] = b.items()
    hunks = review.show_item(svc, item.id)["hunks"]
    owner = [h["hunk"] for h in hunks if "Owner: Jonas Weber" in json.dumps(h) and "Ines Duarte" in json.dumps(h)]
    assert owner, [h.get("what") for h in hunks]
    review.resolve(svc, item.id, "reject", hunks=owner, actor="human:ada")
    for _ in range(2):
        for f in sorted(b.wiki.rglob("*.md")):
            text = f.read_text(encoding="utf-8")
            if "Owner: Jonas Weber (⚑ kept" in text:
                # (the reverse claim "Ines Duarte (Datadog) — Owner of: Datadog" is not covered yet)
                lines = [ln for ln in text.split("\n") if ln.startswith("* **Datadog**") and "Ines Duarte" in ln
                         and "⚑" not in ln]
                assert lines == [], (f.name, lines)
        b.compile()
        assert b.items() == [], [(i.id, i.summary) for i in b.items()]


def test_an_approval_that_would_replace_a_kept_value_says_so_first(svc, workspace) -> None:
    """QA 2: the file was split; bulk `A` published `Owner: Ines Duarte` over the owner a person had kept
    twice, and the confirm dialog said nothing of it."""
    b = Base(svc, workspace, {"vendors.md": SAAS.format(cost="$2,400 / month", owner="Jonas Weber")})
    b.compile()
    b.write("vendors.md", SAAS.format(cost="$2,400 / month", owner="Ines Duarte"))
    b.compile()
    [item] = b.items()
    review.resolve(svc, item.id, "reject", actor="human:ada")
    # the row moves to a file of its own: a new change that drops the kept value
    (b.src / "vendors.md").unlink()
    b.write("saas.md", SAAS.format(cost="$2,400 / month", owner="Ines Duarte"))
    b.compile()
    held = [i for i in b.items() if i.kind == "held"]
    lines = kept_overrides(held)
    assert any("Owner: Jonas Weber (kept by ada on " in ln for ln in lines), lines
    assert overrides_words(lines)[0].startswith("⚠ This overrides")
    ids = [str(i.id) for i in held]
    refused = run("review", "approve", ids[0]) if len(ids) == 1 else run("review", "approve", "--all")
    assert "Owner: Jonas Weber (kept by ada" in refused.stderr and refused.returncode != 0  # asked, not answered
    assert all(i.state == "open" for i in b.items() if i.kind == "held")
    done = run("review", "approve", "--all", "--yes")
    assert done.returncode == 0 and "⚠ This overrides" in done.stderr
