"""Which names in `sources/` never count (host.md §2).

A name is tested at every level of the tree: an excluded folder is not walked, an excluded file is not
hashed. The reference host's list comes first; ours adds editor leftovers (Emacs lock files, Vim swap
and probe files, GNOME's atomic-save temporaries, backup files ending in `~`). For any tree without
such leftovers the digest is the reference host's.

The same predicate serves the scanner, the watcher (an editor writing its swap file must not look like
a change) and the compiler's reader, so the three can never disagree.
"""

from __future__ import annotations

from pathlib import PurePosixPath

# The reference host (A3S Web).
REFERENCE_EXCLUDED_NAMES: frozenset[str] = frozenset(
    {
        ".a3s",
        ".git",
        ".obsidian",
        ".trash",
        ".cache",
        "__pycache__",
        "node_modules",
        "target",
        "wiki",
        "eval",
        ".DS_Store",
        ".tantivy",
    }
)
REFERENCE_EXCLUDED_PREFIXES: tuple[str, ...] = ("~$",)
REFERENCE_EXCLUDED_SUFFIXES: tuple[str, ...] = (".tmp", ".temp", ".swp", ".part")  # case-insensitive

# Ours: editor leftovers.
EDITOR_PROBE_NAMES: frozenset[str] = frozenset({"4913"})  # Vim's "can I write here?" probe
EDITOR_PREFIXES: tuple[str, ...] = (".#", ".goutputstream-")  # Emacs lock links, GNOME atomic saves
EDITOR_SUFFIXES: tuple[str, ...] = (".swo", ".swx", "~")  # Vim swap files, backup copies (case-insensitive)

_EXACT = REFERENCE_EXCLUDED_NAMES | EDITOR_PROBE_NAMES
_PREFIXES = REFERENCE_EXCLUDED_PREFIXES + EDITOR_PREFIXES
_SUFFIXES_LOWER = REFERENCE_EXCLUDED_SUFFIXES + EDITOR_SUFFIXES


def is_excluded_name(name: str) -> bool:
    """True when a single path component (file or folder name) never counts as a source."""
    if name in _EXACT or name.startswith(_PREFIXES):
        return True
    return name.lower().endswith(_SUFFIXES_LOWER)


def is_excluded_relpath(relpath: str) -> bool:
    """True when any component of a relative POSIX path is excluded (`notes/.git/HEAD`, `a/b.swp`)."""
    return any(is_excluded_name(part) for part in PurePosixPath(relpath).parts)


def is_hidden_name(name: str) -> bool:
    """A dot-file or dot-folder (`.env`, `.secrets/`) the excluded names leave: never copied by
    `kb create --from` or `kctui add` from a folder, never compiled (each reported with one line), as a
    file manager hides it and a person who did not see it cannot have meant to publish it."""
    return name.startswith(".") and name not in (".", "..") and not is_excluded_name(name)
