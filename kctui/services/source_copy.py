"""Copying files into a `sources/` folder safely: the rules shared by `kb create --from`, `kctui add`
and the ingest routes (issue 16). Knows nothing of the store; `kctui.services.ingest` is the use case.

The rules, the same for every caller:
- a symlink is never followed or copied, and no write goes through one (a `sources/` sub-folder that
  is a symlink is refused); only regular files are copied; names the scanner excludes are skipped, and
  so are hidden files and folders (a name starting with a dot: the compiler never reads one);
- a name given for content is a relative path inside `sources/`: no `..`, not absolute, no NUL, no
  empty or excluded component;
- an existing file is never overwritten unless `replace`; a file over `MAX_FILE_BYTES` is skipped; the
  whole request is refused, nothing copied, when it would take the base past its file-count or size
  limit (`KCTUI_MAX_FILES`, `KCTUI_MAX_BYTES`);
- each file is written atomically (a temporary file beside it, synced, moved into place), so a file
  that vanishes or fails mid-copy leaves nothing behind;
- a file the compiler could never read (empty, or binary: a NUL byte in its first 8 KiB, a PDF aside)
  is refused, as the compiler would skip it (`kctui.compiler.readers.read_source`);
- every file skipped gets one line saying which and why; the others are still copied.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from kctui.atomic_write import place_staged, stage_beside, sync_all
from kctui.services.errors import InvalidInput, IOFailure
from kctui.sources.excludes import is_excluded_name, is_hidden_name

MAX_FILE_BYTES = 64 << 20  # one source file
# The readers' rule for a file they skip (kctui.compiler.readers.read_source, SNIFF_BYTES there), kept here
# so that copying a file loads none of the readers (the app imports this module before its first frame)
SNIFF_BYTES = 8 * 1024
MAX_NAME_CHARS = 1024
_HIDDEN = "a hidden file or folder (its name starts with a dot); kctui never compiles one"
MAX_COMPONENT_BYTES = 255


class TooLarge(InvalidInput):
    status = 413
    reason = "Content Too Large"


@dataclass(frozen=True)
class Skipped:
    path: str  # what was asked for (a source path or a name)
    reason: str
    kind: str = "invalid"  # "invalid" | "exists" | "too_large" | "vanished"

    def line(self) -> str:
        return f"skipped {self.path}: {self.reason}"


@dataclass
class IngestReport:
    copied: list[str] = field(default_factory=list)  # paths relative to sources/, POSIX
    replaced: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def json(self) -> dict:
        return {"copied": self.copied, "replaced": self.replaced,
                "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped]}


@dataclass(frozen=True)
class Planned:
    source: str  # where to read (or "" for content)
    relpath: str  # where to write, relative to sources/
    size: int


def check_name(name: str) -> str:
    """A name for content, as a relative POSIX path inside sources/; InvalidInput otherwise."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("name must not be empty")
    if "\0" in name:
        raise InvalidInput("name must not contain a NUL character")
    if len(name) > MAX_NAME_CHARS:
        raise InvalidInput(f"name is longer than {MAX_NAME_CHARS} characters")
    if "\\" in name:
        raise InvalidInput(f"name {name!r} must use '/' between folders")
    if name.startswith("/") or os.path.isabs(name):
        raise InvalidInput(f"name {name!r} must be relative to the base's sources/ folder, not absolute")
    parts = name.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise InvalidInput(f"name {name!r} must not contain '..', '.' or an empty folder name")
    for part in parts:
        if len(part.encode("utf-8", "surrogateescape")) > MAX_COMPONENT_BYTES:
            raise InvalidInput(f"name {name!r} has a part longer than {MAX_COMPONENT_BYTES} bytes")
        if is_excluded_name(part):
            raise InvalidInput(f"name {name!r} is one the scanner ignores ({part})")
    return "/".join(parts)


def target_problem(sources: Path, relpath: str, replace: bool) -> Skipped | None:
    """Why `relpath` cannot be written inside `sources`: a symlink or a file on the way, or it exists."""
    here = sources
    parts = PurePosixPath(relpath).parts
    for part in parts[:-1]:
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            break
        if not stat.S_ISDIR(st.st_mode):
            what = "a symlink" if stat.S_ISLNK(st.st_mode) else "not a folder"
            return Skipped(relpath, f"sources/{here.relative_to(sources).as_posix()} is {what}; nothing is "
                                    "written through it")
    target = sources / relpath
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return Skipped(relpath, f"sources/{relpath} exists and is not a regular file", "exists")
    if not replace:
        return Skipped(relpath, f"sources/{relpath} already exists (--replace overwrites it)", "exists")
    return None


