"""Focus changes that repaint only what shows focus.

Textual repaints the whole of a widget when it gains or loses focus (`Widget.focus`, `_on_focus`,
`_on_blur` each call `refresh()`): for a pane-sized table or the brief that is every cell of it,
re-composed, on every pane switch — most of a keystroke's time with full tables. A widget with this
mixin does what Textual does there (the `has_focus` state, the DescendantFocus/Blur messages, the
call that moves the screen's focus) and then repaints only what `focus_changed()` says; by default
nothing, for a widget whose look does not depend on focus. Written against Textual 8's `Widget`."""

from __future__ import annotations

from textual import events
from textual.widget import NoScreen, Widget


class QuietFocus:
    def focus(self: Widget, scroll_visible: bool = True) -> Widget:  # type: ignore[misc]
        def set_focus(widget: Widget) -> None:
            try:
                widget.screen.set_focus(self, scroll_visible=scroll_visible)
            except NoScreen:
                pass

        self.app.call_later(set_focus, self)
        return self

    def _on_focus(self: Widget, event: events.Focus) -> None:  # type: ignore[misc]
        event.prevent_default()  # Widget._on_focus would repaint the whole widget
        self.has_focus = True
        self.focus_changed()  # type: ignore[attr-defined]
        if self.parent is not None:
            self.parent.post_message(events.DescendantFocus(self))

    def _on_blur(self: Widget, event: events.Blur) -> None:  # type: ignore[misc]
        event.prevent_default()
        self.has_focus = False
        self.focus_changed()  # type: ignore[attr-defined]
        if self.parent is not None:
            self.parent.post_message(events.DescendantBlur(self))

    def focus_changed(self) -> None:
        """Repaint what shows focus (nothing by default)."""
