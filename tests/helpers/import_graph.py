# size: the graph builder and the two rule tables it checks (layers, compiler rooms), read together
"""kctui's import graph, built statically with `ast` (nothing is imported), for the cycle and layer tests.

What counts as an import of module M by module S: every `import` / `from … import` statement anywhere in
S's file — at module level, inside a function or method, under `try:`, and under `if TYPE_CHECKING:`.
A TYPE_CHECKING import counts like any other: it hides a dependency from the interpreter, not from a
reader, and the name it imports is part of S's design. Each edge records where it stands (`module`,
`function`, `type-checking`) so a message can say so.

Resolution:
- relative imports resolve against S's package (`from . import x`, `from ..core import y`);
- `from P import n` is an edge to `P.n` when that is a module, else to `P`;
- a dotted name that is not itself a module resolves to its longest prefix that is (`import kctui.a.b`
  where only `kctui.a` exists → `kctui.a`);
- importing `P.n` is not also counted as importing the package `P` (its `__init__`): Python runs every
  parent package before a submodule, so counting that would make every package whose `__init__` imports
  a submodule a cycle with it. A name taken from a package's `__init__` (`from P import f`) is an edge
  to `P` like any other.

`python -m tests.helpers.import_graph` prints the cycles and the layer table's violations of the tree.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Edge:
    """One import statement of a package module naming another module of the same package."""

    source: str
    target: str
    path: str  # the importing file, relative to the package's parent folder
    line: int
    where: str  # "module", "function" or "type-checking"

    def at(self) -> str:
        where = "" if self.where == "module" else f" ({self.where})"
        return f"{self.path}:{self.line}{where}"


@dataclass(frozen=True)
class External:
    """One import of a module outside the package: `top` is its top-level name (`textual`)."""

    source: str
    top: str
    path: str
    line: int
    where: str

    def at(self) -> str:
        where = "" if self.where == "module" else f" ({self.where})"
        return f"{self.path}:{self.line}{where}"


@dataclass(repr=False)
class ImportGraph:
    package: str
    modules: dict[str, Path]
    edges: list[Edge] = field(default_factory=list)
    external: list[External] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<ImportGraph {self.package}: {len(self.modules)} modules, {len(self.edges)} edges>"

    def successors(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {m: set() for m in self.modules}
        for e in self.edges:
            out[e.source].add(e.target)
        return out

    def edge(self, source: str, target: str) -> Edge:
        """The first statement (by line) of `source` importing `target`."""
        return min((e for e in self.edges if e.source == source and e.target == target), key=lambda e: e.line)

    def components(self) -> list[frozenset[str]]:
        """The strongly connected components of two or more modules (each holds a cycle), in a stable
        order."""
        return sorted(strongly_connected(self.successors()), key=lambda c: sorted(c))

    def cycles(self, components: Iterable[frozenset[str]] | None = None) -> list[list[str]]:
        """Cycles in order (`[a, b, c]` reads a → b → c → a) that together visit every module of every
        component (default: all of them): for each module not yet on a listed cycle, the shortest cycle
        through it."""
        succ = self.successors()
        found: list[list[str]] = []
        for comp in self.components() if components is None else components:
            covered: set[str] = set()
            for start in sorted(comp):
                if start in covered:
                    continue
                cycle = shortest_cycle(succ, start, comp)
                found.append(cycle)
                covered.update(cycle)
        return found

    def describe_cycle(self, cycle: list[str]) -> str:
        """`a → b → a` followed by where each import stands."""
        steps = list(zip(cycle, cycle[1:] + cycle[:1], strict=True))
        lines = [" → ".join(cycle + cycle[:1])]
        lines += [f"    {s} → {t}   {self.edge(s, t).at()}" for s, t in steps]
        return "\n".join(lines)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def build(package_dir: Path) -> ImportGraph:
    """The import graph of the package at `package_dir` (its parent folder is the import root)."""
    package_dir = package_dir.resolve()
    root = package_dir.parent
    package = package_dir.name
    modules = {module_name(p, root): p for p in sorted(package_dir.rglob("*.py"))}
    graph = ImportGraph(package=package, modules=modules)
    for name, path in modules.items():
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        is_package = path.name == "__init__.py"
        for node, where in _imports(tree):
            for target in _targets(node, name, is_package, modules):
                if target == package or target.startswith(package + "."):
                    resolved = _longest_module(target, modules)
                    if resolved is not None and resolved != name:  # `from . import f` in an __init__
                        graph.edges.append(Edge(name, resolved, rel, node.lineno, where))
                else:
                    graph.external.append(External(name, target.split(".")[0], rel, node.lineno, where))
    return graph


def _imports(tree: ast.AST) -> Iterable[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement with where it stands; a function's and a TYPE_CHECKING block's imports
    are said to stand there even when nested further (a class in a function is `function`)."""

    def walk(node: ast.AST, where: str) -> Iterable[tuple[ast.Import | ast.ImportFrom, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, where
                continue
            inner = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = "function"
            elif isinstance(child, ast.If) and where == "module" and _is_type_checking(child.test):
                yield from walk_list(child.body, "type-checking")
                yield from walk_list(child.orelse, where)
                continue
            yield from walk(child, inner)

    def walk_list(nodes: list[ast.stmt], where: str) -> Iterable[tuple[ast.Import | ast.ImportFrom, str]]:
        holder = ast.Module(body=nodes, type_ignores=[])
        yield from walk(holder, where)

    yield from walk(tree, "module")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             modules: Mapping[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        if node.level > 1:
            base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{prefix}.{alias.name}"
        out.append(sub if alias.name != "*" and sub in modules else prefix)
    return out


def _longest_module(name: str, modules: Mapping[str, Path]) -> str | None:
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def strongly_connected(succ: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """Tarjan's algorithm, iterative; only the components of two or more nodes."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    counter = 0
    for root in sorted(succ):
        if root in index:
            continue
        work = [(root, iter(sorted(succ[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(frozenset(comp))
    return out


def shortest_cycle(succ: Mapping[str, Iterable[str]], start: str, within: frozenset[str]) -> list[str]:
    """The shortest path start → … → start inside `within` (breadth first, ties by name), without the
    repeated start."""
    parent: dict[str, str] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        v = queue.popleft()
        for w in sorted(succ.get(v, ())):
            if w not in within:
                continue
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if w not in seen:
                seen.add(w)
                parent[w] = v
                queue.append(w)
    raise ValueError(f"{start} is on no cycle")


# --- kctui's layers -----------------------------------------------------------------------------------

# Which layer each module belongs to: the first prefix that matches (a prefix matches the module itself
# and everything under it). A module no prefix matches fails the layer test until it is given a layer.
LAYER_OF = [
    ("kctui.core", "core"),
    ("kctui.store", "store"),
    ("kctui.sources", "sources"),
    ("kctui.publish", "publish"),
    ("kctui.compiler", "compiler"),
    ("kctui.search", "search"),
    ("kctui.services", "services"),
    ("kctui.api", "api"),
    ("kctui.mcp_server", "mcp_server"),
    ("kctui.ui", "ui"),
    ("kctui.cli", "cli"),  # the cli package (and, until it exists, kctui/cli.py)
    ("kctui.__main__", "cli"),
    ("kctui.atomic_write", "helpers"),
    ("kctui.paths", "helpers"),
    ("kctui.config", "helpers"),
    ("kctui", "helpers"),  # kctui/__init__.py: the version
]


def layer_of(module: str) -> str | None:
    for prefix, layer in LAYER_OF:
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return None


# Which layers each layer may import (its own is always allowed), read from the code as it is meant to
# be: the pure core and the leaf helpers import no other layer (core does no I/O, and the helpers are I/O:
# atomic writes, platform paths, the config file); store, sources and publish are I/O shells over the
# core; the compiler reads sources and writes a staged tree, never the store nor wiki/; search reads the
# promoted wiki and its own index; services are the use cases over all of those, shared by the four entry
# layers above them (the host runtime the ui embeds is a service). api holds the loopback server and the
# worker client the cli runs; cli is the top (it opens the app and hands it the API server, serves MCP). Nothing imports cli. ARCHITECTURE.md shows this table.
MAY_IMPORT: dict[str, set[str]] = {
    "helpers": set(),
    "core": set(),
    "store": {"core", "helpers"},
    "sources": {"core", "helpers"},
    "publish": {"core", "helpers"},
    "compiler": {"core", "sources", "helpers"},
    "search": {"core", "store", "helpers"},
    "services": {"core", "store", "sources", "publish", "compiler", "search", "helpers"},
    "api": {"services", "compiler", "core", "store", "helpers"},
    "mcp_server": {"services", "search", "core", "store", "helpers"},
    "ui": {"services", "core", "store", "helpers"},
    "cli": {"services", "api", "mcp_server", "ui", "compiler", "search", "core", "store", "helpers"},
}

# Third-party frameworks that stay in their own layer (any other third-party import is free): the
# domain never depends on the UI, and no use case depends on how it is served.
EXTERNAL_ONLY_IN = {
    "textual": {"ui"},
    "click": {"cli"},
    "starlette": {"api"},
    "uvicorn": {"api"},
    "mcp": {"mcp_server"},
}


@dataclass(frozen=True)
class Violation:
    source: str
    target: str  # a kctui module, or a third-party top-level name
    at: str
    rule: str

    def __str__(self) -> str:
        return f"{self.at}: {self.source} → {self.target}   ({self.rule})"


def _table_violations(graph: ImportGraph, part_of, may_import: dict[str, set[str]], what: str) -> list[Violation]:  # noqa: ANN001
    """The edges between two parts (layers, or compiler rooms) that the table does not allow."""
    out = []
    for e in graph.edges:
        src, dst = part_of(e.source), part_of(e.target)
        if src is None or dst is None or src == dst:
            continue
        if dst not in may_import[src]:
            out.append(Violation(e.source, e.target, e.at(), f"{what}{src} may not import {dst}"))
    return out


def _by_place(violations: list[Violation]) -> list[Violation]:
    return sorted(violations, key=lambda v: (v.at.split(":")[0], int(v.at.split(":")[1].split()[0]), v.target))


def layer_violations(graph: ImportGraph) -> list[Violation]:
    out = _table_violations(graph, layer_of, MAY_IMPORT, "")
    for x in graph.external:
        allowed = EXTERNAL_ONLY_IN.get(x.top)
        src = layer_of(x.source)
        if allowed is not None and src not in allowed:
            out.append(Violation(x.source, x.top, x.at(), f"only {', '.join(sorted(allowed))} may import {x.top}"))
    return _by_place(out)


# The compiler's rooms (ARCHITECTURE.md, "The compiler"): the seam modules at its top, the format readers,
# the offline extractor (builtin) and the model's (llm), the trust step (trust), what the last pass knew
# (previous), and the pass and its steps (steps), which alone may use them all; `runner` is the seam's
# entry into the pass. Each room may import its own modules and the rooms listed; the extractors never
# see the pass's steps, the previous generation or the trust step.
COMPILER_ROOMS = ("readers", "builtin", "llm", "trust", "previous", "steps")
ROOM_MAY_IMPORT: dict[str, set[str]] = {
    "seam": {"readers"},
    "readers": set(),
    "builtin": {"seam", "readers"},
    "llm": {"seam", "readers", "builtin"},
    "trust": {"seam", "readers"},
    "previous": {"seam", "readers", "trust"},
    "steps": {"seam", "readers", "builtin", "llm", "trust", "previous"},
    "runner": {"seam", "steps"},
}


def room_of(module: str) -> str | None:
    """The compiler room of a kctui.compiler module (None outside the compiler)."""
    if module != "kctui.compiler" and not module.startswith("kctui.compiler."):
        return None
    parts = module.split(".")
    if len(parts) > 2 and parts[2] in COMPILER_ROOMS:
        return parts[2]
    return "runner" if module == "kctui.compiler.runner" else "seam"


def room_violations(graph: ImportGraph) -> list[Violation]:
    return _by_place(_table_violations(graph, room_of, ROOM_MAY_IMPORT, "compiler room "))


def main() -> None:  # pragma: no cover - a command for people
    graph = build(Path(__file__).resolve().parents[2] / "kctui")
    for cycle in graph.cycles():
        print(graph.describe_cycle(cycle))
    for comp in graph.components():
        print(len(comp), sorted(comp))
    for v in layer_violations(graph) + room_violations(graph):
        print(v)
    unplaced = sorted(m for m in graph.modules if layer_of(m) is None)
    if unplaced:
        print("modules with no layer:", ", ".join(unplaced))


if __name__ == "__main__":
    main()
