# size: every trust rule of the compiler over one small base, one test each; the fixtures are shared by all of them.
"""The trust boundary inside the built-in compiler (trust.md §3–§5, issue 5): every page change passes
`classify_update`; held updates keep the page's current body and park the exact proposal in
`review.json`; conflicts show both values; confirmations and decided disputes stick; pages go stale on
the job's own clock. The endoflife 2025 → 2026 update under `guarded` runs through the real host path."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

from kctui.compiler.runner import CompileRequest
from kctui.compiler.steps.pipeline import compile_pass
from kctui.core.frontmatter import parse_document
from kctui.core.page_status import record_resolved_conflict, set_page_status, split_page
from kctui.core.pages import parse_page
from kctui.publish.validate import validate_staged_tree
from tests.helpers.wiki import assert_links_resolve, tree

WIDGET = ("# Widget Server\n\n| cycle | eol | latest |\n| --- | --- | --- |\n"
          "| 1.10 | 2024-11-06 | 1.10.2 |\n| 2.1 | 2026-03-01 | 2.1.4 |\n")
GIZMO = "# Gizmo\n\nA gizmo is a small widget with 3 gears.\n"
NOTE = "# Widget Server\n\nOur support desk says:\n\n| cycle | eol |\n| --- | --- |\n| 1.10 | {eol} |\n"
T0 = "2026-01-01T00:00:00Z"


def make_src(root: Path, note: bool = False) -> Path:
    src = root / "kb" / "sources"
    src.mkdir(parents=True)
    (src / "widget.md").write_text(WIDGET, encoding="utf-8")
    (src / "gizmo.md").write_text(GIZMO, encoding="utf-8")
    if note:
        (src / "notes.md").write_text(NOTE.format(eol="2024-12-01"), encoding="utf-8")
    return src


def run(src: Path, job: str, prev: Path | None = None, at: str = T0, policy=None, out: str | None = None, **kw):  # noqa: ANN001
    req = CompileRequest(job, "manual", "sha256:" + job.encode().hex().ljust(64, "0")[:64], at, src, prev,
                         src.parent / (out or job) / "wiki", trust_policy={} if policy is None else policy)
    result = compile_pass(req, cache_dir=None, **kw)
    items = json.loads((req.output_path.parent / "review.json").read_text(encoding="utf-8"))["items"]
    return result, req.output_path, items


def per_page(items: list[dict]) -> list[dict]:
    """The manifest's items one per page: a held change set (issue 13) lists its pages under `pages`."""
    out = []
    for it in items:
        for p in it.get("pages") or [it]:
            out.append({**it, **p, "kind": it["kind"]})
    return out


def page(wiki: Path, rel: str) -> tuple[dict, str]:
    data, body, _ = parse_document((wiki / rel).read_text(encoding="utf-8"))
    return data, body.lstrip("\n")


def edit(wiki: Path, rel: str, fn) -> None:  # noqa: ANN001 - what a person's review would publish
    p = wiki / rel
    p.write_text(fn(p.read_text(encoding="utf-8")), encoding="utf-8")


def approved(proposal: str, at: str) -> str:
    """A held update as `kctui.services.review.resolve(…, "approve")` publishes it."""
    status = "archived" if split_page(proposal)[0].get("compile_status") == "archived" else "confirmed"
    return set_page_status(proposal, status, verified_by="human:ada", at=at)


