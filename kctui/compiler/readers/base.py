"""What every source reader shares: the `Document` a reader makes of one file (text with line or page
positions, split into `Block`s), the `Skipped` report for a file it cannot read, the size caps, and
the text helpers (decoding, cleaning, a title from a file name). A leaf: the readers and the package's
`read_source` dispatch import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from kctui.core.source_text import decode_source

MAX_SOURCE_BYTES = 1024 * 1024  # text formats, by default (setting `max_source_bytes`): a larger file is skipped
MAX_PDF_BYTES = 32 * 1024 * 1024
SNIFF_BYTES = 8 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
PDF_SUFFIXES = frozenset({".pdf"})


@dataclass(frozen=True, slots=True)
class Block:
    """One structural unit of a document.

    `text` is the inline text with container markers removed, one entry per source line joined by
    "\\n"; `lines[i]` is the source line (or PDF page) of the i-th text line.
    kinds: heading, paragraph, item, quote, table, deflist, code. `level`: a heading's (1–6), and a list
    item's nesting (1 for a top-level item, 2 for one nested in it; 0 where the reader does not say).
    Tables and definition lists carry `rows`: ((line, (cell, ...)), ...), a table's first row its header.
    """

    kind: str
    start: int
    end: int
    text: str = ""
    lines: tuple[int, ...] = ()
    level: int = 0
    rows: tuple[tuple[int, tuple[str, ...]], ...] = ()


@dataclass
class Document:
    path: str  # relative POSIX path under sources/
    digest: str
    size: int
    kind: str  # markdown | text | html | pdf
    title: str
    citation_unit: str = "line"  # or "page"
    lines: list[str] = field(default_factory=list)  # source lines, or page texts for a PDF
    blocks: list[Block] = field(default_factory=list)
    frontmatter: Any = None  # a composed YAML MappingNode (positions kept) or None
    frontmatter_offset: int = 0  # file line number of the frontmatter's first line minus one
    frontmatter_lines: tuple[int, int] | None = None  # (first, last) file lines of the header block
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str  # binary | too_large | empty | unreadable | symlink | hidden | bad_name
    detail: str = ""


def clean_text(text: str) -> str:
    """Text safe to write as UTF-8: lone surrogates (from YAML `\\ud800` escapes or a PDF's text layer)
    become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)


# a message header line of an email pasted into a note ("From: …", "**Subject:** …")
MESSAGE_HEADER = re.compile(r"^\s*(?:\*\*)?(from|to|cc|bcc|date|sent|subject|reply-to)\s*:\s*(?:\*\*)?\s*(.*?)\s*$", re.I)
_REPLY_PREFIX = re.compile(r"^(?:(?:re|fwd?|aw|sv)\s*:\s*)+", re.I)
HEADER_LINES = 12  # an email's header is in its first lines


def email_subject(lines: list[str]) -> str:
    """The subject of an email a document opens with: its `Subject:` line among at least two header
    lines (From, To, Date …) before the first blank line, reply and forward prefixes ("RE: Fwd:")
    dropped; "" when the document opens with no such header."""
    fields: dict[str, str] = {}
    started = False
    for line in lines[:HEADER_LINES]:
        if not line.strip():
            if started:
                break
            continue
        m = MESSAGE_HEADER.match(line)
        if not m:
            if started:
                break
            return ""
        started = True
        fields.setdefault(m.group(1).casefold(), m.group(2))
    subject = _REPLY_PREFIX.sub("", fields.get("subject", "")).strip()
    return " ".join(subject.split()) if len(fields) >= 2 and subject else ""


def humanise_stem(path: str) -> str:
    stem = PurePosixPath(path).stem
    text = " ".join(stem.replace("_", " ").replace("-", " ").split())
    return text or path


def decode_text(data: bytes) -> tuple[str, list[str]]:
    """The text of a source's bytes (kctui.core.source_text) and the one warning when it is not UTF-8."""
    first_bad = 0
    try:
        data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    text, how = decode_source(data)
    if how == "cp1252":
        return text, [f"not valid UTF-8 (first bad byte at offset {first_bad}); read as Windows-1252 (Latin-1)"]
    if how == "replaced":
        return text, [f"not valid UTF-8 (first bad byte at offset {first_bad}); decoded with replacement characters"]
    return text, []


def source_kind(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in HTML_SUFFIXES:
        return "html"
    if suffix in PDF_SUFFIXES:
        return "pdf"
    return "text"


def size_cap(path: str) -> int:
    return MAX_PDF_BYTES if source_kind(path) == "pdf" else text_cap()


_cap_memo: dict[tuple, int] = {}


def text_cap() -> int:
    """The cap of one text source: the `max_source_bytes` setting (`config.toml`, `KCTUI_MAX_SOURCE_BYTES`),
    else MAX_SOURCE_BYTES. The rules cost about 12 s a MiB on a log of one long paragraph, so a larger
    file is skipped with its reason rather than holding the pass (and every base's queue) for minutes.
    Read again when the variable or the config file changes; a setting that cannot be read keeps the
    default (the host reports it when it starts)."""
    import os  # noqa: PLC0415 - read per call, the pass may run in a worker process

    from kctui import config, paths  # noqa: PLC0415
    env = os.environ.get("KCTUI_MAX_SOURCE_BYTES", "")
    try:
        target = paths.config_file()
        stamp = target.stat().st_mtime_ns
    except (OSError, ValueError, RuntimeError):
        target, stamp = None, 0
    key = (env, str(target), stamp)
    if key not in _cap_memo:
        try:
            _cap_memo.clear()
            _cap_memo[key] = config.load_settings(target).max_source_bytes
        except (config.ConfigError, OSError):
            _cap_memo[key] = MAX_SOURCE_BYTES
    return _cap_memo[key]


def cap_words(n: int) -> str:
    """`1 MiB` for a whole number of MiB or KiB, else `1,500 bytes`."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"
