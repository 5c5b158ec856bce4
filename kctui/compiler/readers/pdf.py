"""PDF reader (pypdf): text per page; blocks are the page's paragraphs and cite the page number."""

from __future__ import annotations

import io
import logging
from typing import Any

from kctui.compiler.readers.base import Block, Document, Skipped, clean_text, humanise_stem
from kctui.compiler.readers.text import paragraph_blocks

MAX_PAGES = 2000


def read_pdf(path: str, data: bytes, digest: str) -> Document | Skipped:
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        return Skipped(path, "unreadable", "not a PDF (no %PDF- header)")
    try:
        from pypdf import PdfReader

        logging.getLogger("pypdf").setLevel(logging.ERROR)
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            return Skipped(path, "unreadable", "the PDF is encrypted")
        count = len(reader.pages)
        if count > MAX_PAGES:
            return Skipped(path, "too_large", f"{count} pages, over the {MAX_PAGES}-page cap")
        pages = [clean_text((page.extract_text() or "").replace("\r\n", "\n").replace("\r", "\n"))
                 for page in reader.pages]
        meta_title = _meta_title(reader)
    except Exception as exc:  # noqa: BLE001 - pypdf raises many types on malformed input
        return Skipped(path, "unreadable", f"the PDF does not parse ({type(exc).__name__})")
    blocks = _page_blocks(pages)
    warnings = [] if any(p.strip() for p in pages) else ["the PDF has no extractable text"]
    return Document(
        path=path,
        digest=digest,
        size=len(data),
        kind="pdf",
        title=clean_text(meta_title) if meta_title else humanise_stem(path),
        citation_unit="page",
        lines=pages,
        blocks=blocks,
        warnings=warnings,
    )


def _meta_title(reader: Any) -> str | None:
    """The title the PDF's metadata gives, stripped (None when it has no metadata or broken metadata)."""
    try:
        meta = reader.metadata
        return (meta.title or "").strip() if meta else None
    except Exception:  # noqa: BLE001 - broken metadata must not lose the text
        return None


def _page_blocks(pages: list[str]) -> list[Block]:
    """The paragraphs of each page as blocks; a PDF cites pages: every line of a block maps to its page."""
    blocks: list[Block] = []
    for number, text in enumerate(pages, 1):
        for block in paragraph_blocks(text.split("\n")):
            blocks.append(Block(block.kind, number, number, block.text, tuple(number for _ in block.lines)))
    return blocks
