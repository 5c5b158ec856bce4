"""A name the document never writes without the word before it (issue 31, entity precision): "Zebra
OneCare", "Helix HX-2", "Fluke MicroScanner2" — where that run opens a sentence or a table's cell, its
first word, an English word ("zebra", "helix", "fluke"), is read as the sentence's capital and left out,
so the rest ("OneCare", "HX-2") became a name of its own: a fragment no reader would look up, beside the
whole one where the document names that too, and not the name the writer gives the thing.

The rule (`written_after`), a pure function of the document's candidates and sentences: a name every
occurrence of which in the document (whole words, one space after the word) follows one same word,
capitalised, of letters and no word English uses often (a maker's: "Zebra", "Dell", "AT&T"; not a verb
opening a step, "Check Meraki", nor "Device" of "Device Enroller"), is the name the two make:
- where the document names the two as a name too, that one: one page, the short spelling its alias;
- else, for a model's number ("HX-2", "IE-4000"), one titled as the text writes it, its number the alias;
  not after a verb ("Logged BENG-2250"), an acronym ("MV Aldra") or a word the document also writes in
  lower case ("Invoice PP-INV-2031" beside "the invoice").
Only one word, never an acronym or a frequent word ("SCADA" of "Overwatch SCADA" is a kind of system: made
an alias, it would draw every SCADA of the base; "Kubernetes Service" of "Azure Kubernetes Service" every
"Amazon Elastic Kubernetes Service"), a name the document writes alone or after another word ("Kev" alone
and in "Kev Doyle": the fold of people decides those), or one it defines or knows from the profile.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_edges import verb_form
from kctui.compiler.builtin.names import english_ending

# a word of a text: letters and digits, and the joins inside a name's word ("AT&T", "IE-4000", "O'Neill")
_TOKEN = re.compile(r"[^\W_](?:[\w&'’+.-]*[^\W_])?")
_MAKER = re.compile(r"^[A-Z][A-Za-z&]*$")  # a word of letters, capitalised: "Zebra", "AT&T", "StreamBox"


_SPLIT = re.compile(f"({_TOKEN.pattern})")  # the text between the words, and the words, in one pass


class Words:
    """A document's words in order, and what is written between each and the next: to find what a name
    is written after. With `wanted`, only those words' places are looked up (the words and the gaps come
    from one split in C; no place of a word no name asks for is needed)."""

    def __init__(self, texts: Iterable[str], wanted: Iterable[str] | None = None) -> None:
        parts = _SPLIT.split("\n".join(texts))
        self.words: list[str] = parts[1::2]
        self.gaps: list[str] = parts[0::2]  # gaps[i]: the text before words[i]
        self.vocabulary = frozenset(self.words)
        self.at: dict[str, list[int]] = {}
        for word in sorted(self.vocabulary if wanted is None else self.vocabulary.intersection(wanted)):
            places = self.at[word] = []
            i = -1
            while (i := _index(self.words, word, i + 1)) >= 0:
                places.append(i)

    def before(self, name: str) -> set[str] | None:
        """The words `name` follows (one space between) wherever it is written as whole words; "" where it
        follows no word (a sentence's or a cell's start, a mark, a bracket). None where it is not written,
        or not as words of this kind."""
        words = name.split()
        if not all(_TOKEN.fullmatch(w) for w in words):
            return None
        found: set[str] = set()
        n = len(words)
        for i in self.at.get(words[0], ()):
            if self.words[i:i + n] != words or not self._joined(i, n):
                continue
            found.add(self.words[i - 1] if i and self.gaps[i] == " " else "")
        return found or None

    def _joined(self, i: int, n: int) -> bool:
        """Are the n words from the i-th written with one space between each (a name, not a list)?"""
        return all(self.gaps[k] == " " for k in range(i + 1, i + n))

    def lower_case(self, word: str) -> bool:
        """Does the document write the word in lower case too ("invoice" of "Invoice PP-INV-2031")?"""
        return word != word.casefold() and word.casefold() in self.vocabulary


def _index(words: list[str], word: str, start: int) -> int:
    """The place of `word` in `words` from `start` on (a scan in C), or -1."""
    try:
        return words.index(word, start)
    except ValueError:
        return -1


def _own_name(name: str) -> bool:
    """A name that could be one thing's own: one capitalised word, no acronym ("SCADA" of "Overwatch SCADA"
    is a kind of system, "ELC" a kind of device), no word English uses often ("HealthCare"), and no phrase
    ("Kubernetes Service" of "Azure Kubernetes Service" would draw "Amazon Elastic Kubernetes Service")."""
    return " " not in name and name[:1].isupper() and not wd.acronym(name) and wd.zipf(name) < wd.COMMON_ZIPF


def _maker_word(word: str) -> bool:
    """A word before a name that can be the first of it: a capitalised word of letters English does not use
    often ("Zebra", "Fluke", "Dell", "AT&T"; not the verb of "Check Meraki", nor "Device" of "Device
    Enroller", nor a release, "R2 SP1")."""
    return bool(_MAKER.match(word)) and wd.zipf(word) < wd.COMMON_ZIPF


def written_after(names: Mapping[str, str], texts: list[str], key_of,  # noqa: ANN001
                  fixed: frozenset[str] = frozenset()) -> dict[str, tuple[str, str]]:
    """key -> (the longer name it is always written in, its key): for each name (key -> name as written;
    not those of `fixed`, defined or known) that every occurrence in `texts` follows with one same maker's
    word. Where that longer name is not one of `names`, only if the document never writes the word in
    lower case (the caller titles the name so). `key_of` gives a spelling's key."""
    asked = [(key, name) for key, name in sorted(names.items()) if key not in fixed and _own_name(name)]
    out: dict[str, tuple[str, str]] = {}
    if not asked:
        return out
    doc = Words(texts, {name.split()[0] for _, name in asked if name.split()})
    for key, name in asked:
        words = doc.before(name)
        if not words or len(words) != 1 or not (word := next(iter(words))) or not _maker_word(word):
            continue
        longer = f"{word} {name}"
        longer_key = key_of(longer)
        if longer_key == key or (longer_key not in names and not _titles(word, name, doc)):
            continue
        out[key] = (names.get(longer_key, longer), longer_key)
    return out


def _titles(word: str, name: str, doc: Words) -> bool:
    """May the word and the name title a page the document does not name so: a model's number after its
    maker's word ("HX-2" of "Helix HX-2", "IE-4000" of "Cisco IE-4000"), the word no acronym ("MV
    Aldra"), no verb ("Logged BENG-2250", "Supersedes ADR-0011") and never written in lower case there?"""
    return (any(ch.isdigit() for ch in name) and not word.isupper() and not verb_form(word)
            and not english_ending(word) and not word.endswith("es") and not doc.lower_case(word))
