"""Fail-closed parsing of one model reply into the intermediate form of `kctui.compiler.extraction`.

- ``` fences are stripped; the reply must then be one JSON object (prose is unusable).
- A reply cut off mid-array (the token limit) keeps the complete objects before the cut and says so.
- Every item is validated with pydantic; an invalid item is dropped and counted.
- A claim is kept only when its cited lines lie in the chunk and contain its value (values.py's test);
  a concept or entity only when its cited lines contain its name; an alias only when the chunk has it.
- Any path, slug or name that would escape the wiki (`../`, absolute, backslash, NUL) is refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kctui.compiler.extraction import Concept, Entity, cited_lines
from kctui.compiler.llm.prompt import Chunk, Inventory
from kctui.compiler.readers import Document
from kctui.core.claims import Claim, Evidence
from kctui.core.slugs import identity_key
from kctui.core.values import cited_lines_contain

MAX_SPAN = 25  # lines one claim may cite
MAX_ITEMS = 400  # per list of one reply
_FENCE = re.compile(r"^```[^\n`]*\n?(?P<body>.*?)\n?\s*```$", re.S)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_ENTITY_TYPE = re.compile(r"^[a-z][a-z -]{0,30}$")
_PATH_KEYS = ("path", "slug", "file", "filename", "page", "target")


class ReplyUnusable(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def escapes_wiki(value: str) -> bool:
    """A path or name that leaves the wiki: parent segments, absolute, a drive, a backslash or a NUL."""
    v = value.strip()
    return ("\x00" in v or "\\" in v or v.startswith(("/", "~")) or bool(_DRIVE.match(v))
            or any(part.strip() == ".." for part in v.split("/")) or "%2e%2e" in v.casefold())


def strip_fences(text: str) -> str:
    t = text.strip()
    m = _FENCE.match(t)
    if m:
        return m.group("body").strip()
    if t.startswith("```"):  # an opening fence whose reply was cut before the closing one
        t = t.split("\n", 1)[1] if "\n" in t else ""
    return t.strip()


def _repair(text: str) -> tuple[str, bool] | None:
    """(json text, truncated): the complete object before trailing text, or — when the reply was cut
    off — everything up to the last complete element of an array, with the open brackets closed."""
    stack: list[str] = []
    cut: tuple[int, str] | None = None
    in_str = esc = False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append(ch)
            if ch == "[":
                cut = (i + 1, _closers(stack))
        elif ch in "}]":
            if not stack or {"}": "{", "]": "["}[ch] != stack[-1]:
                return None
            stack.pop()
            if not stack:
                return text[: i + 1], False
            if stack[-1] == "[":
                cut = (i + 1, _closers(stack))
    if cut is None:
        return None
    return text[: cut[0]] + cut[1], True


def _closers(stack: list[str]) -> str:
    return "".join("]" if c == "[" else "}" for c in reversed(stack))


def load_object(text: str) -> tuple[dict, bool]:
    """The reply's JSON object and whether it was recovered from a truncated reply."""
    body = strip_fences(text)
    if not body:
        raise ReplyUnusable("the reply was empty")
    if not body.startswith("{"):
        raise ReplyUnusable("the reply is not a JSON object")
    truncated = False
    try:
        data = json.loads(body, parse_float=str, parse_int=str)
    except json.JSONDecodeError:
        repaired = _repair(body)
        if repaired is None:
            raise ReplyUnusable("the reply is not valid JSON") from None
        try:
            data = json.loads(repaired[0], parse_float=str, parse_int=str)
        except (json.JSONDecodeError, RecursionError):
            raise ReplyUnusable("the reply is not valid JSON") from None
        truncated = repaired[1]
    except RecursionError:
        raise ReplyUnusable("the reply is nested too deeply") from None
    if not isinstance(data, dict):
        raise ReplyUnusable("the reply is not a JSON object")
    return data, truncated


