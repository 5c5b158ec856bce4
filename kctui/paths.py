"""Where kctui keeps its state and config, and the on-disk layout of a knowledge base (host.md §1)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "kctui"


def state_dir() -> Path:
    """`$KCTUI_STATE_DIR`, else the platform state dir (`$XDG_STATE_HOME/kctui`, `~/.local/state/kctui`)."""
    env = os.environ.get("KCTUI_STATE_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    env = os.environ.get("KCTUI_CONFIG_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def builtin_themes_dir() -> Path:
    """The built-in themes: `kctui/themes/` inside an installed wheel (pyproject maps the repository's
    top-level `themes/` there), else that top-level `themes/` itself (a source checkout: an editable
    install or PYTHONPATH)."""
    package = Path(__file__).resolve().parent
    installed = package / "themes"
    return installed if installed.is_dir() else package.parent / "themes"


def config_file() -> Path:
    return config_dir() / "config.toml"


def database_file() -> Path:
    return state_dir() / "kctui.sqlite3"


def host_lock_file() -> Path:
    return state_dir() / "host.lock"


def api_token_file() -> Path:
    return state_dir() / "api-token"


def bases_root(workspace: Path) -> Path:
    return Path(workspace) / ".a3s" / "kb" / "bases"


def kb_path(workspace: Path, kb_id: str) -> Path:
    return bases_root(workspace) / kb_id


def sources_path(workspace: Path, kb_id: str) -> Path:
    return kb_path(workspace, kb_id) / "sources"


def wiki_path(workspace: Path, kb_id: str) -> Path:
    return kb_path(workspace, kb_id) / "wiki"


def output_root(workspace: Path, kb_id: str) -> Path:
    return kb_path(workspace, kb_id) / ".a3s" / "compilation-output"


def job_dir(workspace: Path, kb_id: str, job_id: str) -> Path:
    return output_root(workspace, kb_id) / job_id


def staged_wiki(workspace: Path, kb_id: str, job_id: str) -> Path:
    return job_dir(workspace, kb_id, job_id) / "wiki"
