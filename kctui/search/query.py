"""Search queries: bounded parsing, FTS5 expressions that user syntax can never break, and the same
token matching in Python (for ranking a page's claims and for scanning raw sources).

A query is at most 1,024 bytes and 32 terms. A term is a word, or a "quoted phrase"; a trailing `*`
asks for prefix matching. Every term becomes one *group* of alternatives: its own tokens, plus, for a
small glossary of the vocabulary endoflife-style sources use (`eol` ⇄ "end of life", `releaseDate` ⇄
"release date", …), the other spellings. Each alternative is written to FTS5 as a double-quoted phrase
of tokens made only of letters and digits, so no operator, column filter, quote or bracket a person
types ever reaches the MATCH grammar.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

MAX_QUERY_BYTES = 1024
MAX_TERMS = 32

# Words that carry no meaning on their own; dropped while something else remains.
STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "for", "from", "how", "in", "into", "is", "it", "its", "of", "on", "or", "the", "to", "was", "what", "when", "where", "which", "who", "why", "will", "with"]
)

# The function words of English (pronouns, auxiliaries, determiners, prepositions, conjunctions, question
# words), left out of the bag of words a question is matched against raw passages by (BM25,
# kctui.search.passage_index): in a small knowledge base "our", "should" or "about" can be rarer than the
# words that answer, and a short passage holding only them would lead. The parsed query keeps them
# (STOPWORDS is what it drops).
FUNCTION_WORDS = STOPWORDS | frozenset(
    """i me my myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers
    herself it its itself they them their theirs themselves this that these those am been being have has had
    having doing but if because until while about against between through during before after above below up
    down out off over under again further then once here there all any both each few more most other some such
    no nor not only own same so than too very can could would should shall may might must just now also ever
    s t d ll m o re ve y don didn doesn isn aren wasn weren hasn haven hadn won wouldn shouldn couldn whom whose""".split()
)

# Glossary: spellings that mean the same thing (token tuples). A query phrase matching any entry's
# spelling becomes a group with all of the entry's spellings as alternatives.
_GLOSSARY_TEXT = (
    ("eol", "end of life", "end-of-life"),
    ("eoas", "end of active support", "active support end"),
    ("eoes", "end of extended support", "extended support end"),
    ("eos", "end of support"),
    ("lts", "long term support", "long-term support"),
    ("releasedate", "release date", "released on"),
    ("latestreleasedate", "latest release date"),
    ("releasecycle", "release cycle"),
    ("latest", "latest version", "latest release"),
)


class QueryError(ValueError):
    """The query is empty, too long or has too many terms; the message is one line for a person."""


def fold(text: str) -> str:
    """Lower case without diacritics: what FTS5's `unicode61 remove_diacritics 2` compares."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return _COMBINING.sub("", decomposed).casefold()


_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """Letters-and-digits runs of the folded text (unicode61 separates on everything else)."""
    return _TOKEN.findall(fold(text))


_GLOSSARY: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(dict.fromkeys(tuple(tokens(s)) for s in entry)) for entry in _GLOSSARY_TEXT
)
_MAX_PHRASE = max(len(s) for entry in _GLOSSARY for s in entry)


@dataclass(frozen=True)
class Alt:
    """One spelling of a term: a token sequence, its last token optionally a prefix."""

    toks: tuple[str, ...]
    prefix: bool = False

    def fts(self) -> str:
        return '"' + " ".join(self.toks) + '"' + ("*" if self.prefix else "")


@dataclass(frozen=True)
class Group:
    """A query term with its alternative spellings; a page covers the term if it matches any."""

    label: str
    alts: tuple[Alt, ...]
    quoted: bool = False

    def fts(self) -> str:
        if len(self.alts) == 1:
            return self.alts[0].fts()
        return "(" + " OR ".join(a.fts() for a in self.alts) + ")"

    def with_prefix(self, as_you_type: bool = False) -> Group:
        """Prefix matching where sensible: a single word of 3+ letters (or, while typing, any last token)."""
        alts = []
        for a in self.alts:
            sensible = as_you_type or (len(a.toks) == 1 and len(a.toks[0]) >= 3 and a.toks[0].isalpha())
            alts.append(replace(a, prefix=True) if sensible and not self.quoted else a)
        return replace(self, alts=tuple(alts))


@dataclass(frozen=True)
class ParsedQuery:
    text: str
    groups: tuple[Group, ...]
    ignored: tuple[str, ...]  # stopwords and punctuation-only terms that were dropped

    def expression(self, mode: str) -> str:
        """FTS5 MATCH text. mode: `all` (every term), `all-prefix` (every term, words as prefixes),
        `any` (at least one term, words as prefixes)."""
        groups = self.groups
        if mode in ("all-prefix", "any"):
            groups = tuple(g.with_prefix() for g in groups)
        return (" AND " if mode in ("all", "all-prefix") else " OR ").join(g.fts() for g in groups)

    @property
    def labels(self) -> list[str]:
        return [g.label for g in self.groups]


