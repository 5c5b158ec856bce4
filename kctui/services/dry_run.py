"""Dry runs (issue 16; seeds 003 and 004 `dry_run`): a whole compile pass against the current sources
and wiki whose change brief says what a real pass would create, revise, hold, conflict and skip —
without promoting, filing review items, recording revisions or emitting events.

A dry run is not a queued job: it never takes the queue's one running slot, the host lock or a base's
active job, so it never blocks or delays a real job, and it leaves nothing in the store. Its candidate
tree, brief and `review.json` are kept under `<base>/.a3s/dry-run/<id>/` until the next dry run of
the base replaces them (one at a time per base, under the advisory lock `.a3s/dry-run.lock`). A real
pass never reads that folder, and a dry run writes no cache a real pass reads as wiki state
(`compile_pass(dry_run=True)`). A kill -9 at any point leaves only that folder, removed by the next
dry run: there is nothing to recover.

The result (`DryRun.to_json`) is shaped as a job with `dryRun: true` and `result.brief`.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import signal
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kctui import paths
from kctui.atomic_write import write_atomically
from kctui.compiler.contract import CompileCancelled, CompileFailure, CompileRequest, ProgressEvent
from kctui.core.clock import rfc3339
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput
from kctui.services.jobs import has_source_files, no_files

CRASH_ENV = "KCTUI_TEST_DRY_RUN_CRASH_AT"  # tests: SIGKILL at a step (below) or a pass step's start
STEPS = ("cleared", "candidate_written", "result_written")
PASS_STEPS = ("gather", "extract", "match", "update", "flag", "brief")
RESULT_FILE = "dry-run.json"
TRIGGER = "dry_run"


def dry_run_root(workspace: Path, kb_id: str) -> Path:
    return paths.kb_path(workspace, kb_id) / ".a3s" / "dry-run"


def _lock_file(workspace: Path, kb_id: str) -> Path:
    return paths.kb_path(workspace, kb_id) / ".a3s" / "dry-run.lock"


@dataclass
class DryRun:
    id: str
    workspace: str
    base_id: str
    path: Path
    created_at: int
    completed_at: int | None = None
    phase: str = "running"  # running | succeeded | failed
    source_digest: str | None = None
    error: str | None = None
    error_code: str | None = None
    brief: dict[str, Any] = field(default_factory=dict)

    @property
    def candidate(self) -> Path:
        return self.path / "wiki"

    def to_json(self) -> dict[str, Any]:
        """A protocol-shaped Job (kctui.services.shapes.job_json) with `dryRun` and `result.brief`."""
        return {
            "id": self.id, "knowledgeBaseId": self.base_id, "trigger": TRIGGER, "phase": self.phase,
            "sourceDigest": self.source_digest, "createdAt": rfc3339(self.created_at),
            "startedAt": rfc3339(self.created_at), "completedAt": rfc3339(self.completed_at),
            "outputPath": str(self.path), "error": self.error, "workspaceRoot": self.workspace,
            "errorCode": self.error_code, "transient": None, "notBefore": None, "claimedBy": None,
            "compilerVersion": self.brief.get("compiler"), "dryRun": True,
            # a pass that ran but whose candidate would be refused keeps its brief (with the reason)
            "result": {"brief": self.brief} if self.brief else None,
        }


class _BaseLock:
    """One dry run per base at a time (an advisory lock, released by the kernel if the process dies)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def __enter__(self) -> _BaseLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise Conflict("a dry run of this knowledge base is already running") from None
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _crash(step: str) -> None:
    if os.environ.get(CRASH_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)


def _clear(root: Path) -> None:
    """Remove the previous dry run(s) of the base; a symlink in their place is removed, never followed."""
    try:
        st = os.lstat(root)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(root)
        return
    for entry in os.scandir(root):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)


