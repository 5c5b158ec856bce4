"""Adding files to a knowledge base's `sources/` (issue 16): `kctui add WORKSPACE KB PATH …`,
`kctui add WORKSPACE KB - --name NAME`, `POST …/ingest` and `POST …/ingest-path`. The copy rules are
`kctui.services.source_copy` (shared with `kb create --from`)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kctui import paths
from kctui.services.bases import get_base
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput
from kctui.services.source_copy import (
    MAX_FILE_BYTES,
    IngestReport,
    Planned,
    TooLarge,
    check_limits,
    check_name,
    content_problem,
    copy_paths_into,
    target_problem,
    write_all,
)

__all__ = ["IngestReport", "TooLarge", "ingest_content", "ingest_paths", "MAX_FILE_BYTES"]


def _sources_of(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str) -> Path:
    base = get_base(ctx, workspace, kb_id)
    sources = paths.sources_path(Path(base.workspace), base.id)
    try:
        st = os.lstat(sources)
    except FileNotFoundError:
        raise InvalidInput(f"{kb_id} has no sources/ folder ({sources}); create it first") from None
    if not stat.S_ISDIR(st.st_mode):
        raise InvalidInput(f"{sources} is not a folder (a symlink?); kctui writes only into a real sources/")
    return sources


def ingest_paths(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, from_paths: list[str], *,
                 replace: bool = False) -> IngestReport:
    """`kctui add WORKSPACE KB PATH …` and `POST …/ingest-path`."""
    if not from_paths:
        raise InvalidInput("name at least one file or folder to add")
    for p in from_paths:
        if not isinstance(p, str) or not p or "\0" in p:
            raise InvalidInput("a path must be a non-empty string without NUL")
        if not os.path.lexists(os.path.expanduser(p)):
            raise InvalidInput(f"{p} does not exist")
    sources = _sources_of(ctx, workspace, kb_id)
    kb_dir = sources.parent.resolve()
    for p in from_paths:
        src = Path(os.path.expanduser(p)).resolve()
        if kb_dir == src or kb_dir.is_relative_to(src):
            raise InvalidInput(f"{p} holds the knowledge base itself; name a folder outside it")
    return copy_paths_into(sources, from_paths, replace=replace, max_files=ctx.settings.max_files,
                           max_bytes=ctx.settings.max_bytes)


def ingest_content(ctx: ServiceContext, workspace: str | os.PathLike[str], kb_id: str, name: str,
                   content: bytes, *, replace: bool = False) -> IngestReport:
    """`kctui add WORKSPACE KB - --name NAME` and `POST …/ingest`: one file from the given bytes.
    Raises (nothing written) on a bad name or content the compiler cannot read (400), an existing name (409) or oversized content (413)."""
    relpath = check_name(name)
    if len(content) > MAX_FILE_BYTES:
        raise TooLarge(f"the content is {len(content):,} bytes, over the {MAX_FILE_BYTES:,}-byte limit of one "
                       "source file; nothing was written")
    unreadable = content_problem(relpath, content)
    if unreadable is not None:
        raise InvalidInput(f"{relpath}: {unreadable}; nothing was written")
    sources = _sources_of(ctx, workspace, kb_id)
    problem = target_problem(sources, relpath, replace)
    if problem is not None:
        raise (Conflict if problem.kind == "exists" else InvalidInput)(f"{problem.reason}; nothing was written")
    planned = [Planned("", relpath, len(content))]
    limit_files = ctx.settings.max_files + (1 if os.path.lexists(sources / relpath) else 0)
    check_limits(sources, planned, limit_files, ctx.settings.max_bytes)
    report = IngestReport()
    write_all(sources, planned, report, replace, contents={relpath: content})
    if report.skipped:  # the name appeared while it was written: it was kept
        raise Conflict(f"{report.skipped[0].reason}; nothing was written")
    return report
