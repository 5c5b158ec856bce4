"""Which spans of one document are named things, what type the text gives them, and what the text says
about each: facts attached to their subject ("Ripgrep version 14.1 was released on 2024-01-06",
"renews on …", "takes about 12 minutes", "$2,750 / month", "owned by Lena", "the on-call engineer for
billing-api is Lena Vogel") and the sentences that mention it, each cited.

A candidate becomes an entity only when the document defines it, types it, states a fact about it, or
mentions it at least twice (a marked name); a candidate only ever seen at a sentence start needs more.
The candidates are gathered in kctui.compiler.builtin.candidates, the facts and statements about them in
kctui.compiler.builtin.entity_facts; this module decides which are entities (or passing mentions) and cites
the sentences that mention each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kctui.compiler.builtin import code_things, host_names, identifiers, recall
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.candidates import Candidate, SpansOf, acts_as_person, find_candidates, key_of
from kctui.compiler.builtin.entity_facts import statements
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.builtin.name_edges import holds_reading
from kctui.compiler.builtin.profile import Profile
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, ev
from kctui.compiler.builtin.terms import Defined
from kctui.compiler.extraction import Entity
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key

MAX_NOTES = 3  # sentences kept per named thing per document (besides its facts)
_NEVER = 10 ** 6  # a usage count no document reaches: usage cannot make this a name
_CODE = re.compile(r"`[^`]*`")


@dataclass
class Recognised:
    entities: list[Entity]
    claims: list[Claim]
    names: dict[str, str]  # identity key of every spelling → entity name
    weak: frozenset[str] = frozenset()  # entities only recurrence vouches for (identity keys)
    # frequent words the document's usage makes names ("Linear"), identifiers it names as things ("fct_orders")
    used: frozenset[str] = frozenset()
    # names the document marks without the evidence for a page here: an entity only when another source mentions
    # them too (kctui.compiler.steps.recurrence), with what this document says about them
    passing: list[Entity] = field(default_factory=list)
    passing_claims: list[Claim] = field(default_factory=list)


def recognise(doc: Document, us: list[Unit], defined: list[Defined], profile: Profile,
              structured: list[Entity], concept_terms: list[str]) -> Recognised:
    lower = ug.lower_words([_CODE.sub(" ", u.plain) if "`" in u.plain else u.plain for u in us])  # prose, not code
    cands, spans_of, concept_keys = find_candidates(us, defined, profile, structured, concept_terms, lower)
    claims, claimed = statements(doc, us, cands, spans_of)
    # recall first: a sentence that states a fact about a name makes it an entity and is cited on its page
    # (named in one sentence only, it is a passing mention with that fact: a page once another source names it)
    named_ids = identifiers.named(us, doc)  # identifiers with underscores named as things
    code_ids = code_things.named(us, doc)  # identifiers in code spans of their own ("`carrier_invoice_sftp`")
    recalled, values = _recall(us, cands, spans_of, lower, named_ids, code_ids)
    _section_references(doc, cands)
    host_names.mark_hosts(cands)  # (a host's name: a page on one mention, its sentence a fact of it)
    used = _used(cands) | ((named_ids | code_ids) & cands.keys())  # (a title however its form reads: "ledger_entries")
    for key in _units(us, spans_of) | _numbered(us, cands, spans_of) | _lower_in_headings(doc, cands) \
            | _role_titles(us, spans_of) | _inflected_openers(cands):
        cands.pop(key, None)
    accepted = _accepted(cands, concept_keys, used)
    passing = _passing(doc, us, cands, concept_keys, accepted, {k for k, _ in recalled}, used)
    # the sentences that say something about each named thing, each cited
    for c in _distinct([*accepted.values(), *passing.values()]):
        _cite(doc, us, c, claimed, recalled, claims, values)
    entities, names = _entities(doc, us, accepted, spans_of)
    kept = {identity_key(e.name) for e in entities} | {k for k in names}
    once = {identity_key(c.name) for c in passing.values()} - kept
    passing_claims = [cl for cl in claims if identity_key(cl.subject) in once]
    claims = [cl for cl in claims if identity_key(cl.subject) in kept]
    weak = frozenset(identity_key(c.name) for c in accepted.values() if _only_recurrence(c))
    # (a name the profile or the document declares is one however common its word: "Ben" of a roster)
    declared = {k for k, c in accepted.items() if c.known}
    return Recognised(entities, claims, names, weak, frozenset(k for k in used | declared if k in accepted),
                      _passing_entities(doc, passing, once), passing_claims)


def _recall(us: list[Unit], cands: dict[str, Candidate], spans_of: SpansOf, lower: ug.Lower,
            named_ids: frozenset[str], code_ids: frozenset[str]) -> tuple[set[tuple[str, int]], recall.Values]:
    """The (candidate key, sentence) pairs that state a fact about a name, and the values stated of the
    names strongly enough for a page (kctui.compiler.builtin.recall.about); such a name, or one stated
    of in two sentences or more, counts as one with a fact."""
    recalled, _valued, values, borrowed, once = recall.fact_mentions(us, cands, spans_of, lower, named_ids, code_ids)
    with_value = {key for key, _ in values}
    for key in identifiers.typed_in([u.plain for u in us]) & cands.keys():
        cands[key].fact = True  # (a code span typed by the noun before it: "the SQS queue `label-requests`")
    for key, i in recalled:
        # named once, a thing needs a value stated of it by its form (its page then holds the sentence
        # and the value), or a person's name by its own form, or a form the fact stated of it makes a
        # page (a person's full name, a host's number: recall.fact_mentions' `once`); named in two
        # sentences or more, a fact about it is enough
        c = cands[key]
        if sum((key, j) not in borrowed for j in c.units) >= 2 or key in with_value or (
                (key, i) not in borrowed and named_by_form(c) and any(us[j].kind != "row" for j in c.units)
                and recall.usable(c)) or ((key, i) not in borrowed and key in once):
            c.fact = True
    return recalled, values


def named_by_form(c: Candidate) -> bool:
    """Is the candidate's form that of a person's name however often the text writes it: two or three
    capitalised words written away from a sentence start, none an ordinary word, typed as a person, or
    opening with a title ("Dr Meera Shah")? (Products and models, "PowerEdge XE9680", and words with an
    inner capital, "ClickHouse", were tried too: in the handbook they made a stub page of every code type
    named once.)"""
    words = c.name.split()
    titled = words[0].rstrip(".") in nm.HONORIFICS  # (its period is no part of a name's shape: "Ms. Adeyemi")
    return len(words) > 1 and nt.person_like(" ".join([words[0].rstrip("."), *words[1:]]) if titled else c.name) \
        and bool(c.marked) and (nt.person_shape(c.name) or c.entity_type == "person" or titled)


def _units(us: list[Unit], spans_of: SpansOf) -> set[str]:
    """The keys of the short tokens the document only ever writes right after a number: units ("kW",
    "IOPS", "CET"), not names."""
    after: dict[str, bool] = {}
    for i, spans in enumerate(spans_of):
        for span, key in spans:
            after[key] = after.get(key, True) and recall.unit(us[i].plain, span)
    return {k for k, all_units in after.items() if all_units}


_APPOSITION = re.compile(r"^\s*(?:\(|,)\s*$")  # "Tomasz Wierzbicki (Clinical Informatics Manager)", "Nadia Okafor, BIM Manager"


def _role_titles(us: list[Unit], spans_of: SpansOf) -> set[str]:
    """The keys of the capitalised runs headed by a role's noun ("Clinical Informatics Manager", "BIM
    Manager") that the document writes beside a person's name, in brackets or after a comma, or with the
    person's name in brackets after them ("the Clinical Informatics Manager (Mr. Wierzbicki)"): the title
    of someone's job, not a thing of its own."""
    out: set[str] = set()
    for i, spans in enumerate(spans_of):
        plain = us[i].plain
        for span, key in spans:
            if len(span.tokens) < 2 or span.tokens[-1].casefold().removesuffix("s") not in nt.ROLE_NOUNS:
                continue
            if any(_person(o) and (o.end <= span.start and _APPOSITION.match(plain[o.end:span.start])
                                   or span.end <= o.start and plain[span.end:o.start].strip() == "(")
                   for o, _ in spans):
                out.add(key)
    return out


