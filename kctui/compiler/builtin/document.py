"""The built-in extraction step: `extract_document(doc)` turns one read `Document` into an `Extraction`
(the data model of `kctui.compiler.extraction`). It is a pure function of the document: the extraction
cache may store it under the file's digest and path without ever changing a result.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from kctui.compiler.builtin import (
    agenda,
    assigned,
    commitments,
    compared,
    conversation,
    decided,
    facts,
    fields,
    glossary,
    moved_values,
    name_checks,
    named_events,
    not_tasks,
    other_names,
    prose,
    recognise,
    records,
    replaced,
    roster,
    sentences,
    shapes,
    statements,
    summary,
    table_facts,
    titled_people,
)
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin.profile import EMPTY as EMPTY_PROFILE
from kctui.compiler.builtin.profile import Profile
from kctui.compiler.extraction import (  # noqa: F401 - the data model, re-exported for tests and benchmarks
    EXTRACTOR_VERSION,
    Concept,
    Entity,
    Extraction,
    cited_lines,
)
from kctui.compiler.readers.base import Document
from kctui.core.claims import (  # noqa: F401 - the claim model lives in the core; re-exported here
    CONFIDENCE,
    DESCRIPTIVE_ATTRIBUTES,
    VERBS,
    Claim,
    Evidence,
    Question,
)
from kctui.core.slugs import identity_key
from kctui.core.values import cited_lines_contain, fact_tokens

_DIGIT = re.compile(r"\d")


def extract_document(doc: Document, profile: Profile | None = None) -> Extraction:
    """Structured facts first (frontmatter, tables, definition lists, `key: value` lines), then prose:
    definitions, named things and what the text says about each, and the shapes of notes (checklists,
    action items, decisions, runbook commands). `profile` is the base's optional profile (names it
    knows, headings to ignore); without one only the text decides."""
    profile = profile or EMPTY_PROFILE
    convo = conversation.read(doc)  # a chat: its turns are read without their `Name:` labels
    doc = doc if convo is None else conversation.as_prose(doc, convo)
    ex = _described(doc)
    candidates, structured, gloss_concepts = _structured_facts(doc)
    ex.subject = facts.document_subject(doc, has_facts=bool(candidates))
    units = sentences.units(doc)
    defined, definition_claims = _definitions(doc, units, profile)
    concepts = gloss_concepts + prose.concepts_of(defined)
    declared = roster.with_roster_names(fields.with_typed_names(profile, doc), doc)
    found = recognise.recognise(doc, units + sentences.row_units(doc), defined, declared,
                                structured, [c.name for c in concepts])
    ex.entities = found.entities
    entity_keys = {identity_key(e.name) for e in ex.entities}
    ex.concepts = [c for c in concepts if identity_key(c.name) not in entity_keys]
    candidates += definition_claims
    candidates += prose.follow_ups(doc, units, defined)
    candidates += found.claims
    _add_compared(doc, ex, candidates, found.names)
    names_here = dict(found.names)
    for c in ex.concepts:
        names_here.setdefault(identity_key(c.name), c.name)
    item_claims, owners = shapes.items(doc, units, names_here)
    item_claims += _agenda(doc, units, names_here, item_claims, {identity_key(e.name) for e in ex.entities if e.entity_type == "person"})
    item_claims = not_tasks.retyped(doc, item_claims, names_here)  # (a roster line, a report, a rule: no task)
    _add_owners(doc, ex, owners, entity_keys)
    # a row of a table's name column is a name however common its word ("Linear" in a vendor list)
    rows = {identity_key(e.name) for e in structured}
    ex.entities = [e for e in ex.entities if name_checks.clean_title(e.name) or identity_key(e.name) in found.used | rows]
    candidates += item_claims
    candidates += _decisions(doc, ex, found, units, names_here)
    have = {c.evidence.start for c in candidates if c.attribute == "decision"}
    candidates += decided.claims(doc, units, have) + decided.row_claims(doc, sentences.row_units(doc), have)
    candidates += replaced.replaced_decisions(doc, units, have | {c.evidence.start for c in candidates if c.attribute == "decision"})
    candidates += shapes.commands(doc, found.names)
    candidates += prose.concept_notes(doc, units, ex.concepts, candidates)
    candidates = _without_restated_notes(candidates)
    _record(doc, ex, units, candidates, names_here)
    _drop_the_unsaid(ex, found, candidates)
    ex.summary = summary.summary(doc)
    ex.questions = summary.questions(doc, units)
    _keep_cited(doc, ex, candidates)
    _without_alias_twins(ex)
    events_once = _add_events(doc, ex)
    ex.claims = moved_values.on_events(ex.claims, doc.lines)  # (the cutover's moved date, not Postgres's)
    said: dict[tuple[int, int, str], bool] = {}  # (lines, value) -> do the lines say it (asked once)

    def says(start: int, end: int, value: str) -> bool:
        if (start, end, value) not in said:
            said[start, end, value] = cited_lines_contain(doc.lines[start - 1:end], value)
        return said[start, end, value]

    ex.claims += [c for c in statements.line_statements(doc, units, ex.claims)
                  if says(c.evidence.start, c.evidence.end, c.value)]  # (a page's evidence ends where it starts)
    _keep_passing(doc, ex, found)
    passing = {identity_key(p.name) for p in ex.passing}
    ex.passing += [e for e in events_once if identity_key(e.name) not in passing]
    if convo is None:  # (a chat's turns are its speakers' statements: kctui.compiler.builtin.conversation)
        ex.statements = [st for st in statements.all_statements(doc, units) if says(st.start, st.end, st.value)]
    if convo is not None:  # speakers as people, turns as their dated statements
        conversation.attribute(doc, convo, units, ex)
    titled_people.untitled(ex)  # ("Dr. Amir Sadeghi" is Amir Sadeghi's page)
    ex.unreached = tuple(sorted(unreached_facts(doc, ex)))
    return ex


def _add_events(doc: Document, ex: Extraction) -> list[Entity]:
    """The events and projects the document names by a name of its own and a noun of a doing ("CKF
    cutover moved": kctui.compiler.builtin.named_events), each an entity titled as the text writes it
    where the document names it on two lines or on a heading; the others, named in one line, are
    returned to be passing mentions."""
    once: list[Entity] = []
    have = {identity_key(e.name) for e in ex.entities}
    names = [n for e in ex.entities for n in (e.name, *e.aliases)]
    for phrase, line in named_events.event_names(enumerate(doc.lines, 1), names):
        for i, e in enumerate(ex.entities):  # (a list item's lead that names an event is the event: item_leads)
            if not e.entity_type and identity_key(e.name) == identity_key(phrase):
                ex.entities[i] = replace(e, entity_type="event")
        if identity_key(phrase) not in have:
            have.add(identity_key(phrase))
            event = Entity(phrase, "event", phrase, (), sentences.ev(doc, line, line))
            if named_events.named_again(doc.lines, phrase, line):
                ex.entities.append(event)
            else:  # (named in one line: a passing mention, a page where another source names it too)
                once.append(event)
    return once


def _without_alias_twins(ex: Extraction) -> None:
    """A claim whose subject is another spelling of a name ("Tomasz is the contact for Fastly", of Tomasz
    Brandt) and that the name's own claim says already (same attribute, value and lines) is dropped: the
    page would list the sentence twice."""
    alias_of = {identity_key(a): e.name for e in ex.entities for a in e.aliases}
    if not alias_of:
        return
    said = {(identity_key(c.subject), c.attribute, c.value, c.evidence.start, c.evidence.end) for c in ex.claims}
    ex.claims = [c for c in ex.claims if (full := alias_of.get(identity_key(c.subject))) is None
                 or (identity_key(full), c.attribute, c.value, c.evidence.start, c.evidence.end) not in said]


def _described(doc: Document) -> Extraction:
    """The extraction's descriptors of the document (kind, title, source type, domain, tags), nothing
    extracted yet."""
    return Extraction(
        path=doc.path,
        digest=doc.digest,
        kind=doc.kind,
        title=doc.title,
        source_type=facts.source_type(doc),
        domain=facts.domain(doc),
        tags=facts.tags(doc),
        warnings=list(doc.warnings),
    )


def _structured_facts(doc: Document) -> tuple[list[Claim], list[Entity], list[Concept]]:
    """(the claims of the frontmatter, tables, definition lists and `key: value` lines; the things the
    tables name and the people the lines name; the terms of the definition lists)."""
    candidates: list[Claim] = []
    candidates += facts.frontmatter_claims(doc)
    table_claims, structured = table_facts.table_claims(doc)
    candidates += table_claims
    gloss_claims, gloss_concepts = facts.glossary(doc)
    candidates += gloss_claims
    kv = facts.key_value_claims(doc)
    candidates += kv
    structured += [Entity(c.value, "person", c.value, (), c.evidence) for c in kv if nt.person_shape(c.value)]
    return candidates, structured, gloss_concepts


def _definitions(doc: Document, units: list[sentences.Unit], profile: Profile) -> tuple[list[prose.Defined], list[Claim]]:
    """The terms the prose defines (in a sentence or under a heading) and their claims, less the headings
    the profile ignores."""
    defined, definition_claims = prose.definitions(doc, units)
    glossary_defined, glossary_claims = glossary.heading_definitions(doc, units, defined)
    defined = [d for d in defined + glossary_defined if not profile.ignores_heading(d.term)]
    definition_claims += [c for c in glossary_claims if not profile.ignores_heading(c.subject)]
    return other_names.as_aliases(doc, defined, definition_claims)  # ("Also referred to as "X"": its section's term's)


def _add_compared(doc: Document, ex: Extraction, candidates: list[Claim], names: dict[str, str]) -> None:
    """A comparison table's cells as claims of its columns' things, each an entity unless the document
    names it already (kctui.compiler.builtin.compared)."""
    claims, columns = compared.compared_claims(doc, names)
    candidates += claims
    have = {identity_key(e.name) for e in ex.entities}
    ex.entities += [e for e in columns if identity_key(e.name) not in have]


def _agenda(doc: Document, units: list[sentences.Unit], names_here: dict[str, str], item_claims: list[Claim],
            people: set[str]) -> list[Claim]:
    """The decisions and action items of the sections, lead-ins and tables that say so (kctui.compiler.
    builtin.agenda), less the lines a checkbox or an owned item typed already. (Their owners are no new
    pages: a name an action item alone vouches for would gather lines that are not its own.)"""
    taken = {c.evidence.start for c in item_claims}
    found = agenda.section_claims(doc, units, names_here, taken)
    taken |= {c.evidence.start for c in found if c.attribute != "decision"}  # (a decision's line may hand a task too)
    handed = agenda.handed_claims(doc, units, names_here, taken)
    handed += assigned.claims(doc, units, names_here, people, taken)
    rows = agenda.table_claims(doc, names_here)
    taken |= {c.evidence.start for c in rows}
    said = commitments.commitment_claims(doc, units, names_here, people, taken)
    return found + handed + rows + said + agenda.due_claims(doc, item_claims + said)


def _add_owners(doc: Document, ex: Extraction, owners: list[tuple[str, str, int]], entity_keys: set[str]) -> None:
    """The owners of action items as entities (a person, when the item's shape says so)."""
    for owner, etype, line in owners:
        if etype:  # the owner of an action item is a person
            ex.entities = [Entity(e.name, etype, e.surface, e.aliases, e.evidence)
                           if identity_key(e.name) == identity_key(owner) and not e.entity_type else e for e in ex.entities]
        if identity_key(owner) not in entity_keys:
            entity_keys.add(identity_key(owner))
            ex.entities.append(Entity(owner, etype, owner, (), sentences.ev(doc, line, line)))


def _decisions(doc: Document, ex: Extraction, found: recognise.Recognised, units: list[sentences.Unit],
               names_here: dict[str, str]) -> list[Claim]:
    """The decisions of the document, each on the thing chosen: a name met once that a decision chooses
    ("We chose Redis Streams over …") is an entity, with what the document says of it."""
    passing = {identity_key(e.name): e for e in found.passing}
    claims = shapes.decisions(doc, units, {**{k: e.name for k, e in passing.items()}, **names_here}, names_here)
    chosen = {identity_key(c.subject) for c in claims} & set(passing) - set(names_here)
    for key in sorted(chosen):
        ex.entities.append(passing[key])
        names_here[key] = passing[key].name
    return claims + [c for c in found.passing_claims if identity_key(c.subject) in chosen]


def _record(doc: Document, ex: Extraction, units: list[sentences.Unit], candidates: list[Claim],
            names_here: dict[str, str]) -> None:
    """A record ("ADR-007: …") is a named thing with its decision and its header's claims, linked to
    the records it supersedes or is superseded by (kctui.compiler.builtin.records)."""
    superseded, statuses = replaced.superseded_records(doc, units + sentences.row_units(doc))
    candidates += statuses
    _add_records(ex, superseded)
    name = records.record_name(doc)
    if not name:
        _person_subject(doc, ex, units, candidates, names_here)
        return
    entity, claims = records.record_claims(doc, name, candidates, units, lambda text: shapes.first_named(text, names_here))
    others, links = records.supersession(doc, name, units + sentences.row_units(doc))
    candidates[:] = records.moved(doc, candidates) + claims + links
    _add_records(ex, [entity, *others])


def _add_records(ex: Extraction, found: list[Entity]) -> None:
    """The records a document names (itself, those it supersedes or says are superseded), each once."""
    for e in found:
        if identity_key(e.name) not in {identity_key(x.name) for x in ex.entities}:
            ex.entities.append(e)


def _person_subject(doc: Document, ex: Extraction, units: list[sentences.Unit], candidates: list[Claim],
                    names_here: dict[str, str]) -> None:
    """A note whose title names a person ("Onboarding — Sam Quist (data engineer)") is about them: they
    get a page with the role the title gives and the note's header (kctui.compiler.builtin.records)."""
    found = records.person_subject(doc)
    if found is None:
        return
    name, role = found
    entity, claims = records.person_claims(doc, names_here.get(identity_key(name), name), role, candidates, units)
    candidates += claims
    if identity_key(entity.name) not in {identity_key(x.name) for x in ex.entities}:
        ex.entities.append(entity)
        names_here[identity_key(entity.name)] = entity.name


def _without_restated_notes(candidates: list[Claim]) -> list[Claim]:
    """A sentence that already gives a thing a decision, a to-do or a command is not also a note on it."""
    specific: dict[tuple[str, int], list[str]] = {}
    for c in candidates:
        if c.attribute != "note":
            specific.setdefault((identity_key(c.subject), c.evidence.start), []).append(c.value)
    return [c for c in candidates if c.attribute != "note" or not any(
        v in c.value and 2 * len(v) >= len(c.value) for v in specific.get((identity_key(c.subject), c.evidence.start), ()))]


def _drop_the_unsaid(ex: Extraction, found: recognise.Recognised, candidates: list[Claim]) -> None:
    """The glossary labels and the names only recurrence vouches for that the document says too little
    about to give a page."""
    said: dict[str, int] = {}
    for claim in candidates:
        said[identity_key(claim.subject)] = said.get(identity_key(claim.subject), 0) + 1
    # a `**Label**: …` item nothing else in the document uses is a label, not a term to give a page
    ex.concepts = [c for c in ex.concepts if c.origin != "glossary" or said.get(identity_key(c.name), 0) >= 2]
    if found.weak:  # a name only its recurrence vouches for needs two things said about it, or no page
        ex.entities = [e for e in ex.entities if identity_key(e.name) not in found.weak or said.get(identity_key(e.name), 0) >= 2]


def _keep_cited(doc: Document, ex: Extraction, candidates: list[Claim]) -> None:
    """Each candidate claim once, kept when its cited lines contain its value, else counted as dropped."""
    seen: set[tuple[str, int, int]] = set()
    for claim in candidates:
        ident = (claim.claim_id, claim.evidence.start, claim.evidence.end)
        if ident in seen:
            continue
        seen.add(ident)
        if cited_lines_contain(cited_lines(doc, claim.evidence), claim.value):
            ex.claims.append(claim)
        else:
            ex.dropped += 1


def _keep_passing(doc: Document, ex: Extraction, found: recognise.Recognised) -> None:
    """The passing mentions that are no entity, concept or subject of the document (nor a word of a
    longer name it gives), with their cited claims."""
    known = {identity_key(e.name) for e in ex.entities} | {identity_key(c.name) for c in ex.concepts}
    if ex.subject is not None:
        known.add(identity_key(ex.subject.name))
    # a word of a longer name the document gives ("Whitfield" of Dana Whitfield) is not a name of its own
    words = {identity_key(w) for e in ex.entities if len(e.name.split()) > 1 for w in e.name.split()}
    ex.passing = [e for e in found.passing if identity_key(e.name) not in known | words]
    once = {identity_key(e.name) for e in ex.passing}
    ex.passing_claims = [c for c in found.passing_claims if identity_key(c.subject) in once
                         and cited_lines_contain(cited_lines(doc, c.evidence), c.value)]


@lru_cache(maxsize=65536)
def _tokens(text: str) -> frozenset[str]:
    return frozenset(fact_tokens(text)) if _DIGIT.search(text) else frozenset()


def unreached_facts(doc: Document, ex: Extraction) -> set[str]:
    """Compile-loss guard: the dates, versions and numbers of the source that reach no claim about a
    thing (the source page's own statements of its lines do not count)."""
    reached: set[str] = set()
    for claim in ex.claims:
        if claim.origin == statements.LINE_ORIGIN:
            continue  # on the source page only: the fact reached no named thing
        reached |= _tokens(claim.value)
        if claim.scope:
            reached |= _tokens(claim.scope)
        reached |= _tokens(claim.subject)
    reached |= fact_tokens(ex.title)
    present: set[str] = set()
    if doc.citation_unit == "page":
        for page in doc.lines:
            present |= fact_tokens(page)
    else:
        code: set[int] = set()
        for b in doc.blocks:
            if b.kind == "code":
                code.update(range(b.start, b.end + 1))
        # the lines' tokens at once: no token spans a line break, which bounds one as a line's ends do
        present = fact_tokens("\n".join(line for number, line in enumerate(doc.lines, 1)
                                        if number not in code and _DIGIT.search(line)))
    return present - reached


__all__ = ["CONFIDENCE", "DESCRIPTIVE_ATTRIBUTES", "EXTRACTOR_VERSION", "VERBS", "Claim", "Concept", "Entity", "Evidence",
           "Extraction", "Question", "cited_lines", "extract_document"]
