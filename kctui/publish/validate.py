"""Strict validation of a staged `<job>/wiki` tree before it may be promoted (host.md §7, wiki.md §1).

The walk never follows a link: every folder is opened relative to its parent's descriptor with
`O_NOFOLLOW | O_DIRECTORY`, every entry is judged on its `lstat`, and every page is read through a
descriptor opened with `O_NOFOLLOW | O_NONBLOCK` and checked to be the very file that was listed. A
compiler that swaps a file for a symlink or a FIFO while we look can therefore neither make us read
outside the tree nor hang us.

The first rule broken ends the walk with `InvalidOutput`, whose message is one line naming the
offending path relative to the staged tree (`wiki` itself when the tree as a whole is wrong).
"""

from __future__ import annotations

import codecs
import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kctui.core.frontmatter import MAX_FRONTMATTER_BYTES, FrontmatterError, parse_document, split_frontmatter

MAX_PATH_BYTES = 1024          # wiki.md §1: paths at most 1,024 bytes (relative to the wiki root)
MAX_TYPE_BYTES = 256           # wiki.md §1: OKF `type` at most 256 bytes
MAX_DEPTH = 256                # folders open at once during the walk (a 1,024-byte path allows ~512)
RESERVED_NAMES = frozenset({"index.md", "log.md"})
ROOT_INDEX_KEYS = frozenset({"okf_version"})

_READ_CHUNK = 256 * 1024
# Enough decoded text to hold the largest frontmatter the loader accepts plus its fences.
_HEAD_CHARS = MAX_FRONTMATTER_BYTES + 1024
_ROOT_LABEL = "wiki"


