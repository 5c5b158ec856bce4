"""Recall first: which named things a sentence states a fact about, by its structure, not its phrasing.

A sentence (or list item) states a fact about a name when it holds a value — a token with a digit (a
version, a date, an amount, a duration, a count), a month or weekday (dateutil's own calendar words) —
or when the name is its subject (the first name, after at most a short lead and a `Label:`, with more
said after it), or the value of a `Key: Name` shape. Every name of a sentence with a value is what the
value is said of ("Postgres 16", "renews on 2026-09-30"); without a value only the subject is, and a
bare passing mention stays on the source page.

Names come from the candidates of kctui.compiler.builtin.candidates (never one whose only capital is a
sentence start), plus a code span shaped as an identifier (`checkout-db`, `etl-01`), which only a fact
vouches for. `fact_mentions` returns the (candidate key, sentence) pairs and
creates the candidates it admits; kctui.compiler.builtin.recognise cites each pair.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.candidates import Candidate, SpansOf, candidate, key_of
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, ev
from kctui.compiler.readers import Document
from kctui.core.claims import Claim

_DIGIT_TOKEN = re.compile(r"(?<![\w@/#])[~≈<>+]?[$€£¥]?\d[\w.,:/%–+-]*")
_WORD = re.compile(r"[A-Za-z]+")
_LABEL = re.compile(r"^(?:[^\W\d][\w'’ -]{0,40}?|\*\*[^*]{1,40}\*\*):\s+")
_CODE = re.compile(r"`([^`\s]{2,60})`")
_CODE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)+$|^[A-Za-z]+\d+[a-z0-9]*$")
SUBJECT_LEAD = 2  # words a subject may follow ("The", "Our new")


@lru_cache(maxsize=1)
def _calendar() -> object:
    from dateutil.parser import parserinfo

    return parserinfo()


@lru_cache(maxsize=65536)
def _calendar_word(word: str) -> bool:
    """A month (capitalised: "may" is a verb) or a weekday, as dateutil reads them."""
    info = _calendar()
    if len(word) < 3:
        return False
    if info.weekday(word) is not None:  # type: ignore[attr-defined]
        return True
    return word[0].isupper() and info.month(word) is not None  # type: ignore[attr-defined]


def value_spans(text: str) -> list[tuple[int, int]]:
    """Where the sentence holds a value: digit tokens and calendar words."""
    out = [(m.start(), m.end()) for m in _DIGIT_TOKEN.finditer(text)]
    out += [(m.start(), m.end()) for m in _WORD.finditer(text) if _calendar_word(m.group(0))]
    return out


def _subject(plain: str, spans: list[tuple[nm.Span, str]]) -> int:
    """The index of the span that is the sentence's subject, or -1: the first name, after a `Label:` and
    at most SUBJECT_LEAD words, with at least two words said after it."""
    if not spans:
        return -1
    span = spans[0][0]
    lead = plain[:span.start]
    label = _LABEL.match(lead)
    if label:
        lead = lead[label.end():]
    if len(lead.split()) > SUBJECT_LEAD or lead.rstrip().endswith((",", "(", "/")):
        return -1
    rest = plain[span.end:]
    if rest.lstrip()[:1] in (":", ")") or len(_WORD.findall(rest)) < 2:
        return -1
    return 0


def about(plain: str, spans: list[tuple[nm.Span, str]]) -> tuple[list[str], bool]:
    """The keys of the names the sentence states a fact about (see the module's docstring), and whether
    it holds a value."""
    spans = [(s, k) for s, k in spans if _name_span(plain, s)]
    if not spans:
        return [], False
    inside = [(s.start, s.end) for s, _ in spans]
    values = [v for v in value_spans(plain) if not any(a <= v[0] < b for a, b in inside)]
    if values:
        return [k for _, k in spans], True
    found = []
    if _subject(plain, spans) == 0:
        found.append(spans[0][1])
    label = _LABEL.match(plain)
    if label:  # "Owner: Tomas", "On-call this week: Tomas"
        found += [k for s, k in spans if s.start >= label.end() and k not in found]
    return found, False


def _name_span(plain: str, span: nm.Span) -> bool:
    """Not a label opening the sentence ("Rollback: …"), not the local part of an address."""
    after = plain[span.end:span.end + 2].lstrip()
    if after.startswith("@") or (span.start and plain[span.start - 1] == "@" and span.kind != "handle"):
        return False
    return not (span.at_start and after.startswith(":"))


def fact_mentions(us: list[Unit], cands: dict[str, Candidate], spans_of: SpansOf,
                  lower: nm.Lower) -> tuple[set[tuple[str, int]], set[str]]:
    """(candidate key, sentence index) for every fact a sentence states about a name, and the keys of
    the names a value is stated of; the names only a fact vouches for are added to `cands`."""
    pairs: set[tuple[str, int]] = set()
    valued: set[str] = set()
    for i, u in enumerate(us):
        spans = [(s, k) for s, k in spans_of[i] if k in cands and _usable(cands[k])]
        extra = _extra_spans(u, i, spans_of[i], cands, lower)
        if extra:
            spans = sorted(spans + extra, key=lambda sk: sk[0].start)
        keys, value = about(u.plain, spans)
        pairs.update((key, i) for key in keys)
        if value:
            valued.update(keys)
    return pairs, valued


def _usable(c: Candidate) -> bool:
    """A candidate a fact can make an entity: name-like somewhere on its own, a clean title."""
    if c.defined or c.known or c.listed or c.fact:
        return True
    if not c.vouched or not nm.clean_title(c.name) or any(
            w.casefold().removesuffix("s") in wd.CALENDAR for w in c.name.split()):
        return False
    if c.kinds <= {"caps"} and not c.marked:
        return False  # its only capital is a sentence start
    if c.kinds <= {"ident"}:  # a hyphenated word ("re-auth", "soak-test") unless it recurs or is code-shaped
        return _ident_shape(c.name) and (len(c.units) >= 2 or wd.ident_name(c.name))
    return True


def _ident_shape(token: str) -> bool:
    """A lower-case identifier that is not an English compound: no prefix, closed-class or suffixed part."""
    parts = [p for p in re.split(r"[-_.]", token) if p]
    return len(parts) >= 2 and not (parts[0] in wd.PREFIXES or any(
        p in wd.FUNCTION_WORDS or p.endswith(wd.WORD_SUFFIX) for p in parts))


def _extra_spans(u: Unit, i: int, have: list[tuple[nm.Span, str]], cands: dict[str, Candidate],
                 lower: nm.Lower) -> list[tuple[nm.Span, str]]:
    """Names of the sentence the candidates' rules leave out but a fact vouches for: an opening rare
    word, a code span shaped as an identifier; each added as a candidate (not yet accepted)."""
    taken = [(s.start, s.end) for s, _ in have]
    out: list[tuple[nm.Span, str]] = []
    for span in _code_spans(u.plain):
        if any(a < span.end and span.start < b for a, b in taken) or span.text.casefold() in lower:
            continue
        c = candidate(cands, span.text, u.first, u.last)
        c.kinds.add(span.kind)
        c.vouched = True
        if span.text not in c.surfaces:
            c.surfaces.append(span.text)
        if i not in c.units:
            c.units = sorted({*c.units, i})
            c.loose += 1
        out.append((span, c.key))
        taken.append((span.start, span.end))
    return out


def _code_spans(plain: str) -> list[nm.Span]:
    out = []
    for m in _CODE.finditer(plain):
        inner = m.group(1)
        if _CODE_NAME.match(inner) and not wd.placeholder(inner) and not key_of(inner).replace(".", "").isdigit() \
                and not nm.code_identifier(inner) and not nm.junk_token(inner):
            out.append(nm.Span(inner, m.start(), m.end(), m.start() == 0, "code", (inner,)))
    return out



LINE_ORIGIN = "line"  # a source's own statement: cited on its source page, routed to no other page


def line_statements(doc: Document, us: list[Unit], claims: list[Claim]) -> list[Claim]:
    """Every sentence, list item and table row no claim cites yet, as a statement of the source page
    (attribute "note" of the document, origin LINE_ORIGIN): nothing the source says is dropped."""
    covered: set[int] = set()
    for c in claims:
        covered.update(range(c.evidence.start, c.evidence.end + 1))
    return _sentence_statements(doc, us, covered) + _row_statements(doc, covered)


def _sentence_statements(doc: Document, us: list[Unit], covered: set[int]) -> list[Claim]:
    """The sentences and list items whose first line no claim cites."""
    out: list[Claim] = []
    for u in us:
        if u.first not in covered and 3 <= len(u.plain) <= MAX_STATEMENT_CHARS * 2 and "\\" not in u.plain \
                and "<" not in u.raw:  # (an autolink's or an escape's text is not what the line says)
            out.append(Claim(doc.title, "note", u.plain, "", "fact", LINE_ORIGIN, ev(doc, u.first, u.last)))
    return out


def _row_statements(doc: Document, covered: set[int]) -> list[Claim]:
    """The table rows (below the header) no claim cites, their cells joined by " | "."""
    out: list[Claim] = []
    for block in doc.blocks:
        if block.kind != "table":
            continue
        for line, cells in block.rows[1:]:
            text = " | ".join(c.strip() for c in cells if c.strip())
            if line not in covered and text and len(text) <= MAX_STATEMENT_CHARS * 2 and "\\" not in text:
                out.append(Claim(doc.title, "note", text, "", "fact", LINE_ORIGIN, ev(doc, line, line)))
    return out