def _person(span: nm.Span) -> bool:
    """A span written as a person's name: shaped like one, or a title and a name ("Mr. Wierzbicki")."""
    return nt.person_like(span.text) or (len(span.tokens) == 2 and span.tokens[0].rstrip(".") in nm.HONORIFICS)


_DIGIT_AFTER = re.compile(r" [1-9](?![\d.,:/])")


def _numbered(us: list[Unit], cands: dict[str, Candidate], spans_of: SpansOf) -> set[str]:
    """The keys of the frequent words only the document's usage makes names that it writes right before
    one digit wherever it writes them ("Gen 3", "Gen 4 keyboards", "Sev 2", "Phase 2"): the label of a
    numbered thing, as a unit is a number's, not a name (a release number is longer, "Windows 11", and an
    acronym names a product before its release: "RHEL 9")."""
    before: dict[str, bool] = {}
    for i, spans in enumerate(spans_of):
        for span, key in spans:
            c = cands.get(key)
            if c is not None and c.usage and not c.vouched and c.name[1:].islower():
                before[key] = before.get(key, True) and bool(_DIGIT_AFTER.match(us[i].plain, span.end))
    return {k for k, every in before.items() if every}


def _section_references(doc: Document, cands: dict[str, Candidate]) -> None:
    """A frequent word that is, or opens, a heading of the document is a reference to that section ("see
    Alternatives", "the Spotted a flake scenario"): usage cannot make it a name."""
    openers = {" ".join(b.text.strip("#` ").split()).casefold().split(" ", 1)[0] for b in doc.blocks if b.kind == "heading"}
    for c in cands.values():
        if c.usage and not c.vouched and c.name.casefold() in openers:
            c.usage = _NEVER


