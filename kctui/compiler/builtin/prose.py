# size: the prose rules (sentence and heading definitions, follow-ups, concept notes, summary, questions) share the term tests (good_term, marked_as_name); each rule is a short named function.
"""Prose: defined terms, the summary and the questions, from the sentences of kctui.compiler.builtin.sentences.

Every claim is extractive: its value is a span of the sentence it came from, and its evidence is the
line range that sentence occupies. A definition is a sentence whose grammar defines ("X is a …",
"X refers to …", "… called *X*", "**X**: …"); the defined thing is an entity when the text marks it as
a name (capitalised past the first word, an inner capital or digit, rare as an English word), else a
concept. A heading never makes a concept by itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import people_signals
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.sentences import (
    CHECKBOX,
    MAX_STATEMENT_CHARS,
    Unit,
    bare,
    ev,
    line_of,
    split_plain,
    units,
)
from kctui.compiler.extraction import Concept
from kctui.compiler.readers import Block, Document
from kctui.core.claims import Claim, Evidence, Question
from kctui.core.values import strip_inline

MAX_QUESTIONS = 8
_TERM = r"(?P<art>(?:A|An|The)\s+)?(?P<term>[^\s,;:()][^,;:()]{0,58}?)(?:\s+\((?P<alias>[^()]{1,20})\))?"
_DEF_IS = re.compile(_TERM + r"\s+(?P<verb>is|are)\s+(?P<rest>(?:a|an|the|one|any|some|our|your|when|where)\s.+?)\.?$", re.S)
_DEF_MEANS = re.compile(_TERM + r"\s+(?P<verb>refers to|means|denotes|stands for)\s+(?P<rest>.+?)\.?$", re.S)
_DEF_HINTS = (" is ", " are ", " refers to ", " means ", " denotes ", " stands for ", "called", "known as", "termed",
              "we call", "referred to", "dubbed")
_CALLED = re.compile(
    r"(?:\bcalled|\bknown as|\btermed|\bwe call(?: this| these| it| them)?|\breferred to as|\bdubbed)\s+"
    r"(?:an?\s+|the\s+)?(?:(?P<m>\*\*|\*|_)(?P<term>[^*_\n]{2,60}?)(?P=m)|[\"“](?P<quoted>[^\"“”\n]{2,60}?)[\"”])"
)
_CALLED_WORDS = ("call", "known as", "termed", "referred to as", "dubbed")  # what _CALLED and _CALLED_BARE need
_BOLD_LEAD = re.compile(r"^(?P<m>\*\*|__)(?P<term>[^*_\n]{2,60}?)(?::(?P=m)|(?P=m)\s*(?::|—|–|-))\s+(?P<rest>\S.*)$", re.S)
# a list item that opens with a term in a code span and a colon: "- `matcher`: the left-hand side of …"
_CODE_LEAD = re.compile(r"^`(?P<term>[^`\n]{1,60})`\s*:\s+(?P<rest>\S.*)$", re.S)
# a marked term (code, emphasis or quotes) anywhere in the sentence, then a defining verb:
# "… at this stage `CStr` is defined as a newtype …", "In this document, the "syntax environment" refers to …"
_MARKED_MEANS = re.compile(
    r"(?:^|[\s,(])(?:(?:the|an?)\s+)?(?P<m>`|\*\*|\*|\"|“)(?P<term>[^`*\"“”\n]{2,60}?)(?:`|\*\*|\*|\"|”)"
    r"\s+(?P<verb>is|are|refers to|means|denotes)\s+(?P<rest>(?<=is |re )defined as\s\S.+?|(?<!is |re )\S.+?)[.:]?$", re.S)
# an unmarked term named at the end of a sentence or a parenthesis: "… are called (by the author) view
# items.", "(dubbed rlibs)"; lower-case words only, not an adverb or a participle ("is called often")
_CALLED_BARE = re.compile(
    r"(?:\bare|\bis|\bwere|\bwas|\()\s*(?:called|known as|termed|dubbed|referred to as)\s+(?:\([^()]{1,30}\)\s+)?"
    r"(?P<term>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,2})(?:\)|\.?$)")
_PRONOUN_LEAD = re.compile(r"^(?:It|They|This|These|Its|Their|Each)\b")
_SUMMARY_HEADINGS = frozenset({"summary", "abstract", "overview", "introduction", "tl;dr"})


_INNER_OK = frozenset({"of", "and", "for", "in", "on", "to", "as", "at", "by", "with"})
_AUTOLINK = re.compile(r"(<(?:https?|mailto):[^>\s]+>)")  # kept as written in a summary
_GENERIC = re.compile(r"^`([A-Za-z_][\w:]*)<[^`<>]*>`$")
_PAREN_ALIAS = re.compile(r"^(?P<name>.+?)\s*\((?P<alias>[^()\s]{1,12})\)$")


def good_term(term: str) -> str | None:
    """A defined term: a short noun phrase, not a pronoun, question or fragment of code."""
    inline = _code_term(strip_inline(term).strip())
    if inline is None:
        return None  # part code, part prose: not a term as the text writes it
    raw = bare(inline)
    if raw.endswith("?"):
        return None
    term = raw.strip(" .,:;!\"'")
    words = term.split()
    if not (2 <= len(term) <= 60) or not words or len(words) > 6 or wd.placeholder(term):
        return None
    if _stray_function_word(words):
        return None
    if not (term[0].isalnum() or term[0] == "#"):
        return None
    return term if _plain_term(term) else None


def _code_term(inline: str) -> str | None:
    """The term as written, a generic type reduced to the type ("`Searcher<'a>`": the type the
    parameters belong to); None when it is part code, part prose."""
    if inline[:1] == "`" and (g := _GENERIC.match(inline)):
        inline = f"`{g.group(1)}`"
    if "`" in inline and not (inline.startswith("`") and inline.endswith("`") and inline.count("`") == 2):
        return None
    return inline


def _stray_function_word(words: list[str]) -> bool:
    """A closed-class word at either end of the phrase, or inside it unless it joins nouns ("of", "and")."""
    return any(w.casefold() in wd.FUNCTION_WORDS and (i in (0, len(words) - 1) or w.casefold() not in _INNER_OK)
               for i, w in enumerate(words))


def _plain_term(term: str) -> bool:
    """Mostly letters, digits and spaces, and none of the characters of code, markup or a path."""
    plain = sum(ch.isalnum() or ch.isspace() or ch in "-_'.+" for ch in term)
    return not (plain < 0.85 * len(term) or any(ch in term for ch in "|;=/\\{}<>$\"“”[]"))


def one_common_word(term: str) -> bool:
    """A term that is one ordinary English word ("name", "read", "environment"): too general to title a
    page of its own unless the text defines it as a term in so many words ("An incident is any …").
    A hyphenated compound ("drop-flag") is not one word: wordfreq scores it by its parts."""
    words = term.strip("`'").split()
    return len(words) == 1 and "-" not in words[0].strip("-") and wd.common_word(words[0])


# "is a more readable name than …", "is a better fit": a comparison, not what the thing is
_COMPARISON = re.compile(r"^(?:(?:a|an|the|much|far|no)\s+)?(?:more|less|better|worse|clearer|simpler|nicer)\b")


def marked_as_name(term: str, at_start: bool) -> bool:
    """Does the text mark a defined term as a name (→ an entity) rather than a common noun (→ a concept)?"""
    words = term.split()
    if any(wd.shaped(w) for w in words) or len(words) == 1 and wd.IDENT.match(term):
        return True
    caps = [w for w in words if w[:1].isupper()]
    if len(words) > 1:
        return len(caps) == len(words) or (len(caps) >= 2 and not at_start)
    w = words[0]
    if not w[:1].isupper():
        return False
    if wd.acronym(w):
        return wd.zipf(w) < wd.COMMON_ZIPF - 0.5
    return wd.zipf(w) < wd.RARE_ZIPF or not at_start and wd.zipf(w) < wd.COMMON_ZIPF


@dataclass(frozen=True, slots=True)
class Defined:
    term: str
    aliases: tuple[str, ...]
    is_name: bool
    entity_type: str
    evidence: Evidence
    unit: Unit | None
    rest: str = ""  # what the definition says it is
    origin: str = "definition"  # or "glossary": a `**Term**: …` item


def definitions(doc: Document, us: list[Unit]) -> tuple[list[Defined], list[Claim]]:
    """Defined terms and their definitional claims. Values are spans of the sentence as written (code
    and emphasis marks kept), so that they are found in the cited lines."""
    found: list[Defined] = []
    claims: list[Claim] = []
    for u in us:
        got = _definition(doc, u)
        if got is not None:
            found.append(got[0])
            claims.append(got[1])
    return found, claims


def _definition(doc: Document, u: Unit) -> tuple[Defined, Claim] | None:
    """The term one sentence defines and its claim: a glossary item's lead, else the first of the
    sentence rules (_SENTENCE_RULES) that finds one."""
    text, plain = u.text, u.plain
    if u.index == 0 and plain[:1] in "*_`":
        got = _glossary_lead(doc, u)
        if got is not None:
            return got
        m = _BOLD_LEAD.match(plain)
        if m and (_DEF_IS.match(bare(m.group("rest"))) or _DEF_MEANS.match(bare(m.group("rest")))):
            plain = m.group("rest")  # "**Unsafe traits:** An *unsafe trait* is a trait …": the inner definition
            text = bare(plain)
    if not any(h in text for h in _DEF_HINTS):
        return None
    e = ev(doc, u.first, u.last)
    for rule in _SENTENCE_RULES:
        got = rule(plain, e, u)
        if got is not None:
            return got
    return None


_STATEMENT_VERBS = ("is", "are", "refers to", "means", "denotes")


def _is_definition(plain: str, e: Evidence, u: Unit) -> tuple[Defined, Claim] | None:
    """"X is a …", "X refers to …" (with an alias in parentheses: "X (Y) is …")."""
    m = _DEF_IS.match(plain) or _DEF_MEANS.match(plain)
    if not m or not (term := good_term(m.group("term"))) or not _defines_term(m, term, plain):
        return None
    rest = m.group("rest").strip().rstrip(":").rstrip()
    if len(rest) > MAX_STATEMENT_CHARS or len(rest.split()) < 2:
        return None
    alias = (m.group("alias") or "").strip()
    d = _defined(term, (alias,) if alias and good_term(alias) else (), e, u, rest)
    verb = m.group("verb")
    if verb in _STATEMENT_VERBS:
        return d, Claim(d.term, verb, rest, "", "statement", "definition", e)
    return d, Claim(d.term, "stands for", rest, "", "fact", "definition", e)


def _defines_term(m: re.Match, term: str, plain: str) -> bool:
    """Does "X is …" define its term? Not when the term is not written as such, a common word without an
    indefinite article, "The x" of a common noun, one common word that "means" something, or a
    comparison ("The main alternative is …", "`name` denotes …")."""
    art = m.group("art")
    if not _as_written(term.split(" (")[0], plain):
        return False
    if art != "A " and art != "An " and wd.common_phrase(term) and len(term.split()) == 1:
        return False
    if art == "The " and not marked_as_name(term, False):
        return False
    if m.group("verb") not in ("is", "are") and one_common_word(term):
        return False
    return not _COMPARISON.match(m.group("rest"))


def _marked_definition(plain: str, e: Evidence, u: Unit) -> tuple[Defined, Claim] | None:
    """A marked term anywhere in the sentence, then a defining verb ("… `CStr` is defined as …")."""
    m = _MARKED_MEANS.search(plain)
    # a code span or quotes around one ordinary word mark a literal ("`name` denotes the span's
    # identifier"), not a term of the text; a comparison ("`peek` is a clearer name") defines nothing
    if not m or not (term := good_term(m.group("term"))) or one_common_word(term) or _COMPARISON.match(m.group("rest")):
        return None
    rest = m.group("rest").strip().rstrip(":").rstrip()
    if len(rest) > MAX_STATEMENT_CHARS or len(rest.split()) < 2:
        return None
    d = _defined(term, (), e, u, rest)
    return d, Claim(d.term, m.group("verb"), rest, "", "statement", "definition", e)


def _called_definition(plain: str, e: Evidence, u: Unit) -> tuple[Defined, Claim] | None:
    """"… called *X*", "… known as "X"", "… are called view items.": the sentence defines the term."""
    term = _called_term(plain)
    # wordfreq scores a compound ("drop-flag") by its parts: not one common word
    if not term or (len(term.split()) == 1 and "-" not in term.strip("-") and wd.common_word(term)):
        return None
    value = plain.rstrip(".")
    if len(value) > MAX_STATEMENT_CHARS:
        return None
    d = _defined(term, (), e, u, "")
    return d, Claim(d.term, "definition", value, "", "fact", "definition", e)


def _called_term(plain: str) -> str | None:
    """The term a "called"/"known as" phrase names: marked, else lower-case words at the end. (Both
    patterns need one of `_CALLED_WORDS` as written: a sentence without any is looked at no further.)"""
    if not any(w in plain for w in _CALLED_WORDS):
        return None
    c = _CALLED.search(plain)
    term = c and good_term(c.group("term") or c.group("quoted"))
    if term:
        return term
    c = _CALLED_BARE.search(plain)
    term = c and good_term(c.group("term"))
    if term and any(w.endswith(("ly", "ed", "ing")) for w in term.split()):
        return None  # "is called often", "is known as expected": not a name for anything
    return term


# a sentence's definition: the first of these that finds one
_SENTENCE_RULES = (_is_definition, _marked_definition, _called_definition)


def _glossary_lead(doc: Document, u: Unit) -> tuple[Defined, Claim] | None:
    """A list item or paragraph that opens with a term in bold or in a code span and a colon:
    "**Term**: what it is", "- `matcher`: the left-hand side of a rule". A code span marks the term
    itself, so a common word in one is a term too."""
    code = u.plain[:1] == "`"
    m = (_CODE_LEAD if code else _BOLD_LEAD).match(u.plain)
    if not m or "\\" in u.plain or people_signals.chat_quote(doc.blocks[u.block]):
        return None  # ("> **tomek:** 70 on mobile?": a quoted chat's speaker, no term)
    if code and not _code_run(doc, u.block):
        return None  # one `x`: … line is a label or an option; a glossary lists its terms in a row
    term = good_term(f"`{m.group('term')}`" if code else m.group("term"))
    if not term or one_common_word(term):
        return None  # "`read`: allowed to read …", "**Documentation**: confirm …": a value or a label
    rest = m.group("rest").strip().rstrip(".")
    if not code and (_DEF_IS.match(bare(rest)) or _DEF_MEANS.match(bare(rest))):
        return None  # "**Unsafe traits:** An *unsafe trait* is …": the sentence defines its own term
    if not _gloss_rest(rest) or any(ch.isdigit() for ch in term) or _field_value(rest):
        return None  # "Day 5: Monthly release", "**Reviewers:** Ana Ruiz, Bo Li": a label and its value
    if not code and _among_fields(doc, u.block):
        return None  # "**Supersedes:** ADR-003 (…)" under "**Status:** Accepted", "**Date:** 2 Nov": a record's field
    e = ev(doc, u.first, u.last)
    d = _defined(term, (), e, u, bare(rest), "glossary")
    return d, Claim(d.term, "definition", rest, "", "fact", "definition", e)


def _among_fields(doc: Document, position: int) -> bool:
    """Is the item at `position` one of a run of `**Label:** value` items of which two others or more
    hold a field's value (names, a status, a date: `_field_value`, or a number first)? A record's header
    of fields ("Status", "Date", "Deciders", "Supersedes", "Severity"), not a glossary: its labels are
    no terms, whatever their values say."""
    fields = 0
    for step in (-1, 1):
        k = position + step
        while 0 <= k < len(doc.blocks) and doc.blocks[k].kind == "item" and \
                (m := _BOLD_LEAD.match(" ".join(doc.blocks[k].text.split()))):
            rest = bare(m.group("rest"))
            fields += _field_value(rest) or rest[:1].isdigit()
            k += step
    return fields >= 2


def _field_value(rest: str) -> bool:
    """A field's value, not a definition: names or values, most of its words capitalised or with a digit."""
    words = wd.WORD.findall(bare(rest))
    marked = sum(1 for w in words if w[:1].isupper() or any(ch.isdigit() for ch in w))
    return bool(words) and words[0][:1].isupper() and words[0] not in ("A", "An", "The") and marked * 2 > len(words)


