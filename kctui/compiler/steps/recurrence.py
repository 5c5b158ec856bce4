"""Names that recur across sources: a name one source marks in a single sentence (a *passing mention*:
"paged through Opsgenie") is not enough for a page of its own, but the same name in another source —
as a passing mention there too, or as a name that source gives a page — is (wiki.md: a page is created
when the thing is defined or recurs, ≥ 2 mentions or ≥ 2 sources).

Extraction stays a pure function of one document (cached per file, run in parallel); this step looks
across them. An incremental pass extracts only changed sources, so each source page records its passing
mentions (frontmatter `mentioned_once`) and what the previous wiki says is enough to count the others
(wiki.md §4: the state is rebuildable from the previous wiki and the sources). An unchanged source
whose passing mention becomes — or stops being — a recurring name is read again (its extraction is
cached), so an incremental pass gives the pages a full pass would. Each source page also records the
names its source gives pages of their own (frontmatter `own_names`): what the source counts for when
it is not read, as the pages it names would not say (a page lists a source that names it by an alias,
"Kwame" on the page "Kwame Asante").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import lru_cache

from kctui.compiler.builtin.words import common_word
from kctui.compiler.extraction import Extraction
from kctui.compiler.previous.wiki import PreviousWiki
from kctui.compiler.steps import written_names
from kctui.compiler.steps.head_nouns import surnamed
from kctui.compiler.steps.people import people_of
from kctui.compiler.steps.registry import Registry
from kctui.compiler.steps.short_names import companies_of
from kctui.core.pages import MENTIONED_ONCE_KEY, OWN_COMPANIES_KEY, OWN_NAMES_KEY, OWN_PEOPLE_KEY, RECURRING_KEY
from kctui.core.slugs import identity_key

__all__ = ["MENTIONED_ONCE_KEY", "OWN_NAMES_KEY", "RECORDED_KEYS", "activate", "own_names", "recorded_names", "recurring",
           "to_read_again"]

# what a source page records for this step (and the people its source names, for kctui.compiler.steps.people)
RECORDED_KEYS = (MENTIONED_ONCE_KEY, RECURRING_KEY, OWN_NAMES_KEY, OWN_PEOPLE_KEY, OWN_COMPANIES_KEY)
# the most `own_names` a source page records (a page's frontmatter is capped at 64 KiB: a table of 3,000
# named rows gives 3,900 names, 70 KB); a source with more records none and is counted as a page of an
# older pass is, from the entity pages that list it
MAX_OWN_NAMES_BYTES = 16 * 1024


def _keys(names: Iterable[str]) -> set[str]:
    return {k for k in (identity_key(n) for n in names) if k}


@lru_cache(maxsize=1 << 16)  # a page's recorded names: the same tuples pass after pass in a long-lived worker
def _recorded_keys(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(_keys(names))


def own_keys(ex: Extraction) -> set[str]:
    """The identity keys of the names an extraction gives pages of its own."""
    names = [e.name for e in ex.entities] + [a for e in ex.entities for a in e.aliases]
    if ex.subject is not None:
        names.append(ex.subject.name)
    return _keys(names)


def own_names(ex: Extraction) -> list[str]:
    """What a source page records as its source's own names (`own_names`): one name for each key of
    `own_keys` of the extraction as read (before `activate`) that is no passing mention of it (those
    `mentioned_once` records), sorted."""
    activated = {id(e) for e in ex.passing}  # `activate` appends the very passing mentions it makes entities
    names = [n for e in ex.entities if id(e) not in activated for n in (e.name, *e.aliases)]
    if ex.subject is not None:
        names.append(ex.subject.name)
    once = passing_keys(ex)
    out: dict[str, str] = {}
    for n in sorted(names):
        k = identity_key(n)
        if k and k not in once:
            out.setdefault(k, n)
    return sorted(out.values())


def recorded_names(ex: Extraction) -> dict[str, list[str]]:
    """What the source page of a (maybe activated) extraction records: the names its source gives pages
    of their own (`own_names`: an empty list says none; left out when they would take more than
    `MAX_OWN_NAMES_BYTES`), the people it names by their full name (`own_people`, when there are any:
    kctui.compiler.steps.people), the names it mentions once (`mentioned_once`) and those of them it names
    elsewhere too (`mentioned_elsewhere`)."""
    out: dict[str, list[str]] = {}
    own = own_names(ex)
    if sum(len(n.encode("utf-8", "surrogateescape")) + 4 for n in own) <= MAX_OWN_NAMES_BYTES:  # "- " n "\n", a quote
        out[OWN_NAMES_KEY] = own
    if people := people_of(ex):
        out[OWN_PEOPLE_KEY] = people
    if companies := companies_of(ex):  # (kctui.compiler.steps.short_names)
        out[OWN_COMPANIES_KEY] = companies
    if not ex.passing:
        return out
    out[MENTIONED_ONCE_KEY] = sorted({e.name for e in ex.passing})
    named = {identity_key(e.name) for e in ex.entities}
    if elsewhere := sorted({e.name for e in ex.passing if identity_key(e.name) in named}):
        out[RECURRING_KEY] = elsewhere
    return out


def passing_keys(ex: Extraction) -> set[str]:
    return _keys(e.name for e in ex.passing)


def recurring(live: dict[str, Extraction], unchanged: dict[str, tuple[set[str], set[str]]],
              named: set[str] = frozenset(),  # type: ignore[assignment]
              written: Callable[[set[str]], set[str]] | None = None, cased: set[str] | None = None) -> set[str]:
    """The passing mentions that two or more sources name: `live` are the extractions of this pass,
    `unchanged` the (own keys, passing keys) recorded for the sources not read; `named`: the names of
    the previous wiki's entity pages (for the first-word rule below); `written`: of the passing mentions
    one source names, those another source writes all the same (kctui.compiler.steps.written_names);
    `cased`: the keys of the longer names the unchanged sources and the previous wiki write with a
    capital after the first word (kctui.compiler.steps.head_nouns `surnamed`; None: every longer name
    counts for the first-word rule)."""
    sources: dict[str, int] = {}
    once: set[str] = set()
    for ex in live.values():
        p = passing_keys(ex)
        once |= p
        for k in own_keys(ex) | p:
            sources[k] = sources.get(k, 0) + 1
    for own, p in unchanged.values():
        once |= p
        for k in own | p:
            sources[k] = sources.get(k, 0) + 1
    # a lone word that begins a longer name some source gives ("Valery" of Valery Bugakov) stands for
    # that name where it is written, not for a thing of its own; not where the rest of the longer name
    # is no surname: a number, a model or a record of it ("Saft LS14500", "ServiceNow RITM0048812"), or
    # an ordinary word, the brand's product or kind ("GitHub Actions", "Timescale Cloud", "Jira
    # Service Management")
    # and not where the rest is a head noun written in lower case ("aggbridge logs", "Kingsmead substation": a
    # surname has a capital; kctui.compiler.steps.head_nouns)
    if cased is not None:
        cased = cased | surnamed(n for ex in live.values() for n in _written_names(ex))
    firsts = {k.split(" ", 1)[0] for k in (*sources, *named) if " " in k and _surname(k.split(" ", 1)[1])
              and (cased is None or k in cased)}
    elsewhere = written({k for k in once if sources.get(k, 0) < 2}) if written is not None else set()
    return {k for k in once if (sources.get(k, 0) >= 2 or k in elsewhere) and (" " in k or k not in firsts)}


def _written_names(ex: Extraction) -> list[str]:
    """The names an extraction gives pages, mentions in passing or is about, as written."""
    names = [n for e in (*ex.entities, *ex.passing) for n in (e.name, *e.aliases)]
    return [*names, ex.subject.name] if ex.subject is not None else names


def _surname(rest: str) -> bool:
    """Could the rest of a longer name (an identity key's words after its first) be a person's surname:
    words of letters only (a hyphen or an apostrophe inside), none an ordinary English word?"""
    return all(w.replace("-", "").replace("'", "").isalpha() and not common_word(w) for w in rest.split())


def to_read_again(prev: PreviousWiki, live: dict[str, Extraction], unchanged: list[str],
                  entity_keys: Mapping[str, set[str]] | None = None,
                  texts: written_names.SourceTexts | None = None) -> tuple[list[str], set[str]]:
    """(unchanged sources to read again, the recurring names): those whose passing mention turns into a
    recurring name, or stops being one, since the previous pass. An unchanged source counts for the
    names its page records: its passing mentions (`mentioned_once`) and its own names (`own_names`);
    what it decided is its `mentioned_elsewhere`. A page of an older pass without `own_names` counts
    for the names of the entity pages that list it (an alias's page too: not exact, as before).
    `entity_keys` is the previous wiki's entity pages by the identity key of each title and alias: the
    match step's registry index (made here when not given). `texts`: the pass's sources as
    kctui.compiler.steps.written_names reads them; with them, a passing mention another source writes
    recurs too."""
    page_of = prev.tables.page_of  # resource -> its source page (kctui.compiler.previous.tables)
    rest = {p: prev.pages[page_of[p]] for p in unchanged if p in page_of and p not in live}
    once = {p: _recorded_keys(info.passing) for p, info in rest.items() if info.passing}
    wanted = set().union(*once.values(), *(passing_keys(ex) for ex in live.values()))
    if not wanted:
        return [], set()
    if entity_keys is None:
        entity_keys = Registry(prev).index["entity"].exact
    recorded = {p: _recorded_keys(info.own) for p, info in rest.items() if info.own}
    own = {p: keys & wanted for p, keys in recorded.items() if not keys.isdisjoint(wanted)}
    if unrecorded := {p: info for p, info in rest.items() if info.own is None}:
        for p, keys in _entity_names_of(prev, wanted, entity_keys, unrecorded).items():
            own[p] = keys - once.get(p, set())
    # the longer names an unchanged source gives count for the first-word rule as a read source's do
    named = {k for k in entity_keys if " " in k} | {k for keys in recorded.values() for k in keys if " " in k}
    state = {p: (own.get(p, set()), once.get(p, set())) for p in set(own) | set(once)}
    written = None
    if texts is not None:
        by_source = {p: [e.name for e in ex.passing] for p, ex in live.items()}
        by_source.update({p: list(info.passing) for p, info in rest.items() if info.passing})
        def written(keys: set[str]) -> set[str]:
            return written_names.written_elsewhere(written_names.passing_by_source(by_source, keys), texts)
    cased = surnamed([n for info in rest.values() for n in (*(info.own or ()), *info.passing)]
                     + [n for k in named & set(entity_keys) for slug in entity_keys[k] if slug in prev.pages
                        for n in (prev.pages[slug].title, *prev.pages[slug].aliases)])
    names = recurring(live, state, named, written, cased)
    again = [p for p, keys in once.items() if (keys & names) != _recorded_keys(rest[p].recurring)]
    return sorted(again, key=lambda p: p.encode()), names


def _entity_names_of(prev: PreviousWiki, wanted: set[str], entity_keys: Mapping[str, set[str]],
                     rest: Mapping[str, object]) -> dict[str, set[str]]:
    """Unchanged source (of `rest`) -> the `wanted` names whose entity page lists it among its sources
    (for a source page without `own_names`)."""
    holders: dict[str, set[str]] = {}
    for k in wanted:
        for slug in entity_keys.get(k, ()):
            holders.setdefault(k, set()).update(r for r, _ in prev.pages[slug].sources if r in rest)
    own: dict[str, set[str]] = {}
    for k, paths in holders.items():
        for path in paths:
            own.setdefault(path, set()).add(k)
    return own


def activate(ex: Extraction, names: set[str]) -> Extraction:
    """The extraction with its passing mentions of recurring names as entities (with what it says about
    them); the others stay passing mentions."""
    if not ex.passing or not (passing_keys(ex) & names):
        return ex
    on = [e for e in ex.passing if identity_key(e.name) in names]
    keys = _keys(e.name for e in on)
    return replace(ex, entities=[*ex.entities, *on],
                   claims=[*ex.claims, *(c for c in ex.passing_claims if identity_key(c.subject) in keys)])
