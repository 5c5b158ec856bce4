"""A name written in lower case where a name goes (issue 31): "pull the logs from fleetctl", "38 wks at
mouser", "the PO goes via pellucid". Notes typed fast write brands, tools, sites and customers in lower
case; kctui.compiler.builtin.coined takes such a word for a name only right before a value ("receiptd
0.9.3") or opening two sentences of its note. Here it is its place: right after a preposition that
introduces a party, a place or a tool — "via", "from", "at" — in a statement of fact (a
sentence with a value, a list item, a table row).

The word must be one English does not have (`wd.unknown_word`: not in `wordfreq`'s list, not two English
words run together, not English with an "s"), no English ending ("at scaling"), no English word written
short ("from acct": `wd.shorthand`), never written as a common noun by the document ("the fleetctl" heading
a phrase, "fleetctls"), in an English sentence. One such place vouches that the word is a name, not that
the base talks about it: it is a **passing mention** (never a page on this one mention, whatever value
stands next to it), a page once another source writes the word too (kctui.compiler.steps.written_names:
`lone_names.coined_word`).

Notes a–ah: things +3, facts +11, 8 new pages, 7 of them labelled ("kestrel", "tilburg", "halden",
"fleetctl", "chhs", "shopify", "sacct"; "cron" real, unlabelled). "with" and "w/" too: 3 more unlabelled
pages and none labelled ("w/ xray", "w/ rsync", "w/ infra"); "in", "on", "to", "by" let in "in config",
"to prune", "on infra" (19 unlabelled words against 13 labelled things where two sources write them).
Never a list of a corpus's words: English is `wordfreq`'s small list (kctui.compiler.builtin.words).
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import coined
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin import words as wd

KIND = "placed"  # the kind of span this rule gives (a candidate of this kind alone is a passing mention)
# a preposition that introduces a party, a place or a tool, then one word of letters in lower case
_PLACED = re.compile(r"(?<![\w'’./@#:-])(?:via|from|at) ([a-z]{4,25})(?![\w'’@/(-]|[.:]\w)")


def placed_words(plain: str, kind: str, valued: bool, lower: ug.Lower) -> list[nm.Span]:
    """The words of a statement of fact (`valued`: a sentence with a value; or a list item or a table row,
    `kind`) that stand right after "via", "from" or "at" and that the module's docstring
    takes for names written in lower case."""
    if (kind not in ("item", "row") and not valued) or not _PLACED.search(plain):
        return []
    out = []
    for m in _PLACED.finditer(plain):
        w = m.group(1)
        if w.endswith(coined.ENGLISH_ENDING) or not wd.unknown_word(w) or wd.shorthand(w) \
                or coined.common_noun(w, lower):
            continue
        out.append(nm.Span(w, m.start(1), m.end(1), False, KIND, (w,)))
    return out if not out or not coined.not_english(plain) else []


def passing_only(kinds_of: dict[str, set[str]], spans: list[tuple[nm.Span, str]], kind: str, valued: bool,
                 keys: list[str], strong: list[str]) -> tuple[list[str], list[str]]:
    """The keys a statement states a fact about (`keys`, with the placed words of a list item or a row,
    which kctui.compiler.builtin.recall.about takes only with a value) and those strong enough for a page on
    this mention (`strong`, without the names only this rule found: a passing mention)."""
    placed = [k for s, k in spans if s.kind == KIND and kinds_of.get(k) == {KIND}]
    if not placed:
        return keys, strong
    if kind in ("item", "row") or valued:
        keys = keys + [k for k in placed if k not in keys]
    return keys, [k for k in strong if k not in placed]
