"""`kctui compile --wait` (and `add --compile --wait`, `demo`) as the person sees it: the progress lines
on stderr, the one outcome line, the exit status. The work itself is `kctui.services.compile_wait`."""

from __future__ import annotations

import sys
import time

import click

from kctui.cli.common import fail, phase_text, print_json
from kctui.compiler.runner import ProgressEvent
from kctui.services import bases as bases_svc
from kctui.services import compile_wait as wait_svc
from kctui.services.context import ServiceContext
from kctui.services.shapes import job_json
from kctui.services.status import base_status_json
from kctui.store.records import BaseRecord, JobRecord


def progress_printer() -> wait_svc.Progress:
    """Prints a job's progress on stderr: each new step, its end, and at most one line per 0.5 s."""
    last = {"step": None, "t": 0.0}

    def show(job_id: str, event: ProgressEvent) -> None:
        now = time.monotonic()
        if event.step != last["step"] or event.state == "done" or now - last["t"] > 0.5:
            last.update(step=event.step, t=now)
            count = f" {event.done}/{event.total}" if event.total else ""
            cur = f" {event.current}" if event.current else ""
            _note(f"{job_id} {event.step}{count}{cur}")

    return show


def _note(line: str) -> None:
    """A line on stderr; a closed stderr (`… 2>&1 | head -1`) silences the notes, never the compile: the
    job runs in this process and must not fail because nobody reads its progress."""
    if _muted:
        return
    try:
        click.echo(f"  {line}", err=True)
    except OSError:
        _muted.append(True)


_muted: list[bool] = []


def compile_and_wait(svc: ServiceContext, workspace: str, kb_id: str, *,
                     quiet: bool = False) -> tuple[bool, BaseRecord, JobRecord | None]:
    """`kctui.services.compile_wait.compile_and_wait`, its notes and progress on stderr unless `quiet`;
    Ctrl-C says what became of the job and exits 130."""
    try:
        return wait_svc.compile_and_wait(svc, workspace, kb_id, progress=None if quiet else progress_printer(),
                                         note=None if quiet else _note)
    except wait_svc.WaitInterrupted as stop:
        if stop.cancelled:
            click.echo(f"\nkctui: cancelled {stop.job_id}", err=True)
        else:
            click.echo(f"\nkctui: stopped waiting; {stop.job_id} goes on in the running host", err=True)
        raise SystemExit(130) from None


def compile_and_report(svc: ServiceContext, workspace: str, kb_id: str, as_json: bool) -> None:
    """Compile KB, wait, then print the outcome (a line, or {changed, knowledgeBase, job}); exit 1 unless
    the job succeeded."""
    changed, base, final = compile_and_wait(svc, workspace, kb_id, quiet=as_json)
    if final is None:
        fail("nothing to wait for: no job was queued")
    if as_json:
        base = bases_svc.get_base(svc, base.workspace, base.id)
        print_json({"changed": changed, "knowledgeBase": base_status_json(svc, base), "job": job_json(final)})
    else:
        click.echo(outcome_line(svc, final))
    if final.phase != "succeeded":
        sys.exit(1)


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def outcome_line(svc: ServiceContext, job: JobRecord) -> str:
    """The one line `compile --wait` ends with: the outcome, the counts of the pass (pages changed,
    held, conflicts, skipped files, warnings) and where to read more."""
    head = f"{job.id}: {phase_text(job.phase)}"
    if job.phase != "succeeded":
        error = f" — [{job.error_code}] {job.error}" if job.error else ""
        return f"{head}{error}; read more: kctui jobs, kctui status {job.workspace}"
    outcome = wait_svc.pass_outcome(svc, job)
    filed, counts = outcome.filed, outcome.counts
    parts = []
    if counts is not None:
        parts.append(_plural(counts["pages"], "page") + " changed")
    parts += [f"{filed.get('held', 0)} held", _plural(filed.get("conflict", 0), "conflict")]
    if counts is not None:
        parts += [_plural(counts["skipped"], "file") + " skipped", _plural(counts["warnings"], "warning")]
        if counts["skipped"] or counts["warnings"]:
            head = f"{job.id}: ⚠ succeeded with " + " and ".join(
                x for x in (_plural(counts["skipped"], "file") + " skipped" if counts["skipped"] else "",
                            _plural(counts["warnings"], "warning") if counts["warnings"] else "") if x)
    more = (f"kctui brief {job.workspace} {job.base_id} {job.id}" if outcome.has_brief
            else f"kctui status {job.workspace}")
    if filed:
        more += ", kctui review list"
    return f"{head} — {', '.join(parts)}" + ("" if counts is not None or not outcome.has_brief
                                             else " (the brief has no counts)") + f"; read more: {more}"
