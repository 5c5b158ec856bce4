"""QA s31 #17: one bad entry of `[keys]` is refused alone (named, with why), the valid rebinds stand;
a key that answers a yes/no question is refused for any other action."""

from __future__ import annotations

from pathlib import Path

from kctui.ui import keys


def test_one_unknown_id_keeps_the_valid_rebinds_and_names_each_bad_one(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[keys]\ncompile = "C"\napprove = "y"\nno-such-action = "Z"\nreject = "ctrl+shift+banana"\n'
                      'help = "q"\n', encoding="utf-8")
    keymap, message = keys.load_keymap(config)
    assert keymap == {"compile": "C"}
    assert message is not None and message.startswith(f"{config}: ")
    assert "'no-such-action' is not a binding id" in message
    assert "reject: 'ctrl+shift+banana' uses ctrl/alt/meta" in message
    assert "approve: 'y' answers a yes/no question (confirm-yes)" in message
    assert "'q' is bound to both help and quit" in message
    assert message.endswith("; the other rebinds in [keys] are in effect")


def test_all_bad_falls_back_to_the_defaults_and_says_so(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[keys]\nno-such-action = "Z"\n', encoding="utf-8")
    keymap, message = keys.load_keymap(config)
    assert keymap == {} and message is not None and message.endswith("; using the default keys")


def test_a_dialog_key_is_refused_unless_it_is_the_bindings_own() -> None:
    keymap, problems = keys.keymap_with_problems({"approve": "y", "confirm-yes": "y,enter"})
    assert keymap == {"confirm-yes": "y,enter"} and len(problems) == 1
    own_default = next(k for k in keys.REGISTRY if "n" in keys.effective_keys(k) and keys.DIALOG not in k.scopes)
    keymap, problems = keys.keymap_with_problems({own_default.id: "n"})
    assert keymap == {own_default.id: "n"} and problems == []


def test_the_status_lines_api_note_is_short_and_the_reason_whole_elsewhere() -> None:
    from kctui.ui.host import api_off_note

    note = api_off_note("cannot listen on 127.0.0.1:8765: Address already in use")
    assert note == " (API off: 127.0.0.1:8765 in use)"
    assert len("host: this app" + note) < 60  # the status line's share at 100 columns


def test_a_slow_stop_says_stopping_and_a_quick_one_says_nothing() -> None:
    """QA s31 #5: after `q` the screen was blank for 12-15 s with no word."""
    import io
    import time

    from kctui.ui.app import stopping_note

    out = io.StringIO()
    stopping_note(lambda: None, after=0.2, out=out)
    time.sleep(0.3)
    assert out.getvalue() == ""
    stopping_note(lambda: time.sleep(0.4), after=0.1, out=out)
    assert out.getvalue() == "kctui: stopping… (handing the running job back)\n"


def test_a_default_key_moved_by_the_keymap_says_where_its_action_went() -> None:
    """QA s31 #17: with approve rebound, `a` in a review item showed no message."""
    from kctui.ui.unbound_key import unbound_words

    words = unbound_words("a", "a", (keys.DETAIL,), {"approve": "A"})
    assert words == "a: Approve is on A now ([keys] in the config file)"
    assert unbound_words("A", "A", (keys.DETAIL,), {"approve": "A"}) is None  # bound: no message
    assert unbound_words("a", "a", (keys.DETAIL,), {}) is None
