"""The optional per-base extraction profile, `<kb>/.a3s/profile.toml`: domain knowledge as data.

The built-in extractor finds names from evidence in the text alone; a profile only adds what a base's
owner knows and the text does not say:

    [[names]]                       # a glossary of known names
    name = "Billing API"
    type = "service"                # person | tool | service | company | team | product | library | ...
    aliases = ["billing-api", "billing"]

    [headings]
    ignore = ["Retro", "Parking lot"]   # section names that never make a concept

Empty by default. Parsed fail-closed: a file that is too large, not TOML, or of the wrong shape raises
`ProfileError` with a one-line message, and nothing of it is used.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

MAX_PROFILE_BYTES = 256 * 1024
MAX_NAMES = 5000
PROFILE_PATH = (".a3s", "profile.toml")


class ProfileError(ValueError):
    """The profile file is unusable; the message is one line."""


@dataclass(frozen=True, slots=True)
class KnownName:
    name: str
    entity_type: str = ""
    aliases: tuple[str, ...] = ()
    cased: bool = False  # found in a text only as spelled here ("Grace", not "grace"); a profile's entries never are


@dataclass(frozen=True, slots=True)
class Profile:
    names: tuple[KnownName, ...] = ()
    ignore_headings: frozenset[str] = frozenset()

    def known(self, surface: str) -> KnownName | None:
        """The glossary entry a spelling stands for (name or alias, case-insensitive)."""
        return _by_spelling(self.names).get(surface.strip("`").casefold())

    def spans(self, plain: str) -> list[tuple[int, int]]:
        """Where a listed name or alias occurs in a sentence, word-bounded and case-insensitive: the
        profile names things the text may spell in lower case (`billing-api`, `zorp`)."""
        pattern = _surface_pattern(self.names)
        return [(m.start(), m.end()) for m in pattern.finditer(plain)] if pattern is not None else []

    def ignores_heading(self, text: str) -> bool:
        return " ".join(text.split()).casefold() in self.ignore_headings


EMPTY = Profile()


@functools.lru_cache(maxsize=16)
def _by_spelling(names: tuple[KnownName, ...]) -> dict[str, KnownName]:
    """Each listed name and alias (case-folded) -> its entry; the first listed wins, as a scan would."""
    out: dict[str, KnownName] = {}
    for entry in names:
        for spelling in (entry.name, *entry.aliases):
            out.setdefault(spelling.casefold(), entry)
    return out


@functools.lru_cache(maxsize=16)
def _surface_pattern(names: tuple[KnownName, ...]) -> re.Pattern[str] | None:
    surfaces = sorted({x for n in names for x in (n.name, *n.aliases) if x.strip()}, key=lambda x: (-len(x), x))
    if not surfaces:
        return None
    cased = {x for n in names if n.cased for x in (n.name, *n.aliases)}
    alternation = "|".join(re.escape(x) if x in cased else f"(?i:{re.escape(x)})" for x in surfaces)
    return re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])")


def _strings(value: object, where: str, limit: int = 200) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProfileError(f"profile.toml: {where} must be a list of strings")
    out = tuple(" ".join(v.split()) for v in value if v.strip())
    if any(len(v) > limit for v in out):
        raise ProfileError(f"profile.toml: an entry of {where} is longer than {limit} characters")
    return out


def parse_profile(text: str) -> Profile:
    """A `Profile` from the text of a profile file; `ProfileError` (one line) when it is not one."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_PROFILE_BYTES:
        raise ProfileError(f"profile.toml: larger than {MAX_PROFILE_BYTES} bytes")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"profile.toml: not valid TOML ({str(exc).splitlines()[0]})") from None
    unknown = set(data) - {"names", "headings"}
    if unknown:
        raise ProfileError(f"profile.toml: unknown key {sorted(unknown)[0]!r} (expected names, headings)")
    raw_names = data.get("names", [])
    if not isinstance(raw_names, list) or len(raw_names) > MAX_NAMES:
        raise ProfileError(f"profile.toml: names must be a list of at most {MAX_NAMES} tables")
    names = [_known_name(i, entry) for i, entry in enumerate(raw_names)]
    headings = data.get("headings", {})
    if not isinstance(headings, dict) or set(headings) - {"ignore"}:
        raise ProfileError("profile.toml: headings must be a table with only `ignore`")
    ignore = frozenset(h.casefold() for h in _strings(headings.get("ignore", []), "headings.ignore"))
    return Profile(tuple(names), ignore)


def _known_name(i: int, entry: object) -> KnownName:
    """The i-th `[[names]]` table as a `KnownName`; `ProfileError` when it is not one."""
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
        raise ProfileError(f"profile.toml: names[{i}] needs a non-empty string `name`")
    if set(entry) - {"name", "type", "aliases"}:
        raise ProfileError(f"profile.toml: names[{i}] has an unknown key (expected name, type, aliases)")
    etype = entry.get("type", "")
    if not isinstance(etype, str) or len(etype) > 40:
        raise ProfileError(f"profile.toml: names[{i}].type must be a short string")
    name = " ".join(entry["name"].split())
    if len(name) > 200:
        raise ProfileError(f"profile.toml: names[{i}].name is longer than 200 characters")
    return KnownName(name, etype.strip().lower(), _strings(entry.get("aliases", []), f"names[{i}].aliases"))


def load_profile(kb_root: Path | str) -> Profile:
    """The profile of the base at `kb_root` (the folder holding `sources/`); the empty profile when there
    is none. Never follows a symlink; `ProfileError` when the file is there but unusable."""
    path = Path(kb_root).joinpath(*PROFILE_PATH)
    if path.is_symlink():
        raise ProfileError("profile.toml: is a symbolic link; it is not read")
    if not path.exists():
        return EMPTY
    if not path.is_file():
        raise ProfileError("profile.toml: is not a regular file")
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_PROFILE_BYTES + 1)
    except OSError as exc:
        raise ProfileError(f"profile.toml: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_PROFILE_BYTES:
        raise ProfileError(f"profile.toml: larger than {MAX_PROFILE_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProfileError("profile.toml: not UTF-8") from None
    return parse_profile(text)
