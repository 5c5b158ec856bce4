"""What a document states about its named things: facts attached to their subject ("Ripgrep version
14.1 was released on 2024-01-06", "renews on …", "takes about 12 minutes", "$2,750 / month", "owned by
Lena", "the on-call engineer for billing-api is Lena Vogel") and the statements and appositives about
one ("X is a …", "X, a monitoring vendor,"), each cited. A fact or a typing appositive also vouches for
its candidate (kctui.compiler.builtin.candidates).
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.candidates import APPOSITIVE, Candidate, SpansOf, candidate, key_of
from kctui.compiler.builtin.moved_values import HINTS as MOVED_HINTS
from kctui.compiler.builtin.moved_values import moved_dates
from kctui.compiler.builtin.name_edges import possessor
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, ev
from kctui.compiler.builtin.stated_values import former, speaks
from kctui.compiler.readers import Document
from kctui.core.claims import VERBS, Claim

_VERB_RE = "|".join(re.escape(v) for v in VERBS)
_STATEMENT = re.compile(rf"^\s+({_VERB_RE})\s+(.+?)\.?$", re.S)
_DATE = r"(?:\d{4}-\d{2}-\d{2}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2},? \d{4}|\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4})"
_RELEASE = re.compile(rf"\b(?:version\s+)?(?P<v>v?\d+(?:\.\d+)+[\w.-]*)\s+(?:was|is|will be|got)\s+released\s+(?:on\s+)?(?P<d>{_DATE})")
_RENEW = re.compile(rf"\b(?P<verb>renews|renew|renewed|expires|expire|is due|ends)\s+(?:on\s+|in\s+)?(?P<d>{_DATE})")
# the claim's verb is the sentence's: a contract that "ends on" a date does not "renew on" it
_TERM_VERB = {"renew": "renews on", "renewed": "renews on", "expire": "expires on", "is due": "is due on"}
_DURATION = re.compile(r"\btakes\s+(?P<v>(?:about|around|roughly|approximately|up to|at most|at least|under|over)?\s*"
                       r"\d+(?:\.\d+)?(?:\s*(?:-|–|to)\s*\d+)?\s*(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|ms|s|h))\b")
_PRICE = re.compile(r"(?P<v>(?:US)?[$€£]\s?\d(?:[\d,]*\d)?(?:\.\d+)?\s*[kKmM]?(?:\s*(?:(?:/|per\s)\s*[A-Za-z][A-Za-z-]{0,15}"
                    r"|(?:a|an)\s+(?:month|mo|year|yr|annum|week|wk|day))\b){0,2})")  # (each unit it is per: "£0.28/parcel")
_BY = re.compile(r"\b(?P<verb>owned|maintained|managed|run|operated|led)\s+by\s+(?:@)?(?P<who>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})")
_RUNS = re.compile(r"\bruns(?P<on>\s+on)?\s+(?P<v>[A-Z][\w.+-]*(?:\s+v?\d+(?:\.\d+)+)?)")
_ROLE = re.compile(r"^(?:The|Our)\s+(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})\s+(?:for|of|on)\s+(?P<subj>\S.{0,40}?)\s+"
                   r"(?:is|are|is now)\s+(?P<val>[^,;]{2,60}?)\.?$")
_ROLE_REV = re.compile(r"^(?P<val>\S.{0,40}?)\s+(?:is|are|is now)\s+(?:the|our)\s+(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})\s+"
                       r"(?:for|of|on)\s+(?P<subj>\S.{0,40}?)\.?$")
_POSSESSIVE = re.compile(r"^(?P<subj>\S.{0,40}?)['’]s\s+(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})\s+(?:is|are)\s+(?P<val>[^,;]{2,60}?)\.?$")
_FACT_HINTS = ("released", "renew", "expire", "is due", " ends ", "takes ", "$", "€", "£", " by ", " runs ", " is the ",
               " are the ", " is our ", " are our ", "'s ", "’s ", *MOVED_HINTS)
_COPULA = re.compile(r"\s+(is|are|was|were)\s+((?:a|an|the|our|one of the)\s[^,;:()]{3,150}?)(?:[,;:(]|\.?$)")
# "X (a monitoring vendor)": a noun phrase in brackets, not a clause ("Datadog (our AE there is Rachel Kim)")
_PAREN_DESC = re.compile(r"\s*\(((?:a|an|the|our)\s(?![^()]*\b(?:is|are|was|were|has|have|had|will|can)\b)[^()]{3,80})\)")
_PRONOUN = re.compile(r"^(?:It|Its|This|They|Their)\b")


def statements(doc: Document, us: list[Unit], cands: dict[str, Candidate],
               spans_of: SpansOf) -> tuple[list[Claim], set[tuple[str, int]]]:
    """(the claims, the (candidate key, sentence) pairs they came from); may add the candidates a fact
    names (the person something is owned by)."""
    st = _Statements(doc, us, cands, spans_of)
    for i, u in enumerate(us):
        text = u.text
        if u.kind == "row" or len(text) > MAX_STATEMENT_CHARS * 2 or not (any(h in text for h in _FACT_HINTS)
                                                       or text.startswith(("The ", "Our "))):
            continue
        st.measures(text, u, i)
        st.owners(text, u, i)
        _roles(text, u, i, cands, st.fact)

    # statements "X is/has/uses …" and appositives "X, a monitoring vendor," about a named thing
    for i, u in enumerate(us):
        for span, key in spans_of[i] if u.kind != "row" else ():  # (a table's rows: kctui.compiler.builtin.facts)
            c = cands.get(key)
            if c is not None:
                st.about(c, span, u, i)
    return st.claims, st.claimed


_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s+")


def _clause_start(text: str, pos: int) -> int:
    """Where the sentence that holds `pos` starts in a unit's text (0 when it is the first)."""
    return max((m.end() for m in _SENTENCE_END.finditer(text, 0, pos)), default=0)


