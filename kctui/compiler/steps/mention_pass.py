"""The mention step's part of the match step (issue 31): every source's statements attached to the entity
pages that stand in the pass (kctui.compiler.steps.mentions), and which unchanged sources are read again
so that an incremental pass attaches what a full one does.

The pages statements may reach are those some source feeds a name, a claim or a term of its own
(`open_pages`), not a hub most sources feed; a page is found by its title, its aliases and the other
forms of its names (kctui.compiler.steps.name_forms, the people's one-word names of
kctui.compiler.steps.people). An unchanged source is read again (from the extraction cache) when its
text may hold a name no page that stood before had (`named_anew`), or when a page it only mentioned
stands no more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from kctui.compiler.extraction import Extraction
from kctui.compiler.readers.base import Skipped, source_kind
from kctui.compiler.steps import people, recurrence
from kctui.compiler.steps.first_words import first_word_forms, initials_forms
from kctui.compiler.steps.mentions import attach, names_of
from kctui.compiler.steps.name_extents import add_extents, source_extents, versioned
from kctui.compiler.steps.name_finder import NameFinder
from kctui.compiler.steps.name_forms import brand_forms, forms_of
from kctui.compiler.steps.name_position import lower_case_source
from kctui.compiler.steps.registry import Registry, route
from kctui.core.slugs import identity_key

HUB_SHARE = 0.25  # a page this share of the sources feed, and at least HUB_SOURCES, gets no statement by
HUB_SOURCES = 20  # mention alone (`open_pages`)


def named_anew(paths: Iterable[str], files: Mapping[str, object], keys: set[str]) -> list[str]:
    """Of the unchanged sources `paths` (`files`: path -> SourceFile), those whose text may hold one of
    `keys` (case-folded names no previous entity page had): each is read again. A source whose bytes are
    not its text (a PDF: `readers.base.source_kind`) or that cannot be read is read again whenever there
    is such a name."""
    if not keys:
        return []
    out = []
    for path in paths:
        source = files[path]
        data = getattr(source, "data", None)
        if data is None and source_kind(path) != "pdf":
            try:
                data = Path(source.abs_path).read_bytes()
            except OSError:
                data = None
        if data is None:
            out.append(path)
            continue
        text = " ".join(data.decode("utf-8", "replace").casefold().split())  # (once per source, not per name)
        if any(k in text for k in keys):
            out.append(path)
    return out


def new_event_nouns(events: Mapping[str, list[tuple[str, str]]], names: Mapping[str, list[str]],
                    anew: set[str]) -> set[str]:
    """The nouns of the event pages named anew (`NameFinder.events`: thing -> (noun, event)), case-folded:
    a statement of the thing's that writes the noun alone reaches the event's page
    (`NameFinder.event_pages`), so an unchanged source writing it is read again as one naming it is."""
    return {noun.casefold() for pairs in events.values() for noun, event in pairs
            if any(identity_key(n) in anew for n in names.get(event, ()))}


def _holds_word(text: str, words: set[str]) -> bool:
    return bool(words) and not words.isdisjoint(w.casefold() for w in _WORD.findall(text))


_WORD = re.compile(r"[^\W_][\w'’-]*")


def _with_people(names: dict[str, list[str]], forms: Mapping[str, list[str]]) -> None:
    """Other forms of a page's names among them: the one-word names that stand for a person
    (kctui.compiler.steps.people), the short forms and head words of its names (`name_forms.forms_of`)."""
    for slug, found in forms.items():
        names[slug] = [*names[slug], *found]


def _firsts(names: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Page slug -> the first words and initials that stand for its names (kctui.compiler.steps.first_words)."""
    out = first_word_forms(names)
    for slug, found in initials_forms(names).items():
        out[slug] = [*out.get(slug, ()), *found]
    return out


def open_pages(fed: Mapping[str, set[str]], entity: set[str]) -> set[str]:
    """The entity pages statements may reach: those some source feeds (`fed`: source -> the pages it
    feeds a name, a claim or a term of its own), except a page most sources feed (HUB_SHARE of them, at
    least HUB_SOURCES: "Rust" in a language's design documents), where what each says in passing of it
    would bury what the page is for; a function of the pass's sources and what they feed alone."""
    counts: dict[str, int] = {}
    for pages in fed.values():
        for slug in pages:
            counts[slug] = counts.get(slug, 0) + 1
    hub = max(HUB_SOURCES, HUB_SHARE * len(fed))
    return {s for s, n in counts.items() if s in entity and n < hub}


