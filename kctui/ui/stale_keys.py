"""Keys typed before the screen on top was shown are not run on it (QA session 30 #6).

While the UI thread is busy (a screen being built, a long text laid out) the terminal's keys queue up;
Textual then hands each to whatever screen is on top when it is read. A key pressed before that screen
became the one on top was meant for a screen the person saw, not this one: it is dropped, and ONE
notification names the dropped keys (the app never ignores a key silently). A key's time is when the
driver read it (`events.Key.time`); a screen's is when it came on top (the app's screen-change signal)."""

from __future__ import annotations

from textual import events
from textual._time import get_time

from kctui.ui import keys

MAX_NAMED = 6  # keys named in the notification; more are counted


def dropped_words(names: list[str]) -> str:
    """The notification for the dropped keys: `esc, 1, j: typed before this screen showed; not run`."""
    shown = ", ".join(names[:MAX_NAMED]) + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else "")
    key_word = "key" if len(names) == 1 else "keys"
    return f"{shown}: {key_word} typed before this screen showed; not run (press again)"


class StaleKeys:
    """Mixed into the App: `watch_screens()` once mounted, `stale_key(event)` for each key event."""

    _screen_since = 0.0
    _dropped: list[str] | None = None

    def watch_screens(self) -> None:
        self.screen_change_signal.subscribe(self, self._screen_came, immediate=True)  # type: ignore[attr-defined]

    def _screen_came(self, _screen: object) -> None:
        self._screen_since = get_time()

    def stale_key(self, event: events.Event) -> bool:
        """True (and the key noted for the notification) when `event` is a key read before the screen on
        top came on top."""
        if not isinstance(event, events.Key) or event.is_forwarded or event.time >= self._screen_since:
            return False
        if self._dropped is None:
            self._dropped = []
            self.call_after_refresh(self._say_dropped)  # type: ignore[attr-defined]
        self._dropped.append(keys.display_key(event.key))
        return True

    def _say_dropped(self) -> None:
        names, self._dropped = self._dropped or [], None
        if names:
            self.notify(dropped_words(names), severity="warning", timeout=5, markup=False)  # type: ignore[attr-defined]
