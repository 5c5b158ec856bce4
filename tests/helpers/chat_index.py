"""A search index beside one chat note, its passages not yet indexed: tests of the passages' word counts
write the chat, check the empty index, then index it (`index_chat`)."""

from __future__ import annotations

from pathlib import Path

from kctui.search.index import SearchIndex
from kctui.search.passage_index import refresh_passages


def chat_index(tmp_path: Path, chat: str) -> tuple[SearchIndex, Path]:
    """(an open index with no passages, the sources folder holding `chat` as chat.md)."""
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "chat.md").write_text(chat, encoding="utf-8")
    return SearchIndex.open(tmp_path / "index.db"), sources


def index_chat(index: SearchIndex, sources: Path, base: str = "b1") -> None:
    refresh_passages(index, base, sources)
