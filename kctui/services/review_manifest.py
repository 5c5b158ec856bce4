"""The compiler's review manifest: `<job dir>/review.json`, beside the staged `wiki/`.

A compiler that holds updates or raises conflicts lists them there (an external compiler may omit it).
The host validates it with pydantic (fail closed: an invalid manifest fails the job as invalid output)
and files each item in the review queue in the same transaction that records the promotion.

```json
{"version": 1, "items": [
  {"kind": "held", "page": "concepts/x.md", "title": "X", "updateKind": "revise",
   "reason": "autonomy_ceiling", "summary": "…", "proposedBody": "<the whole page text>"},
  {"kind": "conflict", "page": "entities/python.md", "title": "Python", "reason": "contradiction",
   "summary": "3.12 eol", "proposedBody": "<page text using the new value>",
   "existing": {"value": "2028-10-31", "citation": "python.md:L12-L12", "source": "python.md"},
   "incoming": {"value": "2028-10-01", "citation": "notes.md:L3-L3", "source": "notes.md"},
   "fingerprint": "4c9b53ae5542f9c0"}
]}
```

A held item may be a change set: `"pages": [{"page", "title", "updateKind", "reason", "summary",
"proposedBody"}, …]` (its top-level fields then describe the first page) and `"sources"`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kctui.core.trust import HoldReason

MAX_MANIFEST_BYTES = 32 * 1024 * 1024
MAX_ITEMS = 10_000


class Side(BaseModel):
    model_config = ConfigDict(extra="ignore")
    value: str = Field(max_length=4000)
    citation: str = Field(max_length=2000)
    source: str = Field(default="", max_length=1024)
    line: str = Field(default="", max_length=4000)  # the cited source text, when the compiler gives it


class ItemPage(BaseModel):
    """One page of a held change set: its own proposal (the whole page text) and summary."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    page: str = Field(max_length=1024)
    title: str = Field(default="", max_length=1000)
    update_kind: Literal["create", "append", "revise", "supersede"] | None = Field(default=None, alias="updateKind")
    reason: str = ""
    summary: str = Field(default="", max_length=4000)
    proposed_body: str | None = Field(default=None, alias="proposedBody", max_length=4_000_000)

    @field_validator("page")
    @classmethod
    def _safe_page(cls, v: str) -> str:
        return safe_page(v)


class ManifestItem(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    kind: Literal["held", "conflict"]
    page: str = Field(max_length=1024)
    title: str = Field(default="", max_length=1000)
    update_kind: Literal["create", "append", "revise", "supersede"] | None = Field(default=None, alias="updateKind")
    reason: str
    summary: str = Field(default="", max_length=4000)
    proposed_body: str | None = Field(default=None, alias="proposedBody", max_length=4_000_000)
    existing: Side | None = None
    incoming: Side | None = None
    # A conflict's identity (the fact's key and both values): a person's decision is recorded on the page
    # under `resolved_conflicts`, so the compiler does not raise the same disagreement again.
    fingerprint: str | None = Field(default=None, max_length=200, pattern=r"^[0-9A-Za-z_.:-]*$")
    # A held change set (issue 13): every page one source change revises, decided as one item. Absent:
    # the item is its one page. `sources`: the source paths whose change it carries.
    pages: list[ItemPage] = Field(default_factory=list, max_length=MAX_ITEMS)
    sources: list[str] = Field(default_factory=list, max_length=MAX_ITEMS)

    def page_list(self) -> list[ItemPage]:
        if self.pages and self.kind == "held":
            return self.pages
        return [ItemPage(page=self.page, title=self.title, updateKind=self.update_kind, reason=self.reason,
                         summary=self.summary, proposedBody=self.proposed_body)]

    @field_validator("page")
    @classmethod
    def _safe_page(cls, v: str) -> str:
        return safe_page(v)

    @field_validator("reason")
    @classmethod
    def _known_reason(cls, v: str) -> str:
        if v not in {r.value for r in HoldReason}:
            raise ValueError(f"unknown reason code {v!r}")
        return v


def safe_page(v: str) -> str:
    if (not v.endswith(".md") or v.startswith("/") or "\\" in v or "\0" in v
            or any(part in ("", ".", "..") for part in v.split("/"))):
        raise ValueError(f"page path {v!r} escapes the wiki or is not a .md page")
    return v


class ClosedConflict(BaseModel):
    model_config = ConfigDict(extra="ignore")
    page: str = Field(max_length=1024)
    fingerprint: str = Field(max_length=200)

    @field_validator("page")
    @classmethod
    def _safe_page(cls, v: str) -> str:
        return safe_page(v)


class Manifest(BaseModel):
    """`settled`: pages whose earlier held proposals this pass replaced (it proposed them again in full
    from the current sources): their open held items are superseded even if nothing is held for them
    now. `closedConflicts`: disagreements no longer there (a source changed or went away): their open
    conflict items are superseded. Both optional."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    version: Literal[1] = 1
    items: list[ManifestItem] = Field(default_factory=list, max_length=MAX_ITEMS)
    settled: list[str] = Field(default_factory=list, max_length=MAX_ITEMS)
    closed_conflicts: list[ClosedConflict] = Field(default_factory=list, alias="closedConflicts",
                                                   max_length=MAX_ITEMS)

    @field_validator("settled")
    @classmethod
    def _safe_pages(cls, v: list[str]) -> list[str]:
        return [safe_page(p) for p in v]


class ManifestError(Exception):
    pass


def read_manifest(job_dir: Path) -> Manifest | None:
    path = job_dir / "review.json"
    if not path.exists():
        return None
    if path.is_symlink() or not path.is_file():
        raise ManifestError("review.json is not a regular file")
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise ManifestError("review.json is larger than 32 MiB")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Manifest.model_validate(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"review.json is not valid JSON: {exc}") from exc
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ManifestError(f"review.json: {where}: {err['msg']}") from exc
