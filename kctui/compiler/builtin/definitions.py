"""Sentence definitions: the grammar by which one sentence defines a term, and the claim it makes.

A sentence defines when its grammar says so — "X is a …", "X refers to …", a marked term anywhere
then a defining verb ("… `CStr` is defined as …"), "… called *X*", "… known as "X"" — never because
a word is on a list of terms. The claim is extractive: its value is a span of the sentence as written
(code and emphasis marks kept), so that it is found in the cited lines. A comparison ("X is a better
fit") or a common word without an article ("Name is …") defines nothing. The term's tests and the
`Defined` record are kctui.compiler.builtin.terms'.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.sentences import MAX_STATEMENT_CHARS, Unit, bare, ev
from kctui.compiler.builtin.terms import Defined, defined, good_term, marked_as_name, one_common_word
from kctui.compiler.readers import Document
from kctui.core.claims import Claim, Evidence

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
# a paragraph or item that opens with a bold term and a colon: "**Term**: …", "**Term:** …", "**Term** — …"
BOLD_LEAD = re.compile(r"^(?P<m>\*\*|__)(?P<term>[^*_\n]{2,60}?)(?::(?P=m)|(?P=m)\s*(?::|—|–|-))\s+(?P<rest>\S.*)$", re.S)
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
# "is a more readable name than …", "is a better fit": a comparison, not what the thing is
_COMPARISON = re.compile(r"^(?:(?:a|an|the|much|far|no)\s+)?(?:more|less|better|worse|clearer|simpler|nicer)\b")
# "is a good tool to use in this scenario", "are a good way to measure this": an opinion of a concept, not
# what it is (a name's sentence stays a statement of it: "GitHub gists are a great way to …"; session 24)
_OPINION = re.compile(r"^(?:a|an|the)\s+(?:good|great|bad|best|worst|nice)\s")
# "means of …" is the noun, no defining verb ("Support different means of accessing …"; session 24)
_NOT_MEANING = re.compile(r"^of\s")
_STATEMENT_VERBS = ("is", "are", "refers to", "means", "denotes")


def defines_itself(text: str) -> bool:
    """Is the text (markup removed) an "X is a …" or "X refers to …" definition of its own term?"""
    return bool(_DEF_IS.match(bare(text)) or _DEF_MEANS.match(bare(text)))


def sentence_definition(doc: Document, u: Unit) -> tuple[Defined, Claim] | None:
    """The term one sentence defines and its claim: the first of the sentence rules (_SENTENCE_RULES)
    that finds one. A bold lead over a definition of its own ("**Unsafe traits:** An *unsafe trait* is a
    trait …") is read as the inner definition."""
    text, plain = u.text, u.plain
    if u.index == 0 and plain[:1] in "*_`":
        m = BOLD_LEAD.match(plain)
        if m and defines_itself(m.group("rest")):
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


def _is_definition(plain: str, e: Evidence, u: Unit) -> tuple[Defined, Claim] | None:
    """"X is a …", "X refers to …" (with an alias in parentheses: "X (Y) is …")."""
    m = _DEF_IS.match(plain) or _DEF_MEANS.match(plain)
    if not m or not (term := good_term(m.group("term"))) or not _defines_term(m, term, plain):
        return None
    rest = m.group("rest").strip().rstrip(":").rstrip()
    if len(rest) > MAX_STATEMENT_CHARS or len(rest.split()) < 2:
        return None
    alias = (m.group("alias") or "").strip()
    d = defined(term, (alias,) if alias and good_term(alias) else (), e, u, rest)
    if not d.is_name and _OPINION.match(rest):
        return None
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
    if m.group("verb") == "means" and _NOT_MEANING.match(m.group("rest")) or _adverb(term.split()[-1]):
        return False  # "Monitoring generally means …": the adverb is the verb's, the term no term
    return not _COMPARISON.match(m.group("rest"))


def _adverb(word: str) -> bool:
    """An adverb made of an ordinary adjective and "-ly" ("generally", "usually"; not "Supply", "Italy")."""
    return len(word) > 4 and word.islower() and word.endswith("ly") and wd.common_word(word[:-2])


def _marked_definition(plain: str, e: Evidence, u: Unit) -> tuple[Defined, Claim] | None:
    """A marked term anywhere in the sentence, then a defining verb ("… `CStr` is defined as …")."""
    m = _MARKED_MEANS.search(plain)
    # a code span or quotes around one ordinary word mark a literal ("`name` denotes the span's
    # identifier"), not a term of the text; a comparison ("`peek` is a clearer name") defines nothing
    if not m or not (term := good_term(m.group("term"))) or one_common_word(term) or _COMPARISON.match(m.group("rest")) \
            or m.group("verb") == "means" and _NOT_MEANING.match(m.group("rest")):
        return None
    rest = m.group("rest").strip().rstrip(":").rstrip()
    if len(rest) > MAX_STATEMENT_CHARS or len(rest.split()) < 2:
        return None
    d = defined(term, (), e, u, rest)
    if not d.is_name and _OPINION.match(rest):
        return None
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
    d = defined(term, (), e, u, "")
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


def _as_written(term: str, plain: str) -> bool:
    """The term appears in the sentence as written, at most wrapped in one emphasis or code mark."""
    return term in plain.replace("**", "").replace("__", "") and "\\" not in plain
