"""What the document's own usage says about a word: the words it writes in lower case, the all-caps
words it uses as labels or counts like common nouns, and how many capitalised sentences a word needs
before the document's usage makes it a name.

The rule: a word's frequency in English (`wordfreq`) says whether it is ordinary in general; the
document says what it is *here*. A word the document writes in lower case ("linear regression", a path
"alertmanager/") is an ordinary word or a command there, not a name. A frequent word the document
always capitalises away from a sentence start ("Google", "Linear") is a name once enough sentences do
so: two, three for a very frequent word, none for words English capitalises by convention (days,
months) or words so frequent they stay ordinary whatever one document does ("Engineering"). An acronym
("GCP") is a name the same way, unless the document counts it like a common noun ("an RFC to …",
"PRs") or uses it as a label ("NOTE:", "TODO:").

Why: no hand list of names or of common words can know one corpus's vocabulary; the evidence is the
document's own writing, read once per document (`Lower`) and consulted per span (`usage_need`, and
`kctui.compiler.builtin.name_checks.name_like`, which takes a `Lower` as the words written in lower case).
"""

from __future__ import annotations

import re

from kctui.compiler.builtin.names import AUXILIARIES, Span
from kctui.compiler.builtin.words import (
    ACRONYM,
    ACRONYM_COMMON_ZIPF,
    CALENDAR,
    COMMON_ZIPF,
    FUNCTION_WORDS,
    PARTICLES,
    placeholder,
    zipf,
)

USAGE_ZIPF = 4.25  # a word at least this frequent needs three capitalised sentences, not two
USAGE_MAX_ZIPF = 4.5  # at least this frequent, a word stays an ordinary word however a document writes it
LOWER_OK_ZIPF = 3.5  # a rarer word written in lower case too is a command or a path there, still a name


def usage_need(span: Span, lower_words: Lower | frozenset[str]) -> int:
    """For a one-word span name_like rejects on its own: the number of sentences of the document that
    must write it capitalised away from a sentence start for the document's usage to make it a name
    (0: usage cannot). A frequent word ("Google", "Linear") needs 2 such sentences (3 when very frequent)
    and no lower-case use; an acronym ("GCP", "AWS") of 3+ letters needs 2, must not be an ordinary word
    in lower case, a placeholder (YYYY, XXX) or a label ("NOTE:", "TODO:"); a rare word the document also
    writes in lower case ("alertmanager" in a path) needs 2. Words English capitalises by convention (days,
    months) and words at least USAGE_MAX_ZIPF frequent ("Engineering", "Product") never qualify."""
    tokens = [t for t in span.tokens if t.casefold() not in PARTICLES]
    if span.at_start or span.kind not in ("caps", "link") or len(tokens) != 1 or placeholder(span.text):
        return 0
    t = tokens[0]
    if not t.isalpha() or t.casefold() in FUNCTION_WORDS or t.casefold() in CALENDAR:
        return 0
    if ACRONYM.match(t):
        return _acronym_need(t, lower_words)
    if not (t[:1].isupper() and t[1:].islower()):
        return 0
    return _word_need(t, lower_words)


def _acronym_need(t: str, lower_words: Lower | frozenset[str]) -> int:
    """usage_need of an acronym: 2, unless it is short, a placeholder, frequent, or a label or a common
    noun of the document."""
    if len(t) < 3 or not t.isupper() or len(set(t)) < len(t) - 1 or zipf(t) >= ACRONYM_COMMON_ZIPF:
        return 0  # PR, YYYY, XXX, NOTE, API
    labels = getattr(lower_words, "labels", frozenset())
    plurals = getattr(lower_words, "plurals", frozenset())
    kinds = getattr(lower_words, "kinds", frozenset())
    return 0 if t in labels or t in plurals or t in kinds or t.casefold() in lower_words else 2


def _word_need(t: str, lower_words: Lower | frozenset[str]) -> int:
    """usage_need of a capitalised word, by its frequency and whether the document writes it (or its
    plural or singular) in lower case."""
    low = t.casefold()
    if (low.endswith("s") and low[:-1] in lower_words) or low + "s" in lower_words:
        return 0  # "destructor" in lower case: "Destructors" is a common noun there
    z = zipf(t)
    if low in lower_words:
        return 2 if z < LOWER_OK_ZIPF else 0
    if COMMON_ZIPF <= z < USAGE_MAX_ZIPF:
        return 3 if z >= USAGE_ZIPF else 2
    return 0


