"""The candidate names of one document: every span the text marks as a name (kctui.compiler.builtin.names),
gathered per spelling with what the document does with it — marked or loose mentions, the sentences,
a type the text gives it, a definition or a fact — and merged where one thing goes by several
spellings (a lone given name or surname of the one person it stands for). `Candidate.accepted` says
whether the evidence makes it an entity; kctui.compiler.builtin.recognise decides and cites.

`find_candidates` runs the passes in order: the mentions of each sentence read on its own
(kctui.compiler.builtin.name_mentions), then the passes here, which need the whole document's
candidates first — a name marked elsewhere counted where it opens a sentence, a code span typed once
counted wherever it recurs, a frequent word counted where it heads a longer name, the names the text
defines or its structured facts name vouched for — and last the merges of one thing's spellings. The
candidate and its evidence: kctui.compiler.builtin.name_evidence.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kctui.compiler.builtin import glued_openers as go
from kctui.compiler.builtin import models
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin import written_after as wa
from kctui.compiler.builtin.name_edges import person_with_particles
from kctui.compiler.builtin.name_evidence import Candidate, SpansOf, candidate, key_of
from kctui.compiler.builtin.name_mentions import (  # noqa: F401 - APPOSITIVE, acts_as_person: imported from here
    APPOSITIVE,
    acts_as_person,
    mentions,
)
from kctui.compiler.builtin.profile import Profile
from kctui.compiler.builtin.sentences import Unit
from kctui.compiler.builtin.terms import Defined
from kctui.compiler.extraction import Entity

_ONE_WORD_OPENS = re.compile(r" (?:[a-z]+|v?\d)")


def find_candidates(us: list[Unit], defined: list[Defined], profile: Profile, structured: list[Entity],
                    concept_terms: list[str], lower: ug.Lower) -> tuple[dict[str, Candidate], SpansOf, set[str]]:
    """(identity key -> candidate, the name spans of each sentence, the keys of the document's concepts)."""
    cands, spans_of, heads = mentions(us, profile, lower)
    _sentence_start_mentions(us, cands, spans_of)
    _typed_code_mentions(us, cands, spans_of)
    _head_mentions(cands, heads)
    concept_keys = _defined_and_structured(cands, defined, structured, concept_terms)
    _given_names(cands)
    _surnames(cands)
    _nested_tails(cands, spans_of)
    _model_tails(cands)
    _written_after(cands, us)
    _glued(cands, go.glued_openers({k: c.name for k, c in cands.items()}, [u.text for u in us], key_of,
                                   {k for k, c in cands.items() if c.structured or c.known}))
    return cands, spans_of, concept_keys


def _model_tails(cands: dict[str, Candidate]) -> None:
    """A model's designation written alone ("the TSX600") where the document also names it with the
    word before it ("Thermo TSX600", "Dell OptiPlex 7020", "Westfield MR46") is that one thing: one page,
    not two. Not where two longer names end with it ("Nordex NC2", "WHR NC2": which one is unsaid)."""
    ends: dict[str, list[Candidate]] = {}
    for c in {id(c): c for c in cands.values()}.values():
        words = c.name.split()
        for k in range(1, len(words)):
            ends.setdefault(key_of(" ".join(words[k:])), []).append(c)
    for key, longer in sorted(ends.items()):
        c = cands.get(key)
        whole = {id(x): x for x in longer}
        if c is None or len(whole) != 1 or c.defined or c.known or not models.designation(c.name.split()[-1]):
            continue
        outer = next(iter(whole.values()))
        if outer is not c:
            _fold(outer, c)
            cands[key] = outer


def _glued(cands: dict[str, Candidate], glued: dict[str, str]) -> None:
    """A sentence's opener glued to a name ("Need Tappa") is the name's mention, not a name of its own
    (kctui.compiler.builtin.glued_openers); the glued spelling is no alias of it unless the prose defines it."""
    for key, x_key in glued.items():
        c, x = cands[key], cands[x_key]
        if c is x:
            continue
        surfaces = list(x.surfaces)
        _fold(x, c)
        if not c.defined:  # (a term the prose defines keeps its spelling as an alias: its claims' subject)
            x.surfaces = surfaces
        for k, other in list(cands.items()):
            if other is c:
                cands[k] = x


def _written_after(cands: dict[str, Candidate], us: list[Unit]) -> None:
    """A name the document writes only after one same maker's word is the name the two make: the
    document's own where it names it so ("OneCare" of "Zebra OneCare"), else one titled so, the short
    spelling its alias ("HX-2" of "Helix HX-2"; kctui.compiler.builtin.written_after)."""
    names = {key: c.name for key, c in cands.items() if key_of(c.name) == key}
    fixed = frozenset(key for key, c in cands.items() if c.defined or c.known)
    for key, (longer, longer_key) in sorted(wa.written_after(names, [u.text for u in us], key_of, fixed).items()):
        c = cands.get(key)
        if c is None:
            continue
        outer = cands.get(longer_key)
        if outer is None:  # titled as the text writes it, with everything the short spelling had
            outer = replace(c, name=longer, key=longer_key, surfaces=[*c.surfaces], units=[*c.units],
                            kinds=set(c.kinds), marked_in=set(c.marked_in))
            if c.name not in outer.surfaces:
                outer.surfaces.append(c.name)
            for k, other in list(cands.items()):
                if other is c:
                    cands[k] = outer
            cands[longer_key] = outer
            continue
        if outer is not c:
            _fold(outer, c)
            cands[key] = outer


def _nested_tails(cands: dict[str, Candidate], spans_of: SpansOf) -> None:
    """The tail of a longer name at one place ("Ashby" of "Tom Ashby") stands for it unless written alone."""
    outer: dict[str, set[str]] = {}
    alone: set[str] = set()
    for spans in spans_of:
        by_end: dict[int, list[tuple[int, str]]] = {}  # grouped by end: a long unit is not quadratic
        for s, k in spans:
            by_end.setdefault(s.end, []).append((s.start, k))
        for span, key in spans:
            longer = [k for start, k in by_end[span.end] if k != key and start < span.start]
            if longer:
                outer.setdefault(key, set()).update(longer)
            else:
                alone.add(key)
    for key, longer in sorted(outer.items()):
        c = cands.get(key)
        if key in alone or len(longer) != 1 or c is None or c.defined or c.fact or c.known:
            continue
        whole = cands.get(next(iter(longer)))
        if whole is not None and whole is not c and whole.head_free:  # ("Install Velero": a verb, no name)
            _fold(whole, c)
            cands[key] = whole


def _sentence_start_mentions(us: list[Unit], cands: dict[str, Candidate], spans_of: SpansOf) -> None:
    # a name of ordinary words the document marks elsewhere also counts where it opens a sentence (there
    # plain_spans drops its capitals as saying nothing): "Language Platform aims to …"
    # and one rare word it marks elsewhere ("Vault"), before a lower-case word or a number (not a label)
    multi: dict[str, list[Candidate]] = {}
    for c in cands.values():
        if c.marked and (" " in c.name or (c.vouched and not wd.common_word(c.name) and c.name[:1].isupper())):
            multi.setdefault(c.name.split(" ", 1)[0], []).append(c)
    if multi:
        for i, u in enumerate(us):
            opening_label = u.index == 0 and u.kind != "paragraph"  # a list item's opening words may be a label
            for c in multi.get(u.plain.split(" ", 1)[0], ()):
                if opening_label and not _ONE_WORD_OPENS.match(u.plain, len(c.name)):
                    continue
                if i not in c.units and u.plain.startswith(c.name + " "):
                    c.loose += 1
                    c.units = sorted({*c.units, i})
                    spans_of[i].append((nm.Span(c.name, 0, len(c.name), True, "caps", tuple(c.name.split())), c.key))


def _typed_code_mentions(us: list[Unit], cands: dict[str, Candidate], spans_of: SpansOf) -> None:
    # a code name the text types once ("the `libgreen` package") is the same thing wherever the text
    # writes that code span again
    typed_code = {f"`{c.name}`": c for c in cands.values() if c.kinds == {"code"} and c.entity_type}
    if typed_code:
        for i, u in enumerate(us):
            if "`" not in u.plain:
                continue
            for mark, c in typed_code.items():
                if i not in c.units and (pos := u.plain.find(mark)) >= 0:
                    c.loose += 1
                    c.units = sorted({*c.units, i})
                    spans_of[i].append((nm.Span(c.name, pos, pos + len(mark), pos == 0, "code", (c.name,)), c.key))
                    spans_of[i].sort(key=lambda sk: sk[0].start)


def _head_mentions(cands: dict[str, Candidate], heads: list[tuple[nm.Span, int]]) -> None:
    # a frequent word the document uses as a name on its own also counts where it heads a longer name
    # ("Google" in "Google Drive", "Google Calendar"): it must occur on its own too
    for span, i in heads:
        c = cands.get(key_of(span.tokens[0]))
        if c is not None and c.usage and not c.vouched and i not in c.marked_in:
            c.marked += 1
            c.marked_in.add(i)
            c.units = sorted({*c.units, i})


def _defined_and_structured(cands: dict[str, Candidate], defined: list[Defined], structured: list[Entity],
                            concept_terms: list[str]) -> set[str]:
    """Vouch for the names the text defines and the things its structured facts name; a defined term the
    text capitalises elsewhere is a name, not a concept. Returns the keys of the concepts left."""
    for d in defined:
        if d.is_name:
            c = candidate(cands, d.term, d.evidence.start, d.evidence.end)
            c.defined, c.strong = True, True
            c.entity_type = c.entity_type or d.entity_type
            c.surfaces += [a for a in d.aliases if a not in c.surfaces]
    for e in structured:
        c = candidate(cands, e.name, e.evidence.start, e.evidence.end)
        c.fact, c.strong = True, True
        c.structured = c.structured or bool(e.entity_type)  # under a header that types it ("Vendor")
        c.entity_type = c.entity_type or e.entity_type
        if e.aliases:  # the other names its cell writes ("Nuke render (nuke_r)")
            c.surfaces += [a for a in (e.surface, *e.aliases) if a not in c.surfaces]
    concept_keys = {key_of(t) for t in concept_terms}
    for d in defined:  # a term defined at a sentence start that the text capitalises elsewhere is a name
        c = cands.get(key_of(d.term))
        if not d.is_name and c is not None and _capitalised_elsewhere(d, c):
            c.defined, c.strong = True, True
            c.entity_type = c.entity_type or nt.head_noun_type(d.rest)
            concept_keys.discard(c.key)
    return concept_keys


def _capitalised_elsewhere(d: Defined, c: Candidate) -> bool:
    """Does the text mark a term it defines at a sentence start as a name elsewhere: twice, or once when
    the definition types it ("Renovate is a tool for …"); a capitalised term, not one common word?"""
    return bool((c.marked >= 2 or c.marked and nt.head_noun_type(d.rest)) and d.term[:1].isupper()
                and (len(d.term.split()) > 1 or wd.zipf(d.term) < wd.COMMON_ZIPF))


def _given_names(cands: dict[str, Candidate]) -> None:
    # a lone given name stands for the one person of the document it begins ("Lena" → Lena Vogel)
    people = [c for c in cands.values() if nt.person_shape(c.name)]
    firsts: dict[str, list[Candidate]] = {}
    for p in people:
        firsts.setdefault(key_of(p.name.split()[0]), []).append(p)
    for key, ps in firsts.items():
        single = cands.get(key)
        if single is not None and len(ps) == 1 and single is not ps[0]:
            p = ps[0]
            p.marked += single.marked
            p.loose += single.loose
            p.fact = p.fact or single.fact
            p.surfaces += [s for s in single.surfaces if s not in p.surfaces]
            p.units = sorted(set(p.units) | set(single.units))
            p.entity_type = p.entity_type or single.entity_type
            cands[key] = p


def _surnames(cands: dict[str, Candidate]) -> None:
    # a lone surname stands for the one person of the document it ends ("Micay" → Daniel Micay)
    lasts: dict[str, list[Candidate]] = {}
    for c in {id(c): c for c in cands.values()}.values():
        # only a person: "Later Zorblat" is nobody, and "Linux" does not stand for Alpine Linux
        if person_with_particles(c.name) and (c.entity_type == "person" or c.listed):
            lasts.setdefault(key_of(c.name.split()[-1]), []).append(c)
    for key, ps in lasts.items():
        single = cands.get(key)
        if single is not None and len(ps) == 1 and single is not ps[0] and not single.defined and not single.fact \
                and single.name[:1].isupper():  # ("bakkerij vos", a shop written in lower case, is not Marieke de Vos)
            _fold(ps[0], single)
            cands[key] = ps[0]


def _fold(p: Candidate, single: Candidate) -> None:
    """Count a one-word candidate's mentions as mentions of the person `p` it stands for."""
    new_units = [i for i in single.units if i not in p.units]
    p.marked += sum(1 for i in new_units if i in single.marked_in)
    p.loose += sum(1 for i in new_units if i not in single.marked_in)
    p.marked_in |= single.marked_in
    p.fact = p.fact or single.fact
    p.surfaces += [s for s in single.surfaces if s not in p.surfaces]
    p.units = sorted(set(p.units) | set(single.units))
    p.entity_type = p.entity_type or single.entity_type
    p.kinds |= single.kinds