def _gloss_rest(rest: str) -> bool:
    """What a glossary item says of its term: a sentence of three words or more, not a lead-in ("…:")."""
    return bool(rest) and len(rest) <= MAX_STATEMENT_CHARS and not rest.endswith(":") and len(bare(rest).split()) >= 3


def _code_run(doc: Document, position: int) -> bool:
    """Is the block at `position` a list item in a run of at least two consecutive items that each open
    with a code span and a colon?"""
    def code_item(k: int) -> bool:
        if not 0 <= k < len(doc.blocks):
            return False
        b = doc.blocks[k]
        return b.kind == "item" and bool(_CODE_LEAD.match(CHECKBOX.sub("", " ".join(b.text.split()))))

    return code_item(position) and (code_item(position - 1) or code_item(position + 1))


def _as_written(term: str, plain: str) -> bool:
    """The term appears in the sentence as written, at most wrapped in one emphasis or code mark."""
    return term in plain.replace("**", "").replace("__", "") and "\\" not in plain


def _defined(term: str, aliases: tuple[str, ...], e: Evidence, u: Unit, rest: str, origin: str = "definition") -> Defined:
    m = _PAREN_ALIAS.match(term)
    if m and len(m.group("name")) >= 2:
        term, aliases = m.group("name").strip(), aliases + (m.group("alias"),)
    at_start = u.text.startswith(term) or u.text[4:].startswith(term)
    words = term.split()
    noun_type = nt.type_from_noun(words[-1]) if len(words) > 1 else ""
    if noun_type and noun_type != "person" and words[-1].islower() and marked_as_name(" ".join(words[:-1]), False):
        return Defined(" ".join(words[:-1]), aliases, True, noun_type, e, u, rest, origin)  # "the billing-api service is …"
    is_name = marked_as_name(term, at_start)
    return Defined(term, aliases, is_name, nt.head_noun_type(rest) if is_name else "", e, u, rest, origin)


