"""Defined terms: what a phrase must be to be a term at all, and what the text makes of one it defines.

A term is a short noun phrase as the text writes it (`good_term`): not a pronoun, a question, a fragment
of code or of markup, and no closed-class word at its ends. Whether a defined term is a name (→ an
entity) or a common noun (→ a concept) is read from how the text marks it (`marked_as_name`: capitals
past the first word, an inner capital or digit, rare as an English word), never from a list of names.
Every rule that defines a term (kctui.compiler.builtin.definitions, kctui.compiler.builtin.glossary)
builds its `Defined` through `defined`, so that they all judge a term the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kctui.compiler.builtin import name_types as nt
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_edges import nickname_of
from kctui.compiler.builtin.sentences import Unit, bare
from kctui.core.claims import Evidence
from kctui.core.values import strip_inline

_INNER_OK = frozenset({"of", "and", "for", "in", "on", "to", "as", "at", "by", "with"})
_GENERIC = re.compile(r"^`([A-Za-z_][\w:]*)<[^`<>]*>`$")
_PAREN_ALIAS = re.compile(r"^(?P<name>.+?)\s*\((?P<alias>[^()\s]{1,12})\)$")


@lru_cache(maxsize=8192)
def good_term(term: str) -> str | None:
    """A defined term: a short noun phrase, not a pronoun, question or fragment of code. (Remembered per
    term: the definition rules ask it of the same words about twice.)"""
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
    if _stray_function_word(words) or all(w.casefold() in wd.CALENDAR for w in words):
        return None  # (a day or a month is no term: "**Tue** — api-gw 502s for 6 min" dates its item)
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


@lru_cache(maxsize=8192)
def marked_as_name(term: str, at_start: bool) -> bool:
    """Does the text mark a defined term as a name (→ an entity) rather than a common noun (→ a concept)?
    (Remembered: asked of the same term about three times.)"""
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


def defined(term: str, aliases: tuple[str, ...], e: Evidence, u: Unit, rest: str, origin: str = "definition") -> Defined:
    """The `Defined` of a term sentence `u` defines as `rest`: an alias in parentheses split off ("Mean
    time to recovery (MTTR)"); a name followed by its lower-case type noun is that name, of that type
    ("the billing-api service is …"); else a name when the text marks it as one (typed by the head noun
    of what it is said to be), a concept when not."""
    m = _PAREN_ALIAS.match(term)
    if m and len(m.group("name")) >= 2:
        term, aliases = m.group("name").strip(), aliases + (m.group("alias"),)
    elif full := nickname_of(term):  # "Dev (Devendra Malhotra)": the person's full name, "Dev" an alias
        term, aliases = full, aliases + (term.split(" (", 1)[0],)
    at_start = u.text.startswith(term) or u.text[4:].startswith(term)
    words = term.split()
    noun_type = nt.type_from_noun(words[-1]) if len(words) > 1 else ""
    if noun_type and noun_type != "person" and words[-1].islower() and marked_as_name(" ".join(words[:-1]), False):
        return Defined(" ".join(words[:-1]), aliases, True, noun_type, e, u, rest, origin)  # "the billing-api service is …"
    is_name = marked_as_name(term, at_start)
    return Defined(term, aliases, is_name, nt.head_noun_type(rest) if is_name else "", e, u, rest, origin)
