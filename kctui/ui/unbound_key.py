"""What a typed key that no binding of the screen takes says (docs/app.md: the app never ignores a key
silently; QA session 30 #12: `y` with no question open, and `X`, did nothing and said nothing)."""

from __future__ import annotations

from kctui.ui import keys


def unbound_words(key: str, character: str | None, scopes: tuple[str, ...],
                  keymap: dict[str, str] | None = None) -> str | None:
    """The notification for `key` on a screen with key `scopes`, or None when a binding there (or an
    app-wide one) takes it, or when it is not a typed character (arrows, enter, esc belong to widgets).
    A key of another screen says where it applies: `y (Yes): only in a yes/no question, and none is open`."""
    if not character or len(character) != 1 or not character.isprintable() or character.isspace():
        return None
    if any(key in keys.key_to_id(s, keymap) for s in (*scopes, keys.APP)):
        return None
    shown = keys.display_key(key)
    for k in keys.REGISTRY:  # a default key the user's [keys] moved: say where the action is now
        if keymap and k.id in keymap and set(k.scopes) & {*scopes, keys.APP} and key in keys.effective_keys(k):
            return f"{shown}: {k.description} is on {keys.keys_text(k, keymap)} now ([keys] in the config file)"
    for scope in keys.SCOPES:
        entry = keys.key_to_id(scope, keymap).get(key)
        if entry is not None:
            open_now = ", and none is open" if scope == keys.DIALOG else ""
            return f"{shown} ({entry.description}): {keys.elsewhere(scope)}{open_now}; ? lists the keys here"
    return f"{shown}: no key here is bound to it; ? lists the keys here"
