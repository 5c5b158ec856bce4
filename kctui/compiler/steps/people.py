"""One person, one page, base-wide (issue 31): notes call a teammate by their given name, a short form
of it ("Tom" for Tomasz, "Ade" for Adeola) or their surname, and write their full name in one or two
notes only. Inside one document the extractor folds a lone given name or surname into the one full name
it begins or ends (kctui.compiler.builtin.candidates); this step does it across the sources of a base.

The rule (`stands_for`, `fold_map`), a pure function of the base's people:

- the **people** of the base are the full names its sources type as a person (two or three words,
  shaped as a person's name, ordinary words allowed: `people_of`), and in a source that types two or
  more so, the untyped ones of two words shaped as a person's that open with a word English knows (a
  given name: "Megan Fitch"; not a brand's word: "Confluent Cloud"), whichever source does, where a
  source names two or more
  (attendees, a chat's speakers, a team's notes; a product page's one name read as a person's is not);
- a one-word name stands for a person when it is their given name, a short form of it (a prefix of it
  of at least three letters) or their surname when English does not know it as a word (Solberg, not
  Slack: `_bare_surname`), compared case folded ("tom" → Tomasz Wójcik);
- only for exactly one person of the base (two Toms: no one);
- and only where the source does not make it a thing of its own: a one-word entity its source types
  as something other than a person ("Trakline, a vendor"), or a term it defines, keeps its page
  (`foldable`: a source's own evidence, decided where the source is routed).

Such a name lands on the person's page (kctui.compiler.steps.registry: `route`) and is one of its
aliases, so the mention step finds the page by it too.

Incremental = full: the people of a base change as sources come and go, so a one-word name of an
unchanged source may start to stand for someone. Each source page records the people its source names
(frontmatter `own_people`, like `own_names` a pure function of the source), so a pass knows the base's
people without reading the unchanged sources; an unchanged source one of whose own names now stands
for a person whose page its source page does not link is read again (`refolded`), and a full pass
takes the same sources for changed; so is one whose name stood for a person whose page it feeds and
would now land on another page (the person's full name went, or a second Tom came). A name that stands
for no one now and finds no other page stays on the page it found, as any alias does (the registry finds
a page by its aliases before it makes one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.extraction import Entity, Extraction
from kctui.compiler.previous.wiki import PreviousWiki
from kctui.core.pages import OWN_PEOPLE_KEY
from kctui.core.slugs import identity_key

__all__ = ["OWN_PEOPLE_KEY", "base_people", "counted", "fold_map", "foldable", "mention_forms", "people_of", "recorded_fold", "refolded",
           "stands_for"]

# a source names people when it names two or more by their full name (attendees, a chat, a team's notes);
# one name typed as a person alone is as often a product's ("Eclipse Temurin is …")
PEOPLE_MIN = 2
SURNAME_ZIPF = 3.0  # a surname alone stands for its person only when it is rarer than this as a word
SHORT_FORM = 3  # a short form of a given name has at least this many letters ("Tom", "Ade"; not "To")
# the most a source page records of its people (a table of 3,000 staff): a source with more counts for none
MAX_PEOPLE_BYTES = 8 * 1024


def _parts(name: str) -> tuple[str, str] | None:
    """(given name, surname) of a full name, case folded; None when it is not two or three words."""
    words = identity_key(name).split()
    if not 2 <= len(words) <= 3:
        return None
    return words[0], words[-1]


def stands_for(word: str, people: Iterable[str]) -> str | None:
    """The one person of `people` (full names) the one-word name `word` is the given name, a short form
    of the given name or the surname of; None when it is no one's, or more than one person's."""
    key = identity_key(word)
    if not key or " " in key:
        return None
    found: dict[str, str] = {}
    for p in sorted(people):
        if _names(key, p):
            found.setdefault(identity_key(p), p)
    return next(iter(found.values())) if len(found) == 1 else None


def _names(key: str, person: str) -> bool:
    parts = _parts(person)
    if parts is None:
        return False
    given, surname = parts
    return key == given or (key == surname and _bare_surname(surname)) or (len(key) >= SHORT_FORM and len(key) < len(given) and given.startswith(key))


def _bare_surname(surname: str) -> bool:
    """Can a surname alone stand for its person: a word English does not know (Solberg, Wójcik), not one
    that names something of its own ("Slack" is the chat tool, not Quinn Slack; "Holt", "Lane")."""
    return wd.zipf(surname) < SURNAME_ZIPF


def fold_map(people: Iterable[str]) -> dict[str, str]:
    """Every one-word name that stands for exactly one of `people`, by its identity key -> that person.
    (`stands_for` for all words at once: the given names, their short forms and the surnames.)"""
    holders: dict[str, dict[str, str]] = {}
    for person in sorted(set(people)):
        parts = _parts(person)
        if parts is None:
            continue
        given, surname = parts
        keys = {given} | ({surname} if _bare_surname(surname) else set()) | {given[:n] for n in range(SHORT_FORM, len(given))}
        for key in keys:
            holders.setdefault(key, {}).setdefault(identity_key(person), person)
    return {k: next(iter(h.values())) for k, h in holders.items() if len(h) == 1}


def people_of(ex: Extraction) -> list[str]:
    """The people a source names (its `own_people`): its entities and subject typed as a person whose
    name is a full name (two or three words shaped as a person's), and where it types PEOPLE_MIN or more
    so, its untyped ones of a given name and a surname too (`_given_and_surname`: a source of people
    names its people; a product page's untyped names are products'), as read (a passing mention made an
    entity by another source does not count), sorted; none when there are too many to record. One such
    name alone is recorded too: the base counts it only when its given name is a name of the base
    alone (`counted`)."""
    entities = _read_entities(ex)
    out = sorted({e.name for e in entities if e.entity_type == "person" and _person_name(e.name)})
    if len(out) >= PEOPLE_MIN:  # a source of people (attendees, a team's notes): its untyped full names too
        out = sorted({*out, *(e.name for e in entities if not e.entity_type and _given_and_surname(e.name))})
    return out if sum(len(n.encode("utf-8", "surrogateescape")) + 4 for n in out) <= MAX_PEOPLE_BYTES else []


def counted(records: Iterable[Iterable[str]], names: Iterable[str]) -> set[str]:
    """The people of the base, from the people each of its sources records (`people_of`): all those of a
    source that names PEOPLE_MIN or more (people come in company: a product page's "Alibaba Dragonwell
    is …" reads like a person's name), and one a source names alone when its given name is, alone, a name
    the base's sources give a page of its own (`names`): "Ngozi Eze" as a decision record's author, and
    "Ngozi" in the standups and the sprint planning, are one person (`_given_alone`)."""
    alone: set[str] = set()
    opening: dict[str, set[str]] = {}  # a word -> the names of several words it opens
    for name in names:
        key = identity_key(name)
        if " " in key:
            opening.setdefault(key.split(" ")[0], set()).add(key)
        elif key:
            alone.add(key)
    out: set[str] = set()
    for people in records:
        people = list(people)
        if len(people) >= PEOPLE_MIN:
            out.update(people)
        else:
            out.update(p for p in people if _given_alone(p, alone, opening))
    return out


def _given_alone(person: str, alone: set[str], opening: Mapping[str, set[str]]) -> bool:
    """Is the given name of `person`, a name a source gives alone, a name of that person's: shaped as a
    person's word by word (`name_types.person_like`: not "Debian LTS", "ISC DHCP", which the endoflife
    pages type as a person), and opening no other name of the base (a brand's word opens several:
    "Cloudflare" of "Cloudflare Analytics" and of "Cloudflare WAF")?"""
    parts = _parts(person)
    return parts is not None and parts[0] in alone and nt.person_like(person) \
        and opening.get(parts[0], set()) <= {identity_key(person)}


def _read_entities(ex: Extraction) -> list[Entity]:
    """The entities a source gives pages of its own, as read, and its subject: not the passing mentions
    recurrence.activate appended to its entities (another source made them entities)."""
    activated = {id(e) for e in ex.passing}
    return [e for e in ex.entities if id(e) not in activated] + ([ex.subject] if ex.subject is not None else [])


def _own_names(ex: Extraction) -> list[str]:
    """The names a source gives pages of its own, as read (not its passing mentions)."""
    return [e.name for e in _read_entities(ex)]


def _given_and_surname(name: str) -> bool:
    """An untyped name of two words shaped as a person's (`name_types.person_like`) whose first word English
    knows as a word: a given name is a frequent word in the word lists ("Megan Fitch", "Ben Kowalski"), a
    brand's word before a product's is not ("Confluent Cloud", "Navisworks Manage"); a third word is a
    product's more often than a person's ("Oracle Simphony Cloud")."""
    words = name.split()
    return len(words) == 2 and nt.person_like(name) and wd.zipf(words[0]) >= wd.RARE_ZIPF


def _person_name(name: str) -> bool:
    """A full name of a person its source types so: shaped as a person's name, ordinary words allowed (the
    type puts it where a person goes: "Marcus Bell", "Grace Park", `name_types.person_like`'s `placed`)."""
    return 2 <= len(name.split()) <= 3 and (nt.person_like(name, placed=True) or nt.person_shape(name))


def foldable(entity: Entity, defined: set[str]) -> bool:
    """Can this entity of a source stand for a person: one word, not typed as another kind of thing by
    its source, not a term the source defines (`defined`: identity keys of its concepts)?"""
    name = entity.name
    return " " not in name.strip() and entity.entity_type in ("", "person") and identity_key(name) not in defined \
        and name.replace("-", "").replace("'", "").replace("’", "").isalpha()


def base_people(live: Mapping[str, Extraction], prev: PreviousWiki, rest: Iterable[str]) -> set[str]:
    """The people of the base (`counted`): from those the extractions of this pass name (`live`), and
    those the source pages of the sources not read (`rest`: unchanged, or not extracted) record; the
    names of the base are the extractions' own and the previous wiki's entity pages' (which hold the
    own names of the sources not read: an incremental pass counts as a full one does)."""
    records = [people_of(ex) for ex in live.values()]
    page_of = prev.tables.page_of
    for path in rest:
        slug = page_of.get(path)
        if slug is not None and path not in live:
            records.append(prev.pages[slug].people)
    return counted(records, [*(n for ex in live.values() for n in _own_names(ex)), *_entity_names(prev)])


def _entity_names(prev: PreviousWiki) -> list[str]:
    """The titles and aliases of the previous wiki's entity pages (archived ones left out)."""
    archived = prev.tables.archived
    return [n for slug, info in prev.pages.items() if info.kind == "entity" and slug not in archived
            for n in (info.title, *info.aliases)]


def refolded(prev: PreviousWiki, registry, paths: Iterable[str], recurring: set[str]) -> list[str]:  # noqa: ANN001
    """Of the unchanged sources `paths`, those one of whose one-word names — its own names as its
    source page records them, and its passing mentions that recur (`recurring`) — stands for a person
    (`registry.fold`) whose page its source page does not link (none yet, or another page), or stood for
    a person (`registry.fold_before`, the previous pass's `recorded_fold`) whose page it links and would
    now land on another page: each is read again (an incremental pass) or taken for changed (a full
    pass). A function of the previous wiki and the two folds alone, so both passes pick the same sources."""
    return folded_anew(prev, registry, paths, recurring, registry.fold, registry.fold_before, one_word=True)


def folded_anew(prev: PreviousWiki, registry, paths: Iterable[str], recurring: set[str],  # noqa: ANN001
                fold: Mapping[str, str], before: Mapping[str, str], one_word: bool) -> list[str]:
    """The sources of `paths` a base-wide fold (`fold`: a name's key -> the name it stands for; `before`: the
    previous pass's) sends to another page than the one their source page links: a name of theirs (one-word
    names only where `one_word`) that stands for a page they do not link, or stood for one they link and
    stands for nothing now. Shared by the people fold (`refolded`) and the short-name fold
    (kctui.compiler.steps.short_names.refolded)."""
    page_of = prev.tables.page_of
    out = []
    for path in paths:
        slug = page_of.get(path)
        if slug is None:
            continue
        info = prev.pages[slug]
        names = [*(info.own or ()), *(n for n in info.passing if identity_key(n) in recurring)]
        links = set(info.links)
        for name in names:
            if one_word and " " in name.strip():
                continue
            key = identity_key(name)
            target = fold.get(key)
            if target is not None:
                page = registry.find("entity", target)
                if page is None or page not in links:
                    out.append(path)
                    break
            elif (was := before.get(key)) is not None and registry.find("entity", name) not in links \
                    and registry.find("entity", was) in links:
                out.append(path)  # it stood for a page it feeds, and stands for nothing now
                break
    return sorted(out, key=lambda p: p.encode())


def mention_forms(fold: Mapping[str, str], titles: Mapping[str, str],
                  names: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Page slug -> the one-word names that stand for the person the page is titled by (`titles`: slug ->
    title, the pages the mention step may reach), each written with a capital ("tom" -> "Tom": a name
    that is an English word is found only where a statement capitalises it), for the mention step: "Tom
    did the 2027 renewal" reaches Tomasz Wójcik's page. A word of the calendar or a function word is
    left out ("Mar", "Jun"), and so is a name of another page (`names`: slug -> its title and aliases),
    which is that page's."""
    by_person = {identity_key(t): slug for slug, t in titles.items()}
    taken: dict[str, set[str]] = {}
    for slug, ns in names.items():
        for n in ns:
            taken.setdefault(identity_key(n), set()).add(slug)
    out: dict[str, list[str]] = {}
    for key, person in sorted(fold.items()):
        slug = by_person.get(identity_key(person))
        if slug is None or taken.get(key, set()) - {slug} or key in wd.CALENDAR or key in wd.FUNCTION_WORDS:
            continue
        out.setdefault(slug, []).append(key[:1].upper() + key[1:])
    return out


def recorded_fold(prev: PreviousWiki) -> dict[str, str]:
    """The fold of the previous pass: from the people its source pages record (archived ones left out),
    counted as `base_people` counts them."""
    archived = prev.tables.archived
    return fold_map(counted((info.people for slug, info in prev.pages.items() if info.kind == "source"
                             and slug not in archived), _entity_names(prev)))
