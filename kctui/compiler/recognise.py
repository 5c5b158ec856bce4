"""Which spans of one document are named things, what type the text gives them, and what the text says
about each: facts attached to their subject ("Ripgrep version 14.1 was released on 2024-01-06",
"renews on …", "takes about 12 minutes", "$2,750 / month", "owned by Lena", "the on-call engineer for
billing-api is Lena Vogel") and the sentences that mention it, each cited.

A candidate becomes an entity only when the document defines it, types it, states a fact about it, or
mentions it at least twice (a marked name); a candidate only ever seen at a sentence start needs more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kctui.compiler import name_types as nt
from kctui.compiler import names as nm
from kctui.compiler import words as wd
from kctui.compiler.extraction import Entity
from kctui.core.claims import VERBS, Claim
from kctui.compiler.profile import Profile
from kctui.compiler.prose import MAX_STATEMENT_CHARS, Defined, Unit, ev
from kctui.compiler.readers import Document
from kctui.core.slugs import identity_key

MAX_NOTES = 3  # sentences kept per named thing per document (besides its facts)
_NEVER = 10 ** 6  # a usage count no document reaches: usage cannot make this a name
_VERB_RE = "|".join(re.escape(v) for v in VERBS)
_STATEMENT = re.compile(rf"^\s+({_VERB_RE})\s+(.+?)\.?$", re.S)
_DATE = r"(?:\d{4}-\d{2}-\d{2}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2},? \d{4}|\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4})"
_RELEASE = re.compile(rf"\b(?:version\s+)?(?P<v>v?\d+(?:\.\d+)+[\w.-]*)\s+(?:was|is|will be|got)\s+released\s+(?:on\s+)?(?P<d>{_DATE})")
_RENEW = re.compile(rf"\b(?:renews|renew|renewed|expires|expire|is due|ends)\s+(?:on\s+|in\s+)?(?P<d>{_DATE})")
_DURATION = re.compile(r"\btakes\s+(?P<v>(?:about|around|roughly|approximately|up to|at most|at least|under|over)?\s*"
                       r"\d+(?:\.\d+)?(?:\s*(?:-|–|to)\s*\d+)?\s*(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|ms|s|h))\b")
_PRICE = re.compile(r"(?P<v>(?:US)?[$€£]\s?\d[\d,]*(?:\.\d+)?\s*[kKmM]?(?:\s*(?:/|per|a|an)\s*(?:month|mo|year|yr|annum|user|seat|host|node))?)")
_BY = re.compile(r"\b(?P<verb>owned|maintained|managed|run|operated|led)\s+by\s+(?:@)?(?P<who>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})")
_RUNS = re.compile(r"\bruns(?P<on>\s+on)?\s+(?P<v>[A-Z][\w.+-]*(?:\s+v?\d+(?:\.\d+)+)?)")
_ROLE = re.compile(r"^(?:The|Our)\s+(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})\s+(?:for|of|on)\s+(?P<subj>\S.{0,40}?)\s+"
                   r"(?:is|are|is now)\s+(?P<val>[^,;]{2,60}?)\.?$")
_ROLE_REV = re.compile(r"^(?P<val>\S.{0,40}?)\s+(?:is|are|is now)\s+(?:the|our)\s+(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})\s+"
                       r"(?:for|of|on)\s+(?P<subj>\S.{0,40}?)\.?$")
_POSSESSIVE = re.compile(r"^(?P<subj>\S.{0,40}?)['’]s\s+(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})\s+(?:is|are)\s+(?P<val>[^,;]{2,60}?)\.?$")
_APPOSITIVE = re.compile(r",\s+(?P<v>(?:a|an|the|our)\s+[^,;:()]{3,80}?)\s*(?:,|\.|;|\)|$)")
_PERSON_BEFORE = re.compile(r"(?:\b(?:by|with|ask|asked|contact|thanks|thank|cc|ping|owner|owners|assignee|lead|from|and|to)\s*:?\s*)$", re.I)
_PERSON_AFTER = re.compile(r"\s+(?:will|said|says|agreed|proposed|owns|leads|asked|suggested|noted|presented|joined|reviewed|"
                           r"wrote|approved|volunteered|runs|maintains|manages|built|fixed|shipped|met|walked|will|is on call|is on-call|to follow up|takes|took|has|had|was|is)\b")
_FACT_HINTS = ("released", "renew", "expire", "is due", " ends ", "takes ", "$", "€", "£", " by ", " runs ", " is the ",
               " are the ", " is our ", " are our ", "'s ", "’s ")
_COPULA = re.compile(r"\s+(is|are|was|were)\s+((?:a|an|the|our|one of the)\s[^,;:()]{3,150}?)(?:[,;:(]|\.?$)")
_PAREN_DESC = re.compile(r"\s*\(((?:a|an|the|our)\s[^()]{3,80})\)")
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)\b")
_CODE = re.compile(r"`[^`]*`")
_PRONOUN = re.compile(r"^(?:It|Its|This|They|Their)\b")
_COMPANY_TAIL = re.compile(r",?\s+(Inc|Ltd|LLC|GmbH|Corp|Corporation|Limited|AG|plc)\b\.?")


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

    def marked_units_has(self, i: int) -> bool:
        return i in self.marked_in

    def passing(self) -> bool:
        """Named in one sentence only, by a span name-like on its own (not only by the document's usage,
        not a code span or identifier, not only ordinary words): a name if another source names it too."""
        if self.marked + self.loose != 1 or not self.vouched or self.usage or self.kinds <= {"code", "ident"}:
            return False
        words = self.name.split()
        if any(w.casefold().removesuffix("s") in wd.CALENDAR for w in words):
            return False  # "Fridays", "March": English capitalises them by convention
        if self.strong:
            return True
        if len(words) == 1 and words[0].endswith("ing"):
            return False  # a gerund heading a title or a link text ("Deploying a change"), not a name
        return self.marked == 1 and not all(wd.common_word(w) for w in words)

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
        if self.loose >= 3 and self.head_free and nt.person_like(self.name) and "caps" in self.kinds:
            return True  # a person's name that opens its sentences or items, three times
        if all(wd.common_word(w) for w in self.name.split()):
            # "Batch Changes": ordinary words as a name need to recur more, unless the document never
            # writes its first word in lower case ("Google Cloud": "Google" is a name there)
            return self.marked >= (2 if self.head_free and len(self.name.split()) > 1 else 3)
        return self.marked >= 2


def _key(text: str) -> str:
    return identity_key(text.strip("`"))


@dataclass
class Recognised:
    entities: list[Entity]
    claims: list[Claim]
    names: dict[str, str]  # identity key of every spelling → entity name
    weak: frozenset[str] = frozenset()  # entities only recurrence vouches for (identity keys)
    used: frozenset[str] = frozenset()  # frequent words the document's usage makes names ("Linear")
    # names the document marks as names in ONE sentence: an entity only when another source mentions
    # them too (kctui.compiler.recurrence), with what this document says about them
    passing: list[Entity] = field(default_factory=list)
    passing_claims: list[Claim] = field(default_factory=list)


def _with_profile_spans(spans: list[nm.Span], plain: str, profile: Profile) -> list[nm.Span]:
    """The sentence's name spans plus where the profile's names occur however they are spelled (a
    listed name is a name by the owner's say-so, lower case included); found spans win on overlap."""
    if not profile.names:
        return spans
    extra = [nm.Span(plain[a:b], a, b, a == 0, "caps", tuple(plain[a:b].split()))
             for a, b in profile.spans(plain) if not any(s.start < b and a < s.end for s in spans)]
    return sorted(spans + extra, key=lambda s: s.start) if extra else spans


def recognise(doc: Document, us: list[Unit], defined: list[Defined], profile: Profile,
              structured: list[Entity], concept_terms: list[str]) -> Recognised:
    lower = nm.lower_words([_CODE.sub(" ", u.plain) if "`" in u.plain else u.plain for u in us])
    cands: dict[str, Candidate] = {}
    spans_of: list[list[tuple[nm.Span, str]]] = []

    def cand(name: str, line: int, end: int) -> Candidate:
        key = _key(name)
        c = cands.get(key)
        if c is None:
            c = cands[key] = Candidate(name, key, first=(line, end))
        return c

    heads: list[tuple[nm.Span, int]] = []  # multiword names away from a sentence start, by sentence
    for i, u in enumerate(us):
        found: list[tuple[nm.Span, str]] = []
        sentence_spans = _with_profile_spans(nm.plain_spans(u.plain, nm.link_texts(u.raw)), u.plain, profile)
        listed = nm.people_list(u.plain, sentence_spans) if len(sentence_spans) >= 3 else set()
        for k, span in enumerate(sentence_spans):
            known = profile.known(span.text)
            ok, strong = (True, True) if known else nm.name_like(span, lower)
            need = 0 if ok else nm.usage_need(span, lower)
            if not ok and not need:
                continue
            name = known.name if known else span.text
            if len(span.tokens) > 1 and nt.COMPANY_SUFFIX.match(span.tokens[-1]) and not known:
                name = span.text[: span.text.rfind(span.tokens[-1])].rstrip(" ,")
                etype = "company"
                strong = True
            elif _COMPANY_TAIL.match(u.plain, span.end) and not known:
                etype = "company"
            else:
                etype = known.entity_type if known else _type_at(u.plain, span)
            c = cand(name, u.first, u.last)
            if len(span.tokens) > 1 and not c.head_free:
                c.head_free = span.tokens[0].casefold() not in lower
            if len(span.tokens) > 1 and not span.at_start and not known:
                heads.append((span, i))
            c.kinds.add(span.kind)
            c.known = c.known or known is not None
            if k in listed:
                c.listed = True
                etype = etype or "person"
            if need:
                c.usage = max(c.usage, need)
            else:
                c.vouched = True
            marked = not (span.at_start or span.kind == "code")
            seen_here = bool(c.units) and c.units[-1] == i
            if not seen_here:  # recurrence counts sentences, not repetitions inside one
                if marked:
                    c.marked += 1
                else:
                    c.loose += 1
            elif marked and c.loose and not c.marked_units_has(i):
                c.loose -= 1
                c.marked += 1
            if marked:
                c.marked_in.add(i)
            c.strong = c.strong or strong
            if etype and not c.entity_type:
                c.entity_type = etype
            if span.text not in c.surfaces:
                c.surfaces.append(span.text)
            if not c.units or c.units[-1] != i:
                c.units.append(i)
            found.append((span, c.key))
        spans_of.append(found)

    # a name of ordinary words the document marks elsewhere also counts where it opens a sentence (there
    # plain_spans drops its capitals as saying nothing): "Language Platform aims to …"
    multi: dict[str, list[Candidate]] = {}
    for c in cands.values():
        if c.marked and " " in c.name:
            multi.setdefault(c.name.split(" ", 1)[0], []).append(c)
    if multi:
        for i, u in enumerate(us):
            if u.index == 0 and u.kind != "paragraph":
                continue  # a list item's or quote's opening words may be a label
            for c in multi.get(u.plain.split(" ", 1)[0], ()):
                if i not in c.units and u.plain.startswith(c.name + " "):
                    c.loose += 1
                    c.units = sorted({*c.units, i})
                    spans_of[i].append((nm.Span(c.name, 0, len(c.name), True, "caps", tuple(c.name.split())), c.key))

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

    # a frequent word the document uses as a name on its own also counts where it heads a longer name
    # ("Google" in "Google Drive", "Google Calendar"): it must occur on its own too
    for span, i in heads:
        c = cands.get(_key(span.tokens[0]))
        if c is not None and c.usage and not c.vouched and i not in c.marked_in:
            c.marked += 1
            c.marked_in.add(i)
            c.units = sorted({*c.units, i})

    for d in defined:
        if d.is_name:
            c = cand(d.term, d.evidence.start, d.evidence.end)
            c.defined, c.strong = True, True
            c.entity_type = c.entity_type or d.entity_type
            c.surfaces += [a for a in d.aliases if a not in c.surfaces]
    for e in structured:
        c = cand(e.name, e.evidence.start, e.evidence.end)
        c.fact, c.strong = True, True
        c.entity_type = c.entity_type or e.entity_type
    concept_keys = {_key(t) for t in concept_terms}
    for d in defined:  # a term defined at a sentence start that the text capitalises elsewhere is a name
        c = cands.get(_key(d.term))
        # (once is enough when the definition types it: "Renovate is a tool for …")
        if not d.is_name and c is not None and (c.marked >= 2 or c.marked and nt.head_noun_type(d.rest)) \
                and d.term[:1].isupper() and (
                len(d.term.split()) > 1 or wd.zipf(d.term) < wd.COMMON_ZIPF):
            c.defined, c.strong = True, True
            c.entity_type = c.entity_type or nt.head_noun_type(d.rest)
            concept_keys.discard(c.key)

    # a lone given name stands for the one person of the document it begins ("Lena" → Lena Vogel)
    people = [c for c in cands.values() if nt.person_shape(c.name)]
    firsts: dict[str, list[Candidate]] = {}
    for p in people:
        firsts.setdefault(_key(p.name.split()[0]), []).append(p)
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

    # a lone surname stands for the one person of the document it ends ("Micay" → Daniel Micay)
    lasts: dict[str, list[Candidate]] = {}
    for c in {id(c): c for c in cands.values()}.values():
        # only a person: "Later Zorblat" is nobody, and "Linux" does not stand for Alpine Linux
        if nt.person_like(c.name) and (c.entity_type == "person" or c.listed):
            lasts.setdefault(_key(c.name.split()[-1]), []).append(c)
    for key, ps in lasts.items():
        single = cands.get(key)
        if single is not None and len(ps) == 1 and single is not ps[0] and not single.defined and not single.fact:
            _fold(ps[0], single)
            cands[key] = ps[0]

    claims: list[Claim] = []
    claimed: set[tuple[str, int]] = set()

    def subject_before(i: int, pos: int) -> Candidate | None:
        best = None
        for span, key in spans_of[i]:
            if span.end <= pos and key in cands:
                best = cands[key]
        if best is None and i > 0 and _PRONOUN.match(us[i].plain) and us[i - 1].block == us[i].block:
            for span, key in spans_of[i - 1]:  # "It is owned by Lena": what the sentence before is about
                if key in cands:
                    return cands[key]
        return best

    def fact(c: Candidate, attribute: str, value: str, scope: str, u: Unit, i: int) -> None:
        c.fact = True
        claims.append(Claim(c.name, attribute, value, scope, "fact", "statement", ev(doc, u.first, u.last)))
        claimed.add((c.key, i))

    for i, u in enumerate(us):
        text = u.text
        if len(text) > MAX_STATEMENT_CHARS * 2 or not (any(h in text for h in _FACT_HINTS)
                                                       or text.startswith(("The ", "Our "))):
            continue
        for m in _RELEASE.finditer(text):
            if c := subject_before(i, m.start()):
                fact(c, "release date", m.group("d"), m.group("v"), u, i)
        for m in _RENEW.finditer(text):
            if c := subject_before(i, m.start()):
                fact(c, "renews on", m.group("d"), "", u, i)
        for m in _DURATION.finditer(text):
            if c := subject_before(i, m.start()):
                fact(c, "takes", " ".join(m.group("v").split()), "", u, i)
        if "$" in text or "€" in text or "£" in text:
            for m in _PRICE.finditer(text):
                if c := subject_before(i, m.start()):
                    fact(c, "price", " ".join(m.group("v").split()), "", u, i)
        for m in _BY.finditer(text):
            c = subject_before(i, m.start())
            who = m.group("who")
            if c and _key(who) != c.key and not (len(who.split()) == 1 and wd.common_word(who)):
                fact(c, f"{m.group('verb')} by", who, "", u, i)
                p = cand(who, u.first, u.last)
                p.fact, p.strong = True, True
                p.kinds.add("caps")
                p.entity_type = p.entity_type or ("person" if nt.person_shape(who) else "")
                p.units.append(i)
        for m in _RUNS.finditer(text):
            c = subject_before(i, m.start())
            if c and m.group("v").split()[0].casefold() not in wd.FUNCTION_WORDS:
                fact(c, "runs on" if m.group("on") else "runs", m.group("v"), "", u, i)
        _roles(text, u, i, cands, fact)

    # statements "X is/has/uses …" and appositives "X, a monitoring vendor," about a named thing
    for i, u in enumerate(us):
        for span, key in spans_of[i]:
            c = cands.get(key)
            if c is None:
                continue
            text = u.text
            if span.start <= 4 and (span.start == 0 or text[:span.start].strip() in ("The", "the")):
                head_end = text.find(span.text) + len(span.text) if span.text in text else -1
                m = _STATEMENT.match(text[head_end:]) if head_end > 0 else None
                if m and 3 <= len(m.group(2)) <= MAX_STATEMENT_CHARS and (c.key, i) not in claimed:
                    claims.append(Claim(c.name, m.group(1), m.group(2).strip(), "", "statement", "statement",
                                        ev(doc, u.first, u.last)))
                    claimed.add((c.key, i))
            if span.start > 4 and (c.key, i) not in claimed:
                lead = text[:span.start].rstrip()
                cm = _COPULA.match(u.plain, span.end)
                if cm and (lead.endswith((",", ";", " and", " but", ":")) or lead in ("The", "the")):
                    claims.append(Claim(c.name, cm.group(1), cm.group(2).strip(), "", "statement", "statement",
                                        ev(doc, u.first, u.last)))
                    claimed.add((c.key, i))
            pm = _PAREN_DESC.match(u.plain, span.end)
            if pm and (c.key, i) not in claimed:
                claims.append(Claim(c.name, "is", pm.group(1).strip(), "", "statement", "statement", ev(doc, u.first, u.last)))
                claimed.add((c.key, i))
            m = _APPOSITIVE.match(u.plain, span.end)
            if m and (c.key, i) not in claimed and not m.group("v").split()[1].casefold() in wd.FUNCTION_WORDS:
                etype = nt.head_noun_type(m.group("v"))
                if etype or c.strong:
                    claims.append(Claim(c.name, "is", m.group("v").strip(), "", "statement", "statement", ev(doc, u.first, u.last)))
                    claimed.add((c.key, i))
                    c.entity_type = c.entity_type or etype
                    c.defined = c.defined or bool(etype)

    # a frequent word that is, or opens, a heading of the document is a reference to that section ("see
    # Alternatives", "the Spotted a flake scenario")
    openers = {" ".join(b.text.strip("#` ").split()).casefold().split(" ", 1)[0] for b in doc.blocks if b.kind == "heading"}
    for c in cands.values():
        if c.usage and not c.vouched and c.name.casefold() in openers:
            c.usage = _NEVER
    used = {k for k, c in cands.items() if c.usage and not c.vouched and nm.clean_title(c.name, common_ok=True)}
    accepted = {k: c for k, c in cands.items() if k not in concept_keys and c.accepted() and (_clean(c.name) or k in used)}
    # a line's label ("Deciders: …") and a section of the document ("see Unresolved Questions") are not names
    headings = {_key(" ".join(b.text.strip("#` ").split())) for b in doc.blocks if b.kind == "heading"}
    passing = {k: c for k, c in cands.items() if k not in concept_keys and k not in accepted and k not in headings
               and c.passing() and _clean(c.name) and not any(a is c for a in accepted.values())
               and not any(doc.lines[n - 1].lstrip("-*+ ").startswith(c.name + ":")
                           for n in range(us[c.units[0]].first, us[c.units[0]].last + 1) if 0 < n <= len(doc.lines))}
    # the sentences that say something about each named thing, each cited
    for c in {id(c): c for c in [*accepted.values(), *passing.values()]}.values():
        notes = 0
        for i in c.units:
            if notes >= MAX_NOTES:
                break
            u = us[i]
            text = u.plain if len(u.plain) <= MAX_STATEMENT_CHARS else _clause(u.plain, c.surfaces)
            if (c.key, i) in claimed or not 16 <= len(text) <= MAX_STATEMENT_CHARS or "\\" in text:
                continue
            claims.append(Claim(c.name, "note", text, "", "fact", "statement", ev(doc, u.first, u.last)))
            claimed.add((c.key, i))
            notes += 1
    entities: list[Entity] = []
    names: dict[str, str] = {}
    for c in sorted({id(c): c for c in accepted.values()}.values(), key=lambda c: (c.first, c.key)):
        etype = c.entity_type
        if not etype and nt.person_shape(c.name) and _acts_as_person(c, us, spans_of):
            etype = "person"
        aliases = tuple(sorted({s for s in c.surfaces if _key(s) != c.key}))
        surface = c.surfaces[0] if c.surfaces else c.name
        line, last = c.first
        if surface not in doc.lines[line - 1] if 0 < line <= len(doc.lines) else False:
            line = next((n for n in range(line, last + 1) if surface in doc.lines[n - 1]), line)
        entities.append(Entity(c.name, etype, surface, aliases, ev(doc, line, line)))
        for s in (c.name, *c.surfaces):
            names[_key(s)] = c.name
    kept = {identity_key(e.name) for e in entities} | {k for k in names}
    once = {identity_key(c.name) for c in passing.values()} - kept
    passing_claims = [cl for cl in claims if identity_key(cl.subject) in once]
    claims = [cl for cl in claims if identity_key(cl.subject) in kept]
    weak = frozenset(identity_key(c.name) for c in accepted.values() if not (c.defined or c.fact or c.known or (c.listed and (len(c.units) >= 2 or nt.person_shape(c.name)))))
    passing_entities = []
    for c in sorted({id(c): c for c in passing.values()}.values(), key=lambda c: (c.first, c.key)):
        if identity_key(c.name) not in once:
            continue
        surface = c.surfaces[0] if c.surfaces else c.name
        line = next((n for n in range(c.first[0], c.first[1] + 1) if 0 < n <= len(doc.lines) and surface in doc.lines[n - 1]),
                    c.first[0])
        passing_entities.append(Entity(c.name, c.entity_type, surface, (), ev(doc, line, line)))
    return Recognised(entities, claims, names, weak, frozenset(k for k in used if k in accepted),
                      passing_entities, passing_claims)


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


def _clause(sentence: str, surfaces: list[str]) -> str:
    """The clause of a long sentence that mentions the name (a verbatim span of it)."""
    parts = re.split(r"(?<=[,;:])\s+|\s+(?=\()", sentence)
    for part in parts:
        if any(s in part for s in surfaces):
            return part.rstrip(",;:")
    return ""


def _clean(name: str) -> bool:
    return nm.clean_title(name)


def _type_at(plain: str, span: nm.Span) -> str:
    """The type the text gives a name right where it is: "the X service", "X, a database", "@x"."""
    if span.kind == "handle":
        return "person"
    m = _NEXT_WORD.match(plain, span.end)
    if m and (t := nt.type_from_noun(m.group(1))) and t != "person":
        # "the Developer Infrastructure team" names a team; "Accurate team" at a sentence start does not
        if t != "team" or (len(span.tokens) > 1 and not span.at_start):
            return t
    m = _APPOSITIVE.match(plain, span.end)
    if m and (t := nt.head_noun_type(m.group("v"))):
        return t
    if nt.person_shape(span.text) and (_PERSON_BEFORE.search(plain, max(0, span.start - 30), span.start)
                                       or _PERSON_AFTER.match(plain, span.end)):
        return "person"
    return ""


def _acts_as_person(c: Candidate, us: list[Unit], spans_of: list) -> bool:  # noqa: ANN001
    for i in c.units:
        for span, key in spans_of[i]:
            if key == c.key and (_PERSON_BEFORE.search(us[i].plain, max(0, span.start - 30), span.start)
                                 or _PERSON_AFTER.match(us[i].plain, span.end)):
                return True
    return False


def _find_cand(text: str, cands: dict[str, Candidate]) -> Candidate | None:
    t = text.strip().strip("`").removeprefix("the ").removeprefix("The ")
    return cands.get(_key(t))


def _roles(text: str, u: Unit, i: int, cands: dict[str, Candidate], fact) -> None:  # noqa: ANN001
    """"The on-call engineer for billing-api is Lena Vogel" and its rephrasings: one attribute of one
    subject, so two sources that disagree open a conflict and two that agree do not."""
    for pattern in (_ROLE, _ROLE_REV, _POSSESSIVE):
        m = pattern.match(text)
        if not m:
            continue
        c = _find_cand(m.group("subj"), cands)
        if c is None:
            subj = m.group("subj").strip().strip("`")
            spans = nm.plain_spans(subj)
            if len(spans) != 1 or spans[0].text != subj or wd.common_phrase(subj):
                continue  # the subject is one name, nothing more
            c = cands.setdefault(_key(subj), Candidate(subj, _key(subj), first=(u.first, u.last)))
            c.kinds.add("caps")
            c.units.append(i)
        value = m.group("val").strip()
        if len(value.split()) > 6 or value.casefold() in wd.FUNCTION_WORDS:
            continue
        attribute = " ".join(m.group("attr").split()).casefold()
        if attribute in wd.FUNCTION_WORDS:
            continue
        fact(c, attribute, value, "", u, i)
        if nt.person_shape(value):
            p = cands.setdefault(_key(value), Candidate(value, _key(value), first=(u.first, u.last)))
            p.fact, p.strong = True, True
            p.kinds.add("caps")
            p.entity_type = p.entity_type or "person"
            if i not in p.units:
                p.units.append(i)
        return