def _text(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if "\x00" in value or _CONTROL.search(value):
            raise ValueError("control characters are not allowed")
        return " ".join(value.split())
    return value


class _Item(BaseModel):
    model_config = ConfigDict(extra="ignore")

    start: int = Field(ge=1, le=10_000_000)
    end: int | None = Field(None, ge=1, le=10_000_000)

    @property
    def last(self) -> int:
        return self.end if self.end is not None else self.start


class ClaimIn(_Item):
    subject: str = Field(min_length=1, max_length=200)
    attribute: str = Field(min_length=1, max_length=80)
    value: str = Field(min_length=1, max_length=300)
    unit: str = Field("", max_length=16)
    scope: str = Field("", max_length=120)
    confidence: float = Field(0.8, ge=0, le=1)

    @field_validator("subject", "attribute", "value", "unit", "scope", mode="before")
    @classmethod
    def _clean(cls, v: Any) -> Any:
        return "" if v is None else _text(v)


class NamedIn(_Item):
    name: str = Field(min_length=1, max_length=120)
    aliases: list[str] = Field(default_factory=list, max_length=10)
    page: str = Field("", max_length=300)
    type: str = Field("", max_length=40)

    @field_validator("name", "page", "type", mode="before")
    @classmethod
    def _clean(cls, v: Any) -> Any:
        return "" if v is None else _text(v)

    @field_validator("aliases", mode="before")
    @classmethod
    def _clean_list(cls, v: Any) -> Any:
        if v is None:
            return []
        if not isinstance(v, list):
            raise ValueError("aliases must be a list")
        return [a for a in (_text(x) for x in v) if isinstance(a, str) and a and len(a) <= 120]


class ReplyIn(BaseModel):
    """The whole reply. Its JSON schema is what the server is asked to follow (`schema.reply_schema`);
    parsing still goes item by item below, so one bad item is dropped, not the whole reply."""

    model_config = ConfigDict(extra="ignore")

    claims: list[ClaimIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    concepts: list[NamedIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    entities: list[NamedIn] = Field(default_factory=list, max_length=MAX_ITEMS)


@dataclass
class ChunkParse:
    claims: list[Claim] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    dropped: int = 0  # claims whose cited lines are outside the chunk or do not contain the value
    unplaced: int = 0  # concepts and entities whose cited lines do not contain the name
    invalid: int = 0  # items that failed validation
    refused: list[str] = field(default_factory=list)  # paths, slugs or names that would escape the wiki
    truncated: bool = False
    kept_after_cut: int = 0  # items recovered from a truncated reply


def _refusal(item: dict) -> str | None:
    for key in _PATH_KEYS + ("name", "subject"):
        v = item.get(key)
        if isinstance(v, str) and escapes_wiki(v):
            return v
    aliases = item.get("aliases")
    for a in aliases if isinstance(aliases, list) else ():
        if isinstance(a, str) and escapes_wiki(a):
            return a
    return None


def _evidence(doc: Document, chunk: Chunk, item: _Item) -> Evidence | None:
    start, end = item.start, item.last
    if chunk.unit == "page":
        if start != chunk.first:
            return None
        return Evidence(doc.path, start, start, doc.digest, "page")
    if not (chunk.lowest <= start <= end <= chunk.last) or end - start > MAX_SPAN:
        return None
    return Evidence(doc.path, start, end, doc.digest)


def _slug_of(page: str, inventory: Inventory) -> str | None:
    slug = page.strip().removeprefix("wiki/")
    for prefix in ("concepts/", "entities/"):
        slug = slug.removeprefix(prefix)
    slug = slug.removesuffix(".md")
    return slug if slug in inventory.entries else None


def parse_reply(text: str, doc: Document, chunk: Chunk, inventory: Inventory) -> ChunkParse:
    data, truncated = load_object(text)
    lists = _lists(data)
    out = ChunkParse(truncated=truncated)
    chunk_lines = doc.lines[chunk.lowest - 1 : chunk.last]
    total = 0
    for kind in ("claims", "concepts", "entities"):
        for raw in (lists[kind] or [])[:MAX_ITEMS]:
            total += 1
            _add_item(out, raw, kind, doc, chunk, inventory, chunk_lines)
    if total and out.invalid == total:
        raise ReplyUnusable("no item of the reply matches the schema")
    if truncated:
        out.kept_after_cut = len(out.claims) + len(out.concepts) + len(out.entities)
    return out


def _lists(data: dict) -> dict[str, Any]:
    """The reply's three lists (None where it has none); ReplyUnusable when it has none, or one is not a list."""
    lists = {k: data.get(k) for k in ("claims", "concepts", "entities")}
    if all(v is None for v in lists.values()):
        raise ReplyUnusable("the reply has none of claims, concepts, entities")
    for k, v in lists.items():
        if v is not None and not isinstance(v, list):
            raise ReplyUnusable(f"{k} is not a list")
    return lists


def _add_item(out: ChunkParse, raw: Any, kind: str, doc: Document, chunk: Chunk, inventory: Inventory,
              chunk_lines: list[str]) -> None:
    """One item of a list: refused when it would escape the wiki, counted invalid when it fails
    validation, else added as a claim, a concept or an entity (or counted where it cannot be placed)."""
    if not isinstance(raw, dict):
        out.invalid += 1
        return
    bad = _refusal(raw)
    if bad is not None:
        out.refused.append(bad)
        return
    try:
        item = (ClaimIn if kind == "claims" else NamedIn).model_validate(raw)
    except ValidationError:
        out.invalid += 1
        return
    if isinstance(item, ClaimIn):
        _add_claim(out, doc, chunk, item)
    else:
        _add_named(out, doc, chunk, item, kind, inventory, chunk_lines)


def _add_claim(out: ChunkParse, doc: Document, chunk: Chunk, item: ClaimIn) -> None:
    ev = _evidence(doc, chunk, item)
    if ev is None:
        out.dropped += 1
        return
    lines = cited_lines(doc, ev)
    candidates = [item.value]
    if item.unit and not item.value.casefold().endswith(item.unit.casefold()):
        candidates = [f"{item.value} {item.unit}", f"{item.value}{item.unit}", item.value]
    value = next((c for c in candidates if cited_lines_contain(lines, c)), None)
    if value is None:
        out.dropped += 1
        return
    out.claims.append(Claim(item.subject, item.attribute, value, item.scope, "fact", "llm", ev))


def _add_named(out: ChunkParse, doc: Document, chunk: Chunk, item: NamedIn, kind: str, inventory: Inventory,
               chunk_lines: list[str]) -> None:
    name, aliases = _named_as(item, inventory, chunk_lines)
    ev = _evidence(doc, chunk, item)
    lines = cited_lines(doc, ev) if ev is not None else []
    surface = next((s for s in (item.name, *aliases, name) if lines and cited_lines_contain(lines, s)), None)
    if ev is None or surface is None:
        out.unplaced += 1
        return
    kept = _other_spellings(name, aliases)
    if kind == "concepts":
        out.concepts.append(Concept(name, tuple(kept), ev, "llm"))
    else:
        etype = item.type.strip().casefold()
        out.entities.append(Entity(name, etype if _ENTITY_TYPE.match(etype) else "", surface, tuple(kept), ev))


def _named_as(item: NamedIn, inventory: Inventory, chunk_lines: list[str]) -> tuple[str, list[str]]:
    """(the name, the aliases the chunk has): the title of the wiki page the item names, when it names one
    the chunk spells otherwise (then the item's own name, written in the chunk, is an alias)."""
    name = item.name
    aliases = [a for a in item.aliases if cited_lines_contain(chunk_lines, a)]
    slug = _slug_of(item.page, inventory) if item.page else None
    if slug is not None:
        title = inventory.entries[slug].title
        if identity_key(title) != identity_key(name) and cited_lines_contain(chunk_lines, name):
            aliases.append(name)
            name = title
    return name, aliases


def _other_spellings(name: str, aliases: list[str]) -> list[str]:
    """The aliases, each identity once, none the name's own."""
    seen = {identity_key(name)}
    kept: list[str] = []
    for a in aliases:
        if identity_key(a) not in seen:
            seen.add(identity_key(a))
            kept.append(a)
    return kept
