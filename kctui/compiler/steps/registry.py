"""Match: find the page every extracted concept, entity and claim belongs to — an existing page by
slug-equivalent identity, alias or near-duplicate title before any create (wiki.md §3) — and route
each source's contributions to those pages."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kctui.compiler.builtin.statements import LINE_ORIGIN
from kctui.compiler.extraction import Entity, Extraction
from kctui.compiler.previous.page_info import PageInfo
from kctui.compiler.previous.page_memo import Generation
from kctui.compiler.previous.wiki import PreviousWiki
from kctui.compiler.steps.people import foldable, stands_for
from kctui.core.claims import Claim
from kctui.core.pages import Mention
from kctui.core.slugs import IdentityIndex, identity_key, near_key, slugify, unique_slug

TOPIC_KINDS = ("concept", "entity")


@dataclass
class NewPage:
    kind: str
    title: str
    entity_type: str = ""
    domain: str = ""


@dataclass
class Contribution:
    """What one source gives one page."""

    claims: list[Claim] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    aliases: set[str] = field(default_factory=set)
    entity_type: str = ""


def page_identity(kind: str, name: str) -> str:
    return f"{kind}:{near_key(name)}"


class _Base:
    """What a registry knows of the previous wiki's pages alone (built from them in their order)."""

    def __init__(self, pages: dict[str, PageInfo]) -> None:
        self.kinds: dict[str, str] = {}
        self.titles: dict[str, str] = {}
        self.taken: dict[str, str] = {}
        self.index = {kind: IdentityIndex() for kind in TOPIC_KINDS}
        self.source_slugs: dict[str, str] = {}
        for info in pages.values():
            self.kinds[info.slug] = info.kind
            self.titles[info.slug] = info.title
            if info.kind == "source":
                path = _path_of(info)
                self.taken[info.slug] = f"source:{path}"
                self.source_slugs[path] = info.slug
            else:
                self.taken[info.slug] = page_identity(info.kind, info.title)
                self.index[info.kind].add(info.slug, [info.title, *info.aliases])

    def patch(self, before_generation: Generation, after_generation: Generation, changed: list[str]) -> bool:
        """Turn the base of `before` into the base of `after` — the same slugs, in the same order, of the
        same classes, only `changed` different — and True; False (nothing changed) when a source page's
        source moved, which the order of the pages decides."""
        before, after = before_generation.pages, after_generation.pages
        for slug in changed:
            old, new = before[slug], after[slug]
            if old.kind != new.kind or (old.kind == "source" and _path_of(old) != _path_of(new)):
                return False
        for slug in changed:
            old, new = before[slug], after[slug]
            self.titles[slug] = new.title
            if new.kind != "source":
                self.taken[slug] = page_identity(new.kind, new.title)
                self.index[new.kind].discard(slug, [old.title, *old.aliases])
        for slug in changed:  # every name taken off first: a name two changed pages swap is kept
            new = after[slug]
            if new.kind != "source":
                self.index[new.kind].add(slug, [new.title, *new.aliases])
        return True


def _path_of(info: PageInfo) -> str:
    """The source a source page is the page of."""
    return info.sources[0][0] if info.sources else info.slug


def _base_of(prev: PreviousWiki) -> _Base:
    """The base of the previous wiki: when it is the generation this process wrote (kept in memory),
    the one made for it, or the last generation's carried forward with the pages that changed."""
    return prev.carried("registry", lambda pages, _: _Base(pages), _Base.patch)