_INDEFINITE = re.compile(r"^(?:A|An)\s+[a-z]")
# a glossary entry may open with a bare noun phrase instead: "The process of …", "Shorthand for …",
# "Recursive acronym for …", "Data that describes …" (a noun, then a preposition or relative word)
_GLOSS_OPEN = re.compile(r"^(?:The\s+[a-z]+\s+(?:of|for)\s|[A-Z][a-z]+(?:\s+[a-z]+)?\s+(?:for|of|that|which|used\s+to)\s)")


def heading_definitions(doc: Document, us: list[Unit], defined: list[Defined]) -> tuple[list[Defined], list[Claim]]:
    """A glossary entry: a heading naming a term, and a section that opens by defining it — with the
    term ("Auto-inference is an optional step …") or with an indefinite noun phrase ("A tool that is used
    to transform code …"). A heading alone, or over any other opening, makes nothing."""
    found: list[Defined] = []
    claims: list[Claim] = []
    opening: dict[int, Unit] = {}
    for u in us:
        if u.index == 0 and u.kind == "paragraph":
            opening.setdefault(u.block, u)
    taken = {(d.evidence.start, d.term.casefold()) for d in defined}
    for position, block in enumerate(doc.blocks[:-1]):
        if block.kind != "heading" or block.level < 2:
            continue
        u = opening.get(position + 1)
        term = _heading_term(block, u, taken)
        if term is None or not _opens_definition(u.text, term):  # (u is set where term is)
            continue
        text = u.text
        e = ev(doc, u.first, u.last)
        d = _defined(term, (), e, u, text)
        d = Defined(d.term, d.aliases, marked_as_name(d.term, True), d.entity_type, d.evidence, u, d.rest)
        found.append(Defined(d.term, d.aliases, d.is_name, d.entity_type, ev(doc, block.start, block.start), u,
                             d.rest, "glossary"))
        claims.append(Claim(d.term, "definition", text.rstrip("."), "", "fact", "definition", e))
    return found, claims


