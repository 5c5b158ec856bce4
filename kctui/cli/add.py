"""`kctui add`: copy files or folders (or standard input) into a knowledge base's sources/ (issue 16)."""

from __future__ import annotations

import sys

import click

from kctui.cli.common import fail, open_services, print_json
from kctui.services import jobs as jobs_svc
from kctui.services.ingest import MAX_FILE_BYTES, IngestReport, ingest_content, ingest_paths
from kctui.services.shapes import job_json
from kctui.store.records import JobRecord


def _read_stdin() -> bytes:
    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        fail(f"standard input is over the {MAX_FILE_BYTES:,}-byte limit of one source file; nothing was written")
    return data


@click.command("add")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.argument("sources", metavar="PATH…", nargs=-1, required=True)
@click.option("--name", metavar="NAME", help="With PATH '-': the file in sources/ that standard input becomes "
              "(a relative path such as notes/today.md).")
@click.option("--replace", is_flag=True, help="Overwrite files that already exist in sources/.")
@click.option("--compile", "compile_after", is_flag=True, help="Request a compile afterwards.")
@click.option("--wait", is_flag=True, help="With --compile: wait for that compile to end.")
@click.option("--json", "as_json", is_flag=True, help="Print {copied, replaced, skipped, job} as JSON.")
def add_cmd(workspace: str, kb_id: str, sources: tuple[str, ...], name: str | None, replace: bool,
            compile_after: bool, wait: bool, as_json: bool) -> None:
    """Copy files or folders (a folder's contents, keeping its tree) into KB's sources/, or standard input
    with `-` and --name. Symlinks are never copied; an existing file is kept unless --replace. Each file
    skipped is one line on stderr; the exit status is non-zero when nothing was added."""
    _check_options(sources, name, compile_after, wait)
    svc = open_services()
    if sources == ("-",):
        report = ingest_content(svc, workspace, kb_id, name or "", _read_stdin(), replace=replace)
    else:
        report = ingest_paths(svc, workspace, kb_id, list(sources), replace=replace)
    for skipped in report.skipped:
        click.echo(f"kctui: {skipped.line()}", err=True)
    added = len(report.copied) + len(report.replaced)
    job = None
    if compile_after and added:
        if wait:
            from kctui.cli.wait import compile_and_report  # noqa: PLC0415 - the compiler loads only to compile here

            if not as_json:
                click.echo(f"added {added} file(s) to {kb_id}")
            compile_and_report(svc, workspace, kb_id, as_json)
            return
        _, _, job = jobs_svc.request_compile(svc, workspace, kb_id)
    _print_added(report, job, kb_id, as_json)
    if not added:
        sys.exit(1)


def _check_options(sources: tuple[str, ...], name: str | None, compile_after: bool, wait: bool) -> None:
    if wait and not compile_after:
        fail("--wait needs --compile")
    if "-" in sources and (len(sources) != 1 or not name):
        fail("'-' (standard input) needs --name NAME and no other PATH")
    if name and "-" not in sources:
        fail("--name is for standard input: pass '-' as the PATH")


def _print_added(report: IngestReport, job: JobRecord | None, kb_id: str, as_json: bool) -> None:
    if as_json:
        print_json({**report.json(), "job": job_json(job) if job else None})
        return
    added = len(report.copied) + len(report.replaced)
    extra = f", {len(report.replaced)} replaced" if report.replaced else ""
    click.echo(f"added {added} file(s) to {kb_id}{extra}" + (f"; compile {job.id} queued" if job else ""))
