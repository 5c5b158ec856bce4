"""One-line widgets that repaint in place. `Static.update` asks for a new layout of the whole screen
(its size might change), which re-renders every visible table cell: tens of milliseconds per
keystroke. A `Line` has a fixed height of one row, so changing it only repaints that row.

`KeyBar` is the footer built on it: the keys of the current screen, greyed out (dim) when they do not
apply now (Textual's Footer recomposes a widget per key whenever the bindings change)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.screen import Screen
from textual.widget import Widget

from kctui.ui.keys import REGISTRY


class Block(Widget):
    """A fixed-size area showing any renderable; `set()` repaints it without a new layout."""

    def __init__(self, content: object = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._content: object = content
        self._key: object = None

    def render(self) -> object:  # type: ignore[override]
        return self._content

    def set(self, content: object, key: object) -> None:
        """Show `content` unless `key` says it is what is shown already."""
        if key != self._key:
            self._key, self._content = key, content
            self.refresh()


class Line(Widget):
    DEFAULT_CSS = """
    Line { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, content: str | Text = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._content = content if isinstance(content, Text) else Text(content, no_wrap=True, overflow="ellipsis")
        self._key: object = (self._content.plain, tuple(self._content.spans), str(self._content.style))

    def render(self) -> Text:
        return self._content

    def set(self, content: str | Text) -> None:
        text = content if isinstance(content, Text) else Text(content, no_wrap=True, overflow="ellipsis")
        key = (text.plain, tuple(text.spans), str(text.style))
        if key != self._key:
            self._key, self._content = key, text
            self.refresh()

    @property
    def plain(self) -> str:
        return self._content.plain


class KeyBar(Line):
    DEFAULT_CSS = """
    KeyBar { height: 1; dock: bottom; background: $panel; padding: 0 1; text-wrap: nowrap; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.call_after_refresh(self.refresh_keys)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen:
            self.refresh_keys()

    def on_resize(self) -> None:
        self.refresh_keys()

    def refresh_keys(self) -> None:
        tones = getattr(self.app, "tones", dict)()
        key_style = f"bold {tones.get('primary', '')}".strip()
        entries: list[tuple[Text, bool, bool]] = []  # (the key and its words, applies now, an app key)
        seen: set[str] = set()
        active = list(self.screen.active_bindings.values())
        if getattr(self.app, "user_keymap", None):
            active = in_registry_order(active)
        for _node, binding, enabled, _tip in active:
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            key = self.app.get_key_display(binding)
            if enabled:
                entry = Text(key, style=key_style)
                entry.append(f" {binding.description}")
            else:  # greyed out: does not apply to the selection now (? says why)
                entry = Text(f"{key} {binding.description}", style=f"dim {tones.get('muted', '')}".strip())
            entries.append((entry, enabled, binding.action in APP_ACTIONS))
        line = Text(no_wrap=True, overflow="ellipsis", end="")
        for i, entry in enumerate(fit(entries, self.content_size.width)):
            if i:
                line.append("  ")
            line.append_text(entry)
        self.set(line)


def in_registry_order(active: Iterable[Any]) -> list[Any]:
    """The active bindings in the registry's order. Textual moves a binding a keymap rebinds to the end
    of its map, so the bar put it last and, when narrow, dropped it first (QA s31 #17: with
    `compile = "C"` the key bar lost Compile)."""
    order = {k.id: i for i, k in enumerate(REGISTRY)}
    return sorted(active, key=lambda a: order.get(a[1].id, len(order)))


APP_ACTIONS = frozenset({"help", "quit", "app.help", "app.quit"})  # kept however narrow the bar: ? says the rest


def fit(entries: list[tuple[Text, bool, bool]], width: int) -> list[Text]:
    """The entries that fit `width` cells (two between each): when they do not all fit, the keys that do
    not apply now go first, then the last of the others; the app's own keys (help, quit) always stay, and
    ? lists every key."""
    def size(kept: list[tuple[Text, bool, bool]]) -> int:
        return sum(e.cell_len for e, _, _ in kept) + 2 * max(0, len(kept) - 1)

    kept = list(entries)
    if width <= 0 or size(kept) <= width:
        return [e for e, _, _ in kept]
    for dim_only in (True, False):
        for entry in reversed(list(kept)):
            if size(kept) <= width:
                break
            if not entry[2] and not (dim_only and entry[1]):
                kept.remove(entry)
    return [e for e, _, _ in kept]
