"""Themes as files (Posting): the built-in ones in `themes/*.toml` and the user's in
`<config dir>/themes/*.toml`, the same format, each checked whole, every colour parsed. A bad file
is skipped; the app falls back to the default theme and says so in ONE notification.

    name = "my-theme"          # lowercase letters, digits and '-'
    dark = true
    [colors]                   # primary is required; the rest are derived when absent
    primary = "#5fa8d3"
    background = "#1b1d23"
    [variables]                # optional Textual theme variables (colours, or text styles for *-style)
    "footer-key-foreground" = "#5fa8d3"

The theme in use: `KCTUI_THEME`, else `[ui] theme = "…"` in config.toml, else `kctui-dark`.
`NO_COLOR` (any value) is honoured by Textual itself: colours are stripped, and every state in the app
also has a glyph and a word.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from kctui import paths

DEFAULT_THEME = "kctui-dark"
STYLE_WORDS = {"bold", "dim", "italic", "underline", "reverse", "strike", "not", "none", "b", "i", "u"}
COLOUR_NAMES = ("primary", "secondary", "accent", "foreground", "background", "surface", "panel", "boost",
                "warning", "error", "success")
THEME_KEYS = ("name", "dark", "colors", "variables")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


class ThemeError(Exception):
    pass


class _Invalid(ValueError):
    """What is wrong, and where in the file (`colors.background`)."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")


def _colour(where: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _Invalid(where, "should be a string")
    try:
        Color.parse(value)
    except ColorParseError:
        raise _Invalid(where, f"'{value}' is not a colour (use #rrggbb, rgb(…), hsl(…) or a colour name)") from None
    return value


def _table(where: str, value: Any, allowed: tuple[str, ...] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Invalid(where, "should be a table")
    extra = [k for k in value if allowed is not None and k not in allowed]
    if extra:
        raise _Invalid(f"{where}.{extra[0]}" if where != "file" else extra[0],
                       f"not a theme setting (one of: {', '.join(allowed or ())})")
    return value


def _variables(value: Any) -> dict[str, str]:
    for key, text in _table("variables", value).items():
        if not isinstance(text, str):
            raise _Invalid(f"variables.{key}", "should be a string")
        if key.endswith("-style"):
            if not set(text.lower().split()) <= STYLE_WORDS:
                raise _Invalid("variables", f"{key}: '{text}' is not a text style (bold, italic, underline, reverse …)")
        else:
            _colour(f"variables.{key}", text)
    return dict(value)


def theme_from_table(data: Any) -> Theme:
    """A theme file's table checked whole (names, types, every colour and style) and made a Theme;
    `_Invalid` names the first thing wrong. By hand rather than a pydantic model: the app reads its
    themes before its first frame, and building the models cost each start about 0.1 s."""
    data = _table("file", data, THEME_KEYS)
    name = data.get("name")
    if name is None:
        raise _Invalid("name", "is required")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise _Invalid("name", "should be lowercase letters, digits and '-' (at most 64), starting with a letter or digit")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise _Invalid("dark", "should be true or false")
    if "colors" not in data:
        raise _Invalid("colors", "is required (a [colors] table with at least primary)")
    colours = _table("colors", data["colors"], COLOUR_NAMES)
    if "primary" not in colours:
        raise _Invalid("colors.primary", "is required")
    checked = {key: _colour(f"colors.{key}", value) for key, value in colours.items()}
    return Theme(name=name, dark=dark, variables=_variables(data.get("variables", {})), **checked)


def parse_theme_file(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeError(f"{path.name}: cannot read it ({exc})") from None
    try:
        return theme_from_table(data)
    except _Invalid as exc:
        raise ThemeError(f"{path.name}: {exc}") from None


def builtin_theme_files() -> list[Path]:
    return sorted(p for p in paths.builtin_themes_dir().iterdir() if p.name.endswith(".toml"))


def user_theme_dir() -> Path:
    return paths.config_dir() / "themes"


def load_themes(user_dir: Path | None = None) -> tuple[list[Theme], list[str]]:
    """Every valid theme (built-in first, then the user's, which may replace a built-in by name) and
    one line per bad file."""
    themes: dict[str, Theme] = {}
    errors: list[str] = []
    files = builtin_theme_files()
    udir = user_dir or user_theme_dir()
    try:
        files += sorted(p for p in udir.glob("*.toml") if p.is_file())
    except OSError:
        pass
    for f in files:
        try:
            t = parse_theme_file(f)
        except ThemeError as exc:
            errors.append(str(exc))
            continue
        themes[t.name] = t
    return list(themes.values()), errors


def configured_theme(config_path: Path | None = None) -> tuple[str | None, str | None]:
    """(theme name wanted by the user or None, error text or None)."""
    env = os.environ.get("KCTUI_THEME", "").strip()
    if env:
        return env, None
    path = config_path or paths.config_file()
    try:
        if not path.exists():
            return None, None
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return None, f"cannot read {path}: {exc}"
    ui = data.get("ui", {})
    name = ui.get("theme") if isinstance(ui, dict) else None
    if name is not None and not isinstance(name, str):
        return None, f"{path}: [ui] theme must be a theme name"
    return name, None


def theme_problems(available: set[str], wanted: str | None, file_errors: list[str], config_error: str | None) -> \
        tuple[str, str | None]:
    """(theme to use, the one notification or None)."""
    problems = list(file_errors)
    if config_error:
        problems.append(config_error)
    use = DEFAULT_THEME
    if wanted:
        if wanted in available:
            use = wanted
        else:
            problems.append(f"there is no theme '{wanted}' (a bad file, or a typo)")
    if not problems:
        return use, None
    head = "A theme file was ignored" if len(file_errors) == 1 else "Theme problems"
    return use, f"{head}: " + "; ".join(problems) + f". Using the '{use}' theme."
