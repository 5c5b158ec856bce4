"""QA session 30, item 1: an external compiler's result passes the host's trust boundary
(kctui.services.result_gate) on the real API's result route, as the built-in compiler's changes pass its own
gate: a revise of a confirmed page is held, a wrong value is held (its claim's cited line does not hold it),
a deletion is held as a supersede, a page with no source refuses the result, and an honest result that only
appends is published. Nothing the external compiler wrote reaches `wiki/` without a person."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

from kctui import paths
from kctui.core.frontmatter import parse_document
from kctui.core.page_status import set_page_status
from kctui.services import jobs, review
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers import make_base
from tests.integration.api.support import claim, compile_base, data, report

FILES = {"ownership.md": "# Ownership update\n\nThe service owner of ledger-writer is Marta Kowalski.\n",
         "vendors.md": "# Vendors\n\n## Datadog\n\nMonthly cost: $6,100\n",
         "team.md": "# Team\n\n- Marta Kowalski: backend engineer, Warsaw.\n- Tomasz Nowak: platform engineer, Warsaw.\n"}
LEDGER, VENDORS, WARSAW, EVIL = ("entities/ledger-writer.md", "entities/vendors.md", "entities/warsaw.md",
                                 "entities/evil.md")


def _built(make_ctx, ws: str, confirm: str | None = None):
    """A base compiled by the built-in worker; `confirm`: a page a person confirmed."""
    svc = make_ctx()
    kb = make_base(svc, Path(ws), "Falcon", files=FILES)
    jobs.request_compile(svc, Path(ws), kb.id)
    [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert outcome.result == "succeeded", outcome
    wiki = paths.wiki_path(Path(ws), kb.id)
    if confirm:  # as an approval leaves it: confirmed, with the person's sign-off
        page = wiki / confirm
        page.write_text(set_page_status(page.read_text(), "confirmed", verified_by="human:root", at="2026-12-07T00:00:00Z"))
    return svc, kb, wiki


def _external(api, ws: str, kb_id: str, edit) -> tuple[dict, Path]:
    """An external compiler's pass: claim over HTTP, stage the live wiki with `edit` applied, report success."""
    compile_base(api, ws, kb_id)
    c = claim(api, {"workspace": ws})
    out = Path(c["outputPath"])
    shutil.copytree(paths.wiki_path(Path(ws), kb_id), out, dirs_exist_ok=True)
    edit(out)
    job = data(report(api, ws, c, outcome="succeeded", compilerVersion="qa-ext/0.1"))
    return job, out


def _sub(root: Path, rel: str, old: str, new: str) -> None:
    text = (root / rel).read_text()
    assert old in text
    (root / rel).write_text(text.replace(old, new))


def _status(wiki: Path, rel: str) -> str:
    return (parse_document((wiki / rel).read_text())[0] or {}).get("compile_status", "")


def test_qa_reproduction_revise_wrong_value_and_deletion_are_held(api, ws, make_ctx) -> None:
    svc, kb, wiki = _built(make_ctx, ws, confirm=LEDGER)
    before = {rel: (wiki / rel).read_text() for rel in (LEDGER, VENDORS, WARSAW)}

    def edit(out: Path) -> None:
        _sub(out, LEDGER, "service owner: Marta Kowalski", "service owner: Bob Hacker")
        _sub(out, VENDORS, "Monthly cost: $6,100 ^[", "Monthly cost: $61 ^[")
        (out / WARSAW).unlink()

    job, _ = _external(api, ws, kb.id, edit)
    assert job["job"]["phase"] == "succeeded"
    live = {rel: (wiki / rel).read_text() for rel in (LEDGER, VENDORS, WARSAW)}
    assert "Bob Hacker" not in live[LEDGER] and "service owner: Marta Kowalski" in live[LEDGER]
    assert "$61 " not in live[VENDORS] and "$6,100" in live[VENDORS]
    assert (wiki / WARSAW).is_file()
    for rel in (VENDORS, WARSAW):
        assert _status(wiki, rel) == "needs-review"
    assert parse_document(live[LEDGER])[0]["verified"]  # the person's sign-off stands
    items = {i.page_path: i for i in review.list_items(svc, kb_id=kb.id)}
    assert (items[LEDGER].reason, items[LEDGER].update_kind) == ("human_confirmed", "revise")
    assert "Bob Hacker" in items[LEDGER].proposed_body  # the exact page the compiler wanted
    assert items[VENDORS].reason == "unsupported_claim" and "$61" in items[VENDORS].summary
    assert (items[WARSAW].reason, items[WARSAW].update_kind) == ("supersede", "supersede")
    assert set(before) == set(items)