def test_suggest_base_writes_nothing_unattended(tmp_path: Path) -> None:
    src = make_src(tmp_path, note=True)
    result, wiki, sets = run(src, "job-1", policy={"autonomy": "suggest"})
    items = per_page(sets)
    validate_staged_tree(wiki)
    assert_links_resolve(wiki)  # asserts every link resolves (a base that holds everything may link nothing)
    assert result.updates and not any(u.written for u in result.updates)
    assert {u.decision for u in result.updates} == {"hold", "conflict"}
    rels = sorted(p.relative_to(wiki).as_posix() for p in wiki.glob("*/*.md"))
    assert rels and {it["page"] for it in items} == set(rels), "every proposed page is a review item"
    for rel in rels:  # each page only says it awaits review: no claim, no link is settled
        text = (wiki / rel).read_text(encoding="utf-8")
        parsed = parse_page(text, Path(rel).stem)
        assert parsed.is_stub and parsed.claims == [] and parsed.compile_status in ("needs-review", "contradicted")
        assert text.split("---\n", 2)[2].lstrip("\n").startswith("> **Status: ")
    held = [it for it in items if it["kind"] == "held"]
    assert all(it["updateKind"] == "create" and it["reason"] == "autonomy_ceiling" for it in held)
    proposal = next(it for it in held if it["page"] == "sources/widget-md.md")["proposedBody"]
    assert "— latest: 2.1.4 ^[widget.md:L6-L6]" in proposal and "compile_status: compiled" in proposal
    [conflict] = [it for it in items if it["kind"] == "conflict"]
    assert conflict["page"] == "entities/widget-server.md"  # both new: the first source in path order is "existing"
    assert conflict["existing"] == {"value": "2024-12-01", "citation": "notes.md:L7-L7", "source": "notes.md",
                                    "line": "| 1.10 | 2024-12-01 |"}
    assert (conflict["incoming"]["value"], conflict["incoming"]["source"]) == ("2024-11-06", "widget.md")
    index = (wiki / "index.md").read_text(encoding="utf-8")
    assert "proposed by the compiler, waiting for review" in index
    assert f"held {len(held)}; conflicts opened 1" in (wiki / "log.md").read_text(encoding="utf-8")
    # nothing changed: nothing new is proposed and the pages stay byte for byte
    _, again, items2 = run(src, "job-2", prev=wiki, at="2026-01-02T00:00:00Z", policy={"autonomy": "suggest"})
    assert items2 == [] and {k: v for k, v in tree(again).items() if k != "log.md"} == {
        k: v for k, v in tree(wiki).items() if k != "log.md"}
    # a changed source is proposed again, still written nowhere
    (src / "widget.md").write_text(WIDGET.replace("2.1.4", "2.1.5"), encoding="utf-8")
    r3, third, items3 = run(src, "job-3", prev=again, at="2026-01-03T00:00:00Z", policy={"autonomy": "suggest"})
    assert not any(u.written for u in r3.updates) and parse_page(
        (third / "sources/widget-md.md").read_text(encoding="utf-8"), "widget-md").is_stub
    assert "2.1.5" in next(it for it in per_page(items3) if it["page"] == "sources/widget-md.md")["proposedBody"]


def _confirmed_base(tmp_path: Path) -> tuple[Path, Path]:
    src = make_src(tmp_path)
    _, wiki, items = run(src, "job-1", policy={"autonomy": "auto"})
    assert items == []
    edit(wiki, "entities/widget-server.md",
         lambda t: set_page_status(t, "confirmed", verified_by="human:ada", at="2026-01-01T12:00:00Z"))
    return src, wiki


def test_human_confirmed_page_only_receives_appends_unattended(tmp_path: Path) -> None:
    src, wiki = _confirmed_base(tmp_path)
    (src / "widget.md").write_text(WIDGET.replace("2.1.4", "2.1.5"), encoding="utf-8")  # a revise
    result, second, sets = run(src, "job-2", prev=wiki, at="2026-02-01T00:00:00Z", policy={"autonomy": "auto"})
    assert len(sets) == 1, "archiving what one deleted file fed is one decision"
    items = per_page(sets)
    decided = {u.slug: (u.kind, u.decision, u.reason) for u in result.updates}
    assert decided["widget-server"] == ("revise", "hold", "human_confirmed")
    assert decided["widget-md"] == ("revise", "apply", None)  # an unconfirmed page follows its source at auto
    data, body = page(second, "entities/widget-server.md")
    assert data["compile_status"] == "needs-review" and data["verified"][0]["by"] == "human:ada"
    assert "2.1.4 ^[" in body and "2.1.5" not in body and body.startswith("> **Status: needs-review** — a revise")
    [item] = items
    assert (item["page"], item["reason"], item["updateKind"]) == ("entities/widget-server.md", "human_confirmed", "revise")
    assert "— latest: 2.1.5 ^[widget.md:L6-L6]" in item["proposedBody"]
    assert split_page(item["proposedBody"])[0]["compile_status"] == "confirmed"
    # an append to the confirmed page is written unattended, and the sign-off stays
    shutil.copyfile(tmp_path / "kb" / "sources" / "widget.md", tmp_path / "widget.bak")
    (src / "widget.md").write_text(WIDGET + "| 3.0 | 2027-06-01 | 3.0.0 |\n", encoding="utf-8")
    result, third, items = run(src, "job-3", prev=wiki, at="2026-02-01T00:00:00Z", policy={"autonomy": "auto"})
    assert {u.slug: (u.kind, u.decision) for u in result.updates}["widget-server"] == ("append", "apply")
    assert items == []
    data, body = page(third, "entities/widget-server.md")
    assert data["compile_status"] == "confirmed" and data["verified"][0]["by"] == "human:ada"
    assert "— latest: 3.0.0 ^[widget.md:L7-L7]" in body and "> **Status:" not in body