def _heading_term(block: Block, u: Unit | None, taken: set[tuple[int, str]]) -> str | None:
    """The term a heading names, when a paragraph follows it and no definition there has it already: a
    term a glossary writes ("build system"), not a section every document has ("Alternatives")."""
    term = good_term(strip_inline(block.text).strip("`"))
    if u is None or term is None or len(term.split()) > 4 or (u.first, term.casefold()) in taken:
        return None
    if not term[:1].islower() and not marked_as_name(term, True):
        return None  # "Alternatives", "Drawbacks": a section every document has; a glossary writes "build system"
    return term


def _opens_definition(text: str, term: str) -> bool:
    """Does a section's first sentence define the heading's term: an indefinite noun phrase, a bare
    glossary opening, or "…, the X is …" (not "X is …", whose own definition already holds)?"""
    if text.casefold().startswith(term.casefold() + " "):
        return False  # "X is …" under "## X": the sentence's own definition already holds
    if text.endswith(":") or not 20 <= len(text) <= MAX_STATEMENT_CHARS or _GLOSS_OPEN.match(term + " "):
        return False
    if _INDEFINITE.match(text) or _GLOSS_OPEN.match(text):
        return True
    # "…, the X is …" (a pattern made for the term: only where a comma comes early enough for it)
    return 0 < text.find(",") <= 30 and bool(
        re.match(rf"^[^,]{{1,30}},\s+(?:the\s+)?{re.escape(term)}\s+(?:is|are|means)\s", text, re.I))