# a lower-case word of prose; not a piece of a domain, path or address (cloud.google.com, /react/, x@linear)
_LOWER = re.compile(r"(?<![\w'’./@:-])[a-z][\w'’-]*+(?![./@:]\w)")
_PLURAL_HINT = re.compile(r"[A-Z]s\b")
# APIs, URLs, PRs: the document counts them, a common noun (`\b([A-Z]{2,6})s\b`, written capital first so
# that the scan skips to the next capital instead of trying the word boundary at every character)
_PLURAL_CAPS = re.compile(r"([A-Z](?<!\w[A-Z])[A-Z]{1,5})s\b")
_LABEL = re.compile(r"\b([A-Z]{2,})\**\s*:")  # "NOTE:", "TODO:", "**WARNING**:" …
_LABEL_BEFORE = frozenset(".!?*>|_")  # … at the start of a line or sentence
# an acronym after a determiner no name takes ("an RFC to …", "each PR.", "this SLA is …"), heading its noun
# phrase (then punctuation, the end, or a closed-class word): a kind of thing the text counts, not a name
# ("an AWS account": the acronym modifies a noun, which says nothing)
# (the determiners a, an, another, any, this, these, that, the, each, every, not after a word: written first
# letter first, the look-behind after it, so that the scan skips to the next A, T or E; the same matches)
_COUNTED_CAPS = re.compile(
    r"(?P<det>[AaTtEe](?<![\w'’].)(?:(?<=[Aa])(?:n|nother|ny)?|(?<=[Tt])h(?:is|ese|at|e)|(?<=[Ee])(?:ach|very))) "
    r"(?:(?P<adj>[a-z]{3,}) )?(?P<acr>[A-Z]{2,6})(?=[.,;:!?)]|$| (?P<next>[a-z]+)\b)")


def _counted(m: re.Match) -> bool:
    """Does this determiner + acronym read as a common noun: "an RFC to …", "a separate RFC.", "this RFC
    proposes …", "the RFC is …"? ("the AWS and GCP consoles", "this GKE cluster": the acronym is part of
    a name or modifies a noun)"""
    det, adj, nxt = m.group("det").casefold(), m.group("adj"), m.group("next")
    if adj in FUNCTION_WORDS or adj in AUXILIARIES:
        return False
    if nxt is None or nxt in AUXILIARIES:
        return True
    if det == "the":
        return False  # "the" goes with names too ("the NHS", "the destination GHE as a remote")
    if nxt in FUNCTION_WORDS:
        return True
    # a singular determiner and a verb in -s: "this RFC proposes" (not "these AWS regions")
    return det in ("this", "that", "each", "every", "another") and nxt.endswith("s") and not nxt.endswith(("ss", "us", "is"))


class Lower:
    """The words (and phrases) a document writes in lower case, the all-caps words it uses as labels and
    the acronyms it uses as common nouns (plural or counted)."""

    __slots__ = ("text", "words", "labels", "plurals", "kinds")

    def __init__(self, texts: list[str]) -> None:
        self.text = " " + " ".join(" ".join(texts).split()) + " "
        self.words = frozenset(_LOWER.findall(self.text))
        self.plurals = frozenset(_PLURAL_CAPS.findall(self.text)) if _PLURAL_HINT.search(self.text) else frozenset()
        self.labels = frozenset(m.group(1) for t in texts if ":" in t for m in _LABEL.finditer(t)
                                if (t[: m.start()].rstrip()[-1:] or ".") in _LABEL_BEFORE)
        self.kinds = frozenset(m.group("acr") for m in _COUNTED_CAPS.finditer(self.text.strip()) if _counted(m))

    def __contains__(self, item: str) -> bool:
        return f" {item} " in self.text if " " in item else item in self.words


def lower_words(texts: list[str]) -> Lower:
    return Lower(texts)