def _split_raw(text: str) -> list[tuple[str, bool]]:
    """Whitespace-separated words and "quoted phrases" (an unbalanced quote is just a separator)."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in re.finditer(r'"([^"]*)"', text):
        out += [(w, False) for w in text[pos:m.start()].replace('"', " ").split()]
        if m.group(1).strip():
            out.append((m.group(1).strip(), True))
        pos = m.end()
    out += [(w, False) for w in text[pos:].replace('"', " ").split()]
    return out


def _glossary_entry(toks: tuple[str, ...]) -> tuple[tuple[str, ...], ...] | None:
    for entry in _GLOSSARY:
        if toks in entry:
            return entry
    return None


def parse_query(text: object, *, as_you_type: bool = False) -> ParsedQuery:
    """Parse and bound a query. Raises QueryError with one line for a person."""
    clean = _clean_query(text)
    raw = _split_raw(clean)
    if len(raw) > MAX_TERMS:
        raise QueryError(f"the query has {len(raw)} terms; at most {MAX_TERMS} are allowed")
    words, ignored = _words(raw)
    groups, stopwords = _group_words(words)
    ignored += stopwords
    if not groups:  # only stopwords: keep them rather than search for nothing
        groups = [Group(w[0], (Alt(w[1], prefix=w[3]),), quoted=w[2]) for w in words]
        ignored = [t for t, _q in raw if not tokens(t)]
    if not groups:
        raise QueryError("the query has no letters or digits to look for")
    if as_you_type:
        groups[-1] = groups[-1].with_prefix(as_you_type=True)
    return ParsedQuery(clean, tuple(groups), tuple(ignored))


Word = tuple[str, tuple[str, ...], bool, bool]  # a query word: (label, tokens, quoted, explicit prefix)


def _clean_query(text: object) -> str:
    """The query's text within its size, control and format characters as spaces, stripped; QueryError
    when it is not text, too large or empty."""
    if not isinstance(text, str):
        raise QueryError("the query must be text")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_QUERY_BYTES:
        raise QueryError(f"the query is {size:,} bytes; at most {MAX_QUERY_BYTES:,} are allowed")
    clean = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") else c for c in text).strip()
    if not clean:
        raise QueryError("the query is empty; give a word or a \"quoted phrase\" to look for")
    return clean


def _words(raw: list[tuple[str, bool]]) -> tuple[list[Word], list[str]]:
    """The terms with tokens as words (an unquoted trailing `*` asks for a prefix), and the terms
    without (nothing to look for)."""
    ignored: list[str] = []
    words: list[Word] = []
    for term, quoted in raw:
        star = term.endswith("*") and not quoted
        toks = tuple(tokens(term))
        if not toks:
            ignored.append(term)
            continue
        label = term.rstrip("*") if star else term
        if not quoted:  # a question's "kit?" or "(Marcus," is labelled as the word it is
            label = label.strip(_EDGE_PUNCTUATION) or label
        words.append((label, toks, quoted, star))
    return words, ignored


_EDGE_PUNCTUATION = ".,;:!?()[]{}\"'“”‘’«»…"


def _group_words(words: list[Word]) -> tuple[list[Group], list[str]]:
    """The words as groups: a glossary phrase as one group of its alternatives, any other word as
    itself; and the lone stopwords left out."""
    groups: list[Group] = []
    stopwords: list[str] = []
    i = 0
    while i < len(words):
        label, toks, quoted, star = words[i]
        entry, span = (None, 1) if quoted else _glossary_phrase(words, i)
        if entry:
            label = " ".join(w[0] for w in words[i:i + span])
            groups.append(Group(label, tuple(Alt(s) for s in entry)))
        elif not quoted and len(toks) == 1 and toks[0] in STOPWORDS and not star:
            stopwords.append(label)
        else:
            groups.append(Group(label, (Alt(toks, prefix=star),), quoted=quoted))
        i += span
    return groups, stopwords


def _glossary_phrase(words: list[Word], i: int) -> tuple[tuple[tuple[str, ...], ...] | None, int]:
    """The glossary entry of the longest phrase starting at word `i`, over unquoted words without a `*`,
    and how many words it spans; (None, 1) when there is none."""
    for n in range(min(_MAX_PHRASE, len(words) - i), 0, -1):
        chunk = words[i:i + n]
        if any(w[2] or w[3] for w in chunk):
            continue
        entry = _glossary_entry(tuple(t for w in chunk for t in w[1]))
        if entry:
            return entry, n
    return None, 1


# -- the same matching in Python ------------------------------------------------------------------


def alt_in(alt: Alt, toks: list[str]) -> bool:
    n = len(alt.toks)
    if n == 0 or n > len(toks):
        return False
    first = alt.toks[0]
    if n == 1 and not alt.prefix:  # (the loop below, for one word: is it one of the tokens)
        return first in toks
    for i in range(len(toks) - n + 1):
        if n == 1:
            t = toks[i]
            if t == first or (alt.prefix and t.startswith(first)):
                return True
            continue
        if toks[i] != first:
            continue
        if toks[i + 1:i + n - 1] != list(alt.toks[1:-1]):
            continue
        last = toks[i + n - 1]
        if last == alt.toks[-1] or (alt.prefix and last.startswith(alt.toks[-1])):
            return True
    return False


def same_stem(a: str, b: str) -> bool:
    """The same word, or one a prefix of the other, both four letters or more ("backport", "backporting")."""
    return a == b or (len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a)))


def typed_word(word: str, typed: set[str] | frozenset[str]) -> bool:
    """A word the query holds, or shares a stem with (`same_stem`, written out: it runs for every word of
    every passage a context packet weighs)."""
    if word in typed:
        return True
    if len(word) < 4:
        return False
    for t in typed:
        if len(t) >= 4 and (word.startswith(t) or t.startswith(word)):
            return True
    return False


def group_in(group: Group, toks: list[str]) -> bool:
    return any(alt_in(a, toks) for a in group.alts)


def matched_groups(groups: tuple[Group, ...], text: str) -> list[int]:
    """Indexes of the groups the text matches (token-wise, like FTS5)."""
    toks = tokens(text)
    return [i for i, g in enumerate(groups) if group_in(g, toks)]


def quick_needles(group: Group) -> tuple[str, ...]:
    """Substrings a folded line must contain to possibly match the group (a cheap prefilter)."""
    return tuple(a.toks[0] for a in group.alts)


def snippet(body: str, groups: tuple[Group, ...], width: int = 180, marks: tuple[str, str] = ("«", "»")) -> str:
    """The body line naming the most query terms (the first among equals), cut to about `width`
    characters around its first match, with the matching words marked."""
    best = _best_line(body, groups)
    if not best:
        return ""
    spans = _hit_spans(best, groups)
    start = 0
    if spans and len(best) > width:
        start = max(0, min(spans[0][0] - width // 4, len(best) - width))
    end = min(len(best), start + width)
    out, pos = [], start
    for a, b in spans:
        if a < start or b > end:
            continue
        out += [best[pos:a], marks[0], best[a:b], marks[1]]
        pos = b
    out.append(best[pos:end])
    return ("…" if start else "") + "".join(out).strip() + ("…" if end < len(best) else "")


def _best_line(body: str, groups: tuple[Group, ...]) -> str:
    """The body line naming the most query terms, the first among equals ("" when none names one)."""
    needles = [n for g in groups for n in quick_needles(g)]
    best, best_n = "", 0
    folded_lines = fold(body).split("\n")  # NFKD and case folding keep the line breaks
    for line, folded in zip(body.split("\n"), folded_lines):
        if not any(n in folded for n in needles):
            continue
        n = len(matched_groups(groups, line))
        if n > best_n:
            best, best_n = line, n
            if n == len(groups):
                break
    return best


def _hit_spans(line: str, groups: tuple[Group, ...]) -> list[tuple[int, int]]:
    """Where the line's tokens match a query word (a prefix term's last word as a prefix)."""
    words = {(t, a.prefix and t == a.toks[-1]) for g in groups for a in g.alts for t in a.toks}
    exact = {t for t, _p in words}
    prefixes = tuple(t for t, p in words if p)

    def hit(tok: str) -> bool:
        f = fold(tok)
        return f in exact or (bool(prefixes) and f.startswith(prefixes))

    return [m.span() for m in _TOKEN.finditer(line) if hit(m.group())]


_OWNER = re.compile(r"\b([^\W\d_][\w-]*)['’]s?(?=\s|$)")


def owners_of(question: str) -> frozenset[str]:
    """The words a question names as an owner ("Marcus's cat", "the siblings' house"): what is asked about
    is what they own, not them (casefolded)."""
    return frozenset(m.group(1).casefold() for m in _OWNER.finditer(question))


_NAME = re.compile(r"(?<![\w'’])([A-Z][a-z][\w'’-]*)")


def people_in(question: str) -> frozenset[str]:
    """The capitalised words of a question that are not its first word nor a function word ("What is
    Marcus's job now?" -> marcus): the names a person would use; casefolded, a possessive's 's dropped."""
    out: set[str] = set()
    for m in _NAME.finditer(question):
        if not question[:m.start()].strip():
            continue  # the question's first word
        word = re.sub(r"['’]s?$", "", m.group(1)).casefold()
        if word and word not in FUNCTION_WORDS:
            out.add(word)
    return frozenset(out)