def test_a_page_with_no_source_refuses_the_result(api, ws, make_ctx) -> None:
    _, kb, wiki = _built(make_ctx, ws)
    before = sorted(p.relative_to(wiki).as_posix() for p in wiki.rglob("*.md"))

    def edit(out: Path) -> None:
        (out / EVIL).write_text("---\ntitle: Evil\ntype: Entity\n---\n# Evil\n\n"
                                "* **Evil** — note: The database password is hunter2.\n")

    job, _ = _external(api, ws, kb.id, edit)
    assert job["job"]["phase"] == "failed"
    summary = data(api.get(f"/bases/{kb.id}/compilation", params={"workspace": ws}))
    assert "entities/evil.md" in summary["lastError"] and "no source" in summary["lastError"]
    assert not (wiki / EVIL).exists()
    assert sorted(p.relative_to(wiki).as_posix() for p in wiki.rglob("*.md")) == before


def test_an_uncited_claim_line_is_held(api, ws, make_ctx) -> None:
    svc, kb, wiki = _built(make_ctx, ws)

    def edit(out: Path) -> None:
        _sub(out, WARSAW, "## Relevance\n", "## Relevance\n\n* **Warsaw** — note: The database password is hunter2.\n")

    _external(api, ws, kb.id, edit)
    assert "hunter2" not in (wiki / WARSAW).read_text()
    [item] = review.list_items(svc, kb_id=kb.id)
    assert item.reason == "unsupported_claim" and "cites no source line" in item.summary


def test_an_honest_append_is_published(api, ws, make_ctx) -> None:
    svc, kb, wiki = _built(make_ctx, ws, confirm=LEDGER)
    line = "* **ledger-writer** — owner: Marta Kowalski ^[ownership.md:L3-L3]\n"

    def edit(out: Path) -> None:
        _sub(out, LEDGER, "## Relevance\n", "## Relevance\n\n" + line)

    job, out = _external(api, ws, kb.id, edit)
    assert job["job"]["phase"] == "succeeded"
    assert line in (wiki / LEDGER).read_text()  # an addition to a confirmed page applies (trust.md §3)
    assert review.list_items(svc, kb_id=kb.id) == []
    assert not (out.parent / "review.json").exists() or json.loads((out.parent / "review.json").read_text())["items"] == []


def test_an_external_manifest_cannot_close_what_waits_for_a_person(api, ws, make_ctx) -> None:
    svc, kb, wiki = _built(make_ctx, ws)
    _external(api, ws, kb.id, lambda out: (out / WARSAW).unlink())
    [held] = review.list_items(svc, kb_id=kb.id)

    def edit(out: Path) -> None:  # the page as it stands, and a manifest that would settle its item
        (out.parent / "review.json").write_text(json.dumps({
            "version": 1, "items": [], "settled": [WARSAW],
            "closedConflicts": [{"page": WARSAW, "fingerprint": "x"}]}))

    job, _ = _external(api, ws, kb.id, edit)
    assert job["job"]["phase"] == "succeeded"
    assert [(i.id, i.state) for i in review.list_items(svc, kb_id=kb.id)] == [(held.id, "open")]
