"""esc and the key typed right after it, sent by the terminal as one alt+key (QA session 32 #2).

A terminal sends alt+c as the two bytes ESC c, the same bytes as esc then c. A reader tells them apart
only by time: Textual waits ESCDELAY (100 ms) after an ESC, and tmux by default 500 ms (`escape-time`),
then sends esc and c together. So esc followed quickly by c reached the app as alt+c, which no binding
takes: the esc did nothing and the c did nothing ("no key here is bound to it"); the second c worked.
kctui binds no alt key (keys.normalise_key refuses them), so an alt+letter or alt+digit is always that
esc and that key: the app runs esc, then the key, as if typed apart. (An ESC before punctuation,
enter or tab is lost in Textual's reader already; nothing here can recover it.)"""

from __future__ import annotations

from textual import events


def after_escape(key: str) -> str | None:
    """The key typed after esc when `key` is the alt+key a terminal made of the two; None for any other key.
    `alt+c` → `c`, `alt+shift+d` → `D`, `alt+1` → `1`."""
    if not key.startswith("alt+"):
        return None
    rest = key[len("alt+"):]
    if rest.startswith("shift+") and len(rest) == len("shift+") + 1 and rest[-1].isascii() and rest[-1].isalpha():
        return rest[-1].upper()
    if len(rest) == 1 and rest.isascii() and rest.isalnum():
        return rest
    return None


class EscapePrefix:
    """Mixed into the App: `split_escape(event)` in its `on_event`, before anything else sees a key."""

    _replayed: events.Key | None = None

    def replayed(self, event: events.Event) -> bool:
        """Is `event` the key this mixin posted after an esc (it was read with the esc: never stale)?"""
        return event is self._replayed

    async def split_escape(self, event: events.Event) -> bool:
        """True when `event` was esc and a key in one: esc has run (its binding, else the focused widget's
        own handling) and the key is posted to run after what esc changed (a screen closed, the focus moved)."""
        if not isinstance(event, events.Key) or event.is_forwarded:
            return False
        key = after_escape(event.key)
        if key is None:
            return False
        app = self  # the App this is mixed into
        # esc's binding runs now, where the key would have bubbled to (priority bindings first, as Textual does)
        if not (await app._check_bindings("escape", priority=True)  # type: ignore[attr-defined]
                or await app._check_bindings("escape")):  # type: ignore[attr-defined]
            (app.focused or app.screen)._forward_event(events.Key("escape", "\x1b"))  # type: ignore[attr-defined]

        def post() -> None:
            self._replayed = events.Key(key, key if len(key) == 1 else None)
            app.post_message(self._replayed)  # type: ignore[attr-defined]

        app.call_later(post)  # type: ignore[attr-defined]  (after the focus move esc asked for)
        return True
