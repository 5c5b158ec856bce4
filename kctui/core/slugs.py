"""Page identity and slugs (wiki.md §3).

- A slug is the lowercase title, spaces to hyphens, other non-alphanumerics dropped, Unicode NFC.
- Identities compare by `casefold(NFC(name))` and by aliases; `near_key` also folds articles, plurals,
  punctuation and company suffixes so "MRF Limited" and "MRF Ltd." are one page.
- Slugs are unique across the wiki; a clash gets a deterministic suffix (a hash of the identity, so the
  result never depends on the order pages were created). Names longer than the filesystem allows are
  cut by bytes and given a short hash suffix.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

MAX_SLUG_BYTES = 120  # well under NAME_MAX (255) once ".md" and a clash suffix are added
HASH_CHARS = 8

_WS = re.compile(r"\s+")
_ARTICLES = ("the ", "a ", "an ")
_COMPANY_SUFFIXES = frozenset(
    {"ltd", "limited", "inc", "incorporated", "corp", "corporation", "co", "llc", "plc", "gmbh", "ag", "sa", "oy", "bv"}
)
# What a near key drops: everything but letters and digits (`str.isalnum`; `\w` is that plus `_`) and the
# characters that carry identity in technical names (C++, C#, .NET, F#).
_NOT_KEPT = re.compile(r"[^\w+#]|_")


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


@lru_cache(maxsize=65536)
def identity_key(name: str) -> str:
    """`casefold(NFC(name))` with whitespace collapsed: the exact identity of a title or alias."""
    return _WS.sub(" ", nfc(name).casefold()).strip()


def _singular(word: str) -> str:
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def near_key(name: str) -> str:
    """A looser identity for near-duplicate titles: articles, punctuation, plurals and company suffixes
    folded. Two names with the same near key are treated as one page."""
    text = identity_key(name)
    for article in _ARTICLES:
        if text.startswith(article) and len(text) > len(article):
            text = text[len(article) :]
            break
    words = _NOT_KEPT.sub(" ", text).split()
    while len(words) > 1 and words[-1] in _COMPANY_SUFFIXES:
        words.pop()
    if words:
        words[-1] = _singular(words[-1])
    key = " ".join(words)
    return key or identity_key(name)


def short_hash(text: str, chars: int = HASH_CHARS) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:chars]


def _cut_bytes(text: str, limit: int) -> str:
    raw = text.encode("utf-8")
    if len(raw) <= limit:
        return text
    return raw[:limit].decode("utf-8", "ignore").rstrip("-")


def slugify(title: str, *, max_bytes: int = MAX_SLUG_BYTES) -> str:
    """Lowercase, spaces (and hyphens) to single hyphens, other non-alphanumerics dropped, NFC.

    Letters of any script are kept. An empty result becomes `page-<hash>`; a result longer than
    `max_bytes` is cut on a character boundary and given `-<hash>` of the full title.
    """
    text = nfc(title).lower()
    out: list[str] = []
    for ch in text:
        if ch.isalnum():
            out.append(ch)
        elif ch.isspace() or ch == "-":
            if out and out[-1] != "-":
                out.append("-")
    slug = nfc("".join(out).strip("-"))
    if not slug:
        return "page-" + short_hash(nfc(title))
    if len(slug.encode("utf-8")) > max_bytes:
        suffix = "-" + short_hash(nfc(title))
        slug = _cut_bytes(slug, max_bytes - len(suffix)) + suffix
    return slug


def unique_slug(base: str, identity: str, taken: dict[str, str]) -> str:
    """A slug for `identity` that no other identity holds in `taken` (slug -> identity).

    Deterministic: the suffix is a hash of the identity, not a counter, so two pages created in either
    order get the same slugs.
    """
    holder = taken.get(base)
    if holder is None or holder == identity:
        return base
    for chars in (6, 10, 16, 64):
        suffix = "-" + short_hash(identity, chars)
        candidate = _cut_bytes(base, MAX_SLUG_BYTES - len(suffix)) + suffix
        holder = taken.get(candidate)
        if holder is None or holder == identity:
            return candidate
    raise ValueError(f"cannot find a free slug for {identity!r}")


@dataclass
class IdentityIndex:
    """Finds an existing page for a name by slug-equivalent identity, alias or near-duplicate title.

    Each key maps to the slugs that claim it; when several pages claim a key the smallest slug wins, so
    a lookup never depends on insertion order.
    """

    exact: dict[str, set[str]] = field(default_factory=dict)
    near: dict[str, set[str]] = field(default_factory=dict)
    # keys whose sets another index shares (a `copy`): copied before this one changes them
    _shared: set[str] = field(default_factory=set, repr=False, compare=False)
    _shared_near: set[str] = field(default_factory=set, repr=False, compare=False)

    def add(self, slug: str, names: list[str] | tuple[str, ...]) -> None:
        for name in names:
            if not name or not name.strip():
                continue
            for keys, key, shared in ((self.exact, identity_key(name), self._shared),
                                      (self.near, near_key(name), self._shared_near)):
                held = keys.get(key)
                if held is None:
                    keys[key] = {slug}
                elif slug not in held:
                    if key in shared:
                        held = keys[key] = set(held)
                        shared.discard(key)
                    held.add(slug)

    def discard(self, slug: str, names: list[str] | tuple[str, ...]) -> None:
        """Undo `add(slug, names)` (an index that shares nothing: not a `copy`)."""
        for name in names:
            if not name or not name.strip():
                continue
            for keys, key in ((self.exact, identity_key(name)), (self.near, near_key(name))):
                held = keys.get(key)
                if held is not None:
                    held.discard(slug)
                    if not held:
                        del keys[key]

    def copy(self) -> IdentityIndex:
        """An index that finds what this one finds, sharing its sets until it changes one."""
        return IdentityIndex(dict(self.exact), dict(self.near), set(self.exact), set(self.near))

    def find(self, name: str) -> str | None:
        hit = self.exact.get(identity_key(name))
        if hit:
            return min(hit)
        hit = self.near.get(near_key(name))
        if hit:
            return min(hit)
        return None
