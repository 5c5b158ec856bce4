"""A source renamed with its bytes unchanged only moves its citations (QA session 31, problem 10): no claim
withdrawn and added again, no review item under the default policy, the old source page's history carried
to the new one; and two unrelated source changes stay two review items though one page cites both."""

from __future__ import annotations

import json
from pathlib import Path

from kctui.compiler.runner import CompileRequest
from kctui.compiler.steps.pipeline import compile_pass

RUNBOOK = ("# Runbook: Postgres failover\n\nThe primary database is pg-main-1 in eu-west-1. The replica is pg-main-2.\n\n"
           "1. Page the database owner, Mara Lindqvist, on PagerDuty.\n\nFailover takes about 4 minutes.\n")
VENDORS = ("# Vendors\n\n| Vendor | Service | Cost | Owner |\n| --- | --- | --- | --- |\n"
           "| PagerDuty | Paging | $610 / month | Mara Lindqvist |\n| Hetzner | Bare metal | €1,900 / month | Jonas Weber |\n")


def _run(src: Path, job: str, prev: Path | None, at: str, policy: dict | None = None):  # noqa: ANN202
    req = CompileRequest(job, "manual", "sha256:" + job.encode().hex().ljust(64, "0")[:64], at, src, prev,
                         src.parent / job / "wiki", trust_policy={} if policy is None else policy)
    result = compile_pass(req, cache_dir=None)
    items = json.loads((req.output_path.parent / "review.json").read_text(encoding="utf-8"))["items"]
    brief = (req.output_path.parent / "brief.md").read_text(encoding="utf-8")
    return result, req.output_path, items, brief


def _base(tmp_path: Path) -> tuple[Path, Path]:
    src = tmp_path / "kb" / "sources"
    src.mkdir(parents=True)
    (src / "runbook-postgres-failover.md").write_text(RUNBOOK, encoding="utf-8")
    (src / "vendors.md").write_text(VENDORS, encoding="utf-8")
    _, wiki, items, _ = _run(src, "job-1", None, "2026-01-01T00:00:00Z")
    assert not items
    return src, wiki


def test_a_pure_rename_moves_citations_and_holds_nothing(tmp_path: Path) -> None:
    src, wiki1 = _base(tmp_path)
    (src / "runbook-postgres-failover.md").rename(src / "runbooks-pg-failover.md")
    result, wiki, items, brief = _run(src, "job-2", wiki1, "2026-01-02T00:00:00Z")
    assert items == []
    assert not result.claim_changes  # nothing withdrawn and added again
    kinds = {u.slug: u.kind for u in result.updates}
    assert kinds["runbook-postgres-failover-md"] == "remove" and kinds["runbooks-pg-failover-md"] == "refresh"
    assert all(k in ("refresh", "remove") for k in kinds.values()), kinds
    assert not (wiki / "sources" / "runbook-postgres-failover-md.md").exists()
    text = (wiki / "sources" / "runbooks-pg-failover-md.md").read_text(encoding="utf-8")
    assert "ingested `runbook-postgres-failover.md`" in text  # the old page's history carried
    assert "renamed `runbook-postgres-failover.md` → `runbooks-pg-failover.md`" in text
    for page in (wiki / "entities").glob("*.md"):
        body = page.read_text(encoding="utf-8")
        assert "runbook-postgres-failover.md:" not in body, page.name  # every citation moved
    assert "0 added, 0 modified, 0 deleted, 1 renamed" in brief


def test_a_rename_beside_an_unrelated_change_is_not_one_item(tmp_path: Path) -> None:
    src, wiki1 = _base(tmp_path)
    (src / "runbook-postgres-failover.md").rename(src / "runbooks-pg-failover.md")
    (src / "vendors.md").write_text(VENDORS.replace("$610", "$640"), encoding="utf-8")
    result, wiki, items, _ = _run(src, "job-2", wiki1, "2026-01-02T00:00:00Z")
    held = [it for it in items if it["kind"] == "held"]
    assert len(held) == 1 and held[0].get("sources", ["vendors.md"]) == ["vendors.md"], held
    assert "runbook" not in held[0]["summary"]


def test_under_suggest_a_rename_is_held(tmp_path: Path) -> None:
    """`suggest` writes nothing unattended: the rename stays a deletion and an addition, held for a person
    (a page both changes revise is one proposal, so there the two are one item)."""
    src, wiki1 = _base(tmp_path)
    (src / "runbook-postgres-failover.md").rename(src / "runbooks-pg-failover.md")
    (src / "vendors.md").write_text(VENDORS.replace("$610", "$640"), encoding="utf-8")
    result, wiki, items, _ = _run(src, "job-2", wiki1, "2026-01-02T00:00:00Z", {"autonomy": "suggest"})
    assert (wiki / "sources" / "runbook-postgres-failover-md.md").exists()
    assert any(it["kind"] == "held" and "runbook-postgres-failover.md" in (it.get("sources") or ()) for it in items)


def test_a_pure_rename_loses_no_facts_in_the_compile_loss_guard(tmp_path: Path) -> None:
    """QA session 32 #4: the guard listed a renamed file's numbers as reaching no claim; the rename moved
    them (its bytes were judged under the old path). A file changed beside it is still judged."""
    src, _ = _base(tmp_path)
    note = "# Billing\n\nThe cutover is planned for 14 Nov 2026; the budget is 4500 EUR.\n"
    (src / "billing.md").write_text(note, encoding="utf-8")
    _, wiki2, _, brief2 = _run(src, "job-2", tmp_path / "kb" / "job-1" / "wiki", "2026-01-02T00:00:00Z")
    assert "* `billing.md`:" in brief2  # what the guard says of the file when it is read anew
    (src / "billing.md").rename(src / "billing-notes.md")
    (src / "vendors.md").write_text(VENDORS + "\nThe contract renews in 2031 for 1234 seats.\n", encoding="utf-8")
    _, _, _, brief3 = _run(src, "job-3", wiki2, "2026-01-03T00:00:00Z")
    assert "renamed (same content)" in brief3
    guard = brief3.split("## Compile-loss guard", 1)[1].split("\n## ", 1)[0]
    assert "billing-notes.md" not in guard and "billing.md" not in guard
    assert "`vendors.md`" in guard  # the changed file is judged as before
