"""Themes as files (Posting): the built-in ones in `themes/*.toml` and the user's in
`<config dir>/themes/*.toml`, the same format, validated with pydantic, every colour parsed. A bad file
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
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from textual.color import Color, ColorParseError
from textual.theme import Theme

from kctui import paths

DEFAULT_THEME = "kctui-dark"
STYLE_WORDS = {"bold", "dim", "italic", "underline", "reverse", "strike", "not", "none", "b", "i", "u"}


def _colour(value: str) -> str:
    try:
        Color.parse(value)
    except ColorParseError:
        raise ValueError(f"'{value}' is not a colour (use #rrggbb, rgb(…), hsl(…) or a colour name)") from None
    return value


class ThemeColors(BaseModel):
    model_config = ConfigDict(extra="forbid")

    primary: str
    secondary: str | None = None
    accent: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None

    @field_validator("*")
    @classmethod
    def _check(cls, v: str | None) -> str | None:
        return None if v is None else _colour(v)


class ThemeFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")
    dark: bool = True
    colors: ThemeColors
    variables: dict[str, str] = Field(default_factory=dict)

    @field_validator("variables")
    @classmethod
    def _check_vars(cls, v: dict[str, str]) -> dict[str, str]:
        for key, value in v.items():
            if key.endswith("-style"):
                if not set(value.lower().split()) <= STYLE_WORDS:
                    raise ValueError(f"{key}: '{value}' is not a text style (bold, italic, underline, reverse …)")
            else:
                try:
                    _colour(value)
                except ValueError as exc:
                    raise ValueError(f"{key}: {exc}") from None
        return v

    def theme(self) -> Theme:
        return Theme(name=self.name, dark=self.dark, variables=dict(self.variables),
                     **self.colors.model_dump(exclude_none=True))


class ThemeError(Exception):
    pass


def parse_theme_file(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeError(f"{path.name}: cannot read it ({exc})") from None
    try:
        return ThemeFile(**data).theme()
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "file"
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise ThemeError(f"{path.name}: {where}: {msg}") from None
    except TypeError as exc:
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
