"""A context packet's statements as records, for tests: a claim {"text", "citation"}, a passage {"lines",
"text"}, read from the lines the packet writes (kctui.search.packet_items)."""

from __future__ import annotations

from typing import Any

from kctui.search.packet_items import full_item, read_claim, read_passage


def claims(item: dict[str, Any] | list[str]) -> list[dict[str, Any]]:
    item = full_item(item)  # (the 2 KB packet's evidence item is an array: its source, then its passages)
    return [dict(zip(("text", "citation"), read_claim(c), strict=True)) for c in item.get("claims", [])]


def passages(item: dict[str, Any] | list[str]) -> list[dict[str, Any]]:
    item = full_item(item)
    return [{"lines": list(lines), "text": text} for p in item.get("passages", []) if (got := read_passage(p))
            for lines, text in [got]]


def statements(item: dict[str, Any] | list[str]) -> list[dict[str, Any]]:
    """The item's claims and passages, in order (a `§ section` line is none)."""
    return claims(item) + passages(item)
