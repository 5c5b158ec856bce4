"""A screen pushed again keeps the styles it had, when nothing they depend on changed while it was away.

Textual restyles every node of a screen each time it is pushed (`ScreenResume.refresh_styles`), in
case the CSS or the theme changed while the screen was out of the stack (where a theme change does
not reach it): every node of the one review-detail screen on each open, of the one question
screen on each question. A screen with this mixin skips
that when the stylesheet's rules (new ones on any reparse: a theme, a screen's CSS loaded), the theme
and the app's classes and focus are those it was last shown with; a node whose classes change while
its screen is away is restyled at once by Textual anyway.

A screen that sets `COVERS_BELOW` (an opaque background: nothing of the screens below shows) also keeps
its own drawn rows (its background, under the widgets that cover it) when it keeps its styles and size:
Textual's `refresh()` on resume would draw each of them again before its first frame. And it ignores
what Textual forwards to it when a screen below it changes (`Screen._compositor_refresh` refreshes the
top screen over the changed regions: the main screen's last changes, the whole screen's rows, on each
open). The question screen shows the main screen dimmed, drawn as its own rows: it keeps neither.
Written against Textual 8's Screen."""

from __future__ import annotations

from typing import Any

from textual import events


def style_inputs(app: Any) -> tuple:
    return (app.stylesheet.rules, app.theme, frozenset(app.classes), app.app_focus)


class KeepStylesOnResume:
    _shown_with: tuple | None = None
    _keep_rows = False  # the next bare refresh() (Screen._on_screen_resume's) keeps the drawn rows
    COVERS_BELOW = False  # opaque, and shows nothing of the screens below it

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual calls this before Screen._on_screen_resume (each class's handler, subclass first)
        now = style_inputs(self.app)  # type: ignore[attr-defined]
        last = self._shown_with
        if last is not None and last[0] is now[0] and last[1:] == now[1:]:
            event.refresh_styles = False
            # (a screen that shows the ones below, dimmed, draws their rows as its own: those change)
            self._keep_rows = self.COVERS_BELOW and self._size == self.app.size  # type: ignore[attr-defined]
        self._shown_with = now

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Any:
        if regions and self.COVERS_BELOW and not (layout or recompose) and self._below_changed():
            return self  # a change on a screen below this one: nothing of it shows here
        keep, self._keep_rows = self._keep_rows, False
        if not (keep and repaint and not (regions or layout or recompose) and self.is_mounted):  # type: ignore[attr-defined]
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)  # type: ignore[misc]
        # what Widget.refresh does, less clearing the drawn rows: the whole screen is drawn again from them
        region = self.outer_size.region  # type: ignore[attr-defined]
        self._dirty_regions.add(region)  # type: ignore[attr-defined]
        self._repaint_regions.add(region)  # type: ignore[attr-defined]
        self._repaint_required = True
        self.check_idle()  # type: ignore[attr-defined]
        return self

    def _below_changed(self) -> bool:
        """Is this refresh Textual forwarding a change of a screen below (Screen._compositor_refresh)?"""
        app = self.app  # type: ignore[attr-defined]
        return app.screen is self and any(s._compositor._dirty_regions for s in app._background_screens)
