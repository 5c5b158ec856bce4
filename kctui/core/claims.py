"""Claims and their line grammar (wiki.md §4), in the pure core: the typed claim the compiler extracts
and the page stores, its stable id, and how a claim line with its citation is written and read back.

    * **Apache Kafka** (4.3) — latest: 4.3.1 ^[products/apache-kafka.md:L39-L39]      (a fact)
    * **Apache Kafka** is an open-source event streaming platform ^[products/apache-kafka.md:L270-L272]
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache

from kctui.core.slugs import identity_key
from kctui.core.values import attribute_key, normalise_value, scope_key, split_unit

# Confidence by where a claim came from: structure is read, prose is guessed.
CONFIDENCE = {
    "frontmatter": 0.95,
    "table": 0.9,
    "deflist": 0.85,
    "abbreviation": 0.9,
    "kv": 0.85,
    "definition": 0.75,
    "heading": 0.6,
    "statement": 0.6,
}
# Verbs of extractive prose statements ("X is Y"), longest first where one is a prefix of another.
VERBS = (
    "refers to", "is not", "are not", "is", "are", "was", "were", "has", "have", "had", "costs", "supports",
    "requires", "provides", "uses", "includes", "contains", "offers", "became", "remains", "means", "denotes",
)
# Attributes whose values are descriptions, never single facts: different sources may hold different
# ones without contradicting each other.
DESCRIPTIVE_ATTRIBUTES = frozenset({"definition", "standsfor", "description", "summary", "note", "notes", "context",
                                    # items of a list, never one value: to-dos, action items, decisions, commands
                                    "todo", "done", "actionitem", "decision", "reason", "command", "takes", "runs",
                                    "runson",
                                    # a speaker's statements in a conversation (kctui.compiler.builtin.conversation)
                                    "said", "plan"})


@dataclass(frozen=True, slots=True, init=False)
class Evidence:
    path: str  # relative to sources/
    start: int  # first line, or page for a PDF
    end: int  # last line (inclusive), or the same page
    digest: str  # the source file's digest when this was read
    unit: str = "line"  # "line" | "page"

    def __init__(self, path: str, start: int, end: int, digest: str, unit: str = "line") -> None:
        _EV_PATH(self, path)  # each slot set directly, as Claim's (below)
        _EV_START(self, start)
        _EV_END(self, end)
        _EV_DIGEST(self, digest)
        _EV_UNIT(self, unit)

    def __reduce__(self) -> tuple:
        """Pickled (an extraction sent back from a worker process) as its constructor's call: the same
        object, without the dataclass's per-object walk over its fields."""
        return Evidence, (self.path, self.start, self.end, self.digest, self.unit)


_EV_PATH, _EV_START, _EV_END, _EV_DIGEST, _EV_UNIT = (Evidence.__dict__[name].__set__
                                                     for name in ("path", "start", "end", "digest", "unit"))


@lru_cache(maxsize=65536)
def _derived(subject: str, attribute: str, value: str, scope: str) -> tuple[str, str, tuple[str, str, str, str], str]:
    """A claim's normalised value, unit, identity key and stable id: a pure function of its four texts
    (one pass builds the same claim several times: read, routed, compared with the previous page)."""
    norm = normalise_value(value)
    unit = split_unit(value)[1].casefold()
    key = (identity_key(subject), attribute_key(attribute), scope_key(scope), unit)
    digest = hashlib.sha256("\x1f".join((key[0], key[1], key[2], norm)).encode("utf-8", "surrogatepass"))
    return norm, unit, key, digest.hexdigest()[:16]


