"""Passing mentions another source writes (issue 31): a name one source marks as a name in a single
sentence (a *passing mention*, kctui.compiler.steps.recurrence) recurs when another source of the base
writes it too, letter for letter, even where that source's own reading could not take it for a name:
at the start of a sentence or a list item, where a capital says nothing ("- Vodafone business fibre,
500 Mbps" in a vendor list, while a chat writes "the Vodafone signal is one bar"). The first source
vouches that the word is a name, the second that the base talks about it. A passing mention in lower
case counts where English does not have the word ("tokend", "slurmdbd": kctui.compiler.builtin.lone_names).

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

from kctui.compiler.builtin.item_leads import lead_shaped
from kctui.compiler.builtin.lone_names import coined_word
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


def prose(text: str) -> str:
    return _CODE.sub(" ", text)


# the words of each source's prose by (path, digest): a long-lived worker's incremental pass reads only the
# changed sources and those that hold every word of a name it asks about (at most MAX_KEPT sources kept)
MAX_KEPT = 8192
_KEPT: dict[tuple[str, str], frozenset[str]] = {}
# and whether a source's prose writes a name, by (path, digest, name): a long-lived worker's next pass asks
# the unchanged sources the same names again and reads none of them (at most MAX_FOUND answers kept)
MAX_FOUND = 200_000
_FOUND: dict[tuple[str, str, str], bool] = {}
# each word's kept sources, (path, digest): the sources that can write a name are those holding all its words
_HOLDING: dict[str, set[tuple[str, str]]] = {}


class SourceTexts:
    """The pass's sources as this rule reads them: the words of each one's prose (kept by digest), and its
    prose itself when a name's words are all in it. `by_path`: path -> the source (a listing's file:
    `path`, `digest`, its bytes or where to read them); `read` gives a source's text (`source_text`)."""

    def __init__(self, by_path: Mapping[str, object], read: Callable[[object], str] = source_text) -> None:
        self.by_path, self.read = by_path, read
        self._prose: dict[str, str] = {}

    def words(self, path: str) -> frozenset[str]:
        digest = getattr(self.by_path[path], "digest", "")
        key = (path, digest)
        if digest and key in _KEPT:
            return _KEPT[key]
        words = frozenset(_WORD.findall(self.prose(path)))
        if digest:
            if len(_KEPT) >= MAX_KEPT:
                _KEPT.clear()
                _HOLDING.clear()
            _KEPT[key] = words
            for w in words:
                _HOLDING.setdefault(w, set()).add(key)
        return words

    def holding(self, needed: set[str]) -> list[str]:
        """The paths of the sources whose prose holds every one of the words (after `words` has read each
        source once): the intersection of each word's kept (path, digest), the rarest word's first."""
        lists = sorted((_HOLDING.get(w, set()) for w in needed), key=len)
        if not lists:
            return []
        keys = set.intersection(*lists) if len(lists) > 1 else lists[0]
        by_path = self.by_path  # (in no order: whether any of them writes a name does not depend on one)
        return [p for p, d in keys if p in by_path and getattr(by_path[p], "digest", "") == d]

    def writes(self, path: str, name: str) -> bool:
        """Does the source's prose write the name as a whole word (`_whole`)?"""
        digest = getattr(self.by_path[path], "digest", "")
        if not digest:
            return _whole(self.prose(path), name)
        key = (path, digest, name)
        found = _FOUND.get(key)
        if found is None:
            if len(_FOUND) >= MAX_FOUND:
                _FOUND.clear()
            found = _FOUND[key] = _whole(self.prose(path), name)
        return found

    def prose(self, path: str) -> str:
        if path not in self._prose:
            self._prose[path] = prose(self.read(self.by_path[path]))
        return self._prose[path]


def written_elsewhere(once: Mapping[str, tuple[str, frozenset[str]]], sources: SourceTexts) -> set[str]:
    """The keys of `once` (identity key -> (a passing name with a capital, or a coined word in lower case
    English does not have — `lone_names.coined_word`: "tokend" —, the sources that name it)) that another of
    the `sources` writes as written, where none writes a capitalised name in lower case."""
    wanted = {k: v for k, v in once.items() if (any(ch.isupper() for ch in v[0]) or coined_word(v[0]) or lead_shaped(v[0]))
              and not role(v[0])
              and not any(english_ending(w) for w in v[0].split())}
    if not wanted:
        return set()
    words = {p: sources.words(p) for p in sources.by_path}  # (each read once, and indexed: `holding`)
    kept = all(getattr(sources.by_path[p], "digest", "") for p in words)  # (each source's words indexed)

    def written(name: str, besides: frozenset[str] = frozenset()) -> bool:
        needed = set(_WORD.findall(name))
        if not needed:
            return False
        holders = sources.holding(needed) if kept else [p for p, held in words.items() if needed <= held]
        return any(sources.writes(p, name) for p in holders if p not in besides)
    return {k for k, (name, own) in wanted.items() if written(name, own) and (name.islower() or not written(name.lower()))}


def _whole(text: str, name: str) -> bool:
    """Is the name in the text with no letter, digit, hyphen or ampersand glued before or after it? (A
    search for the plain string, which is fast, then a look at its two ends.)"""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if not (at and _glued(text[at - 1])) and not (end < len(text) and _glued(text[end])):
            return True
        at = text.find(name, at + 1)
    return False


def _glued(ch: str) -> bool:
    return ch.isalnum() or ch in "_&-"


def role(name: str) -> bool:
    """Does the name end in a role's noun ("Clinical Informatics Manager"): the title of whoever holds
    the post, which another source writes of another person, not a thing of its own?"""
    return name.rsplit(" ", 1)[-1].casefold() in ROLE_NOUNS


def passing_by_source(names_of: Mapping[str, Iterable[str]], keys: set[str] | None = None
                      ) -> dict[str, tuple[str, frozenset[str]]]:
    """identity key -> (its first passing name, the sources that mention it in passing), from each
    source's passing names; only for `keys` where given (a pass asks for the few a single source names)."""
    first: dict[str, str] = {}
    where: dict[str, set[str]] = {}
    for path in sorted(names_of, key=lambda p: p.encode()):  # (the same first name in any order of reading)
        for n in names_of[path]:
            k = identity_key(n)
            if k and (keys is None or k in keys):
                first.setdefault(k, n)
                where.setdefault(k, set()).add(path)
    return {k: (first[k], frozenset(where[k])) for k in first}
