# size: the passes that gather candidate names (mentions, sentence starts, typed code, heads, given names, surnames, name tails) share the Candidate model; each is a short named function.
"""The candidate names of one document: every span the text marks as a name (kctui.compiler.builtin.names),
gathered per spelling with what the document does with it — marked or loose mentions, the sentences,
a type the text gives it, a definition or a fact — and merged where one thing goes by several
spellings (a lone given name or surname of the one person it stands for). `Candidate.accepted` says
whether the evidence makes it an entity; kctui.compiler.builtin.recognise decides and cites.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from kctui.compiler.builtin import coined
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.profile import KnownName, Profile
from kctui.compiler.builtin.prose import Defined
from kctui.compiler.builtin.sentences import CHECKBOX, Unit
from kctui.compiler.extraction import Entity
from kctui.core.slugs import identity_key

APPOSITIVE = re.compile(r",\s+(?P<v>(?:a|an|the|our)\s+[^,;:()]{3,80}?)\s*(?:,|\.|;|\)|$)")
PERSON_BEFORE = re.compile(r"(?:\b(?:by|with|ask|asked|contact|thanks|thank|cc|ping|owner|owners|assignee|lead|from|and|to)\s*:?\s*)$", re.I)
PERSON_AFTER = re.compile(r"\s+(?:will|said|says|agreed|proposed|owns|leads|asked|suggested|noted|presented|joined|reviewed|"
                          r"wrote|approved|volunteered|runs|maintains|manages|built|fixed|shipped|met|walked|will|is on call|is on-call|to follow up|takes|took|has|had|was|is)\b")
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)\b")
_ASIDE = re.compile(r"\s*\([^()]*\)")
_ONE_WORD_OPENS = re.compile(r" (?:[a-z]+|v?\d)")
# a release number right after a name marks it even where it opens a sentence ("Unleash 5.12 was
# released …"): a rare word the sentence's capital says nothing about, a dotted version says a lot
_VERSION_AFTER = re.compile(r"\s+(?:version\s+)?v?\d+(?:\.\d+)+\b")
_COMPANY_TAIL = re.compile(r",?\s+(Inc|Ltd|LLC|GmbH|Corp|Corporation|Limited|AG|plc)\b\.?")

# letters, then a number part (etl-01, amos-db-01) or a zero-padded number at the end (kelpie-mgmt01)
_HOST = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-\d{1,4}$|^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z]+0\d{1,2}$")
SpansOf = list[list[tuple[nm.Span, str]]]  # per sentence: each name span and its candidate's key


@dataclass
class Candidate:
    name: str
    key: str
    marked: int = 0  # occurrences as a marked name (away from a sentence start, shaped, linked)
    loose: int = 0  # occurrences the text does not mark (a sentence start, a code span)
    strong: bool = False
    defined: bool = False
    fact: bool = False
    entity_type: str = ""
    surfaces: list[str] = field(default_factory=list)
    units: list[int] = field(default_factory=list)
    first: tuple[int, int] = (0, 0)
    kinds: set[str] = field(default_factory=set)
    marked_in: set[int] = field(default_factory=set)
    known: bool = False  # the base's profile names it
    listed: bool = False  # a list of people names it: a person on one mention
    usage: int = 0  # only the document's usage vouches for it: the capitalised sentences it needs
    vouched: bool = False  # some occurrence is name-like on its own
    head_free: bool = False  # its first word is never written in lower case in the document
    structured: bool = False  # a table's name column or a field names it: a name however common its word

    def marked_units_has(self, i: int) -> bool:
        return i in self.marked_in

    def passing(self) -> bool:
        """Named by a span name-like on its own (not only by the document's usage, not a code span or an
        identifier other than a host's number, not only ordinary words) but without the evidence for a
        page here (asked of a candidate `accepted` refuses): a name if another source names it too."""
        if self.kinds <= {"ident"} and self.vouched and _HOST.match(self.name):
            return True  # a host's or a unit's number ("amos-db-01", "wms-app-02"): a name once it recurs
        if not self.vouched or self.usage or self.kinds <= {"code", "ident"}:
            return False
        words = self.name.split()
        if any(w.casefold().removesuffix("s") in wd.CALENDAR for w in words) and not nt.person_like(self.name):
            return False  # "Fridays", "March": English capitalises them by convention
        if self.strong:
            return True
        if len(words) == 1 and words[0].endswith("ing"):
            return False  # a gerund heading a title or a link text ("Deploying a change"), not a name
        return not all(wd.common_word(w) for w in words)

    def accepted(self) -> bool:
        if self.defined or self.fact or self.known or self.listed:
            return True
        if self.usage and not self.vouched:  # "Google", "GCP": capitalised in enough sentences, never lower case
            return self.marked >= self.usage
        if self.entity_type:  # typed by a noun ("the billing-api service") or as a person: and recurs
            return self.marked + self.loose >= 2
        if self.kinds <= {"code", "ident"}:
            # code and identifiers need a definition, a fact or a typing noun; an identifier shaped as a
            # name (a domain, a compound of no ordinary words: crates.io, pkg-config) may recur instead
            return "ident" in self.kinds and wd.ident_name(self.name) and self.marked >= 2
        if self.strong:
            return self.marked + self.loose >= 2
        return self._recurs_as_name()

    def _recurs_as_name(self) -> bool:
        """accepted, for a capitalised name no other evidence vouches for: how often it must recur."""
        if self.loose >= 3 and self.head_free and nt.person_like(self.name) and "caps" in self.kinds:
            return True  # a person's name that opens its sentences or items, three times
        if all(wd.common_word(w) for w in self.name.split()):
            # "Batch Changes": ordinary words as a name need to recur more, unless the document never
            # writes its first word in lower case ("Google Cloud": "Google" is a name there)
            return self.marked >= (2 if self.head_free and len(self.name.split()) > 1 else 3)
        return self.marked >= 2


def key_of(text: str) -> str:
    return identity_key(text.strip("`"))


def candidate(cands: dict[str, Candidate], name: str, line: int, end: int) -> Candidate:
    """The candidate of this spelling, created at its first line when it is new."""
    key = key_of(name)
    c = cands.get(key)
    if c is None:
        c = cands[key] = Candidate(name, key, first=(line, end))
    return c


def find_candidates(us: list[Unit], defined: list[Defined], profile: Profile, structured: list[Entity],
                    concept_terms: list[str], lower: ug.Lower) -> tuple[dict[str, Candidate], SpansOf, set[str]]:
    """(identity key -> candidate, the name spans of each sentence, the keys of the document's concepts)."""
    cands, spans_of, heads = _mentions(us, profile, lower)
    _sentence_start_mentions(us, cands, spans_of)
    _typed_code_mentions(us, cands, spans_of)
    _head_mentions(cands, heads)
    concept_keys = _defined_and_structured(cands, defined, structured, concept_terms)
    _given_names(cands)
    _surnames(cands)
    _nested_tails(cands, spans_of)
    return cands, spans_of, concept_keys


def _nested_tails(cands: dict[str, Candidate], spans_of: SpansOf) -> None:
    """The tail of a longer name at one place ("Ashby" of "Tom Ashby") stands for it unless written alone."""
    outer: dict[str, set[str]] = {}
    alone: set[str] = set()
    for spans in spans_of:
        for span, key in spans:
            longer = [k for s, k in spans if k != key and s.start < span.start and s.end == span.end]
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


def _mentions(us: list[Unit], profile: Profile, lower: ug.Lower) -> tuple[dict[str, Candidate], SpansOf,
                                                                          list[tuple[nm.Span, int]]]:
    """Every name span of every sentence as a mention of its candidate; and the multiword names away
    from a sentence start, by sentence."""
    cands: dict[str, Candidate] = {}
    spans_of: SpansOf = []
    heads: list[tuple[nm.Span, int]] = []  # multiword names away from a sentence start, by sentence
    inner = inner_capitals(us)
    for i, u in enumerate(us):
        spans_of.append(_sentence_mentions(u, i, cands, heads, profile, lower, inner))
    return cands, spans_of, heads


_OWNER_AFTER = re.compile(r"\s*(?::|\bto\b|[—–]|-\s)")  # "- [ ] Tom Okoye to send …", "Tom Okoye: …", "… — …"


def _task_spans(plain: str, spans: list[nm.Span], inner: frozenset[str] | None = None,
                lower: ug.Lower | None = None) -> list[nm.Span]:
    """The spans of a checkbox item ("- [ ] Add Zabbix alerts at 80%", "- [x] Sign Cloudsmith 3yr deal"):
    a task opens with its verb, so a run shaped like a person's name at its start whose first word is an
    ordinary English word is the verb and the name after it ("Zabbix", "Cloudsmith"), unless the run is
    the task's owner, written before "to", a colon or a dash ("- [ ] Mark Oduya to book the room").
    With `inner` and `lower` (a table row's cells), the same at each cell's start where the words go on
    after the run, it is no subject and the document writes it only there (`_opens_phrase`): "| Sign
    Egnyte 3yr |", "| Chase Northpoint on NP-88213 |". (Not at a plain list item's start: a list of
    people or of titles opens so, "- Cameron Zwarich on June 22", "- Book Cloud-Native Observability".)"""
    starts = {0} | ({m.end() for m in _CELL_START.finditer(plain)} if inner is not None else set())
    for first in [sp for sp in spans if sp.start in starts and len(sp.tokens) >= 2 and wd.common_word(sp.tokens[0])]:
        if _OWNER_AFTER.match(plain, first.end) or (inner is not None and not _opens_phrase(plain, first, inner, lower)):
            continue
        tail = plain.find(first.tokens[1], first.start + len(first.tokens[0]))
        if any(sp.start == tail for sp in spans):  # (no shorter span of the name after the verb: the run stays)
            spans = [sp for sp in spans if sp is not first]
    return spans


_CELL_START = re.compile(r"\|\s*")
_WORD_AFTER = re.compile(r" [\"'“‘]?([A-Za-z0-9][\w'’-]*)")
_LABEL_AFTER = re.compile(r"(?: [\w-]+){0,2}:")  # "- Google Workspace email: sam@…": a label's words
_INNER_CAPITAL = re.compile(r"(?<=[a-z0-9,] )[A-Z][a-z]+\b")


def inner_capitals(us: list[Unit]) -> frozenset[str]:
    """The capitalised words the document writes after a word of a sentence: names there ("on Google
    Workspace"), whatever they are where they open an item."""
    return frozenset(w for u in us for w in _INNER_CAPITAL.findall(u.plain))


def _opens_phrase(plain: str, span: nm.Span, inner: frozenset[str], lower: ug.Lower | None) -> bool:
    """Does a run at an item's or a cell's start open a phrase with its first word, as a task's verb does
    ("Sign Egnyte 3yr", "Chase Northpoint on NP-88213", "Replace Isilon like-for-like with …")? The
    words go on after it in its cell, not as a subject's verb (an auxiliary, a verb in -ed: "Helen
    Achterberg will ask …", "Ben Ashworth locked out"), an aside ("Tom Okoye (acct mgr)") or a label's
    colon ("Google Workspace email: …"); the
    document writes the run in no other place (a verb and its object seldom recur word for word: "-
    Google Workspace email: …" and "- Google Workspace — 14 users") and never writes its first word
    capitalised after a word of a sentence ("on Google Workspace": there "Google" is a name, no verb)."""
    m = _WORD_AFTER.match(plain, span.end)
    if not m or PERSON_AFTER.match(plain, span.end) or m.group(1).endswith("ed") or _LABEL_AFTER.match(plain, span.end):
        return False
    return span.tokens[0] not in inner and (lower is None or lower.text.count(span.text) < 2)


_ADDRESSED = re.compile(r"\s*(?:,|[—–]|-\s)")


def _salutation_spans(plain: str, spans: list[nm.Span]) -> list[nm.Span]:
    """The spans of a paragraph's first sentence less a greeting's word glued to the name it addresses
    ("Hi Marieke,", "Dear Tomasz,", "Hi Marieke — you're right"): two words opening the paragraph, the
    first an ordinary English word, then a comma or a dash, is a salutation and the name in it (a list
    item opening so names its person: "- Ken Oduya — releases")."""
    first = next((sp for sp in spans if sp.start == 0 and len(sp.tokens) == 2), None)
    if first is None or not wd.common_word(first.tokens[0]) or not _ADDRESSED.match(plain, first.end):
        return spans
    tail = plain.find(first.tokens[1], len(first.tokens[0]))
    return [sp for sp in spans if sp is not first] if any(sp.start == tail for sp in spans) else spans


def _sentence_mentions(u: Unit, i: int, cands: dict[str, Candidate], heads: list[tuple[nm.Span, int]],
                       profile: Profile, lower: ug.Lower, inner: frozenset[str]) -> list[tuple[nm.Span, str]]:
    """The name spans of sentence i, each recorded as a mention of its candidate (a name in a list of
    people is a person); a span neither name-like nor made a name by usage is left out."""
    found: list[tuple[nm.Span, str]] = []
    sentence_spans = _with_profile_spans(nm.plain_spans(u.plain, nm.link_texts(u.raw)), u.plain, profile)
    if u.kind == "item" and u.index == 0 and CHECKBOX.match(u.raw.lstrip()):
        sentence_spans = _task_spans(u.plain, sentence_spans)
    elif u.kind == "row":  # (not a plain list item: "- Cameron Zwarich on June 22", "- Book Cloud-Native …")
        sentence_spans = _task_spans(u.plain, sentence_spans, inner, lower)
    elif u.kind == "paragraph" and u.index == 0:
        sentence_spans = _salutation_spans(u.plain, sentence_spans)
    listed = nm.people_list(u.plain, sentence_spans) if len(sentence_spans) >= 3 else set()
    for k, span in enumerate(sentence_spans):
        span, edition = coined.with_edition(u.plain, span)
        versioned = span.kind != "code" and _VERSION_AFTER.match(u.plain, span.end)
        if span.at_start and versioned:
            span = replace(span, at_start=False)  # the version marks it where the capital cannot
        known = profile.known(span.text)
        ok, strong = (True, True) if known else nm.name_like(span, lower)
        if not ok and versioned and u.kind != "row" and len(span.tokens) == 1 and wd.ACRONYM.match(span.text) \
                and not wd.generic_acronym(span.text) and span.text.casefold() not in lower:
            ok, strong = True, True  # an acronym with a release number is a product's name ("EMQX 5.4")
        elif not ok and span.start and u.plain[:span.start].rstrip().endswith(":") and _field_name(u.plain, span, lower):
            ok, span = True, replace(span, at_start=False)  # a `Label: Name` line's value keeps its capital
        need = 0 if ok else ug.usage_need(span, lower)
        if not ok and not need:
            continue
        name, etype, strong = _name_and_type(u.plain, span, known, strong)
        c = candidate(cands, name, u.first, u.last)
        if len(span.tokens) > 1 and not span.at_start and not known:
            heads.append((span, i))
        if k in listed:
            c.listed = True
            etype = etype or "person"
        _mention(c, span, i, known is not None, need, strong, etype, lower)
        if edition and edition not in c.surfaces:
            c.surfaces.append(edition)
        found.append((span, c.key))
    return found


def _field_name(plain: str, span: nm.Span, lower: ug.Lower) -> bool:
    """The whole value of a `Label: Name` line: one capitalised word, no acronym, rarer than a common word."""
    return len(span.tokens) == 1 and span.text.isalpha() and not wd.ACRONYM.match(span.text) \
        and not _ASIDE.sub("", plain[span.end:]).strip(" .") and span.text.casefold() not in lower \
        and wd.zipf(span.text) < wd.COMMON_ZIPF


def _name_and_type(plain: str, span: nm.Span, known: KnownName | None, strong: bool) -> tuple[str, str, bool]:
    """(the name a span stands for, the type the text gives it, whether it is strong): the profile's
    glossary entry when it lists the span; a company's name without its suffix ("Acme Inc" -> "Acme")."""
    if known:
        return known.name, known.entity_type, strong
    if len(span.tokens) > 1 and nt.COMPANY_SUFFIX.match(span.tokens[-1]):
        return span.text[: span.text.rfind(span.tokens[-1])].rstrip(" ,"), "company", True
    if _COMPANY_TAIL.match(plain, span.end):
        return span.text, "company", strong
    return span.text, _type_at(plain, span), strong


def _mention(c: Candidate, span: nm.Span, i: int, known: bool, need: int, strong: bool, etype: str,
             lower: ug.Lower) -> None:
    """Record one mention of a candidate by a span of sentence i."""
    if len(span.tokens) > 1 and not c.head_free:
        c.head_free = span.tokens[0].casefold() not in lower
    c.kinds.add(span.kind)
    c.known = c.known or known
    if need:
        c.usage = max(c.usage, need)
    else:
        c.vouched = True
    _count_sentence(c, i, not ((span.at_start and not span.subject) or span.kind == "code"))
    c.strong = c.strong or strong
    if etype and not c.entity_type:
        c.entity_type = etype
    if span.text not in c.surfaces:
        c.surfaces.append(span.text)
    if not c.units or c.units[-1] != i:
        c.units.append(i)


def _count_sentence(c: Candidate, i: int, marked: bool) -> None:
    """Count sentence i once among the candidate's marked or loose mentions (recurrence counts sentences,
    not repetitions inside one); a marked mention after a loose one in the same sentence makes it marked."""
    seen_here = bool(c.units) and c.units[-1] == i
    if not seen_here:
        if marked:
            c.marked += 1
        else:
            c.loose += 1
    elif marked and c.loose and not c.marked_units_has(i):
        c.loose -= 1
        c.marked += 1
    if marked:
        c.marked_in.add(i)


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
        if nt.person_like(c.name) and (c.entity_type == "person" or c.listed):
            lasts.setdefault(key_of(c.name.split()[-1]), []).append(c)
    for key, ps in lasts.items():
        single = cands.get(key)
        if single is not None and len(ps) == 1 and single is not ps[0] and not single.defined and not single.fact:
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


def _with_profile_spans(spans: list[nm.Span], plain: str, profile: Profile) -> list[nm.Span]:
    """The sentence's name spans plus where the profile's names occur however they are spelled (a
    listed name is a name by the owner's say-so, lower case included); found spans win on overlap."""
    if not profile.names:
        return spans
    extra = [nm.Span(plain[a:b], a, b, a == 0, "caps", tuple(plain[a:b].split()))
             for a, b in profile.spans(plain) if not any(s.start < b and a < s.end for s in spans)]
    return sorted(spans + extra, key=lambda s: s.start) if extra else spans


def _type_at(plain: str, span: nm.Span) -> str:
    """The type the text gives a name right where it is: "the X service", "X, a database", "@x"."""
    if span.kind == "handle":
        return "person"
    m = _NEXT_WORD.match(plain, span.end)
    if m and (t := nt.type_from_noun(m.group(1))) and t != "person":
        # "the Developer Infrastructure team" names a team; "Accurate team" at a sentence start does not
        if t != "team" or (len(span.tokens) > 1 and not span.at_start):
            return t
    m = APPOSITIVE.match(plain, span.end)
    if m and (t := nt.head_noun_type(m.group("v"))):
        return t
    if nt.person_shape(span.text) and (PERSON_BEFORE.search(plain, max(0, span.start - 30), span.start)
                                       or PERSON_AFTER.match(plain, span.end)):
        return "person"
    return ""


def acts_as_person(c: Candidate, us: list[Unit], spans_of: SpansOf) -> bool:
    for i in c.units:
        for span, key in spans_of[i]:
            if key == c.key and (PERSON_BEFORE.search(us[i].plain, max(0, span.start - 30), span.start)
                                 or PERSON_AFTER.match(us[i].plain, span.end)):
                return True
    return False