@dataclass(frozen=True, slots=True, init=False)
class Claim:
    """One atomic statement. `form` is "fact" (subject · scope · attribute: value) or "statement"
    (subject verb value, extractive prose); `value` is as the source writes it (inline links dropped).
    The normalised forms and the stable id are computed once, on creation (`__init__` below: a pass
    makes tens of thousands, so each field is set through its slot directly, not through the frozen
    class's `__setattr__` guard; `dataclasses.replace` calls it as any constructor)."""

    subject: str
    attribute: str
    value: str
    scope: str
    form: str
    origin: str
    evidence: Evidence
    norm_value: str = field(init=False, compare=False, repr=False)
    unit: str = field(init=False, compare=False, repr=False)
    key: tuple[str, str, str, str] = field(init=False, compare=False, repr=False)
    claim_id: str = field(init=False, compare=False, repr=False)

    def __init__(self, subject: str, attribute: str, value: str, scope: str, form: str, origin: str,
                 evidence: Evidence) -> None:
        _SET_SUBJECT(self, subject)
        _SET_ATTRIBUTE(self, attribute)
        _SET_VALUE(self, value)
        _SET_SCOPE(self, scope)
        _SET_FORM(self, form)
        _SET_ORIGIN(self, origin)
        _SET_EVIDENCE(self, evidence)
        norm, unit, key, claim_id = _derived(subject, attribute, value, scope)
        _SET_NORM(self, norm)
        _SET_UNIT(self, unit)
        _SET_KEY(self, key)
        _SET_ID(self, claim_id)

    def __reduce__(self) -> tuple:
        """Pickled (an extraction sent back from a worker process) with its derived fields, which the
        receiving process does not compute again: the same object, without the dataclass's per-object walk
        over its fields."""
        return _claim_of, (self.subject, self.attribute, self.value, self.scope, self.form, self.origin, self.evidence,
                           self.norm_value, self.unit, self.key, self.claim_id)

    @property
    def confidence(self) -> float:
        return CONFIDENCE.get(self.origin, 0.6)

    @property
    def is_atomic(self) -> bool:
        """A fact that can contradict another (descriptions and prose statements cannot)."""
        return self.form == "fact" and self.key[1] not in DESCRIPTIVE_ATTRIBUTES

    def to_json(self) -> dict:
        ev = self.evidence
        return {"subject": self.subject, "attribute": self.attribute, "value": self.value, "scope": self.scope,
                "form": self.form, "origin": self.origin,
                "evidence": {"path": ev.path, "start": ev.start, "end": ev.end, "digest": ev.digest, "unit": ev.unit}}


(_SET_SUBJECT, _SET_ATTRIBUTE, _SET_VALUE, _SET_SCOPE, _SET_FORM, _SET_ORIGIN, _SET_EVIDENCE, _SET_NORM, _SET_UNIT,
 _SET_KEY, _SET_ID) = (Claim.__dict__[name].__set__ for name in (
    "subject", "attribute", "value", "scope", "form", "origin", "evidence", "norm_value", "unit", "key", "claim_id"))


def _claim_of(subject: str, attribute: str, value: str, scope: str, form: str, origin: str, evidence: Evidence,
              norm: str, unit: str, key: tuple[str, str, str, str], claim_id: str) -> Claim:
    """A pickled claim again, its derived fields as they were computed (`Claim.__reduce__`)."""
    c = _new_claim(Claim)
    _SET_SUBJECT(c, subject)
    _SET_ATTRIBUTE(c, attribute)
    _SET_VALUE(c, value)
    _SET_SCOPE(c, scope)
    _SET_FORM(c, form)
    _SET_ORIGIN(c, origin)
    _SET_EVIDENCE(c, evidence)
    _SET_NORM(c, norm)
    _SET_UNIT(c, unit)
    _SET_KEY(c, key)
    _SET_ID(c, claim_id)
    return c


_new_claim = object.__new__


def claim_sig(c: Claim) -> tuple:
    return (c.claim_id, c.evidence.path, c.evidence.start, c.evidence.end)


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    evidence: Evidence


_CITE = re.compile(r" \^\[(?P<path>(?:\\.|[^\]\\])+):(?:L(?P<a>\d+)-L(?P<b>\d+)|p(?P<p>\d+))\]$")
_VERB_ALT = "|".join(re.escape(v) for v in VERBS)
_CLAIM = re.compile(
    r"^\* \*\*(?P<subject>(?:\\.|[^*\\])+)\*\*(?: \((?P<scope>(?:\\.|[^)\\])*)\))?"
    rf"(?: — (?P<attr>(?:\\.|[^:\\])+): | (?P<verb>{_VERB_ALT}) )(?P<value>.*)$"
)
_ESCAPABLE = re.compile(r"([\\\[\]<&])")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


# -- citations -----------------------------------------------------------------------------------


def citation(ev: Evidence) -> str:
    path = ev.path.replace("\\", "\\\\").replace("]", "\\]")
    if ev.unit == "page":
        return f"^[{path}:p{ev.start}]"
    return f"^[{path}:L{ev.start}-L{ev.end}]"


