"""kctui's import graph has no cycles and keeps its layers: each layer imports only the layers the table in
tests/helpers/import_graph.py (`MAY_IMPORT`, shown in ARCHITECTURE.md) allows, and only the UI imports
textual. The graph is built statically (tests/helpers/import_graph.py says exactly what counts: every
import statement anywhere in a file, inside functions and `if TYPE_CHECKING:` blocks too)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import import_graph as ig

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------------------------------------------
# KNOWN_TODAY — the cycles and layer breaks of the tree when this test was written, being fixed in their
# own branches (issue 18). Each entry must still exist (test_known_today_entries_still_exist), so an entry
# is deleted once its fix is merged; nothing new may be added here. Empty both when the last fix lands.
KNOWN_CYCLES: list[frozenset[str]] = []
KNOWN_LAYER_BREAKS: set[tuple[str, str]] = set()
# ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> ig.ImportGraph:
    return ig.build(ROOT / "kctui")


def test_no_import_cycles(graph):
    """Every strongly connected component of the graph is a cycle; none may exist beyond KNOWN_TODAY."""
    known = set(KNOWN_CYCLES)
    new = [c for c in graph.components() if c not in known]
    if new:
        report = []
        for comp in new:
            report.append(f"{len(comp)} modules import each other: {', '.join(sorted(comp))}")
            report += [graph.describe_cycle(cycle) for cycle in graph.cycles([comp])]
        pytest.fail("import cycles among kctui modules (move the shared names into a leaf module both can "
                    "import):\n" + "\n".join(report), pytrace=False)


@pytest.mark.parametrize("layer", sorted(ig.MAY_IMPORT))
def test_layer_imports_only_what_the_table_allows(graph, layer):
    broken = [v for v in ig.layer_violations(graph)
              if ig.layer_of(v.source) == layer and (v.source, v.target) not in KNOWN_LAYER_BREAKS]
    if broken:
        allowed = ", ".join(sorted(ig.MAY_IMPORT[layer])) or "nothing outside itself"
        pytest.fail(f"{layer} may import only {allowed} (the table in tests/helpers/import_graph.py, "
                    "ARCHITECTURE.md):\n" + "\n".join(str(v) for v in broken), pytrace=False)


def test_every_module_has_a_layer(graph):
    unplaced = sorted(m for m in graph.modules if ig.layer_of(m) is None)
    assert not unplaced, f"give these modules a layer in LAYER_OF (tests/helpers/import_graph.py): {unplaced}"


def test_known_today_entries_still_exist(graph):
    """The allow-lists only shrink: an entry whose cycle or edge is gone must be deleted."""
    components = set(graph.components())
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in components]
    breaks = {(v.source, v.target) for v in ig.layer_violations(graph)}
    fixed = sorted(KNOWN_LAYER_BREAKS - breaks)
    if gone or fixed:
        pytest.fail("KNOWN_TODAY lists what no longer exists; delete (or, for a cycle that shrank, narrow) "
                    "these entries:\n" + "\n".join([f"cycle {c}" for c in gone] + [f"edge {s} → {t}" for s, t in fixed]),
                    pytrace=False)


def test_layer_table_is_itself_layered():
    """The table names real layers and allows no two layers to import each other, even through others."""
    layers = set(ig.MAY_IMPORT)
    assert {layer for _, layer in ig.LAYER_OF} == layers
    for layer, allowed in ig.MAY_IMPORT.items():
        assert allowed <= layers - {layer}, layer
    assert ig.strongly_connected({k: sorted(v) for k, v in ig.MAY_IMPORT.items()}) == []
    for pkg, allowed in ig.EXTERNAL_ONLY_IN.items():
        assert allowed <= layers, pkg


def test_compiler_rooms_import_only_what_their_table_allows(graph):
    """builtin and llm never import steps, previous or trust; nothing below steps imports it."""
    broken = ig.room_violations(graph)
    if broken:
        pytest.fail("imports the compiler's room table (tests/helpers/import_graph.py ROOM_MAY_IMPORT, shown in "
                    "ARCHITECTURE.md) does not allow:\n" + "\n".join(str(v) for v in broken), pytrace=False)


def test_compiler_room_table_is_layered_and_the_top_holds_few_modules():
    assert ig.strongly_connected({k: sorted(v) for k, v in ig.ROOM_MAY_IMPORT.items()}) == []
    top = ROOT / "kctui" / "compiler"
    modules = sorted(p.name for p in top.glob("*.py") if p.name != "__init__.py")
    packages = sorted(p.name for p in top.iterdir() if p.is_dir() and (p / "__init__.py").is_file())
    assert len(modules) <= 5, modules
    assert set(packages) == set(ig.COMPILER_ROOMS), packages
    for name in packages:  # each room says what lives there and what it may import
        doc = (top / name / "__init__.py").read_text(encoding="utf-8")
        assert doc.startswith('"""') and "import" in doc.split('"""')[1], name


def test_a_room_rule_names_the_file_and_line(tmp_path):
    pkg = tmp_path / "kctui"
    (pkg / "compiler" / "builtin").mkdir(parents=True)
    (pkg / "compiler" / "steps").mkdir()
    for f in ("__init__.py", "compiler/__init__.py", "compiler/builtin/__init__.py", "compiler/steps/__init__.py",
              "compiler/steps/gather.py"):
        (pkg / f).write_text("")
    (pkg / "compiler" / "builtin" / "rules.py").write_text("import os\n\nfrom kctui.compiler.steps import gather\n")
    broken = ig.room_violations(ig.build(pkg))
    assert [str(v) for v in broken] == ["kctui/compiler/builtin/rules.py:3: kctui.compiler.builtin.rules → "
                                        "kctui.compiler.steps.gather   (compiler room builtin may not import steps)"]


def test_architecture_md_shows_the_room_table():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\|\s*room `([a-z_]+)`\s*\|\s*([^|]*)\|", line)
        if m:
            rows[m.group(1)] = set(re.findall(r"`([a-z_]+)`", m.group(2)))
    assert rows == ig.ROOM_MAY_IMPORT


def test_architecture_md_shows_the_enforced_table():
    """ARCHITECTURE.md's layer table is the one this test enforces, row for row."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\|\s*`([a-z_]+)`\s*\|\s*([^|]*)\|", line)
        if m and m.group(1) in ig.MAY_IMPORT:
            rows[m.group(1)] = set(re.findall(r"`([a-z_]+)`", m.group(2)))
    assert rows == ig.MAY_IMPORT