def _wiki_identity(wiki: Path) -> tuple[tuple[int, int] | None, ...]:
    """What a promotion changes: the tree's inode (a whole generation swapped in) and its class
    folders' mtimes (a review decision renames single pages into them)."""
    out: list[tuple[int, int] | None] = []
    for path in (wiki, wiki / "sources", wiki / "concepts", wiki / "entities"):
        try:
            st = os.lstat(path)
            out.append((st.st_ino, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


def run_dry_run(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, *,
                progress: Callable[[ProgressEvent], None] | None = None,
                should_stop: Callable[[], bool] | None = None) -> DryRun:
    """Run one dry run of the base now, in this thread. A pass that fails gives a `failed` DryRun with
    its code and one-line error (nothing else changes); `Conflict` when one already runs for the base."""
    from kctui.compiler.steps.pipeline import compile_pass  # noqa: PLC0415 - the compiler only when asked
    from kctui.services.policy import _to_json, load_policy  # noqa: PLC0415

    base = get_base(ctx, workspace, kb_id)
    ws = Path(base.workspace)
    if not has_source_files(paths.sources_path(ws, base.id)):  # as `c` says it, not a failed pass
        raise InvalidInput(no_files(base.id, "do a dry run of"))
    policy, link_style, extractor = load_policy(ctx, base.workspace, base.id)
    now = ctx.now()
    run_id = f"dry-run-{now}-{secrets.token_hex(3)}"
    run = DryRun(id=run_id, workspace=base.workspace, base_id=base.id, path=dry_run_root(ws, base.id) / run_id,
                 created_at=now, source_digest=base.source_digest)
    crash_at = os.environ.get(CRASH_ENV)

    def on_progress(event: ProgressEvent) -> None:
        if crash_at == event.step and event.state == "started":
            _crash(event.step)
        if progress is not None:
            progress(event)

    with _BaseLock(_lock_file(ws, base.id)):
        root = dry_run_root(ws, base.id)
        _clear(root)
        run.path.mkdir(parents=True)
        _crash("cleared")
        wiki = paths.wiki_path(ws, base.id)
        request = CompileRequest(
            job_id=run.id, trigger=TRIGGER, source_digest=base.source_digest or "unscanned",
            created_at=rfc3339(now) or "", source_path=paths.sources_path(ws, base.id),
            previous_wiki_path=wiki if wiki.is_dir() and not wiki.is_symlink() else None,
            output_path=run.candidate, link_style=link_style, extractor=extractor,
            trust_policy=_to_json(policy, link_style, extractor),
        )
        before = _wiki_identity(wiki)
        try:
            result = compile_pass(request, progress=on_progress, should_stop=should_stop, dry_run=True)
        except CompileFailure as exc:
            run.phase, run.error_code, run.error = "failed", exc.code, exc.message[:1000]
        except CompileCancelled:
            run.phase, run.error_code, run.error = "failed", "cancelled", "the dry run was stopped"
        else:
            _crash("candidate_written")
            moved = _wiki_identity(wiki) != before
            run.brief = brief_json(result, run, moved)
            rejected = _rejected(run)  # what the result route would refuse, it says now
            run.phase = "failed" if rejected else "succeeded"
            if rejected:
                run.error_code, run.error = "invalid_output", rejected[:1000]
            _note_brief(run)
        run.completed_at = ctx.now()
        write_atomically(run.path / RESULT_FILE, json.dumps(run.to_json(), sort_keys=True, ensure_ascii=False,
                                                            indent=1) + "\n", durable=False)
        _crash("result_written")
    return run


def _rejected(run: DryRun) -> str | None:
    """The one-line reason the result route (kctui.services.results.report_result) would refuse this
    candidate before promoting it, or None: the same checks, so a dry run cannot promise a pass that
    would then fail."""
    from kctui.publish.validate import InvalidOutput, validate_staged_tree  # noqa: PLC0415
    from kctui.services.review import ManifestError, read_manifest  # noqa: PLC0415

    try:
        validate_staged_tree(run.candidate)
        manifest = read_manifest(run.path)
        for item in manifest.items if manifest else []:
            if not (run.candidate / item.page).is_file():
                raise ManifestError(f"review.json names page {item.page}, which the staged wiki does not have")
    except (InvalidOutput, ManifestError) as exc:
        return f"staged output rejected: {exc}"
    return None


def brief_json(result: Any, run: DryRun, wiki_moved: bool = False) -> dict[str, Any]:
    """What the pass would do, as counts and lists (the same numbers as its Markdown brief)."""
    written = [u for u in result.updates if u.written]
    kinds = [u.kind for u in written]
    held_sets = sum(1 for it in result.review_items if it.get("kind") == "held")
    ch = result.changes
    warnings = list(result.report.warnings)
    if wiki_moved:
        warnings.insert(0, "the wiki changed (a promotion or a review decision) while this dry run read it; "
                           "run it again for an exact brief")
    return {
        "compiler": result.report.compiler_version,
        "path": str(run.path),
        "candidateWiki": str(run.candidate),
        "counts": {
            "created": kinds.count("create"), "appended": kinds.count("append"), "revised": kinds.count("revise"),
            "superseded": kinds.count("supersede"), "removed": kinds.count("remove"),
            "refreshed": kinds.count("refresh"), "held": held_sets, "heldPages": len(result.held),
            "conflicts": len(result.conflicts), "skipped": len(result.skipped),
            "skippedBefore": result.skipped_before, "stale": len(result.stale),
            "reviewItems": held_sets + len(result.conflicts),
        },
        "sources": {"added": list(ch.added), "modified": list(ch.modified), "deleted": list(ch.deleted),
                    "unchanged": len(ch.unchanged)},
        "pages": [{"page": f"{_folder(u.page_class)}/{u.slug}.md", "title": u.title, "kind": u.kind,
                   "claimsAdded": u.added, "claimsRevised": u.revised, "claimsRetracted": u.retracted}
                  for u in written],
        "held": [{"page": f"{_folder(u.page_class)}/{u.slug}.md", "title": u.title, "kind": u.kind,
                  "reason": u.reason} for u in result.held],
        "conflicts": [{"page": f"{_folder(c.page_class)}/{c.slug}.md", "title": c.title, "attribute": c.attribute,
                       "scope": c.scope, "values": [x.value for x in c.claims]} for c in result.conflicts],
        "skipped": [{"path": s.path, "reason": s.reason, "detail": s.detail} for s in result.skipped],
        "warnings": warnings,
        "markdown": "",  # filled by _note_brief
    }


def _folder(page_class: str) -> str:
    return {"source": "sources", "concept": "concepts", "entity": "entities"}.get(page_class, page_class)


def _note_brief(run: DryRun) -> None:
    """The Markdown brief, saying it is a dry run and where its candidate tree is."""
    target = run.path / "brief.md"
    try:
        text = target.read_text(encoding="utf-8")
    except OSError:
        text = "# Change brief\n"
    head, _, rest = text.partition("\n")
    note = (f"\n**Dry run**: nothing was promoted, filed for review, recorded or announced. The candidate "
            f"wiki is `{run.candidate}` (kept until the next dry run of this base).\n")
    if run.error:
        note += f"\n⚠ A real pass would fail here: [{run.error_code}] {run.error}\n"
    if run.brief.get("warnings") and run.brief["warnings"][0].startswith("the wiki changed"):
        note += f"\n⚠ {run.brief['warnings'][0]}.\n"
    text = head + "\n" + note + rest
    write_atomically(target, text, durable=False)
    run.brief["markdown"] = text


def last_dry_run(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> dict[str, Any] | None:
    """The base's kept dry run as `DryRun.to_json` gave it, or None (none yet, or one that was cut short)."""
    base = get_base(ctx, workspace, kb_id)
    root = dry_run_root(Path(base.workspace), base.id)
    if not root.is_dir() or root.is_symlink():
        return None
    for entry in sorted(os.scandir(root), key=lambda e: e.name, reverse=True):
        target = Path(entry.path) / RESULT_FILE
        if entry.is_dir(follow_symlinks=False) and target.is_file() and not target.is_symlink():
            try:
                return json.loads(target.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
    return None


def summary_line(run: DryRun) -> str:
    if run.phase != "succeeded" and run.brief:
        return f"dry run {run.id}: a real pass would fail: [{run.error_code}] {run.error}; brief at {run.path}"
    if run.phase != "succeeded":
        return f"dry run {run.id} failed: [{run.error_code}] {run.error}"
    c = run.brief["counts"]
    return (f"dry run {run.id}: would create {c['created']}, append {c['appended']}, revise {c['revised']}, "
            f"supersede {c['superseded']}, remove {c['removed']}, refresh {c['refreshed']}; hold {c['held']} "
            f"({c['heldPages']} pages), open {c['conflicts']} conflicts, skip {c['skipped']} files; "
            f"candidate at {run.candidate}")


__all__ = ["DryRun", "run_dry_run", "last_dry_run", "dry_run_root", "brief_json", "summary_line", "CRASH_ENV"]
