"""Source readers: one file in, a `Document` (text with line or page positions) or a `Skipped` out.
They import nothing else of the compiler (`source`: one source file of a pass, read for extraction).

Common rules for every format (issue 4, item 1):
- a file over the size cap (1 MiB for text, the setting `max_source_bytes`; 32 MiB for a PDF) is skipped
  and reported, never read;
- a NUL byte in the first 8 KiB marks a binary file (PDF excepted): skipped and reported;
- bytes that are not UTF-8 are decoded with replacement characters and reported;
- an empty file is skipped and reported;
- a reader that fails on one file reports it; the pass goes on.
"""

from __future__ import annotations

from kctui.compiler.readers.base import (  # noqa: F401 - the reader model, re-exported as the package's face
    HTML_SUFFIXES,
    MARKDOWN_SUFFIXES,
    MAX_PDF_BYTES,
    MAX_SOURCE_BYTES,
    PDF_SUFFIXES,
    SNIFF_BYTES,
    Block,
    Document,
    Skipped,
    cap_words,
    clean_text,
    decode_text,
    humanise_stem,
    size_cap,
    source_kind,
    text_cap,
)
from kctui.compiler.readers.html import read_html
from kctui.compiler.readers.markdown import read_markdown
from kctui.compiler.readers.pdf import read_pdf
from kctui.compiler.readers.text import read_text


def too_large_detail(size: int, cap: int, path: str) -> str:
    """The brief's one line for a file over its cap: its size, the cap, and the setting that moves it."""
    setting = "" if source_kind(path) == "pdf" else "; the setting max_source_bytes raises it"
    return f"{size:,} bytes, over the {cap_words(cap)} cap of one source{setting}"


def read_source(path: str, data: bytes, digest: str, *, max_bytes: int | None = None) -> Document | Skipped:
    """Read one source file's bytes (already loaded by the caller, who checked the size cap first)."""
    max_bytes = size_cap(path) if max_bytes is None else max_bytes
    if len(data) > max_bytes:
        return Skipped(path, "too_large", too_large_detail(len(data), max_bytes, path))
    if not data.strip():
        return Skipped(path, "empty", "the file has no content")
    kind = source_kind(path)
    if kind == "pdf":
        return read_pdf(path, data, digest)
    if b"\x00" in data[:SNIFF_BYTES]:
        return Skipped(path, "binary", "a NUL byte in the first 8 KiB")
    text, warnings = decode_text(data)
    try:
        if kind == "markdown":
            doc = read_markdown(path, text, digest, len(data))
        elif kind == "html":
            doc = read_html(path, text, digest, len(data))
        else:
            doc = read_text(path, text, digest, len(data))
    except RecursionError:
        return Skipped(path, "unreadable", "the document is nested too deeply to parse")
    doc.warnings[:0] = warnings
    return doc