_LOWER_WORD = re.compile(r"(?<![\w'’./@:-])[a-z][\w'’-]*+(?![./@:]\w)")


def _lower_in_headings(doc: Document, cands: dict[str, Candidate]) -> set[str]:
    """The keys of the one-word names only ever written at a sentence start that the document's title or
    a heading writes in lower case: an ordinary word of the note ("Handover done Fri …" under "# On-call
    handover: …"), as one its prose writes in lower case is (the headings are not in that prose)."""
    lower = {w for b in doc.blocks if b.kind == "heading" for w in _LOWER_WORD.findall(b.text)}
    return {k for k, c in cands.items() if c.kinds == {"caps"} and not c.marked and " " not in c.name
            and c.name[:1].isupper() and c.name.casefold() in lower}


def _inflected_openers(cands: dict[str, Candidate]) -> set[str]:
    """The keys of the one-word names only a sentence start capitalises that end as an English verb's
    past or participle (-ed, -ing: "Retested 6 orders …"): a verb opening its sentence, however rare the
    word, not a name (a name the text defines, lists or declares stays)."""
    return {k for k, c in cands.items() if c.kinds == {"caps"} and not c.marked and " " not in c.name
            and not (c.defined or c.known or c.structured or c.listed) and len(c.name) > 5
            and c.name.endswith(("ed", "ing")) and c.name[1:].islower()}


def _used(cands: dict[str, Candidate]) -> set[str]:
    """The keys of the frequent words only the document's usage makes names ("Linear"), or its writing
    one alone in brackets as what the words before it are called ("Caledon (Ross)":
    kctui.compiler.builtin.named_once.bracketed)."""
    return {k for k, c in cands.items() if (c.usage and not c.vouched or "bracketed" in c.kinds)
            and clean_title(c.name, common_ok=True)}


def _accepted(cands: dict[str, Candidate], concept_keys: set[str], used: set[str]) -> dict[str, Candidate]:
    """The candidates the evidence makes entities (a concept of the document is none)."""
    return {k: c for k, c in cands.items() if k not in concept_keys and c.accepted()
            and (_clean(c.name) or k in used or (c.structured and not wd.placeholder(c.name)
                                                  and not holds_reading(c.name)) or c.known)}


def _passing(doc: Document, us: list[Unit], cands: dict[str, Candidate], concept_keys: set[str],
             accepted: dict[str, Candidate], stated: set[str], used: set[str]) -> dict[str, Candidate]:
    """The passing mentions: named without the evidence for a page here, or a name a sentence states a
    fact about (`stated`: an entity here only with more evidence, a page with what this document says once another source
    names it too); not an entity, not a concept; a line's label ("Deciders: …") and a section of the
    document ("see Unresolved Questions") are not names."""
    headings = {key_of(" ".join(b.text.strip("#` ").split())) for b in doc.blocks if b.kind == "heading"}
    return {k: c for k, c in cands.items() if k not in concept_keys and k not in accepted and k not in headings
            and (c.passing() or (k in stated and recall.usable(c, passing=True))) and (_clean(c.name) or k in used)
            and not any(a is c for a in accepted.values())
            and not (_labels_its_line(doc, us, c) and not c.kinds & {"ident", "code", "shaped", "lead"})}


def _labels_its_line(doc: Document, us: list[Unit], c: Candidate) -> bool:
    """Does a line of the candidate's first sentence open with its name and a colon ("Deciders: …")?"""
    return any(doc.lines[n - 1].lstrip("-*+ ").startswith(c.name + ":")
               for n in range(us[c.units[0]].first, us[c.units[0]].last + 1) if 0 < n <= len(doc.lines))


