"""The gather step: walk `sources/` (never following links, excluded names skipped as the host skips
them), digest every file (or take its digest from what the last pass knew), read the previous wiki,
open the pass's extractor and classify what changed since the previous wiki (added, modified, deleted,
renamed)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kctui.compiler.contract import CompileFailure
from kctui.compiler.extractors import ExtractorContext
from kctui.compiler.readers import Skipped
from kctui.compiler.readers.source import SourceFile, digest_file
from kctui.compiler.schema import load_schema, schema_warning
from kctui.compiler.steps.full_pass import recompile_other_versions
from kctui.compiler.steps.policy_kinds import compiled_kinds, maintains_suffix
from kctui.compiler.steps.results import Gathered, PassRun, SourceChanges
from kctui.sources.excludes import is_excluded_name, is_hidden_name

MAX_FILES = 20_000
MAX_TOTAL_BYTES = 1024 * 1024 * 1024


class SourceLimitExceeded(Exception):
    pass


def scan_sources(root: Path, should_stop) -> tuple[list[SourceFile], list[Skipped]]:  # noqa: ANN001
    """All regular files under `root` in byte order of their relative paths, plus what was skipped."""
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    total = 0
    stack: list[tuple[str, str]] = [(str(root), "")]
    while stack:
        if should_stop():
            return files, skipped
        directory, prefix = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as exc:
            skipped.append(Skipped(prefix.rstrip("/") or ".", "unreadable", f"folder cannot be listed ({exc.strerror})"))
            continue
        for entry in entries:
            name = entry.name
            if is_excluded_name(name):
                continue
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                shown = os.fsencode(prefix + name).decode("utf-8", "backslashreplace")
                skipped.append(Skipped(shown, "bad_name", "the file name is not valid UTF-8 and cannot be cited"))
                continue
            rel = prefix + name
            if is_hidden_name(name):
                skipped.append(Skipped(rel, "hidden", "a hidden file or folder (its name starts with a dot) is never compiled"))
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                skipped.append(Skipped(rel, "unreadable", exc.strerror or "cannot stat"))
                continue
            if stat.S_ISLNK(st.st_mode):
                skipped.append(Skipped(rel, "symlink", "symlinks are never followed"))
            elif stat.S_ISDIR(st.st_mode):
                stack.append((entry.path, rel + "/"))
            elif stat.S_ISREG(st.st_mode):
                files.append(SourceFile(rel, entry.path, st.st_size,
                                        stamp=(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)))
                total += st.st_size
                if len(files) > MAX_FILES:
                    raise SourceLimitExceeded(f"more than {MAX_FILES} source files")
                if total > MAX_TOTAL_BYTES:
                    raise SourceLimitExceeded(f"sources larger than {MAX_TOTAL_BYTES} bytes")
            else:
                skipped.append(Skipped(rel, "unreadable", "not a regular file"))
    files.sort(key=lambda f: f.path.encode("utf-8"))
    skipped.sort(key=lambda s: s.path.encode("utf-8", "surrogateescape"))
    return files, skipped


def classify(current: dict[str, str], previous: dict[str, str]) -> SourceChanges:
    """Change classes between the previous wiki's sources and the current files (path -> digest)."""
    changes = SourceChanges()
    for path in sorted(current, key=lambda p: p.encode("utf-8")):
        if path not in previous:
            changes.added.append(path)
        elif previous[path] != current[path]:
            changes.modified.append(path)
        else:
            changes.unchanged.append(path)
    changes.deleted = sorted((p for p in previous if p not in current), key=lambda p: p.encode("utf-8"))
    deleted_by_digest: dict[str, list[str]] = {}
    for path in changes.deleted:
        deleted_by_digest.setdefault(previous[path], []).append(path)
    for path in changes.added:
        olds = deleted_by_digest.get(current[path])
        if olds:
            changes.renamed.append((olds.pop(0), path))
    return changes


# -- the gather step ----------------------------------------------------------------------------

def gather(run: PassRun) -> Gathered:
    """The sources and their digests, the previous wiki, the pass's extractor and the source changes."""
    request, steps, store = run.request, run.steps, run.store
    steps.start("gather")
    if not request.source_path.is_dir():
        raise CompileFailure("source_unreadable", f"sources folder {request.source_path} is missing or unreadable", transient=True)
    store.start_prelink(request.previous_wiki_path, Path(request.output_path))
    try:
        files, skipped = scan_sources(request.source_path, steps.should_stop)
    except SourceLimitExceeded as exc:
        raise CompileFailure("source_limit_exceeded", str(exc), transient=False) from None
    steps.check()
    if not files and not skipped:
        raise CompileFailure("source_unreadable", "the knowledge base has no source files to compile", transient=False)
    readable = _digested(run, files, skipped)
    store.keep_digests(readable)
    prev = store.load(request.previous_wiki_path, steps.should_stop)
    warnings = list(prev.problems)
    readable, not_extracted = compiled_kinds(request, readable, prev)
    if not_extracted:
        shown = ", ".join(not_extracted[:10]) + (f" and {len(not_extracted) - 10} more" if len(not_extracted) > 10 else "")
        warnings.append(f"{len(not_extracted)} source(s) gathered but not extracted (their kind is not in the "
                        f"policy's compile_sources): {shown}")
    # The actor of this pass (`generated.by`, the report, the brief): the built-in extractor or the model.
    # A source whose page another version wrote is read again, so switching extractor or model
    # recompiles every source once (the reply cache makes later passes free).
    schema = load_schema(request.source_path.parent)  # read once: the extractor gets this copy
    extractor = run.opener(ExtractorContext(request, prev, run.cache_folder, steps.should_stop, steps.note, schema))
    run.opened.append(extractor)
    version = extractor.version + maintains_suffix(request)  # fewer page classes: another version
    schema_problem = schema_warning(schema)  # the extractors fall back to the embedded default
    if schema_problem:
        warnings.append(schema_problem)
    changes = recompile_other_versions(prev, classify({f.path: f.digest for f in readable}, prev.source_digests()),
                                       version)
    steps.done(len(files), f"{len(changes.added)} added, {len(changes.modified)} modified, {len(changes.deleted)} deleted")
    return Gathered({f.path: f for f in readable}, prev, not_extracted, extractor, version, changes, skipped, warnings)


def _digested(run: PassRun, files: list[SourceFile], skipped: list[Skipped]) -> list[SourceFile]:
    """The files whose digest is known: from the store when their stat is unchanged, else read (progress
    and a stop request checked per file read, every 64th from the store). An unreadable file is skipped."""
    readable: list[SourceFile] = []
    steps = run.steps
    for i, f in enumerate(files, 1):
        try:
            f.digest = run.store.digest_of(f) or ""
            if not f.digest:
                steps.tick(i, len(files), f.path)
                digest_file(f)
            elif i % 64 == 0 or i == len(files):
                steps.tick(i, len(files), f.path)
            readable.append(f)
        except OSError as exc:
            skipped.append(Skipped(f.path, "unreadable", exc.strerror or str(exc)))
    return readable
