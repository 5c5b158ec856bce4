"""The key hint under a review item, in the keys the user's `[keys]` table binds (QA s31 #17: after
`approve = "…"` the hint no longer says "a approve")."""

from __future__ import annotations

from kctui.ui import keys


def detail_hint(kind: str, state: str | None, keymap: dict[str, str] | None) -> str:
    def k(binding_id: str) -> str:
        return keys.keys_text(keys.BY_ID[binding_id], keymap)

    if state != "open":
        return f"This item is {state}; nothing to resolve. {k('undo')} undo · {k('back')} back"
    if kind == "held":
        return (f"{k('approve')} approve · {k('reject')} reject (the marked hunks, else the current one, else all) · "
                f"{k('mark-hunk')} mark · {k('next-hunk')} {k('prev-hunk')} hunk · {k('diff-view')} split/unified · "
                f"{k('editor')} editor · {k('undo')} undo · {k('back')} back")
    return (f"{k('use-new')} use the new value · {k('keep-here')} keep the existing page · {k('dismiss')} dismiss · "
            f"{k('editor')} editor · {k('back')} back")
