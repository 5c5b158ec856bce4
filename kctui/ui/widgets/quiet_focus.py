"""Focus changes that repaint only what shows focus.

Textual repaints the whole of a widget when it gains or loses focus (`Widget.focus`, `_on_focus`,
`_on_blur` each call `refresh()`): for a pane-sized table or the brief that is every cell of it,
re-composed, on every pane switch — most of a keystroke's time with full tables. A widget with this
mixin does what Textual does there (the `has_focus` state, the DescendantFocus/Blur messages, the
call that moves the screen's focus) and then repaints only what `focus_changed()` says; by default
nothing, for a widget whose look does not depend on focus. Its new `:focus` state restyles the widget
alone, not (as Textual does) every node inside it too, unless a CSS rule styles something inside a
widget like it by that widget's focus (`X:focus Y`): restyling the Running pane's blocks on every pane
switch to or from it cost more than a millisecond. And when no rule styles the widget itself by its
focus (`X:focus`), it is not restyled at all: Textual's restyle of a scrollable widget also restyles
its scroll bars, which then draw themselves again whole (a pane-high table's bar, every pane switch).
Written against Textual 8's `Widget`."""

from __future__ import annotations

from textual import events
from textual.widget import NoScreen, Widget

FOCUS_CLASSES = {"focus", "focus-within"}
_RULES: dict[tuple, bool] = {}  # (inside?, the stylesheet's rule list, widget class, id, classes) -> answer


def focus_styles_inside(widget: Widget) -> bool:
    """Does a rule of the app's stylesheet style a node inside `widget` by `widget`'s focus: a selector
    part before the last one that matches this widget (its type, id or class) and asks for `:focus`?"""
    return _focus_rules(widget, inside=True)


def focus_styles_self(widget: Widget) -> bool:
    """Does a rule of the app's stylesheet style `widget` itself by its focus: a last selector part that
    matches this widget (its type, id or class) and asks for `:focus` or `:focus-within`? (Loose: a
    rule whose earlier parts do not match still counts, so the answer errs towards restyling.)"""
    return _focus_rules(widget, inside=False)


def _focus_rules(widget: Widget, *, inside: bool) -> bool:
    rules = widget.app.stylesheet.rules
    key = (inside, id(rules), type(widget), widget.id, tuple(sorted(widget.classes)))
    found = _RULES.get(key)
    if found is None:
        found = any(sel.pseudo_classes & FOCUS_CLASSES and sel._check(widget)
                    for rule in rules for chain in rule.selector_set
                    for sel in (chain.selectors[:-1] if inside else chain.selectors[-1:]))
        if len(_RULES) > 512:
            _RULES.clear()
        _RULES[key] = found
    return found


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

    def watch_has_focus(self: Widget, _has_focus: bool) -> None:  # type: ignore[misc]
        if focus_styles_inside(self):
            self.update_node_styles()  # what Textual does: this node and every node inside it
        elif focus_styles_self(self):
            self.app.stylesheet.apply(self, animate=True)  # this node alone (not its scroll bars)

    def focus_changed(self) -> None:
        """Repaint what shows focus (nothing by default)."""
