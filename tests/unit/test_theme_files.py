"""Theme files are checked whole before the app uses them: the first problem is named with where it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.ui.themes import ThemeError, parse_theme_file, theme_from_table


def test_a_full_theme_file_makes_the_theme() -> None:
    theme = theme_from_table({"name": "sea-2", "dark": False, "colors": {"primary": "teal", "background": "#001122"},
                              "variables": {"footer-key-foreground": "#004455", "block-cursor-text-style": "bold"}})
    assert (theme.name, theme.dark, theme.primary, theme.background) == ("sea-2", False, "teal", "#001122")
    assert theme.variables["block-cursor-text-style"] == "bold"


@pytest.mark.parametrize(("table", "problem"), [
    ({"colors": {"primary": "red"}}, "name: is required"),
    ({"name": "Sea", "colors": {"primary": "red"}}, "name: should be lowercase letters"),
    ({"name": "sea", "dark": "yes", "colors": {"primary": "red"}}, "dark: should be true or false"),
    ({"name": "sea"}, "colors: is required"),
    ({"name": "sea", "colors": {"background": "red"}}, "colors.primary: is required"),
    ({"name": "sea", "colors": {"primary": "blurple"}}, "colors.primary: 'blurple' is not a colour"),
    ({"name": "sea", "colors": {"primary": "red", "shade": "red"}}, "colors.shade: not a theme setting"),
    ({"name": "sea", "colors": {"primary": "red"}, "font": "x"}, "font: not a theme setting"),
    ({"name": "sea", "colors": "red"}, "colors: should be a table"),
    ({"name": "sea", "colors": {"primary": "red"}, "variables": {"x-style": "loud"}},
     "variables: x-style: 'loud' is not a text style"),
    ({"name": "sea", "colors": {"primary": "red"}, "variables": {"border": "nope"}},
     "variables.border: 'nope' is not a colour"),
])
def test_each_problem_is_named_where_it_is(table: dict, problem: str) -> None:
    with pytest.raises(ValueError) as info:
        theme_from_table(table)
    assert str(info.value).startswith(problem)


def test_a_file_that_is_not_toml_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text("name = [\n", encoding="utf-8")
    with pytest.raises(ThemeError, match=r"^broken.toml: cannot read it"):
        parse_theme_file(bad)