def _plan_paths(from_paths: list[str]) -> tuple[list[Planned], list[Skipped]]:
    planned: list[Planned] = []
    skipped: list[Skipped] = []
    for raw in from_paths:
        src = Path(raw).expanduser()
        try:
            st = os.lstat(src)
        except OSError as exc:
            raise InvalidInput(f"cannot read {src}: {exc.strerror or exc}") from exc
        if stat.S_ISLNK(st.st_mode):
            skipped.append(Skipped(str(src), "a symlink; kctui copies real files only"))
        elif is_hidden_name(src.name):
            skipped.append(Skipped(str(src), _HIDDEN))
        elif stat.S_ISREG(st.st_mode):
            _plan_file(planned, skipped, str(src), src.name, st)
        elif stat.S_ISDIR(st.st_mode):
            _plan_folder(planned, skipped, src)
        else:
            skipped.append(Skipped(str(src), "not a regular file or folder"))
    return planned, skipped


def _plan_folder(planned: list[Planned], skipped: list[Skipped], src: Path) -> None:
    """A folder's files, keeping its tree (never through a symlink; what the scanner ignores left out)."""
    for root, dirs, files in os.walk(src, followlinks=False):
        rel_root = Path(root).relative_to(src)
        keep = []
        for d in sorted(dirs):
            p = os.path.join(root, d)
            if os.path.islink(p):
                skipped.append(Skipped(p, "a symlink; kctui copies real files only"))
            elif is_excluded_name(d):
                skipped.append(Skipped(p, "a folder the scanner ignores"))
            elif is_hidden_name(d):
                skipped.append(Skipped(p, _HIDDEN))
            else:
                keep.append(d)
        dirs[:] = keep
        for name in sorted(files):
            _plan_folder_file(planned, skipped, os.path.join(root, name), (rel_root / name).as_posix())


def _plan_folder_file(planned: list[Planned], skipped: list[Skipped], p: str, relpath: str) -> None:
    try:
        fst = os.lstat(p)
    except OSError as exc:
        skipped.append(Skipped(p, f"cannot read it ({exc.strerror or exc})", "vanished"))
        return
    if stat.S_ISLNK(fst.st_mode):
        skipped.append(Skipped(p, "a symlink; kctui copies real files only"))
    elif not stat.S_ISREG(fst.st_mode):
        skipped.append(Skipped(p, "not a regular file"))
    elif is_excluded_name(os.path.basename(p)):
        skipped.append(Skipped(p, "a name the scanner ignores"))
    elif is_hidden_name(os.path.basename(p)):
        skipped.append(Skipped(p, _HIDDEN))
    else:
        _plan_file(planned, skipped, p, relpath, fst)


def _plan_file(planned: list[Planned], skipped: list[Skipped], src: str, relpath: str, st: os.stat_result) -> None:
    if st.st_size > MAX_FILE_BYTES:
        skipped.append(Skipped(src, f"{st.st_size:,} bytes is over the {MAX_FILE_BYTES:,}-byte limit of one "
                                    "source file", "too_large"))
    else:
        planned.append(Planned(src, relpath, st.st_size))


def _current_usage(sources: Path) -> tuple[int, int]:
    files = size = 0
    for root, dirs, names in os.walk(sources, followlinks=False):
        dirs[:] = [d for d in dirs if not is_excluded_name(d)]
        for name in names:
            if is_excluded_name(name):
                continue
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                files += 1
                size += st.st_size
    return files, size


def check_limits(sources: Path, planned: list[Planned], max_files: int, max_bytes: int) -> None:
    if not planned:
        return
    files, size = _current_usage(sources)
    add_files, add_bytes = len(planned), sum(p.size for p in planned)
    if files + add_files > max_files:
        raise InvalidInput(f"adding {add_files:,} files would give sources/ {files + add_files:,}, over the limit "
                           f"of {max_files:,} files per knowledge base; nothing was copied")
    if size + add_bytes > max_bytes:
        raise TooLarge(f"adding {add_bytes:,} bytes would give sources/ {size + add_bytes:,}, over the limit of "
                       f"{max_bytes:,} bytes per knowledge base; nothing was copied")


