"""Places for people a note written in lower case keeps, beside those kctui.compiler.builtin.roster reads
(issue 31): a standup whose sections are headed by the person's given name ("## ray" over ray's items,
under "present: marta, dev, ray, suni, …"), and a pasted chat whose turns open with the speaker's given
name in bold before the time ("**suni** 09:12").

- **A heading of one word** (level 2 or lower, an aside in brackets after it at most) is a place for a
  person as a list of names is: a word a list of names of the note names too has two places, and is a
  name of the note (however frequent its word: "ray", "tom"). A heading alone names no one ("## Summary",
  "## Rollback" are a note's sections): it is never a head by itself (`roster`'s bold lines are), only the
  second place of a word a list of people gives a first.
- **A chat's turn header of one word** in bold before the time ("**lukas** 09:40", "**Priya** 10:02") is
  a line in bold for a person, as "**Tom**" over a standup's items is: where the note's bold lines are
  mostly names (`roster.mostly_names`), each heads a person's part and names that person. A full name
  there is `roster._SPEAKER`'s.

Never a list of a corpus's words: English is `wordfreq`'s (kctui.compiler.builtin.words).
"""

from __future__ import annotations

import re
from dataclasses import replace

from kctui.compiler.builtin.profile import KnownName
from kctui.compiler.readers import Document

# a heading of one word, an aside in brackets after it at most ("## ray", "### Hannah (out Thu)")
_ONE_WORD = re.compile(r"^(?P<name>[A-Za-z][a-z'’]+)(?:\s*\([^()]*\))?\s*$")
# a chat's turn header: one word in bold, then the time of the turn ("**suni** 09:12", "**Jess** 4:05 pm")
_TURN_HEAD = re.compile(r"^\*\*(?P<name>[A-Za-z][a-z'’]+)\*\*:?\s*\(?\d{1,2}[:.]\d{2}\b")


def heading_words(doc: Document) -> list[tuple[int, str]]:
    """(line, word) for each heading of the note below its title (level 2 or lower) that is one word."""
    out = []
    for block in doc.blocks:
        if block.kind == "heading" and block.level >= 2 and (m := _ONE_WORD.match(block.text.strip())):
            out.append((block.start, m.group("name")))
    return out


def turn_head(text: str) -> list[str]:
    """The speaker's one word of a chat's turn header ("**suni** 09:12"), or none."""
    m = _TURN_HEAD.match(text.strip()) if text.startswith("**") else None
    return [m.group("name")] if m else []


def speakers(lines: list[tuple[int, str]]) -> frozenset[str]:
    """The casefolded words of the note's one-word turn headers (`turn_head`): who speaks in a chat is a
    person, so a name the note declares for them is typed so (a price after "**Marta** 09:31" is not hers:
    kctui.compiler.builtin.entity_facts passes people over)."""
    return frozenset(w.casefold() for _, text in lines for w in turn_head(text))


def typed(known: KnownName, speaking: frozenset[str]) -> KnownName:
    """The declared name, typed as a person when it is a chat's speaker (`speakers`)."""
    return replace(known, entity_type="person") if known.name.casefold() in speaking and not known.entity_type else known