def test_supersede_is_held_even_at_auto(tmp_path: Path) -> None:
    src = make_src(tmp_path)
    _, wiki, _ = run(src, "job-1", policy={"autonomy": "auto"})
    (src / "gizmo.md").unlink()
    result, second, sets = run(src, "job-2", prev=wiki, at="2026-02-01T00:00:00Z", policy={"autonomy": "auto"})
    assert len(sets) == 1, "archiving what one deleted file fed is one decision"
    items = per_page(sets)
    decided = {u.slug: (u.kind, u.decision, u.reason) for u in result.updates}
    assert decided["gizmo"] == ("supersede", "hold", "supersede")
    assert decided["gizmo-md"] == ("remove", "hold", "supersede")
    validate_staged_tree(second)
    for rel in ("concepts/gizmo.md", "sources/gizmo-md.md"):  # still there, as they were, flagged
        data, body = page(second, rel)
        assert data["compile_status"] == "needs-review" and "3 gears" in body
        assert body.startswith("> **Status: needs-review** — a supersede of this page waits for review")
    assert sorted((it["page"], it["updateKind"], it["reason"]) for it in items) == [
        ("concepts/gizmo.md", "supersede", "supersede"), ("sources/gizmo-md.md", "supersede", "supersede")]
    archived = {it["page"]: split_page(it["proposedBody"])[0] for it in items}
    assert all(fm["compile_status"] == "archived" and fm["status"] == "deprecated" for fm in archived.values())
    assert archived["sources/gizmo-md.md"]["archived_source"] == "gizmo.md"
    assert archived["sources/gizmo-md.md"]["sources"] == []
    # a person approves both: the next pass has nothing more to propose about them
    for it in items:
        edit(second, it["page"], lambda _t, body=it["proposedBody"]: approved(body, "2026-02-02T00:00:00Z"))
    result3, third, items3 = run(src, "job-3", prev=second, at="2026-02-03T00:00:00Z", policy={"autonomy": "auto"})
    assert items3 == [] and result3.changes.deleted == [] and result3.updates == []
    # the file comes back: its archived source page is revived in place (a person confirmed it: held)
    (src / "gizmo.md").write_text(GIZMO, encoding="utf-8")
    result4, _, items4 = run(src, "job-4", prev=third, at="2026-02-04T00:00:00Z", policy={"autonomy": "auto"})
    assert ("sources/gizmo-md.md", "revise", "human_confirmed") in {
        (it["page"], it["updateKind"], it["reason"]) for it in per_page(items4)}
    assert not any(u.slug.startswith("gizmo-md-") for u in result4.updates)


def _disputed(tmp_path: Path) -> tuple[Path, Path, dict]:
    src = make_src(tmp_path)
    _, wiki, _ = run(src, "job-1")
    (src / "notes.md").write_text(NOTE.format(eol="2024-12-01"), encoding="utf-8")
    result, second, items = run(src, "job-2", prev=wiki, at="2026-02-01T00:00:00Z")
    [item] = [it for it in items if it["kind"] == "conflict"]
    data, body = page(second, "entities/widget-server.md")
    assert data["compile_status"] == "contradicted" and data["status"] == "draft"
    head, sections = body.split("# Widget Server", 1)
    assert "> * **Widget Server** (1.10) — eol: 2024-11-06 ^[widget.md:L5-L5]" in head
    assert "> * **Widget Server** (1.10) — eol: 2024-12-01 ^[notes.md:L7-L7]" in head
    assert "2024-12-01" not in sections, "a disputed value is shown, never settled on the page"
    return src, second, item


