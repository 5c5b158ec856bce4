"""The evidence one document gives for one spelling of a name: a `Candidate`, and the rules that weigh it.

A candidate counts the sentences that mention it — marked (away from a sentence start, shaped, linked)
or loose (a sentence start, a code span), each sentence once, since a name shows itself by recurring
and a repetition inside one sentence says nothing more — and keeps what else the document does with it:
a type the text gives it, a definition or a fact, a list of people that names it, the profile's say-so.
`Candidate.accepted` says whether that evidence makes an entity of it here, `Candidate.passing` whether
it is a name another source may confirm. The candidates are gathered in kctui.compiler.builtin.candidates;
kctui.compiler.builtin.recognise decides and cites.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.core.slugs import identity_key

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
    """The candidate's key of a spelling: its identity key, a code span's marks left out."""
    return identity_key(text.strip("`"))


def candidate(cands: dict[str, Candidate], name: str, line: int, end: int) -> Candidate:
    """The candidate of this spelling, created at its first line when it is new."""
    key = key_of(name)
    c = cands.get(key)
    if c is None:
        c = cands[key] = Candidate(name, key, first=(line, end))
    return c


def vouched(cands: dict[str, Candidate], text: str, kind: str, i: int, line: int, end: int) -> Candidate:
    """The candidate of a span a rule of recall vouches for (its `kind`, at unit `i` on lines `line`–`end`): its
    kind and surface noted, unit `i` among its units, counted as a loose mention the first time."""
    c = candidate(cands, text, line, end)
    c.kinds.add(kind)
    c.vouched = True
    if text not in c.surfaces:
        c.surfaces.append(text)
    if i not in c.units:
        c.units = sorted({*c.units, i})
        c.loose += 1
    return c