def follow_ups(doc: Document, us: list[Unit], defined: list[Defined]) -> list[Claim]:
    """The sentence right after a definition, when it goes on about the same thing ("It …", "They …")."""
    out: list[Claim] = []
    by_pos = {(u.block, u.index): u for u in us}
    for d in defined:
        if d.unit is None:
            continue
        nxt = by_pos.get((d.unit.block, d.unit.index + 1))
        # the next sentence goes on about it when it says "it"/"they", or when the definition opens its
        # paragraph or list item (whose topic the defined term then is)
        if nxt and (_PRONOUN_LEAD.match(nxt.plain) or d.unit.index == 0) and 20 <= len(nxt.plain) <= MAX_STATEMENT_CHARS \
                and not nxt.plain.endswith(":"):
            out.append(Claim(d.term, "context", nxt.plain, "", "fact", "statement", ev(doc, nxt.first, nxt.last)))
    return out


def concepts_of(defined: list[Defined]) -> list[Concept]:
    return [Concept(d.term, d.aliases, d.evidence, d.origin) for d in defined if not d.is_name]


def concept_notes(doc: Document, us: list[Unit], concepts: list[Concept], claims: list[Claim]) -> list[Claim]:
    """The sentences that use a defined term, each cited (up to three per term per document)."""
    out: list[Claim] = []
    used = {(c.subject.casefold(), c.evidence.start) for c in claims}
    for concept in concepts:
        spellings = [concept.name, *concept.aliases]
        pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(s) for s in spellings) + r")(?:s|es)?(?![\w-])", re.I)
        n = 0
        for u in us:
            if n >= 3:
                break
            if (concept.name.casefold(), u.first) in used or not 20 <= len(u.plain) <= MAX_STATEMENT_CHARS or "\\" in u.plain:
                continue
            if u.plain.endswith(":") or not pattern.search(u.plain):
                continue
            out.append(Claim(concept.name, "note", u.plain, "", "fact", "statement", ev(doc, u.first, u.last)))
            used.add((concept.name.casefold(), u.first))
            n += 1
    return out