def test_a_conflict_a_person_kept_is_not_raised_again(tmp_path: Path) -> None:
    src, wiki, item = _disputed(tmp_path)
    edit(wiki, item["page"], lambda t: set_page_status(record_resolved_conflict(t, item["fingerprint"]), "confirmed",
                                                       verified_by="human:ada", at="2026-02-02T00:00:00Z"))
    (src / "notes.md").write_text(NOTE.format(eol="2024-12-01") + "\nThe desk is open on Mondays.\n", encoding="utf-8")
    result, third, items = run(src, "job-3", prev=wiki, at="2026-02-03T00:00:00Z")
    assert result.conflicts == [] and [it for it in items if it["kind"] == "conflict"] == []
    data, body = page(third, item["page"])
    assert data["compile_status"] == "confirmed" and "2024-12-01" not in body and "eol: 2024-11-06 ^[" in body
    # a different value is a new disagreement
    (src / "notes.md").write_text(NOTE.format(eol="2024-12-15"), encoding="utf-8")
    _, _, items = run(src, "job-4", prev=third, at="2026-02-04T00:00:00Z")
    assert [it["incoming"]["value"] for it in items if it["kind"] == "conflict"] == ["2024-12-15"]


def test_a_conflict_resolved_with_the_new_value_is_not_raised_again(tmp_path: Path) -> None:
    src, wiki, item = _disputed(tmp_path)
    edit(wiki, item["page"], lambda _t: set_page_status(item["proposedBody"], "confirmed", verified_by="human:ada",
                                                        at="2026-02-02T00:00:00Z"))
    (src / "widget.md").write_text(WIDGET + "\nSupported on Linux.\n", encoding="utf-8")  # re-read: same eol
    result, third, items = run(src, "job-3", prev=wiki, at="2026-02-03T00:00:00Z")
    assert result.conflicts == [] and [it for it in items if it["kind"] == "conflict"] == []
    _, body = page(third, item["page"])
    assert "eol: 2024-12-01 ^[notes.md:L7-L7]" in body and "2024-11-06" not in body.split("## Updates")[0]


def test_pages_go_stale_on_the_jobs_own_clock(tmp_path: Path) -> None:
    src = make_src(tmp_path)
    policy = {"autonomy": "guarded", "staleDays": 30}
    _, wiki, _ = run(src, "job-1", policy=policy)
    assert page(wiki, "concepts/gizmo.md")[0]["stale_after"] == "2026-01-31T00:00:00Z"
    edit(wiki, "concepts/gizmo.md", lambda t: set_page_status(t, "confirmed", verified_by="human:ada",
                                                             at="2026-01-21T00:00:00Z"))
    (src / "widget.md").write_text(WIDGET + "| 3.0 | 2027-06-01 | 3.0.0 |\n", encoding="utf-8")  # new evidence
    result, second, _ = run(src, "job-2", prev=wiki, at="2026-02-01T00:00:00Z", policy=policy)
    went = {s.slug: s.stale_after for s in result.stale}
    assert went == {"gizmo-md": "2026-01-31T00:00:00Z"}, went  # confirmed on the 21st, fresh evidence for widget
    data, body = page(second, "sources/gizmo-md.md")
    assert data["compile_status"] == "stale" and data["status"] == "stable"
    assert body.startswith("> **Status: stale** — no new evidence or confirmation") and "3 gears" in body
    assert page(second, "entities/widget-server.md")[0]["stale_after"] == "2026-03-03T00:00:00Z"
    assert "## Pages gone stale\n\n1 pages went stale" in result.report.brief_markdown
    result3, third, _ = run(src, "job-3", prev=second, at="2026-02-21T00:00:00Z", policy=policy)
    assert {s.slug for s in result3.stale} == {"gizmo"}  # its confirmation's clock ran out on the 20th
    assert page(third, "concepts/gizmo.md")[0]["verified"][0]["by"] == "human:ada"
    # new evidence makes a stale page current again
    (src / "gizmo.md").write_text(GIZMO + "\nA gizmo weighs 12 g.\n", encoding="utf-8")
    _, fourth, _ = run(src, "job-4", prev=third, at="2026-02-22T00:00:00Z", policy=policy)
    assert page(fourth, "sources/gizmo-md.md")[0]["compile_status"] == "compiled"


def test_gated_output_is_byte_identical_for_the_same_inputs(tmp_path: Path) -> None:
    src = make_src(tmp_path)
    _, wiki, _ = run(src, "job-1")
    (src / "widget.md").write_text(WIDGET.replace("2.1.4", "2.1.5"), encoding="utf-8")
    (src / "notes.md").write_text(NOTE.format(eol="2024-12-01"), encoding="utf-8")
    outs = []
    for name in ("a", "b"):
        _, out, items = run(src, "job-2", prev=wiki, at="2026-02-01T00:00:00Z", out=name)
        outs.append((tree(out), (out.parent / "review.json").read_bytes()))
        assert {it["kind"] for it in items} == {"held", "conflict"}
    assert outs[0] == outs[1]


