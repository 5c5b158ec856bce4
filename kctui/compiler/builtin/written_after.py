"""A name the document never writes without the word before it (issue 31, entity precision): "Zebra
OneCare", "Open OnDemand", "Fluke MicroScanner2" — where that run opens a sentence or a table's cell, its
first word, an English word ("zebra", "open", "fluke"), is read as the sentence's capital and left out,
so the rest ("OneCare", "OnDemand", "MicroScanner2") became a name of its own beside the whole one the
document names elsewhere: two pages of one thing, one of them a fragment no reader would look up.

The rule (`written_after`), a pure function of the document's candidates and sentences: a name every one
of whose occurrences in the document (as written, whole words) follows the same word, where that word
and the name are themselves a name of the document, is that name: one page, titled as the text writes
the thing. The word before is capitalised and no word English uses often (a maker's, "Zebra", "Dell";
not a verb opening a step, "Check Meraki"), and the name is no acronym nor frequent word ("SCADA" of
"Overwatch SCADA" is a kind of system: made an alias, it would draw every SCADA of the base). Not a name the document ever writes alone or after another word ("Kev" alone and in "Kev
Doyle": the fold of people decides those), nor one it defines or knows from the profile.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kctui.compiler.builtin import words as wd

# the word right before a name: letters, digits and the joins a name's word has ("AT&T", "Dr."), then one space
_BEFORE = re.compile(r"([^\W_][\w&.'’+-]*)\s$")


def _before_words(name: str, texts: Iterable[str]) -> set[str] | None:
    """The words the name follows wherever the texts write it ("" where it opens a text or follows a
    mark); None where it is not written at all."""
    pattern = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")
    found: set[str] = set()
    seen = False
    for text in texts:
        for m in pattern.finditer(text):
            seen = True
            before = _BEFORE.search(text, max(0, m.start() - 40), m.start())
            found.add(before.group(1) if before else "")
            if len(found) > 1:
                return found
    return found if seen else None


def _own_name(name: str) -> bool:
    """A name that could be one thing's own: capitalised, no acronym ("SCADA" of "Overwatch SCADA" is a
    kind of system, "ELC" a kind of device) and no word English uses often ("HealthCare")."""
    return name[:1].isupper() and not wd.acronym(name) and wd.zipf(name) < wd.COMMON_ZIPF


def _maker_word(word: str) -> bool:
    """A word before a name that can be the first of it: capitalised and no word English uses often
    ("Zebra", "Fluke", "Dell", "AT&T"; not the verb of "Check Meraki", nor "Device" of "Device Enroller")."""
    return word[:1].isupper() and wd.zipf(word) < wd.COMMON_ZIPF


def written_after(names: Mapping[str, str], texts: list[str], key_of,  # noqa: ANN001
                  fixed: frozenset[str] = frozenset()) -> dict[str, str]:
    """key -> the key of the longer name it is always written in: for each name (key -> name as
    written; not those of `fixed`, defined or known) that every occurrence in `texts` follows with one
    same word, where that word and the name are another of `names`. `key_of` gives a spelling's key."""
    tails: dict[str, set[str]] = {}  # the key of a name's words after its first -> the longer names' keys
    for key, name in names.items():
        words = name.split()
        if 2 <= len(words) <= 4:
            tails.setdefault(key_of(" ".join(words[1:])), set()).add(key)
    out: dict[str, str] = {}
    joined = "\n".join(texts)
    for key in sorted(tails):
        name = names.get(key)
        if name is None or key in fixed or not _own_name(name):
            continue
        words = _before_words(name, [joined])
        if not words or len(words) != 1 or not (word := next(iter(words))) or not _maker_word(word):
            continue
        longer = key_of(f"{word} {name}")
        if longer != key and longer in tails[key]:
            out[key] = longer
    return out
