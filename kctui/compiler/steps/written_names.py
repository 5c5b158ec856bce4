"""Passing mentions another source writes (issue 31): a name one source marks as a name in a single
sentence (a *passing mention*, kctui.compiler.steps.recurrence) recurs when another source of the base
writes it too, letter for letter, even where that source's own reading could not take it for a name:
at the start of a sentence or a list item, where a capital says nothing ("- Vodafone business fibre,
500 Mbps" in a vendor list, while a chat writes "the Vodafone signal is one bar"). The first source
vouches that the word is a name, the second that the base talks about it.

Not so: a name the base also writes in lower case ("Standup" opening items, "standup" elsewhere: a
word); a title with a word of an English ending ("Supporting Batch Changes", "Extended Support
Release", "Kubernetes Versions": link texts and headings, written again as another page's title); a
post's title ("Clinical Informatics Manager": whoever holds it, another source means another person).

Prose only, not code (a fenced block, a span in backticks: "`SomeTrait`"); whole words only (no
letter, digit, hyphen or ampersand glued before or after: "Vault" is not in "FileVault" or "Vault-1",
"Veeam B" not in "Veeam B&R"); case as written. The texts are the sources' own bytes, so an
incremental pass counts exactly what a full one does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from kctui.compiler.builtin.name_types import ROLE_NOUNS
from kctui.compiler.builtin.names import english_ending
from kctui.compiler.readers.base import source_kind
from kctui.core.slugs import identity_key

_WORD = re.compile(r"\w+")
# code is no writing of a name: a fenced block, a span in backticks ("fn bar(x: &SomeTrait)")
_CODE = re.compile(r"^(?:```|~~~).*?^(?:```|~~~)|`[^`\n]*`", re.S | re.M)


def source_text(source: object) -> str:
    """A source's text as read from its bytes (kept by the listing, else its file); "" for a source whose
    bytes are not its text (a PDF) or that cannot be read."""
    path = getattr(source, "path", "")
    if source_kind(path) == "pdf":
        return ""
    data = getattr(source, "data", None)
    if data is None:
        try:
            data = Path(getattr(source, "abs_path", "")).read_bytes()
        except OSError:
            return ""
    return data.decode("utf-8", "replace")


class _Text:
    """One source's text with its words (to rule a name out before a search)."""

    def __init__(self, text: str) -> None:
        self.text = _CODE.sub(" ", text)
        self.words = frozenset(_WORD.findall(text))

    def writes(self, name: str) -> bool:
        if not set(_WORD.findall(name)) <= self.words:
            return False
        return re.search(r"(?<![\w&-])" + re.escape(name) + r"(?![\w&-])", self.text) is not None


def written_elsewhere(once: Mapping[str, tuple[str, frozenset[str]]], paths: Iterable[str],
                      read: Callable[[str], str]) -> set[str]:
    """The keys of `once` (identity key -> (a passing name with a capital, the sources that name it)) that
    another source of `paths` writes as written, where no source writes the name in lower case; `read`
    gives a source's text."""
    wanted = {k: v for k, v in once.items() if any(ch.isupper() for ch in v[0]) and not role(v[0])
              and not any(english_ending(w) for w in v[0].split())}
    if not wanted:
        return set()
    texts = {p: _Text(t) for p in paths if (t := read(p))}
    out = set()
    for k, (name, own) in wanted.items():
        if any(p not in own and t.writes(name) for p, t in texts.items()) \
                and not any(t.writes(name.lower()) for t in texts.values()):
            out.add(k)
    return out


def role(name: str) -> bool:
    """Does the name end in a role's noun ("Clinical Informatics Manager"): the title of whoever holds
    the post, which another source writes of another person, not a thing of its own?"""
    return name.rsplit(" ", 1)[-1].casefold() in ROLE_NOUNS


def passing_by_source(names_of: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, frozenset[str]]]:
    """identity key -> (its first passing name, the sources that mention it in passing), from each
    source's passing names."""
    first: dict[str, str] = {}
    where: dict[str, set[str]] = {}
    for path in sorted(names_of, key=lambda p: p.encode()):  # (the same first name in any order of reading)
        for n in names_of[path]:
            k = identity_key(n)
            if k:
                first.setdefault(k, n)
                where.setdefault(k, set()).add(path)
    return {k: (first[k], frozenset(where[k])) for k in first}