@pytest.mark.parametrize("autonomy", ["suggest", "guarded", "auto"])
def test_gated_incremental_pass_equals_full_pass(tmp_path: Path, autonomy: str) -> None:
    from tests.helpers.wiki import CONFLICT_NOTE, generation_two, make_kb

    src = make_kb(tmp_path)
    policy = {"autonomy": autonomy}
    _, first, _ = run(src, "job-1", policy=policy)
    generation_two(src)  # a revise, an added and a deleted source
    (src / "notes").mkdir()
    (src / "notes" / "widget support.md").write_text(CONFLICT_NOTE, encoding="utf-8")  # and a conflict
    outs = []
    for name, full in (("inc", False), ("full", True)):
        _, out, _ = run(src, "job-2", prev=first, at="2026-09-01T00:00:00Z", policy=policy, out=name, full=full)
        outs.append((tree(out), (out.parent / "review.json").read_bytes()))
    assert outs[0] == outs[1]


def test_every_step_reports_started_progress_and_done(tmp_path: Path) -> None:
    src = make_src(tmp_path)
    events = []
    run(src, "job-1", progress=events.append)
    for step in ("gather", "extract", "match", "update", "flag", "brief"):
        states = [e.state for e in events if e.step == step]
        assert states[0] == "started" and states[-1] == "done" and "progress" in states, (step, states)
    assert any(e.current for e in events if e.state == "progress" and e.step == "update")


def test_an_unreadable_policy_fails_closed(tmp_path: Path) -> None:
    src = make_src(tmp_path)
    result, _, items = run(src, "job-1", policy={"autonomy": "yolo"})
    assert not any(u.written for u in result.updates) and items
    assert any("trust policy could not be read" in w for w in result.report.warnings)


def _host_compile(svc, workspace, base_id: str) -> str:  # noqa: ANN001
    from kctui.services import jobs
    from kctui.services.local_transport import LocalTransport
    from kctui.services.worker import run_worker

    _, _, job = jobs.request_compile(svc, workspace, base_id)
    [outcome] = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert outcome.result == "succeeded", outcome
    return job.id


def test_a_pass_that_proposes_a_page_again_replaces_what_waited(svc, workspace) -> None:
    from kctui import paths
    from kctui.services import review
    from tests.helpers import make_base

    base = make_base(svc, workspace, "Widgets", files={"widget.md": WIDGET})
    src, wiki = paths.sources_path(workspace, base.id), paths.wiki_path(workspace, base.id)
    _host_compile(svc, workspace, base.id)
    (src / "widget.md").write_text(WIDGET.replace("2.1.4", "2.1.5"), encoding="utf-8")
    _host_compile(svc, workspace, base.id)
    [change] = review.list_items(svc)  # one source change, two pages: one decision (issue 13)
    assert {p.page_path for p in change.page_list} == {"entities/widget-server.md", "sources/widget-md.md"}
    (src / "widget.md").write_text(WIDGET, encoding="utf-8")  # the source goes back: nothing waits any more
    _host_compile(svc, workspace, base.id)
    assert review.list_items(svc) == []
    assert {i.state for i in review.list_items(svc, state=None)} == {"superseded"}
    for rel in ("entities/widget-server.md", "sources/widget-md.md"):
        assert page(wiki, rel)[0]["compile_status"] == "compiled"
    (src / "notes.md").write_text(NOTE.format(eol="2024-12-01"), encoding="utf-8")
    _host_compile(svc, workspace, base.id)
    [conflict] = review.list_items(svc)
    assert conflict.kind == "conflict" and conflict.details["fingerprint"]
    (src / "notes.md").write_text(NOTE.format(eol="2024-11-06"), encoding="utf-8")  # the note is corrected
    _host_compile(svc, workspace, base.id)
    assert review.get_item(svc, conflict.id).state == "superseded"
    [held] = review.list_items(svc)  # the note's own page changed a value: that revise waits, as it should
    assert (held.page_path, held.update_kind, held.reason) == ("sources/notes-md.md", "revise", "autonomy_ceiling")
    data, body = page(wiki, "entities/widget-server.md")
    assert data["compile_status"] == "compiled" and "eol: 2024-11-06 ^[notes.md:L7-L7]" in body


