"""Reading one changed source for extraction — the built-in rules and the model alike: the size cap,
the digest check of a file whose digest came from the stat memo, the format's reader."""

from __future__ import annotations

from kctui.compiler.readers import Document, Skipped, read_source, size_cap
from kctui.compiler.steps import gather as g


def read_document(source: g.SourceFile) -> Document | Skipped:
    """One source as the built-in extract step reads it (size cap, memo-digest check, reader)."""
    if source.size > size_cap(source.path):
        return Skipped(source.path, "too_large", f"{source.size} bytes, over the {size_cap(source.path)}-byte cap")
    data = source.data
    if data is None:
        try:
            data = g.read_for_extraction(source)
        except OSError as exc:
            return Skipped(source.path, "unreadable", exc.strerror or str(exc))
        if data is None:
            return Skipped(source.path, "unreadable", "the file changed while the pass read it; the next pass takes it")
    try:
        doc = read_source(source.path, data, source.digest)
    except (MemoryError, RecursionError) as exc:
        return Skipped(source.path, "unreadable", f"the reader gave up ({type(exc).__name__})")
    except (ValueError, UnicodeError, LookupError, OSError) as exc:
        return Skipped(source.path, "unreadable", f"the reader failed ({type(exc).__name__}: {str(exc)[:120]})")
    source.data = None
    return doc
