"""One document's chunk replies merged into one `Extraction`: claims deduplicated, concepts and entities
joined by identity with their aliases, the descriptors read from the document as the built-in extractor
reads them (title, type, domain, tags, summary, questions, subject), the warnings the replies earned,
and the compile-loss guard (issue 8): a chunk whose dates, versions and numbers mostly reach no claim
marks the source lossy, so the pages it feeds are held for review."""

from __future__ import annotations

from kctui.compiler.builtin import facts, summary
from kctui.compiler.builtin.document import unreached_facts
from kctui.compiler.extraction import Concept, Entity, Extraction
from kctui.compiler.llm import prompt
from kctui.compiler.llm.parse import ChunkParse
from kctui.compiler.llm.schema import reply_cap
from kctui.compiler.readers import Document
from kctui.core.slugs import identity_key
from kctui.core.values import fact_tokens

LOSS_MIN_FACTS = 3  # the loss guard judges a chunk with at least this many dates, versions and numbers


def merge(doc: Document, chunks: list[prompt.Chunk], parts: list[ChunkParse], max_tokens: int,
          loss_threshold: float) -> tuple[Extraction, list[str]]:
    """(the document's extraction, why the compile-loss guard says its pages need a review — empty when
    it does not), from its chunks' parsed replies in chunk order."""
    ex = Extraction(path=doc.path, digest=doc.digest, kind=doc.kind, title=doc.title,
                    source_type=facts.source_type(doc), domain=facts.domain(doc), tags=facts.tags(doc),
                    warnings=list(doc.warnings))
    seen: set[tuple[str, int, int]] = set()
    concepts: dict[str, Concept] = {}
    entities: dict[str, Entity] = {}
    for part in parts:
        for c in part.claims:
            ident = (c.claim_id, c.evidence.start, c.evidence.end)
            if ident not in seen:
                seen.add(ident)
                ex.claims.append(c)
        for k in part.concepts:
            old = concepts.get(identity_key(k.name))
            concepts[identity_key(k.name)] = k if old is None else Concept(
                old.name, _union(old.aliases, k.aliases), old.evidence, old.origin)
        for e in part.entities:
            prior = entities.get(identity_key(e.name))
            entities[identity_key(e.name)] = e if prior is None else Entity(
                prior.name, prior.entity_type or e.entity_type, prior.surface, _union(prior.aliases, e.aliases),
                prior.evidence)
    ex.concepts = list(concepts.values())
    ex.entities = list(entities.values())
    ex.subject = facts.document_subject(doc, has_facts=bool(ex.claims))
    ex.summary = summary.summary(doc)
    ex.questions = summary.questions(doc)
    ex.dropped = sum(p.dropped for p in parts)
    ex.unreached = tuple(sorted(unreached_facts(doc, ex)))
    ex.warnings += part_warnings(chunks, parts, max_tokens)
    lossy = loss_guard(doc, ex, chunks, loss_threshold)
    ex.warnings += lossy
    return ex, lossy


def part_warnings(chunks: list[prompt.Chunk], parts: list[ChunkParse], max_tokens: int) -> list[str]:
    out: list[str] = []
    for chunk, part in zip(chunks, parts):
        if part.truncated:
            cap = reply_cap(chunk, max_tokens) if max_tokens else 0
            hint = ("raise [llm] max_tokens or lower chunk_chars" if not cap or cap >= max_tokens else
                    f"its cap was {cap:,} output tokens, more than the schema needs for this chunk: the model "
                    "ran on (a smaller chunk_chars or another model may help)")
            out.append(f"the model's reply for {chunk.label} was cut off at the token limit; its "
                       f"{part.kept_after_cut} complete items were kept ({hint})")
    refused = [r for p in parts for r in p.refused]
    if refused:
        shown = ", ".join(ascii(r[:60]) for r in refused[:5])
        out.append(f"refused {len(refused)} items whose path, slug or name would escape the wiki: {shown}")
    invalid = sum(p.invalid for p in parts)
    if invalid:
        out.append(f"{invalid} items of the model's replies failed validation and were dropped")
    unplaced = sum(p.unplaced for p in parts)
    if unplaced:
        out.append(f"{unplaced} concepts or entities were dropped: their cited lines do not contain the name")
    return out


def loss_guard(doc: Document, ex: Extraction, chunks: list[prompt.Chunk], threshold: float) -> list[str]:
    """Per chunk: the dates, versions and numbers that reach no claim; past the threshold, why the
    source's pages should be held for review (the brief says so too)."""
    reached: set[str] = set(fact_tokens(ex.title))
    for c in ex.claims:
        reached |= fact_tokens(c.value) | fact_tokens(c.scope) | fact_tokens(c.subject)
    code = {n for b in doc.blocks if b.kind == "code" for n in range(b.start, b.end + 1)}
    out: list[str] = []
    for chunk in chunks:
        present: set[str] = set()
        for n in range(chunk.first, chunk.last + 1):
            if n not in code and n <= len(doc.lines):
                present |= fact_tokens(doc.lines[n - 1])
        lost = present - reached
        if len(present) >= LOSS_MIN_FACTS and len(lost) / len(present) > threshold:
            out.append(f"compile-loss guard: {len(lost)} of {len(present)} dates, versions and numbers of "
                       f"{chunk.label} reached no claim (over the {threshold:.0%} threshold), e.g. "
                       f"{', '.join(sorted(lost)[:5])}; the pages this source feeds need a review")
    return out


def _union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    out = list(a)
    keys = {identity_key(x) for x in a}
    for x in b:
        if identity_key(x) not in keys:
            keys.add(identity_key(x))
            out.append(x)
    return tuple(out)