# ---------------------------------------------------------------------------------------------------
# Textual stays in the UI also at run time: importing every module of each package below the UI in a
# fresh interpreter loads no textual (this catches a third-party package pulling it in, which the static
# graph cannot see).
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
NO_TEXTUAL = sorted(layer for layer in ig.MAY_IMPORT if layer not in ("ui", "cli", "helpers"))


@pytest.mark.parametrize("pkg", NO_TEXTUAL)
def test_domain_package_never_imports_textual(pkg):
    proc = subprocess.run([sys.executable, "-c", PROBE.format(pkg=pkg)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, f"kctui.{pkg} pulls in textual: {proc.stdout} {proc.stderr[-2000:]}"


# ---------------------------------------------------------------------------------------------------
# The graph builder itself, on small packages written to tmp_path.

def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root / next(iter(files)).split("/")[0]


BUILDER_CASES = {
    "relative imports": (
        {"pkg/__init__.py": "", "pkg/a.py": "from . import b\nfrom .sub import c\n", "pkg/b.py": "",
         "pkg/sub/__init__.py": "", "pkg/sub/c.py": "from ..b import thing\nfrom .. import a\n"},
        {("pkg.a", "pkg.b", "module"), ("pkg.a", "pkg.sub.c", "module"), ("pkg.sub.c", "pkg.b", "module"),
         ("pkg.sub.c", "pkg.a", "module")}),
    "from a package: a submodule, else the package": (
        {"pkg/__init__.py": "def f(): pass\n", "pkg/a.py": "from pkg import b, f\n", "pkg/b.py": "",
         "pkg/sub/__init__.py": "from . import c\nfrom .c import x\n", "pkg/sub/c.py": ""},
        {("pkg.a", "pkg.b", "module"), ("pkg.a", "pkg", "module"), ("pkg.sub", "pkg.sub.c", "module")}),
    "absolute, dotted and aliased": (
        {"pkg/__init__.py": "", "pkg/a.py": "import pkg.b\nimport pkg.sub.c as c\nimport pkg.sub.nothing\n",
         "pkg/b.py": "", "pkg/sub/__init__.py": "", "pkg/sub/c.py": ""},
        {("pkg.a", "pkg.b", "module"), ("pkg.a", "pkg.sub.c", "module"), ("pkg.a", "pkg.sub", "module")}),
    "inside functions, methods, try and TYPE_CHECKING": (
        {"pkg/__init__.py": "", "pkg/b.py": "", "pkg/c.py": "", "pkg/d.py": "", "pkg/e.py": "",
         "pkg/a.py": ("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from pkg.b import B\nelse:\n    B = None\n"
                      "def f():\n    from pkg import c\n"
                      "class K:\n    async def m(self):\n        import pkg.d\n"
                      "try:\n    from pkg.e import x\nexcept ImportError:\n    pass\n")},
        {("pkg.a", "pkg.b", "type-checking"), ("pkg.a", "pkg.c", "function"), ("pkg.a", "pkg.d", "function"),
         ("pkg.a", "pkg.e", "module")}),
    "outside the package is not an edge": (
        {"pkg/__init__.py": "", "pkg/a.py": "import os\nimport textual.app\nfrom pkgx import y\n"},
        set()),
}


@pytest.mark.parametrize("case", BUILDER_CASES)
def test_builder_resolves_imports(tmp_path, case):
    files, expected = BUILDER_CASES[case]
    graph = ig.build(write(tmp_path, files))
    assert {(e.source, e.target, e.where) for e in graph.edges} == expected


def test_builder_records_external_imports_with_their_lines(tmp_path):
    graph = ig.build(write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "import os\n\ndef f():\n"
                                      "    from textual.app import App\n"}))
    assert [(x.source, x.top, x.at()) for x in graph.external] == [
        ("pkg.a", "os", "pkg/a.py:1"), ("pkg.a", "textual", "pkg/a.py:4 (function)")]


