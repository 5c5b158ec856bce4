"""How a source file's bytes become text, shared by the compiler's readers and everything that reads
cited lines again (the trust gate, kept values, review, `ask`'s check), so that a line number and the
words on it are the same everywhere: UTF-8 (a BOM dropped); else Windows-1252 when it decodes the file
cleanly; else UTF-8 with U+FFFD for each undecodable byte. Line ends become "\\n"."""

from __future__ import annotations

import re
from pathlib import Path

# a control character other than tab, line feed, form feed and carriage return: not a Windows-1252 text
_LEGACY_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")


def decode_source(data: bytes) -> tuple[str, str]:
    """(text, how): how is "utf-8", "cp1252" (every byte a printable character or whitespace in
    Windows-1252, a superset of Latin-1's) or "replaced" (U+FFFD for each undecodable byte)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text, how = data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        text, how = data.decode("utf-8", errors="replace"), "replaced"
        try:
            legacy = data.decode("cp1252")
        except UnicodeDecodeError:
            legacy = None
        if legacy is not None and not _LEGACY_CONTROL.search(legacy):
            text, how = legacy, "cp1252"
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, how


def source_lines(path: Path) -> list[str]:
    """A source file's lines as the compiler numbered them (OSError when it cannot be read)."""
    return decode_source(path.read_bytes())[0].split("\n")