# -- endoflife 2025 → 2026 through the host (request_compile → worker → report_result) ------------

EOL = Path(__file__).parents[2].parent / "shared" / "corpus" / "endoflife"
SLICE = ["alpine-linux", "amazon-eks", "angular", "apache-groovy", "apache-kafka", "centos", "composer", "debian",
         "devuan", "django", "electron", "go", "isc-dhcp", "jquery", "kubernetes", "apache-activemq-artemis",
         "apache-artemis", "authentik", "cilium", "duckdb", "jruby"]  # devuan 2026 only adds a release: an append


@pytest.mark.skipif(not EOL.is_dir(), reason=f"the shared endoflife corpus is not at {EOL}")
def test_endoflife_update_under_guarded_holds_revises_and_the_brief_matches_the_queue(svc, workspace) -> None:
    from kctui import paths
    from kctui.services import review
    from kctui.services.briefs import find_brief
    from tests.helpers import make_base

    def generation(folder: str) -> dict[str, str]:
        return {f"products/{n}.md": (EOL / folder / "products" / f"{n}.md").read_text(encoding="utf-8")
                for n in SLICE if (EOL / folder / "products" / f"{n}.md").is_file()}

    base = make_base(svc, workspace, "EOL", files=generation("2025-08-22"))

    def compile_once() -> str:
        return _host_compile(svc, workspace, base.id)

    compile_once()
    assert review.list_items(svc, kb_id=base.id) == []  # a first pass under guarded: creates only
    src = paths.sources_path(workspace, base.id)
    shutil.rmtree(src / "products")
    for rel, text in generation("2026-08-22").items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    job2 = compile_once()
    items = review.list_items(svc, kb_id=base.id)
    assert items and all(i.job_id == job2 for i in items)
    revises = [i for i in items if i.update_kind == "revise"]
    assert revises and all(i.kind == "held" and i.reason == "autonomy_ceiling" for i in revises)
    assert not [i for i in items if i.update_kind in ("create", "append")], "creates and appends are applied"
    assert {i.reason for i in items if i.update_kind == "supersede"} <= {"supersede"}
    wiki = paths.wiki_path(workspace, base.id)
    for name in ("authentik", "cilium", "duckdb"):  # new products: created and written
        data, _ = page(wiki, f"sources/products-{name}-md.md")
        assert data["compile_status"] == "compiled"
    for rel in ("sources/products-devuan-md.md", "entities/devuan.md"):  # an append: written unattended
        data, body = page(wiki, rel)
        assert data["compile_status"] == "compiled"
        assert any(ln.startswith("| 6 | ") and "| 6.0.0 |" in ln and "| ^[products/devuan.md:L" in ln
                   for ln in body.split("\n"))  # the new release cycle: a cited row of the release table
    for update in [p for item in revises for p in item.page_list if p.update_kind == "revise"]:  # a held
        data, body = page(wiki, update.page_path)  # revise leaves the live page as it was, flagged
        assert data["compile_status"] == "needs-review" and body.startswith("> **Status: needs-review**")
    brief = find_brief(svc, workspace, base.id, job2)["markdown"]
    held = [p for i in items if i.kind == "held" for p in i.page_list]  # the held page updates
    sets = [i for i in items if i.kind == "held"]  # the items they were filed as: one per source change
    conflicts = [i for i in items if i.kind == "conflict"]
    assert len(sets) < len(held)  # this pass's changes revise several pages each
    assert (f"This pass filed {len(sets) + len(conflicts)} review items: {len(sets)} held ({len(held)} page "
            f"updates, one decision per source change) and {len(conflicts)} conflicts opened.") in brief
    section = brief.split("## Updates held", 1)[1].split("## Conflicts opened", 1)[0]
    for i in held:
        assert f"(wiki/{i.page_path}) " in section and f"(`{i.reason}`)" in section
    by_kind = {k: sum(1 for i in held if i.update_kind == k) for k in ("create", "append", "revise", "supersede")}
    assert "Held: " + ", ".join(f"{n} {k}" for k, n in by_kind.items() if n) + "." in section
    pages_section = brief.split("## Pages\n", 1)[1].split("## Updates held", 1)[0]
    assert "created:" in pages_section and "revised:" not in pages_section
    assert "* appended:\n  * [Devuan](wiki/entities/devuan.md)" in pages_section
