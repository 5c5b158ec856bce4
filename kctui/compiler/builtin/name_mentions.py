"""Name mentions: every name span of every sentence, recorded as a mention of its candidate.

kctui.compiler.builtin.names finds a sentence's spans; this module reads each where it stands — a task
line opens with its verb ("- [ ] Sign Cloudsmith 3yr deal"), a greeting is glued to the name it
addresses ("Hi Marieke,"), a `Label: Name` line's value keeps its capital, a release number marks a
name where a sentence's capital cannot ("Unleash 5.12 was released …") — and gives it the type the text
gives it right there ("the X service", "X, a database", "asked Lena"). A span neither name-like nor made
a name by the document's usage is left out. The evidence is counted on kctui.compiler.builtin.name_evidence's
`Candidate`; kctui.compiler.builtin.candidates runs the passes over the whole document after this one.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kctui.compiler.builtin import coined
from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_checks import name_like
from kctui.compiler.builtin.name_evidence import Candidate, SpansOf, candidate
from kctui.compiler.builtin.profile import KnownName, Profile
from kctui.compiler.builtin.sentences import CHECKBOX, Unit

APPOSITIVE = re.compile(r",\s+(?P<v>(?:a|an|the|our)\s+[^,;:()]{3,80}?)\s*(?:,|\.|;|\)|$)")
PERSON_BEFORE = re.compile(r"(?:\b(?:by|with|ask|asked|contact|thanks|thank|cc|ping|owner|owners|assignee|lead|from|and|to)\s*:?\s*)$", re.I)
PERSON_AFTER = re.compile(r"\s+(?:will|said|says|agreed|proposed|owns|leads|asked|suggested|noted|presented|joined|reviewed|"
                          r"wrote|approved|volunteered|runs|maintains|manages|built|fixed|shipped|met|walked|will|is on call|is on-call|to follow up|takes|took|has|had|was|is)\b")
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)\b")
_ASIDE = re.compile(r"\s*\([^()]*\)")
# a release number right after a name marks it even where it opens a sentence ("Unleash 5.12 was
# released …"): a rare word the sentence's capital says nothing about, a dotted version says a lot
_VERSION_AFTER = re.compile(r"\s+(?:version\s+)?v?\d+(?:\.\d+)+\b")
_COMPANY_TAIL = re.compile(r",?\s+(Inc|Ltd|LLC|GmbH|Corp|Corporation|Limited|AG|plc)\b\.?")


def mentions(us: list[Unit], profile: Profile,
             lower: ug.Lower) -> tuple[dict[str, Candidate], SpansOf, list[tuple[nm.Span, int]]]:
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
_INNER_CAPITAL = re.compile(r"[A-Z](?<=[a-z0-9,] [A-Z])[a-z]+\b")  # (the capital first: the scan skips to it)


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
        ok, strong = (True, True) if known else name_like(span, lower)
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
    """The whole value of a `Label: Name` line, or of one field of a line of fields ("From: Jonas → To:
    Mireille", "Owner: Tomas | Reviewer: Grace"): one capitalised word, no acronym, rarer than a common word."""
    rest = _ASIDE.sub("", plain[span.end:]).strip(" .")
    return len(span.tokens) == 1 and span.text.isalpha() and not wd.ACRONYM.match(span.text) \
        and (not rest or bool(_NEXT_FIELD.match(rest))) and span.text.casefold() not in lower \
        and wd.zipf(span.text) < wd.COMMON_ZIPF


_NEXT_FIELD = re.compile(r"(?:[|·•]|→|->)\s+[A-Za-z][\w ()/-]{0,30}:\s")  # (the next field of the line)


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
    """Does some sentence treat the candidate as a person: a word before it that credits or addresses
    one ("asked", "thanks", "owner:"), or a verb after it that a person does ("said", "will", "owns")?"""
    for i in c.units:
        for span, key in spans_of[i]:
            if key == c.key and (PERSON_BEFORE.search(us[i].plain, max(0, span.start - 30), span.start)
                                 or PERSON_AFTER.match(us[i].plain, span.end)):
                return True
    return False