def _distinct(cs: list[Candidate]) -> list[Candidate]:
    """Each candidate once (several spellings share one), in their order."""
    return list({id(c): c for c in cs}.values())


def _by_first(cs: list[Candidate]) -> list[Candidate]:
    """Each candidate once, in the order the document first names them."""
    return sorted(_distinct(cs), key=_first_key)


def _first_key(c: Candidate) -> tuple[tuple[int, int], str]:
    return c.first, c.key


def _entities(doc: Document, us: list[Unit], accepted: dict[str, Candidate],
              spans_of: SpansOf) -> tuple[list[Entity], dict[str, str]]:
    """The accepted candidates as entities, in the document's order, and every spelling's identity key →
    its entity's name."""
    entities: list[Entity] = []
    names: dict[str, str] = {}
    for c in _by_first(list(accepted.values())):
        etype = c.entity_type
        if not etype and nt.person_shape(c.name) and acts_as_person(c, us, spans_of):
            etype = "person"
        aliases = tuple(sorted({s for s in c.surfaces if key_of(s) != c.key}))
        surface = c.surfaces[0] if c.surfaces else c.name
        line, last = c.first
        if surface not in doc.lines[line - 1] if 0 < line <= len(doc.lines) else False:
            line = next((n for n in range(line, last + 1) if surface in doc.lines[n - 1]), line)
        entities.append(Entity(c.name, etype, surface, aliases, ev(doc, line, line)))
        for s in (c.name, *c.surfaces):
            names[key_of(s)] = c.name
    return entities, names


def _only_recurrence(c: Candidate) -> bool:
    """Does only its recurrence vouch for this entity (no definition, fact, profile entry, or list of
    people naming it twice or as a person)?"""
    return not (c.defined or c.fact or c.known or (c.listed and (len(c.units) >= 2 or nt.person_shape(c.name))))


def _passing_entities(doc: Document, passing: dict[str, Candidate], once: set[str]) -> list[Entity]:
    """The passing mentions no entity of the document stands for, in the document's order, each cited
    at the first line that writes it."""
    out = []
    for c in _by_first(list(passing.values())):
        if identity_key(c.name) not in once:
            continue
        surface = c.surfaces[0] if c.surfaces else c.name
        line = next((n for n in range(c.first[0], c.first[1] + 1) if 0 < n <= len(doc.lines) and surface in doc.lines[n - 1]),
                    c.first[0])
        aliases = tuple(sorted({s for s in c.surfaces if key_of(s) != c.key}))
        out.append(Entity(c.name, c.entity_type, surface, aliases, ev(doc, line, line)))
    return out


def _cite(doc: Document, us: list[Unit], c: Candidate, claimed: set[tuple[str, int]],
          recalled: set[tuple[str, int]], claims: list[Claim], values: recall.Values) -> None:
    """The sentences about one named thing, each cited: every one that states a fact about it (and the
    value it states of it, by kind: "version: 16"), and up to MAX_NOTES others that mention it."""
    notes = 0
    for i in c.units:
        stated = (c.key, i) in recalled
        if (c.key, i) in values:
            kind, value = values[(c.key, i)]
            claims.append(Claim(c.name, kind, value, "", "fact", "statement", ev(doc, us[i].first, us[i].last)))
        if notes >= MAX_NOTES and not stated:
            continue
        u = us[i]
        # a sentence that states a fact about the name is cited whole (its values may be anywhere in it),
        # also where a specific claim already took one value of it
        limit = 2 * MAX_STATEMENT_CHARS if stated else MAX_STATEMENT_CHARS
        text = u.plain if len(u.plain) <= limit else _clause(u.plain, c.surfaces)
        if ((c.key, i) in claimed and not stated) or not 16 <= len(text) <= limit or "\\" in text \
                or ("<" in u.raw and text not in u.raw):  # (an autolink's text is not what the line says)
            continue
        claims.append(Claim(c.name, "note", text, "", "fact", "statement", ev(doc, u.first, u.last)))
        claimed.add((c.key, i))
        notes += not stated


def _clause(sentence: str, surfaces: list[str]) -> str:
    """The clause of a long sentence that mentions the name (a verbatim span of it)."""
    parts = re.split(r"(?<=[,;:])\s+|\s+(?=\()", sentence)
    for part in parts:
        if any(s in part for s in surfaces):
            return part.rstrip(",;:")
    return ""


def _clean(name: str) -> bool:
    return clean_title(name)
