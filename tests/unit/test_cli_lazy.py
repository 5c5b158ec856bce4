"""The lazy root command: `kctui --help` lists every command from the table without importing it, the
table says what each command's own help says, and a call loads only what it uses (the start-up budget
of issue 32: after `kctui --help` no pydantic, PyYAML or service module is loaded, after `kctui status
--json` no Textual module is)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kctui.cli import COMMANDS, load_command, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_names_each_command_and_says_its_help(name: str) -> None:
    command = load_command(name)
    assert command.name == name
    for limit in (30, 45, 60, 200):
        assert click.Command(name, help=COMMANDS[name][2]).get_short_help_str(limit) == command.get_short_help_str(limit)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_lazy_listing_is_the_one_click_would_print(width: int) -> None:
    eager = click.Group(name="kctui", commands={n: load_command(n) for n in COMMANDS})
    formatter = click.HelpFormatter(width=width)
    eager.format_commands(click.Context(eager), formatter)
    lazy = click.HelpFormatter(width=width)
    main.format_commands(click.Context(main), lazy)
    assert lazy.getvalue() == formatter.getvalue() and "compile-estimate" in lazy.getvalue()


def test_an_unknown_word_is_still_a_workspace_and_a_command_name_is_a_command() -> None:
    ctx = click.Context(main)
    main.parse_args(ctx, ["status", "--json"])
    assert "kctui.workspaces" not in ctx.meta
    ctx = click.Context(main)
    assert main.parse_args(ctx, ["./notes"]) == [] and ctx.meta["kctui.workspaces"] == ["./notes"]
    assert main.get_command(ctx, "nope") is None and "status" in main.commands and "nope" not in main.commands


def _modules_after(args: list[str], tmp_path: Path) -> set[str]:
    code = ("import sys, json\nfrom kctui.cli import main\n"
            f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
            "print('\\n' + json.dumps(sorted(sys.modules)))")
    env = {**os.environ, "KCTUI_STATE_DIR": str(tmp_path / "state"), "KCTUI_CONFIG_DIR": str(tmp_path / "config"),
           "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=60, check=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def test_help_loads_no_validator_no_yaml_and_no_service(tmp_path: Path) -> None:
    loaded = _modules_after(["--help"], tmp_path)
    heavy = sorted(m for m in loaded if m.split(".")[0] in ("pydantic", "yaml", "textual", "httpx", "starlette")
                   or m.startswith("kctui.services"))
    assert heavy == []


def test_status_loads_no_textual(tmp_path: Path) -> None:
    loaded = _modules_after(["status", "--json"], tmp_path)
    assert "kctui.services.hoststatus" in loaded  # it ran
    assert sorted(m for m in loaded if m.split(".")[0] in ("textual", "starlette", "uvicorn", "httpx")) == []


def test_a_known_error_is_one_line_without_loading_its_module_first(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KCTUI_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("KCTUI_SCAN_INTERVAL", "0")  # a settings error: raised by kctui.config, loaded late
    result = CliRunner().invoke(main, ["kb", "create", str(tmp_path), "notes"])
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == ["kctui: error: invalid setting KCTUI_SCAN_INTERVAL: should be "
                                                  "greater than 0"]


def test_the_app_module_loads_no_validator_yaml_markdown_or_web_stack(tmp_path: Path) -> None:
    """The app draws its panes first: what it imports before the first frame stays light (the services
    that publish, the page parser, the Markdown renderer and the API load later, when used)."""
    code = "import sys, json\nimport kctui.ui.app\nprint(json.dumps(sorted(sys.modules)))"
    env = {**os.environ, "KCTUI_STATE_DIR": str(tmp_path / "state"), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=60, check=True).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    heavy = sorted(m for m in loaded if m.split(".")[0] in ("pydantic", "yaml", "markdown_it", "starlette", "uvicorn",
                                                            "httpx", "sqlite_utils")
                   or m in ("kctui.services.review_publish", "kctui.core.pages", "kctui.compiler.runner"))
    assert heavy == []