class InvalidOutput(Exception):
    """The staged tree breaks a rule; the message is the reason in words, on one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.splitlines()))


@dataclass(frozen=True)
class ValidationReport:
    files: int           # regular files of any kind
    md_files: int        # regular files ending in `.md` (reserved ones included)
    directories: int     # folders below the root
    total_bytes: int     # sum of the regular files' sizes


def validate_staged_tree(staged: Path) -> ValidationReport:
    """Check the staged tree at `staged` (the `<job>/wiki` folder); raise InvalidOutput on the first fault."""
    staged = Path(staged)
    try:
        root_st = os.lstat(staged)
    except FileNotFoundError:
        raise InvalidOutput(f"{_ROOT_LABEL}: the staged wiki folder does not exist") from None
    except OSError as exc:
        raise InvalidOutput(f"{_ROOT_LABEL}: the staged wiki folder cannot be read ({exc.strerror})") from None
    if stat.S_ISLNK(root_st.st_mode):
        raise InvalidOutput(f"{_ROOT_LABEL}: the staged wiki folder is a symlink, not a real directory")
    if not stat.S_ISDIR(root_st.st_mode):
        raise InvalidOutput(f"{_ROOT_LABEL}: the staged wiki is not a directory")
    try:
        root_fd = os.open(staged, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise InvalidOutput(f"{_ROOT_LABEL}: the staged wiki folder cannot be opened ({exc.strerror})") from None
    walker = _Walker(root_st)
    try:
        _check_same_object(root_fd, root_st, _ROOT_LABEL)
        walker.walk(root_fd, "", 0)
    finally:
        os.close(root_fd)
    if walker.md_files == 0:
        raise InvalidOutput(f"{_ROOT_LABEL}: the staged wiki holds no .md page")
    return ValidationReport(walker.files, walker.md_files, walker.directories, walker.total_bytes)


class _Walker:
    def __init__(self, root_st: os.stat_result) -> None:
        self.root_dev = root_st.st_dev
        self.files = 0
        self.md_files = 0
        self.directories = 0
        self.total_bytes = 0

    def walk(self, dir_fd: int, rel_dir: str, depth: int) -> None:
        label = rel_dir or _ROOT_LABEL
        try:
            with os.scandir(dir_fd) as it:
                entries = sorted(((e.name, e.stat(follow_symlinks=False)) for e in it), key=lambda p: _name_key(p[0]))
        except OSError as exc:
            raise InvalidOutput(f"{label}: folder cannot be listed ({exc.strerror})") from None
        subdirs: list[tuple[str, str, os.stat_result]] = []
        for name, st in entries:
            rel = _check_name(rel_dir, name)
            mode = st.st_mode
            if stat.S_ISLNK(mode):
                raise InvalidOutput(f"{rel}: symlinks are not allowed in the staged wiki")
            if st.st_dev != self.root_dev:
                raise InvalidOutput(f"{rel}: lies on another filesystem (a mount point resolving outside the wiki)")
            if stat.S_ISDIR(mode):
                subdirs.append((name, rel, st))
            elif stat.S_ISREG(mode):
                self._check_file(dir_fd, name, rel, st)
            else:
                raise InvalidOutput(f"{rel}: is a {_kind(mode)}; only regular files and folders are allowed")
        for name, rel, st in subdirs:
            if depth + 1 > MAX_DEPTH:
                raise InvalidOutput(f"{rel}: folders nested deeper than {MAX_DEPTH} levels")
            self.directories += 1
            try:
                fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
            except OSError as exc:
                raise InvalidOutput(f"{rel}: folder cannot be opened ({exc.strerror})") from None
            try:
                _check_same_object(fd, st, rel)
                self.walk(fd, rel, depth + 1)
            finally:
                os.close(fd)

    def _check_file(self, dir_fd: int, name: str, rel: str, st: os.stat_result) -> None:
        self.files += 1
        self.total_bytes += st.st_size
        if not name.endswith(".md"):
            if name.lower().endswith(".md"):
                raise InvalidOutput(f"{rel}: non-lowercase .md extension (pages must end exactly in '.md')")
            return
        self.md_files += 1
        head, truncated = _read_utf8_head(dir_fd, name, rel, st)
        try:
            split_frontmatter(head)
        except FrontmatterError as exc:
            if truncated:
                raise InvalidOutput(
                    f"{rel}: frontmatter not closed within the first {MAX_FRONTMATTER_BYTES} bytes"
                ) from None
            raise InvalidOutput(f"{rel}: unclosed frontmatter ({exc})") from None
        try:
            data, _body, _used = parse_document(head)
        except FrontmatterError as exc:
            raise InvalidOutput(f"{rel}: bad frontmatter: {exc}") from None
        reserved = name in RESERVED_NAMES
        if reserved:
            _check_reserved(rel, data)
        else:
            _check_page(rel, data)


def _check_name(rel_dir: str, name: str) -> str:
    raw = os.fsencode(name)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        shown = (os.fsencode(rel_dir) + b"/" if rel_dir else b"") + raw
        raise InvalidOutput(f"{shown.decode('utf-8', 'backslashreplace')}: file name is not valid UTF-8") from None
    rel = f"{rel_dir}/{name}" if rel_dir else name
    if len(rel.encode("utf-8")) > MAX_PATH_BYTES:
        raise InvalidOutput(f"{rel[:80]}…: path longer than {MAX_PATH_BYTES} bytes")
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        raise InvalidOutput(f"{rel!r}: file name contains control characters")
    return rel


def _check_reserved(rel: str, data: dict[str, Any] | None) -> None:
    if data is None:
        return
    if rel != "index.md":
        raise InvalidOutput(f"{rel}: reserved file may not have frontmatter (only the root index.md may)")
    extra = sorted(str(k) for k in data if k not in ROOT_INDEX_KEYS)
    if extra:
        raise InvalidOutput(f"{rel}: root index.md frontmatter may only hold okf_version, found {', '.join(extra)}")


def _check_page(rel: str, data: dict[str, Any] | None) -> None:
    if data is None:
        raise InvalidOutput(f"{rel}: page has no YAML frontmatter (it must start with '---')")
    if "type" not in data:
        raise InvalidOutput(f"{rel}: frontmatter has no OKF 'type'")
    value = data["type"]
    if not isinstance(value, str):
        raise InvalidOutput(f"{rel}: OKF 'type' must be a YAML string, not {type(value).__name__}")
    if value == "":
        raise InvalidOutput(f"{rel}: OKF 'type' is empty")
    if value != value.strip():
        raise InvalidOutput(f"{rel}: OKF 'type' has surrounding whitespace")
    if len(value.encode("utf-8", "surrogatepass")) > MAX_TYPE_BYTES:
        raise InvalidOutput(f"{rel}: OKF 'type' is longer than {MAX_TYPE_BYTES} bytes")
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise InvalidOutput(f"{rel}: OKF 'type' contains control characters")


def _read_utf8_head(dir_fd: int, name: str, rel: str, st: os.stat_result) -> tuple[str, bool]:
    """Decode the whole file as strict UTF-8 (streamed); return its first `_HEAD_CHARS` characters and
    whether the text went on beyond them."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        raise InvalidOutput(f"{rel}: cannot be opened ({exc.strerror})") from None
    try:
        _check_same_object(fd, st, rel)
        decoder = codecs.getincrementaldecoder("utf-8")("strict")
        head_parts: list[str] = []
        head_len = 0
        truncated = False
        offset = 0
        while True:
            chunk = os.read(fd, _READ_CHUNK)
            final = not chunk
            try:
                text = decoder.decode(chunk, final=final)
            except UnicodeDecodeError as exc:
                raise InvalidOutput(f"{rel}: not valid UTF-8 (at byte {offset + exc.start})") from None
            if text:
                room = _HEAD_CHARS - head_len
                if len(text) > room:
                    truncated = True
                if room > 0:
                    head_parts.append(text[:room])
                    head_len += len(head_parts[-1])
            if final:
                break
            offset += len(chunk)
        return "".join(head_parts), truncated
    except OSError as exc:
        raise InvalidOutput(f"{rel}: cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)


def _check_same_object(fd: int, listed: os.stat_result, rel: str) -> None:
    opened = os.fstat(fd)
    if (opened.st_dev, opened.st_ino) != (listed.st_dev, listed.st_ino) or stat.S_IFMT(opened.st_mode) != stat.S_IFMT(
        listed.st_mode
    ):
        raise InvalidOutput(f"{rel}: changed while being validated")


def _name_key(name: str) -> bytes:
    return os.fsencode(name)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


def _page_name(rel: str) -> str:
    """The file name of a page path `rel`, checked: relative, inside the wiki, no hidden names, valid
    names all the way down, ending in '.md'."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel or "\0" in rel:
        raise InvalidOutput(f"{rel!r}: not a relative page path inside the wiki")
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise InvalidOutput(f"{rel}: path escapes the wiki")
    if any(part.startswith(".") for part in parts):
        raise InvalidOutput(f"{rel}: hidden names are not pages of the wiki")
    rel_dir = ""
    for part in parts:
        _check_name(rel_dir, part)
        rel_dir = f"{rel_dir}/{part}" if rel_dir else part
    name = parts[-1]
    if not name.endswith(".md"):
        raise InvalidOutput(f"{rel}: a page must end exactly in '.md'")
    return name


def validate_page(rel: str, text: str) -> None:
    """The same rules for one page a page-level promotion writes into the live wiki (which was whole
    and valid before): a safe relative path of valid names, strict UTF-8 text, closed frontmatter and a
    valid OKF `type` (or the reserved-file rules). InvalidOutput names the page on the first fault."""
    name = _page_name(rel)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidOutput(f"{rel}: not valid UTF-8 (at character {exc.start})") from None
    head = text[:_HEAD_CHARS]
    try:
        split_frontmatter(head)
    except FrontmatterError as exc:
        if len(text) > _HEAD_CHARS:
            raise InvalidOutput(f"{rel}: frontmatter not closed within the first {MAX_FRONTMATTER_BYTES} bytes") from None
        raise InvalidOutput(f"{rel}: unclosed frontmatter ({exc})") from None
    try:
        data, _body, _used = parse_document(head)
    except FrontmatterError as exc:
        raise InvalidOutput(f"{rel}: bad frontmatter: {exc}") from None
    if name in RESERVED_NAMES:
        _check_reserved(rel, data)
    else:
        _check_page(rel, data)
