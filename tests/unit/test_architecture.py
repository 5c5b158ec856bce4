"""The domain never depends on the UI: core, store, sources, publish, compiler, services, api, search and mcp_server
never import textual — checked by importing every module of each package in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["core", "store", "sources", "publish", "compiler", "services", "api", "search", "mcp_server"]

PROBE = """
import importlib, pkgutil, sys
import kctui.{pkg} as pkg
names = [m.name for m in pkgutil.walk_packages(pkg.__path__, prefix="kctui.{pkg}.")]
for name in names:
    importlib.import_module(name)
bad = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
print(len(names), bad[:3])
sys.exit(1 if bad else 0)
"""


@pytest.mark.parametrize("pkg", PACKAGES)
def test_domain_package_never_imports_textual(pkg):
    if not (ROOT / "kctui" / pkg).is_dir():
        pytest.skip(f"kctui/{pkg} does not exist yet")
    proc = subprocess.run([sys.executable, "-c", PROBE.format(pkg=pkg)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, f"kctui.{pkg} pulls in textual: {proc.stdout} {proc.stderr[-2000:]}"


def test_core_does_not_depend_on_the_shell():
    """The pure core imports nothing from the shell packages."""
    offenders = []
    for path in (ROOT / "kctui" / "core").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for shell in ("kctui.store", "kctui.services", "kctui.api", "kctui.ui", "kctui.publish", "kctui.sources",
                      "kctui.compiler"):
            if f"from {shell}" in text or f"import {shell}" in text:
                offenders.append(f"{path.name} imports {shell}")
    assert offenders == []