class Registry:
    """Every page of this pass: the previous wiki's plus the ones created so far (in a fixed order)."""

    def __init__(self, prev: PreviousWiki) -> None:
        base = _base_of(prev)  # never changed here: the pass works on copies
        self.kinds: dict[str, str] = dict(base.kinds)
        self.titles: dict[str, str] = dict(base.titles)
        self.taken: dict[str, str] = dict(base.taken)
        self.index = {kind: index.copy() for kind, index in base.index.items()}
        self.new: dict[str, NewPage] = {}
        self.source_slugs: dict[str, str] = dict(base.source_slugs)
        # a one-word name's identity key -> the one person of the base it stands for (kctui.compiler.steps.people),
        # in this pass and in the previous one (`use_fold`)
        self.fold: dict[str, str] = {}
        self.fold_before: dict[str, str] = {}
        self._people: frozenset[str] = frozenset()  # the identity keys of the people `fold` stands for
        # a short form's identity key -> the one company name of the base it stands for
        # (kctui.compiler.steps.short_names), in this pass and in the previous one (`use_short_fold`)
        self.short_fold: dict[str, str] = {}
        self.short_fold_before: dict[str, str] = {}

    def use_fold(self, fold: dict[str, str], before: dict[str, str]) -> None:
        self.fold, self.fold_before = fold, before
        self._people = frozenset(identity_key(p) for p in fold.values())

    def use_short_fold(self, fold: dict[str, str], before: dict[str, str]) -> None:
        self.short_fold, self.short_fold_before = fold, before

    def long_name_of(self, ex: Extraction, entity: Entity) -> str:
        """The company name of the base an entity of `ex` is the short form of ("" when none): not where its
        source types it as another kind of thing than a firm ("Rhapsody", a tool, beside "Rhapsody Health")
        or defines it as a term."""
        long = self.short_fold.get(identity_key(entity.name)) if self.short_fold else None
        if long is None or entity.entity_type not in ("", "company", "organisation") or identity_key(entity.name) in {
                identity_key(c.name) for c in ex.concepts}:
            return ""
        return long

    def person_of(self, ex: Extraction, entity: Entity) -> str:
        """The person of the base a one-word entity of `ex` stands for ("" when none)."""
        person = self.fold.get(identity_key(entity.name)) if self.fold else None
        if person is None or not foldable(entity, {identity_key(c.name) for c in ex.concepts}):
            return ""
        return person

    def person_page_of(self, ex: Extraction, entity: Entity) -> bool:
        """Would a one-word entity its source makes a thing of its own ("Kafka, a message broker") find a
        person's page by the word alone ("Maya Kafka", whose surname it is)? Then it is not theirs."""
        if not self.fold or " " in entity.name.strip() or foldable(entity, {identity_key(c.name) for c in ex.concepts}):
            return False
        slug = self.find("entity", entity.name)
        if slug is None:
            return False
        title = self.titles[slug]  # a person of the base (not "Elasticsearch OSS", whose first word it is)
        return identity_key(title) in self._people and stands_for(entity.name, [title]) is not None

    def own_page(self, name: str) -> str | None:
        """The entity page titled `name` itself (not one that has it as an alias)."""
        key = identity_key(name)
        own = sorted(s for s in self.index["entity"].exact.get(key, ()) if identity_key(self.titles[s]) == key)
        return own[0] if own else None

    def find(self, kind: str, name: str) -> str | None:
        """Same class first (identity, alias, near-duplicate), then the other class."""
        order = (kind,) + tuple(k for k in TOPIC_KINDS if k != kind)
        for k in order:
            slug = self.index[k].find(name)
            if slug:
                return slug
        return None

    def resolve(self, kind: str, name: str, aliases: tuple[str, ...] = (), entity_type: str = "", domain: str = "",
                own: bool = False) -> str:
        """The page of `name` (found by it or an alias, else made); `own`: only a page titled `name` itself."""
        for candidate in () if own else (name, *aliases):
            slug = self.find(kind, candidate)
            if slug:
                self.index[self.kinds[slug]].add(slug, [name, *aliases])
                return slug
        if own and (slug := self.own_page(name)):
            self.index[kind].add(slug, [name, *aliases])
            return slug
        identity = page_identity(kind, name)
        slug = unique_slug(slugify(name), identity, self.taken)
        self.taken[slug] = identity
        self.kinds[slug] = kind
        self.titles[slug] = name
        self.new[slug] = NewPage(kind, name, entity_type, domain)
        self.index[kind].add(slug, [name, *aliases])
        return slug

    def source_slug(self, path: str, title: str) -> str:
        slug = self.source_slugs.get(path)
        if slug:
            return slug
        base = slugify(re.sub(r"[/.]", " ", path))  # `products/kafka.md` -> products-kafka-md
        slug = unique_slug(base, f"source:{path}", self.taken)
        self.taken[slug] = f"source:{path}"
        self.kinds[slug] = "source"
        self.titles[slug] = title
        self.source_slugs[path] = slug
        self.new[slug] = NewPage("source", title)
        return slug