# -- summary and questions ------------------------------------------------------------------------


def summary(doc: Document) -> tuple[str, Evidence] | None:
    """The first paragraph under a Summary-like heading, else the document's first prose paragraph."""
    chosen = _summary_block(doc)
    if chosen is None:
        return None
    protected = _AUTOLINK.sub(_protect_autolink, chosen.text)
    parts = split_plain(strip_inline(protected).replace("\x00", "<").replace("\x01", ">"))
    text = ""
    for part in parts:
        if len(text) + len(part) + 1 > 400 and text:
            break
        text = f"{text} {part}".strip()
    if len(text) > 400:
        text = text[:400].rsplit(" ", 1)[0]
    if not text:
        return None
    return text, ev(doc, chosen.start, line_of(chosen, text))


def _protect_autolink(m: re.Match) -> str:
    return "\x00" + m.group(1)[1:-1] + "\x01"


def _summary_block(doc: Document) -> Block | None:
    """The first paragraph under a Summary-like heading, else the first prose paragraph, else (a list of
    links and nothing else) the first list item. A first paragraph of `Label: value` fields (a decision
    record's "Status: accepted", an email's header) gives way to the prose paragraph after it, unless a
    list or a table comes first (a handover's "From: Tom -> To: Priya" says more than its sign-off). A
    paragraph that is only a bold lead line ("**Priya**" over her standup items) is no summary."""
    chosen: Block | None = None
    fields: Block | None = None
    lead: Block | None = None
    under_summary = False
    for block in doc.blocks:
        if block.kind == "heading":
            under_summary = strip_inline(block.text).casefold() in _SUMMARY_HEADINGS
            continue
        if block.kind in ("paragraph", "quote") and block.text.strip() and not block.text.lstrip().startswith("*["):
            if under_summary:
                return block
            if chosen is not None:
                continue
            if _LEAD_ONLY.fullmatch(block.text.strip()):
                lead = lead or block  # a standup's "**Priya**" heads her items: it says nothing of the note
            elif fields is None and _field_lines(block.text):
                fields = block
            elif fields is None or _prose(block.text):
                chosen = block
        elif fields is not None and chosen is None and block.kind in ("item", "table", "code"):
            chosen = fields
    chosen = chosen or fields
    if chosen is None:  # a list of links and nothing else: its first item says what the document holds
        chosen = next((b for b in doc.blocks if b.kind == "item" and b.text.strip() and "\\" not in b.text), None)
    return chosen or lead