def read_source_file(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file, never through a symlink (O_NOFOLLOW); OSError if it went away."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is no longer a regular file")
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > limit:
                raise OSError(f"{path} grew past {limit:,} bytes while it was read")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_all(sources: Path, planned: list[Planned], report: IngestReport, replace: bool,
              contents: dict[str, bytes] | None = None) -> None:
    """Stage every file beside its target, sync once, then move each into place and sync again: each
    file is whole or absent after a crash, and a name that appeared meanwhile is still never overwritten
    without `replace`."""
    staged: list[tuple[Path, Planned, bool]] = []
    try:
        for item in planned:
            one = _stage(sources, item, report, replace, contents)
            if one is not None:
                staged.append(one)
        if not staged:
            return
        sync_all()
        _place_all(sources, staged, report, replace)
        sync_all()
    except OSError as exc:
        done = len(report.copied) + len(report.replaced)
        raise IOFailure(f"cannot add to sources/: {exc.strerror or exc}"
                        + (f" ({done} file(s) were added before it)" if done else "; nothing was added")) from exc
    finally:
        for tmp, _, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _stage(sources: Path, item: Planned, report: IngestReport, replace: bool,
           contents: dict[str, bytes] | None) -> tuple[Path, Planned, bool] | None:
    """(the staged file, the item, whether its target existed), or None with the item skipped."""
    problem = target_problem(sources, item.relpath, replace)
    if problem is not None:
        report.skipped.append(Skipped(item.source or item.relpath, problem.reason, problem.kind))
        return None
    try:
        data = contents[item.relpath] if contents is not None else read_source_file(item.source)
    except OSError as exc:
        why = "it vanished while being copied" if isinstance(exc, FileNotFoundError) else (
            f"cannot read it ({exc.strerror or exc})")
        report.skipped.append(Skipped(item.source, why, "vanished"))
        return None
    unreadable = content_problem(item.relpath, data)
    if unreadable is not None:
        report.skipped.append(Skipped(item.source or item.relpath, unreadable, "unreadable"))
        return None
    target = sources / item.relpath
    try:
        return stage_beside(target, data), item, os.path.lexists(target)
    except OSError as exc:
        raise IOFailure(f"cannot write sources/{item.relpath}: {exc.strerror or exc}; nothing was added") from exc


def content_problem(relpath: str, data: bytes) -> str | None:
    """Why the compiler would skip this file's bytes (the readers' rules), or None."""
    if not data.strip():
        return "the file is empty; there is nothing to compile"
    if b"\x00" in data[:SNIFF_BYTES] and not relpath.lower().endswith(".pdf"):
        return "a binary file (a NUL byte in its first 8 KiB); sources are text, Markdown, HTML or PDF"
    return None


def _place_all(sources: Path, staged: list[tuple[Path, Planned, bool]], report: IngestReport, replace: bool) -> None:
    """Move each staged file into place, first to last (`staged` keeps those not placed yet); a name
    that appeared meanwhile is kept unless `replace`."""
    while staged:
        tmp, item, existed = staged[0]
        problem = target_problem(sources, item.relpath, replace)
        placed = problem is None and place_staged(tmp, sources / item.relpath, overwrite=replace)
        staged.pop(0)
        if not placed:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            report.skipped.append(Skipped(item.source or item.relpath,
                                          f"sources/{item.relpath} appeared while copying; it was kept", "exists"))
            continue
        (report.replaced if existed else report.copied).append(item.relpath)


def copy_paths_into(sources: Path, from_paths: list[str], *, replace: bool = False,
                    max_files: int, max_bytes: int) -> IngestReport:
    """Copy files and folders (a folder's contents, keeping its tree) into `sources`."""
    planned, skipped = _plan_paths(from_paths)
    check_limits(sources, planned, max_files, max_bytes)
    seen: dict[str, str] = {}
    unique = []
    for p in planned:  # two inputs aiming at one name: the first wins, the second is a line
        if p.relpath in seen:
            skipped.append(Skipped(p.source, f"{seen[p.relpath]} is copied to sources/{p.relpath} already", "exists"))
        else:
            seen[p.relpath] = p.source
            unique.append(p)
    report = IngestReport(skipped=skipped)
    write_all(sources, unique, report, replace)
    return report
