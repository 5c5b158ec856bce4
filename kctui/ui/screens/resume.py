"""A screen pushed again keeps the styles it had, when nothing they depend on changed while it was away.

Textual restyles every node of a screen each time it is pushed (`ScreenResume.refresh_styles`), in
case the CSS or the theme changed while the screen was out of the stack (where a theme change does
not reach it): every node of the one review-detail screen on each open, of the one question
screen on each question. A screen with this mixin skips
that when the stylesheet's rules (new ones on any reparse: a theme, a screen's CSS loaded), the theme
and the app's classes and focus are those it was last shown with; a node whose classes change while
its screen is away is restyled at once by Textual anyway. Written against Textual 8's Screen."""

from __future__ import annotations

from typing import Any

from textual import events


def style_inputs(app: Any) -> tuple:
    return (app.stylesheet.rules, app.theme, frozenset(app.classes), app.app_focus)


class KeepStylesOnResume:
    _shown_with: tuple | None = None

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual calls this before Screen._on_screen_resume (each class's handler, subclass first)
        now = style_inputs(self.app)  # type: ignore[attr-defined]
        last = self._shown_with
        if last is not None and last[0] is now[0] and last[1:] == now[1:]:
            event.refresh_styles = False
        self._shown_with = now