def parse_citation_suffix(line: str, digests: dict[str, str]) -> tuple[str, Evidence] | None:
    """Split `text ^[path:L1-L2]` into (text, Evidence); the digest comes from the page's sources."""
    m = _CITE.search(line)
    if not m:
        return None
    path, a, b, p = m.groups()
    if "\\" in path:
        path = _ESCAPED.sub(r"\1", path)
    digest = digests.get(path, "")
    if p:
        ev = Evidence(path, int(p), int(p), digest, "page")
    else:
        ev = Evidence(path, int(a), int(b), digest)
    return line[: m.start()], ev


# -- text escaping (outside code spans: backslash, brackets, < and & so values never form links or HTML)


def _segments(text: str) -> list[tuple[bool, str]]:
    """(is_code, segment) pieces of inline text, code spans per CommonMark backtick-run matching."""
    out: list[tuple[bool, str]] = []
    pos = 0
    for m in _CODE_SPAN.finditer(text):
        if m.start() > pos:
            out.append((False, text[pos : m.start()]))
        out.append((True, m.group(0)))
        pos = m.end()
    if pos < len(text):
        out.append((False, text[pos:]))
    return out


def escape_text(text: str) -> str:
    if not _ESCAPABLE.search(text):
        return text
    return "".join(seg if code else _ESCAPABLE.sub(r"\\\1", seg) for code, seg in _segments(text))


def unescape_text(text: str) -> str:
    if "\\" not in text:
        return text
    return "".join(seg if code else re.sub(r"\\([\\\[\]<&])", r"\1", seg) for code, seg in _segments(text))


# -- claim lines ----------------------------------------------------------------------------------


_SUBJECT_SPECIAL = re.compile(r"([\\*\[\]<&])")
_SCOPE_SPECIAL = re.compile(r"([\\()\[\]<&*])")
_ATTR_SPECIAL = re.compile(r"([\\:\[\]<&*])")
_ESCAPED = re.compile(r"\\(.)")


# a page's claim lines repeat its subject, attributes and scopes: each escaped once
@lru_cache(maxsize=65536)
def _esc_subject(text: str) -> str:
    return _SUBJECT_SPECIAL.sub(r"\\\1", text)


@lru_cache(maxsize=65536)
def _esc_scope(text: str) -> str:
    return _SCOPE_SPECIAL.sub(r"\\\1", text)


@lru_cache(maxsize=65536)
def _esc_attr(text: str) -> str:
    return _ATTR_SPECIAL.sub(r"\\\1", text)


def _unesc(text: str) -> str:
    if "\\" not in text:
        return text
    return _ESCAPED.sub(r"\1", text)


def claim_line(claim: Claim) -> str:
    subject = _esc_subject(claim.subject)
    value = escape_text(claim.value)
    if claim.form == "statement":
        body = f"* **{subject}** {claim.attribute} {value}"
    else:
        scope = f" ({_esc_scope(claim.scope)})" if claim.scope else ""
        body = f"* **{subject}**{scope} — {_esc_attr(claim.attribute)}: {value}"
    return f"{body} {citation(claim.evidence)}"


def parse_claim_line(line: str, digests: dict[str, str]) -> Claim | None:
    split = parse_citation_suffix(line, digests)
    if not split:
        return None
    text, ev = split
    m = _CLAIM.match(text)
    if not m:
        return None
    subject = _unesc(m.group("subject"))
    value = unescape_text(m.group("value"))
    if m.group("verb"):
        return Claim(subject, m.group("verb"), value, "", "statement", "statement", ev)
    scope = _unesc(m.group("scope") or "")
    return Claim(subject, _unesc(m.group("attr")), value, scope, "fact", "fact", ev)




_READ: dict[str, Claim] = {}  # claim line -> its claim, as `read_claim_line` last read it
READ_KEPT = 65536  # lines remembered at most (then the memory starts again)


def read_claim_line(line: str, digests: dict[str, str]) -> Claim | None:
    """`parse_claim_line`, remembered per line (speed only, the same claim: a frozen one). A long-lived
    worker reads the pages a pass changes in the next one (a hub page of a hundred sources every pass), and
    most of their lines are the lines it wrote; a claim is read again where its source's digest differs."""
    claim = _READ.get(line)
    if claim is not None and claim.evidence.digest == digests.get(claim.evidence.path, ""):
        return claim
    claim = parse_claim_line(line, digests)
    if claim is not None:
        if len(_READ) >= READ_KEPT:
            _READ.clear()
        _READ[line] = claim
    return claim
