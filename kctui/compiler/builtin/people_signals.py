"""Signals of the text's structure that a name is a person's (issue 31), whatever the word: notes name
vendor contacts, clients and teammates in passing, often by a given name alone or in lower case, and
only the place the text gives the name says it is a person's.

- **a pasted chat** (`chat_quote`): a quote whose lines open with a name in bold and a colon ("> **tomek:**
  70 on mobile …", "> **jess:** 70. you said it on the call") holds turns of a chat; the bold leads are
  its speakers, not terms a glossary defines.
"""

from __future__ import annotations

import re

from kctui.compiler.readers import Block

# a chat turn quoted in a note: a one-word name in bold and a colon, then what was said
_TURN = re.compile(r"^\*\*[A-Za-z][\w'’-]*:?\*\*:?\s+\S")
TURNS_MIN = 2  # quoted lines opening with a speaker that make a quote a chat


def chat_quote(block: Block) -> bool:
    """Is the block a quote of a chat: two lines or more, each opening with a one-word name in bold and
    a colon (`_TURN`)? A glossary is not quoted, and a quote of one line is as often a cited definition."""
    if block.kind != "quote":
        return False
    lines = [ln.strip() for ln in block.text.splitlines() if ln.strip()]
    return len(lines) >= TURNS_MIN and all(_TURN.match(ln) for ln in lines)
