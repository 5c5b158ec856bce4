"""What the wheel is made of: every package of kctui/ is listed in pyproject.toml (the list is explicit
because the built-in themes live in the top-level themes/ and ship as kctui/themes), and the built-in
themes are found both in a source checkout and in an installed wheel's layout."""

from __future__ import annotations

import importlib.util
import shutil
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_folder_is_in_the_wheel():
    on_disk = {".".join(d.relative_to(ROOT).parts) for d in [ROOT / "kctui", *(ROOT / "kctui").rglob("*")]
               if d.is_dir() and d.name != "__pycache__" and any(f.is_file() for f in d.iterdir())}
    listed = set(_setuptools()["packages"])
    assert listed - {"kctui.themes"} == on_disk, "add the new package to [tool.setuptools] packages"


def test_the_top_level_themes_ship_as_kctui_themes():
    conf = _setuptools()
    assert conf["package-dir"] == {"kctui.themes": "themes"}
    assert conf["package-data"]["kctui.themes"] == ["*.toml"]
    assert sorted(p.name for p in (ROOT / "themes").glob("*.toml")) == [
        "kctui-dark.toml", "kctui-high-contrast.toml", "kctui-light.toml"]
    assert not (ROOT / "kctui" / "themes").exists()


def _paths_module_at(package: Path):
    """kctui/paths.py loaded from a copy at `package`/paths.py, as an installed copy would be."""
    package.mkdir(parents=True)
    shutil.copy(ROOT / "kctui" / "paths.py", package / "paths.py")
    spec = importlib.util.spec_from_file_location("paths_copy", package / "paths.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_builtin_themes_are_found_in_a_checkout_and_in_a_wheel(tmp_path):
    from kctui import paths
    from kctui.ui.themes import builtin_theme_files

    assert paths.builtin_themes_dir() == ROOT / "themes"
    assert [p.name for p in builtin_theme_files()] == sorted(p.name for p in (ROOT / "themes").glob("*.toml"))
    checkout = _paths_module_at(tmp_path / "checkout" / "kctui")
    (tmp_path / "checkout" / "themes").mkdir()
    assert checkout.builtin_themes_dir() == (tmp_path / "checkout" / "themes").resolve()
    site = tmp_path / "site-packages"
    installed = _paths_module_at(site / "kctui")
    (site / "kctui" / "themes").mkdir()
    (site / "themes").mkdir()  # someone else's top-level folder: never taken over the wheel's own
    assert installed.builtin_themes_dir() == (site / "kctui" / "themes").resolve()
