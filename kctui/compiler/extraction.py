"""The extraction data model: what every extractor (built in or a model) makes of one source.

An `Extraction` holds claims (subject, attribute, value with unit, scope, confidence, evidence = path +
line range + source digest), concepts (defined terms, glossary entries, abbreviations), entities (named
things, typed where the text says), a summary, open questions and the compile-loss count, and its cache
form (`to_json` / `from_json`). The claim model itself (`Claim`, `Evidence`, `Question`) lives in the
core. A leaf: the extraction step, the extractors and everything after extraction import it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, NamedTuple

from kctui.core.claims import Claim, Evidence, Question

if TYPE_CHECKING:
    from kctui.compiler.readers.base import Document

EXTRACTOR_VERSION = "builtin-extract/32"


class Statement(NamedTuple):
    """One sentence, list item or table row of the source, as its claim would say it (its lines contain
    it), and the heading or lead line of the section it stands in ("" when none)."""

    value: str
    scope: str
    start: int
    end: int
    unit: str = "line"  # as Evidence.unit
    follows: bool = False  # a later sentence of a paragraph, on the line where the one before it ends

    def evidence(self, ex: Extraction) -> Evidence:
        return Evidence(ex.path, self.start, self.end, ex.digest, self.unit)


@dataclass(frozen=True, slots=True)
class Concept:
    name: str
    aliases: tuple[str, ...]
    evidence: Evidence
    origin: str  # definition | deflist | abbreviation | heading | glossary


@dataclass(frozen=True, slots=True)
class Entity:
    name: str  # canonical name
    entity_type: str  # person, company, tool, library, team, product, ... or "" when the text does not say
    surface: str  # the spelling the source uses at `evidence`
    aliases: tuple[str, ...]
    evidence: Evidence


@dataclass
class Extraction:
    path: str
    digest: str
    kind: str  # markdown | text | html | pdf
    title: str
    source_type: str  # article | pdf | note | data | ...
    domain: str
    tags: tuple[str, ...] = ()
    summary: tuple[str, Evidence] | None = None
    subject: Entity | None = None  # what the whole document is about, when it says so
    claims: list[Claim] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    unreached: tuple[str, ...] = ()  # compile-loss guard: dates/versions/numbers in no claim
    dropped: int = 0  # candidate claims whose cited lines did not contain the value
    warnings: list[str] = field(default_factory=list)
    # names this source marks in one sentence only, and what it says about them (each cited): entities
    # once another source names them too (kctui.compiler.steps.recurrence), else only listed on its source page
    passing: list[Entity] = field(default_factory=list)
    passing_claims: list[Claim] = field(default_factory=list)
    # every sentence, list item and table row, with the section it stands in: the mention step
    # (kctui.compiler.steps.mentions) attaches each to the pages of the names it contains
    statements: list[Statement] = field(default_factory=list)

    # -- cache form ---------------------------------------------------------------------------
    def to_json(self) -> dict:
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name not in _CLAIM_LISTS}
        data["claims"] = [c.to_json() for c in self.claims]
        data["passing_claims"] = [c.to_json() for c in self.passing_claims]
        data["statements"] = [list(st) for st in self.statements]
        data["v"] = EXTRACTOR_VERSION
        return data

    @classmethod
    def from_json(cls, data: dict) -> Extraction:
        if data.get("v") != EXTRACTOR_VERSION:
            raise ValueError("extraction cache entry from another extractor version")

        def ev(d: dict) -> Evidence:
            return Evidence(**d)

        summary = data.get("summary")
        subject = data.get("subject")
        return cls(
            path=data["path"],
            digest=data["digest"],
            kind=data["kind"],
            title=data["title"],
            source_type=data["source_type"],
            domain=data["domain"],
            tags=tuple(data.get("tags", ())),
            summary=(summary[0], ev(summary[1])) if summary else None,
            subject=_entity(subject) if subject else None,
            claims=[Claim(**{**c, "evidence": ev(c["evidence"])}) for c in data["claims"]],
            concepts=[Concept(c["name"], tuple(c["aliases"]), ev(c["evidence"]), c["origin"]) for c in data["concepts"]],
            entities=[_entity(e) for e in data["entities"]],
            questions=[Question(q["text"], ev(q["evidence"])) for q in data["questions"]],
            unreached=tuple(data.get("unreached", ())),
            dropped=int(data.get("dropped", 0)),
            warnings=list(data.get("warnings", ())),
            passing=[_entity(e) for e in data.get("passing", ())],
            passing_claims=[Claim(**{**c, "evidence": ev(c["evidence"])}) for c in data.get("passing_claims", ())],
            statements=[Statement(*st) for st in data.get("statements", ())],
        )


_CLAIM_LISTS = frozenset({"claims", "passing_claims", "statements"})


def _plain(value):  # noqa: ANN001, ANN202
    """A field's JSON form (dataclasses as dicts, tuples as lists)."""
    if is_dataclass(value):
        return asdict(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _entity(d: dict) -> Entity:
    return Entity(d["name"], d["entity_type"], d["surface"], tuple(d["aliases"]), Evidence(**d["evidence"]))


def cited_lines(doc: Document, evidence: Evidence) -> list[str]:
    if evidence.unit == "page":
        return doc.lines[evidence.start - 1 : evidence.start]
    return doc.lines[evidence.start - 1 : evidence.end]