class _Statements:
    """The claims of one document about its named things as they are found, and the (candidate key,
    sentence) pairs they came from: one claim of each kind per candidate and sentence."""

    def __init__(self, doc: Document, us: list[Unit], cands: dict[str, Candidate], spans_of: SpansOf) -> None:
        self.doc = doc
        self.us = us
        self.cands = cands
        self.spans_of = spans_of
        self.claims: list[Claim] = []
        self.claimed: set[tuple[str, int]] = set()

    def subject_before(self, i: int, pos: int, people: bool = True) -> Candidate | None:
        """What a fact at `pos` of sentence i is about: the last name before it in its own sentence (a
        unit can hold more than one: "… with Xero and Shopify. £299/month on the Scale plan."), else the
        unit's first name; in a sentence that opens with a pronoun and names nothing before, the first
        name of the sentence before. With `people` false a person is passed over: a price is of what
        is bought, not of who is greeted, quoted or asked to approve it ("Hi Dana, I can't get to
        $2.85", "the quote Tomás got ($148,000/year)", "Jen: opex approved at £96k")."""
        cands = self.cands
        best = first = None
        best_at = 0
        spoke = -1  # where the last name before the value that says or asks for something stands
        opens = _clause_start(self.us[i].text, pos)
        for span, key in self.spans_of[i]:
            if not people and key in cands and cands[key].entity_type == "person":
                continue
            if not people and span.end <= pos and speaks(self.us[i].plain, span.end):
                spoke = span.start  # ("… came in at $1,390/mo — Priyanka negotiating, aiming for under $1,250")
                continue
            if span.end <= pos and key in cands:
                if span.start >= opens:
                    best = cands[key]
                    best_at = span.start
                elif first is None:
                    first = cands[key]
        if spoke >= max(opens, best_at if best is not None else 0):
            return None  # (the value is in what a person of the clause says, asks for or approves)
        if best is None and first is not None:  # "Breww — integrates with Xero. £299/month": Breww's
            return first
        if best is None and i > 0 and _PRONOUN.match(self.us[i].plain) and self.us[i - 1].block == self.us[i].block:
            for span, key in self.spans_of[i - 1]:  # "It is owned by Lena": what the sentence before is about
                if key in cands:
                    return cands[key]
        return best

    def fact(self, c: Candidate, attribute: str, value: str, scope: str, u: Unit, i: int) -> None:
        c.fact = True
        self.claims.append(Claim(c.name, attribute, value, scope, "fact", "statement", ev(self.doc, u.first, u.last)))
        self.claimed.add((c.key, i))

    def statement(self, c: Candidate, verb: str, value: str, u: Unit, i: int) -> None:
        self.claims.append(Claim(c.name, verb, value, "", "statement", "statement", ev(self.doc, u.first, u.last)))
        self.claimed.add((c.key, i))

    def measures(self, text: str, u: Unit, i: int) -> None:
        """A release date, a renewal date, a duration, a price: of the name before each."""
        for m in _RELEASE.finditer(text):
            if c := self.subject_before(i, m.start()):
                self.fact(c, "release date", m.group("d"), m.group("v"), u, i)
        for m in _RENEW.finditer(text):
            if c := self.subject_before(i, m.start()):
                verb = m.group("verb")
                self.fact(c, _TERM_VERB.get(verb, f"{verb} on"), m.group("d"), "", u, i)
        for at, new, _old in moved_dates(text):  # ("the cutover moves from 21 Nov to 28 Nov": moved_values.py)
            if c := self.subject_before(i, at, people=False):
                self.fact(c, "date", new, "", u, i)
        for m in _DURATION.finditer(text):
            if c := self.subject_before(i, m.start()):
                self.fact(c, "takes", " ".join(m.group("v").split()), "", u, i)
        if "$" in text or "€" in text or "£" in text:
            for m in _PRICE.finditer(text):
                if not former(text, m.start()) and (c := self.subject_before(i, m.start(), people=False)):
                    self.fact(c, "price", " ".join(m.group("v").split()), "", u, i)

    def owners(self, text: str, u: Unit, i: int) -> None:
        """Who owns (maintains, runs, …) the name before, a candidate of its own; what it runs (on)."""
        for m in _BY.finditer(text):
            c = self.subject_before(i, m.start())
            who = possessor(m.group("who"))  # "run by Hannah Cole's team": Hannah Cole
            if c and key_of(who) != c.key and not (len(who.split()) == 1 and wd.common_word(who)):
                self.fact(c, f"{m.group('verb')} by", who, "", u, i)
                p = candidate(self.cands, who, u.first, u.last)
                p.fact, p.strong = True, True
                p.kinds.add("caps")
                p.entity_type = p.entity_type or ("person" if nt.person_shape(who) else "")
                if i not in p.units:
                    p.units.append(i)
        for m in _RUNS.finditer(text):
            c = self.subject_before(i, m.start())
            if c and m.group("v").split()[0].casefold() not in wd.FUNCTION_WORDS:
                self.fact(c, "runs on" if m.group("on") else "runs", m.group("v"), "", u, i)

    def about(self, c: Candidate, span: nm.Span, u: Unit, i: int) -> None:
        """A statement about the candidate a span of sentence i names: "X is/has/uses …" where it opens
        the sentence, "…, X is a …" after it, "X (a …)", and the appositive "X, a monitoring vendor,"."""
        text = u.text
        if span.start <= 4 and (span.start == 0 or text[:span.start].strip() in ("The", "the")):
            self._opening(c, span, u, i)
        if span.start > 4 and (c.key, i) not in self.claimed:
            self._after_lead(c, span, u, i)
        pm = _PAREN_DESC.match(u.plain, span.end)
        if pm and (c.key, i) not in self.claimed:
            self.statement(c, "is", pm.group(1).strip(), u, i)
        m = APPOSITIVE.match(u.plain, span.end)
        if m and (c.key, i) not in self.claimed:
            self._appositive(c, m, u, i)

    def _opening(self, c: Candidate, span: nm.Span, u: Unit, i: int) -> None:
        """"X is/has/uses …" where the name opens the sentence (after at most "The")."""
        text = u.text
        head_end = text.find(span.text) + len(span.text) if span.text in text else -1
        m = _STATEMENT.match(text[head_end:]) if head_end > 0 else None
        if m and 3 <= len(m.group(2)) <= MAX_STATEMENT_CHARS and (c.key, i) not in self.claimed:
            self.statement(c, m.group(1), m.group(2).strip(), u, i)

    def _after_lead(self, c: Candidate, span: nm.Span, u: Unit, i: int) -> None:
        """"…, X is a …", "… and X is the …": a copula after a name that opens a clause."""
        lead = u.text[:span.start].rstrip()
        cm = _COPULA.match(u.plain, span.end)
        if cm and (lead.endswith((",", ";", " and", " but", ":")) or lead in ("The", "the")):
            self.statement(c, cm.group(1), cm.group(2).strip(), u, i)

    def _appositive(self, c: Candidate, m: re.Match, u: Unit, i: int) -> None:
        """"X, a monitoring vendor,": a statement when the noun types the name or the name is strong; a
        typing noun also defines it."""
        if m.group("v").split()[1].casefold() in wd.FUNCTION_WORDS or _CLAUSE.search(m.group("v")):
            return  # ("Hi Priya, the price is 5 GBP.": a clause after a greeting's name, no apposition)
        etype = nt.head_noun_type(m.group("v"))
        if etype or c.strong:
            self.statement(c, "is", m.group("v").strip(), u, i)
            c.entity_type = c.entity_type or etype
            c.defined = c.defined or bool(etype)


_CLAUSE = re.compile(r"\s(?:is|are|was|were|has|have|had|will|would|can|could)\s")


def _find_cand(text: str, cands: dict[str, Candidate]) -> Candidate | None:
    t = text.strip().strip("`").removeprefix("the ").removeprefix("The ")
    return cands.get(key_of(t))


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
            c = cands.setdefault(key_of(subj), Candidate(subj, key_of(subj), first=(u.first, u.last)))
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
            p = cands.setdefault(key_of(value), Candidate(value, key_of(value), first=(u.first, u.last)))
            p.fact, p.strong = True, True
            p.kinds.add("caps")
            p.entity_type = p.entity_type or "person"
            if i not in p.units:
                p.units.append(i)
        return
