"""One firm, one page, base-wide (issue 31): notes write a company's full name once ("Veltrix Systems",
"Pinnacle Card Services", "Bell & Tanaka LLP") and then its short form ("Veltrix", "Pinnacle", "Bell &
Tanaka"). The mention step finds a brand's word in statements (kctui.compiler.steps.name_forms
`brand_forms`), but a source that names the short form as a thing of its own gave it a page beside the
long one: two pages for one firm. This step folds the short form into the long name across the sources
of a base, as kctui.compiler.steps.people does a teammate's given name.

The rule (`fold_map`), a pure function of the base's names:

- the **long names** are the names of two words or more the base's sources type as a company
  (`companies_of`, recorded per source page as `own_companies`);
- a short form X stands for the long name "X T" when every word of the tail T is an ordinary English
  word written as a name is ("Systems", "Card Services", "Data", "Compute": letters only, a capital first
  and none inside, frequent enough in English, `_ordinary`) or a legal suffix ("LLP", "Ltd", "GmbH", "AS"),
  and no word of T is itself a name of the base ("PostgreSQL", "AS2", "UniFi" are names by their shape: a
  digit or an inner capital; a one-word page title is one by the base);
- X is written with a capital first, is no function word, no word of the calendar and no person's
  one-word name (the people fold's keys: "Grace" of "Grace Park" is hers);
- and only for exactly one such name of the base: a name of the base of the form "X T" with such a tail,
  typed as a company or not ("Tessellate Risk" beside "Tessellate Watch": neither), is a candidate.

Such a name lands on the long name's page (kctui.compiler.steps.registry: `route`) and is one of its
aliases, so the mention step finds the page by it too.

Incremental = full: each source page records the companies its source names (`own_companies`) beside its
own names (`own_names`), so a pass knows the base's long names without reading the unchanged sources; an
unchanged source one of whose own names now stands for a long name whose page it does not link is read
again (`refolded`), and a full pass takes the same sources for changed; so is one whose name stood for a
long name whose page it feeds and would now land on another page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.extraction import Extraction
from kctui.compiler.previous.wiki import PreviousWiki
from kctui.compiler.steps import people
from kctui.core.slugs import identity_key

# a legal form after a firm's name (a closed class, like a person's titles)
LEGAL_SUFFIX = re.compile(r"^(?:Inc|Ltd|LLC|LLP|GmbH|Corp|Co|Corporation|Limited|AG|SA|AS|ASA|AB|Oy|BV|NV|Pty|plc|SE)\.?$")
_WORD = re.compile(r"^[A-Z][a-z]+$")  # a word written as a name is: a capital first, none inside, letters only
# the kinds of a noun that types a name a firm's name may have in its tail ("Okapi Framework", "Acme Platform",
# "Acme Server" name a product; "Card Services" is a line of work)
_FIRM_KINDS = frozenset({"company", "organisation", "team"})
# a word naming an offering, a plan or an edition of a brand, not a firm: "Grafana Cloud", "Weave Pro",
# "Starlink Business" are what Grafana, Weave and Starlink sell (a closed class, like the legal suffixes)
_OFFERING = frozenset({"cloud", "pro", "plus", "premium", "business", "enterprise", "edition", "suite", "online", "lite"})
MAX_COMPANIES_BYTES = 8 * 1024  # the most a source page records of its companies


def _ordinary(word: str, names: set[str]) -> bool:
    """Is a word of a tail an ordinary English word written as a name is ("Systems", "Compute", "Cloud") or a
    legal suffix ("LLP"), and no name of the base (`names`: identity keys of its one-word names)?"""
    if LEGAL_SUFFIX.match(word):
        return True
    low = word.casefold()
    return bool(_WORD.match(word)) and wd.zipf(word) >= wd.RARE_ZIPF and low not in wd.FUNCTION_WORDS \
        and low not in wd.CALENDAR and identity_key(word) not in names


def _firm_word(low: str) -> bool:
    """May a (casefolded) ordinary word be a word of a firm's tail: no noun typing a product, a tool or a
    person (a plural of a service's noun is a line of work: "services"), no word of an offering?"""
    if low in _OFFERING:
        return False
    kind = nt.TYPE_NOUNS.get(low)
    return kind is None or kind in _FIRM_KINDS or (kind == "service" and low.endswith("s"))


def _short_ok(short: str) -> bool:
    """Can `short` stand for a longer name: written with a capital first, no function word in it ("Funds For",
    "Meraki via"), ending in a word of letters ("Kite &"), and one of its words no ordinary English word (a
    name alone: "Veltrix", "Pinnacle"; "Google", "Open", "Northern Storage" stand for many things)?"""
    words = short.split()
    return words[0][:1].isupper() and any(c.isalpha() for c in words[-1]) \
        and not any(w.casefold() in wd.FUNCTION_WORDS or w.casefold() in wd.CALENDAR or w.casefold() in wd.CALENDAR_SHORT
                    for w in words) \
        and not all(wd.common_word(w) for w in words if any(c.isalpha() for c in w))


def _splits(name: str, names: set[str]) -> list[tuple[str, bool]]:
    """(short form, whether its tail may be a firm's: `_firm_word`) for each split of `name` into a short form
    and a tail of ordinary words."""
    words = name.split()
    out = []
    for k in range(len(words) - 1, 0, -1):
        tail = words[k:]
        if not all(_ordinary(w, names) for w in tail):
            break
        short = " ".join(words[:k])
        if _short_ok(short):
            out.append((short, all(LEGAL_SUFFIX.match(w) or _firm_word(w.casefold()) for w in tail)))
    return out


def fold_map(companies: Iterable[str], names: Iterable[str], people: Iterable[str] = ()) -> dict[str, str]:
    """Every short form that stands for exactly one long name of the base, by its identity key -> that long
    name (one of `companies`). `names`: all names of the base (the candidates, and its one-word names);
    `people`: the one-word names that stand for a person (kctui.compiler.steps.people's fold). A name whose
    tail names an offering or a product ("Veltrix Cloud") is a candidate, and the short form then stands
    for neither."""
    names = sorted(set(names) | set(companies))
    one_word = {identity_key(n) for n in names if " " not in n.strip()}
    firms = {identity_key(c) for c in companies}
    taken = {identity_key(p) for p in people}
    holders: dict[str, dict[str, tuple[str, bool]]] = {}
    for name in names:
        for short, firm in _splits(name, one_word):
            holders.setdefault(identity_key(short), {}).setdefault(identity_key(name), (name, firm))
    out: dict[str, str] = {}
    for key, held in holders.items():
        if len(held) != 1 or key in taken:
            continue
        (long_key, (long, firm)), = held.items()
        if firm and long_key in firms:
            out[key] = long
    return out


def companies_of(ex: Extraction) -> list[str]:
    """The names of two words or more a source types as a company, as read (not its passing mentions), sorted;
    none when there are too many to record."""
    activated = {id(e) for e in ex.passing}
    entities = [e for e in ex.entities if id(e) not in activated] + ([ex.subject] if ex.subject is not None else [])
    out = sorted({e.name for e in entities if e.entity_type == "company" and " " in e.name.strip()})
    return out if sum(len(n.encode("utf-8", "surrogateescape")) + 4 for n in out) <= MAX_COMPANIES_BYTES else []


def _own(ex: Extraction) -> list[str]:
    activated = {id(e) for e in ex.passing}
    return [n for e in ex.entities if id(e) not in activated for n in (e.name, *e.aliases)] \
        + ([ex.subject.name] if ex.subject is not None else [])


def base_fold(live: Mapping[str, Extraction], prev: PreviousWiki, rest: Iterable[str],
              people: Iterable[str] = ()) -> dict[str, str]:
    """`fold_map` of the base: the companies and own names of this pass's extractions (`live`) and those the
    source pages of the sources not read (`rest`) record."""
    companies = [c for ex in live.values() for c in companies_of(ex)]
    names = [n for ex in live.values() for n in _own(ex)]
    page_of = prev.tables.page_of
    for path in rest:
        slug = page_of.get(path)
        if slug is not None and path not in live:
            info = prev.pages[slug]
            companies += info.companies
            names += info.own or ()
    return fold_map(companies, names, people)


def recorded_fold(prev: PreviousWiki, people: Iterable[str] = ()) -> dict[str, str]:
    """The fold of the previous pass, from what its source pages record (archived ones left out)."""
    archived = prev.tables.archived
    infos = [info for slug, info in prev.pages.items() if info.kind == "source" and slug not in archived]
    return fold_map([c for i in infos for c in i.companies], [n for i in infos for n in (i.own or ())], people)


def refolded(prev: PreviousWiki, registry, paths: Iterable[str], recurring: set[str]) -> list[str]:  # noqa: ANN001
    """Of the unchanged sources `paths`, those one of whose names — its own names as its source page records
    them, and its passing mentions that recur — stands for a long name (`registry.short_fold`) whose page its
    source page does not link, or stood for one (`registry.short_fold_before`) whose page it links and would
    now land on another page: read again (an incremental pass) or taken for changed (a full pass)."""
    return people.folded_anew(prev, registry, paths, recurring, registry.short_fold, registry.short_fold_before,
                              one_word=False)