def route(ex: Extraction, registry: Registry) -> dict[str, Contribution]:
    """Resolve (creating where needed) every concept and entity of one extraction and hand each page its
    claims and mentions. Processing order is fixed, so the same inputs always give the same slugs."""
    fed: dict[str, Contribution] = {}
    local: dict[str, str] = {}  # a name's key -> the page this document's own names resolved it to
    people: set[str] = set()  # the pages of the document's names that are people's
    if ex.subject:
        s = ex.subject
        slug = registry.resolve("entity", s.name, s.aliases, s.entity_type, ex.domain)
        _mention(fed, registry, slug, s.surface, s.evidence, s.aliases, s.entity_type)
        for name in (s.name, *s.aliases):
            local[identity_key(name)] = slug
    # named things first: a name claims its spellings before a defined term does
    for entity in ex.entities:
        person = registry.person_of(ex, entity)
        long = "" if person else registry.long_name_of(ex, entity)
        if person or long:  # a name that stands for one person (a company) of the base: their page, it an alias
            slug = registry.resolve("entity", person or long, (), "person" if person else "company", ex.domain)
            registry.index[registry.kinds[slug]].add(slug, [entity.name, *entity.aliases])
        else:  # (a thing of its own named as a person's surname is: its own page)
            slug = registry.resolve("entity", entity.name, entity.aliases, entity.entity_type, ex.domain,
                                    own=registry.person_page_of(ex, entity))
        # (its name among the aliases: a name that lands on a page by an alias is one of the page's names, so the
        # next pass finds the page by it and a full pass does not take the source for changed)
        _mention(fed, registry, slug, entity.surface, entity.evidence, (entity.name, *entity.aliases),
                 "person" if person else "company" if long else entity.entity_type)
        if person or entity.entity_type == "person":
            people.add(slug)
        for name in (entity.name, entity.surface.strip("`"), *entity.aliases):
            local.setdefault(identity_key(name), slug)
    for concept in sorted(ex.concepts, key=lambda c: (c.evidence.start, c.name)):
        slug = registry.resolve("concept", concept.name, concept.aliases, "", ex.domain)
        _mention(fed, registry, slug, concept.name, concept.evidence, concept.aliases)
        for name in (concept.name, *concept.aliases):
            local.setdefault(identity_key(name), slug)
    for claim in ex.claims:
        if claim.origin == LINE_ORIGIN:
            continue  # the source's own statement: its source page only
        slug = local.get(identity_key(claim.subject)) or registry.find("entity", claim.subject)
        if slug is not None and not (claim.attribute == "version" and slug in people):  # (a person has no release:
            # "Bea wants 24.04 before the intake" is cited on her page as a note, not as her version)
            fed.setdefault(slug, Contribution()).claims.append(claim)
    for contribution in fed.values():
        if contribution.claims:  # the cited sentences say what the source says; no bare mention line
            contribution.mentions = []
    return fed


def _mention(fed: dict[str, Contribution], registry: Registry, slug: str, surface: str, evidence,  # noqa: ANN001
             aliases: tuple[str, ...] = (), etype: str = "") -> None:
    """The page gets its earliest mention in the document, the other spellings as aliases, and a type."""
    contribution = fed.setdefault(slug, Contribution())
    if not contribution.mentions or evidence.start < contribution.mentions[0].evidence.start:
        contribution.mentions = [Mention(surface, evidence)]
    title_key = identity_key(registry.titles[slug])
    for alias in (surface.strip("`"), *aliases):
        if alias and identity_key(alias) != title_key:
            contribution.aliases.add(alias)
    if etype and not contribution.entity_type:
        contribution.entity_type = etype


def routing_matches(ex: Extraction, registry: Registry, recorded: set[str]) -> bool:
    """For a re-read unchanged source: would its concepts and entities land on exactly the pages its
    source page records? (Resolution only; nothing is created.)"""
    names: list[tuple[str, str]] = []
    if ex.subject:
        names.append(("entity", ex.subject.name))
    names += [("concept", c.name) for c in ex.concepts]
    names += [("entity", registry.person_of(ex, e) or registry.long_name_of(ex, e) or e.name) for e in ex.entities]
    own = {e.name for e in ex.entities if registry.person_page_of(ex, e)}
    found: set[str] = set()
    for kind, name in names:
        slug = registry.own_page(name) if name in own else registry.find(kind, name)
        if slug is None:
            return False
        found.add(slug)
    return found <= recorded