_LEAD_ONLY = re.compile(r"\*\*[^*\n]{1,60}\*\*(?:\s*\([^()\n]{0,60}\))?:?")  # "**Priya**", "**Priya** (back)"


def _prose(text: str) -> bool:
    """A paragraph that says something: four words or more, not a greeting ending on a comma ("Hi Rosa,")."""
    return len(text.split()) >= 4 and not text.rstrip().endswith(",")


# a line that is a field: a short label, a colon and its value ("Status: Accepted", "**Deciders:** …",
# "From: Tom -> To: Priya", "present: Aoife, Tom")
_FIELD_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?[\w][\w /&'’.-]{0,30}?(?:\*\*|__)?\s*:(?:\*\*|__)?(?:\s|$)")


def _field_lines(text: str) -> bool:
    """Is every line of a paragraph a `Label: value` field (a note's header: status, deciders, an email's
    From/To/Date, a standup's attendees)? One line ending as a sentence ends ("Note: we moved it.") is prose."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) == 1 and lines[0].rstrip(" *_").endswith((".", "!", "?")):
        return False
    return bool(lines) and all(_FIELD_LINE.match(line) for line in lines)


def questions(doc: Document, us: list[Unit] | None = None) -> list[Question]:
    out: list[Question] = []
    for u in us if us is not None else units(doc):
        text = u.plain if u.index or u.kind != "item" else strip_inline(u.raw)
        if text.endswith("?") and 10 <= len(text) <= MAX_STATEMENT_CHARS:
            out.append(Question(text, ev(doc, u.first, u.last)))
            if len(out) >= MAX_QUESTIONS:
                return out
    return out