def attach_all(gathered, recurring: set[str], registry: Registry, live: dict[str, Extraction],  # noqa: ANN001
               routed: dict[str, dict], fed: dict[str, set[str]], changed: set[str], touched: set[str],
               prev_fed: dict[str, set[str]], unchanged: list[str]):  # noqa: ANN201
    """The match step's part: the statements of every source read attached to the entity pages that
    stand in this pass (a page some source feeds a name, a claim or a term of its own: `fed`, which never
    counts a page a source only mentions), and the unchanged sources whose statements reach other pages
    now read again — one naming a page anew, one whose statements are on a page that no longer stands.
    Returns `attach(extraction, contributions)` for a source the step reads later."""
    prev = gathered.prev
    entity = {s for s, k in registry.kinds.items() if k == "entity"}
    standing = open_pages(fed, entity)
    stood = open_pages(prev_fed, {s for s, info in prev.pages.items() if info.kind == "entity"})
    aliases = {slug: prev.pages[slug].aliases for slug in standing if slug in prev.pages}
    names = names_of(standing, registry.titles, aliases, routed.values())
    brands = brand_forms(names)
    firsts = _firsts(names)  # (found as a person's one-word name is: kctui.compiler.steps.first_words)
    _with_people(names, forms_of(names))
    forms = people.mention_forms(registry.fold, {s: registry.titles[s] for s in standing}, names)
    for slug, found in firsts.items():
        forms[slug] = [*forms.get(slug, ()), *found]
    finder = NameFinder(names, forms, brands)
    _with_people(names, forms)

    def extents_of(ex: Extraction) -> list[tuple[str, str, bool]]:  # (its names written with a version)
        texts = [s.value for s in ex.statements]
        return source_extents(texts, finder, lower_case_source(texts))

    extended = {path: extents_of(live[path]) for path in routed}
    versions = versioned(names) | {slug for found in extended.values() for slug, _, dotted in found if dotted}

    def attach_one(ex: Extraction, contributions: dict, path: str = "") -> None:
        attach(ex, contributions, finder, registry.titles)
        found = extended[path] if path in extended else extents_of(ex)
        add_extents(found, contributions, versions, lambda form: registry.find("entity", form))

    for path in sorted(routed, key=lambda p: p.encode()):
        attach_one(live[path], routed[path], path)
        touched |= set(routed[path])
    stood_names = {slug: [prev.pages[slug].title, *prev.pages[slug].aliases] for slug in stood}
    before = {identity_key(n) for ns in stood_names.values() for n in ns}
    before |= {identity_key(n) for f in (forms_of, brand_forms, _firsts) for ns in f(stood_names).values()
               for n in ns}
    if registry.fold:  # (the names that stood for a person in the previous pass: found then too)
        before |= {identity_key(n) for ns in people.mention_forms(registry.fold_before, {
            s: prev.pages[s].title for s in stood}, stood_names).values() for n in ns}
    anew = finder.keys - before
    citing = prev.tables.citing
    fallen = {p for p in unchanged if any(s in stood and s not in standing for s in citing.get(p, ()))}
    if not anew and not fallen:
        return attach_one
    anew_finder = NameFinder(*({s: [n for n in ns if identity_key(n) in anew] for s, ns in named.items()}
                               for named in (names, forms, brands)))
    nouns = new_event_nouns(finder.events, names, anew)  # (a new event's noun alone reaches it too)
    for path in sorted(set(named_anew(unchanged, gathered.by_path, anew | nouns)) | fallen, key=lambda p: p.encode()):
        found: Extraction | Skipped = gathered.extractor.extract(gathered.by_path[path])
        if isinstance(found, Skipped):
            continue  # unreadable now: its pages stand as they are
        lowered = lower_case_source(s.value for s in found.statements)
        if path not in fallen and not any(anew_finder.find(s.value, lowered) or _holds_word(s.value, nouns)
                                          for s in found.statements):
            continue  # it names no page anew
        found = recurrence.activate(found, recurring)
        contributions = route(found, registry)
        fed[path] = set(contributions)
        attach_one(found, contributions)
        live[path] = found
        routed[path] = contributions
        changed.add(path)
        before_pages = {s for s in citing.get(path, ()) if s in entity or registry.kinds.get(s) == "concept"}
        touched |= before_pages ^ set(contributions)
    return attach_one
