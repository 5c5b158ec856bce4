"""Names the offline extractor recognises, with their types and spellings.

A small, explicit gazetteer: it gives one identity to the spellings of the same thing (`libstd`,
`` `std` ``, "the standard library") and recognises well-known tools and teams by name. Everything else
is found by patterns in the text ("the `regex` crate", "the core team", "Acme Ltd."), typed by the
noun the text uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class KnownName:
    title: str
    entity_type: str
    surfaces: tuple[str, ...]  # spellings matched in text (case-sensitive, word-bounded)
    aliases: tuple[str, ...]  # further spellings recorded as aliases of the page


KNOWN: tuple[KnownName, ...] = (
    KnownName("std", "library", ("`std`", "libstd", "`libstd`", "standard library", "Standard Library"),
              ("libstd", "the standard library", "Rust standard library")),
    KnownName("core", "library", ("`core`", "libcore", "`libcore`"), ("libcore",)),
    KnownName("alloc", "library", ("`alloc`", "liballoc", "`liballoc`"), ("liballoc",)),
    KnownName("collections", "library", ("libcollections", "`libcollections`"), ("libcollections",)),
    KnownName("syntax", "library", ("libsyntax", "`libsyntax`"), ("libsyntax",)),
    KnownName("Cargo", "tool", ("Cargo", "`cargo`"), ("cargo",)),
    KnownName("rustc", "tool", ("rustc", "`rustc`"), ("the Rust compiler",)),
    KnownName("rustdoc", "tool", ("rustdoc", "`rustdoc`"), ()),
    KnownName("rustfmt", "tool", ("rustfmt", "`rustfmt`"), ()),
    KnownName("Clippy", "tool", ("Clippy", "clippy", "`clippy`"), ()),
    KnownName("rustup", "tool", ("rustup", "`rustup`"), ()),
    KnownName("crates.io", "product", ("crates.io",), ()),
    KnownName("LLVM", "tool", ("LLVM",), ()),
    KnownName("GCC", "tool", ("GCC",), ()),
    KnownName("GitHub", "company", ("GitHub",), ()),
)

# "<word> team" spellings that name the same team.
TEAM_NAMES = {
    "core": "Core team",
    "lang": "Language team",
    "language": "Language team",
    "libs": "Library team",
    "library": "Library team",
    "compiler": "Compiler team",
    "tools": "Tools team",
    "dev-tools": "Tools team",
    "infra": "Infrastructure team",
    "infrastructure": "Infrastructure team",
    "docs": "Documentation team",
    "documentation": "Documentation team",
    "release": "Release team",
    "moderation": "Moderation team",
    "security": "Security team",
}

def _build() -> tuple[re.Pattern[str], dict[str, KnownName]]:
    table: dict[str, KnownName] = {}
    for known in KNOWN:
        for surface in known.surfaces:
            table[surface] = known
    alternation = "|".join(re.escape(s) for s in sorted(table, key=lambda s: (-len(s), s)))
    return re.compile(rf"(?<![\w`.-])(?:{alternation})(?![\w`-])"), table


KNOWN_PATTERN, KNOWN_BY_SURFACE = _build()
_BY_TITLE = {k.title.casefold(): k for k in KNOWN}
for _k in KNOWN:
    for _a in _k.aliases + _k.surfaces:
        _BY_TITLE.setdefault(_a.strip("`").casefold(), _k)


def canonical(name: str) -> KnownName | None:
    """The known name a spelling stands for (`libstd` → std), if any."""
    return _BY_TITLE.get(name.strip("`").casefold())