def test_builder_finds_a_cycle_of_three_in_order(tmp_path):
    graph = ig.build(write(tmp_path, {
        "pkg/__init__.py": "", "pkg/a.py": "from pkg import b\n", "pkg/b.py": "def f():\n    from pkg.c import g\n",
        "pkg/c.py": "from . import a\n", "pkg/d.py": "from pkg import a\n"}))
    assert graph.components() == [frozenset({"pkg.a", "pkg.b", "pkg.c"})]
    assert graph.cycles() == [["pkg.a", "pkg.b", "pkg.c"]]
    assert graph.describe_cycle(["pkg.a", "pkg.b", "pkg.c"]).splitlines() == [
        "pkg.a → pkg.b → pkg.c → pkg.a",
        "    pkg.a → pkg.b   pkg/a.py:1",
        "    pkg.b → pkg.c   pkg/b.py:2 (function)",
        "    pkg.c → pkg.a   pkg/c.py:1"]


def test_builder_covers_every_module_of_a_component_with_cycles(tmp_path):
    """Two cycles sharing a module (a ⇄ b, b ⇄ c) are one component, listed as two cycles."""
    graph = ig.build(write(tmp_path, {
        "pkg/__init__.py": "", "pkg/a.py": "from pkg import b\n", "pkg/b.py": "from pkg import a, c\n",
        "pkg/c.py": "from pkg import b\n"}))
    assert graph.components() == [frozenset({"pkg.a", "pkg.b", "pkg.c"})]
    assert graph.cycles() == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.b"]]


def test_layer_rules_name_the_file_and_line(tmp_path):
    """A synthetic kctui whose core imports services and whose search imports textual breaks two rules."""
    graph = ig.build(write(tmp_path, {
        "kctui/__init__.py": "", "kctui/core/__init__.py": "", "kctui/services/__init__.py": "",
        "kctui/search/__init__.py": "", "kctui/ui/__init__.py": "",
        "kctui/core/rules.py": "import os\n\ndef f():\n    from kctui.services import jobs\n",
        "kctui/services/jobs.py": "from kctui.core import rules\n",
        "kctui/search/index.py": "from kctui.core.rules import f\nimport textual\n",
        "kctui/ui/app.py": "import textual\nfrom kctui.services import jobs\n"}))
    assert [str(v) for v in ig.layer_violations(graph)] == [
        "kctui/core/rules.py:4 (function): kctui.core.rules → kctui.services.jobs   (core may not import services)",
        "kctui/search/index.py:2: kctui.search.index → textual   (only ui may import textual)"]
