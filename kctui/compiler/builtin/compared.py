"""Tables that compare things side by side (issue 31): the subject of a cell is its column's header.

A writer who weighs options puts them in the columns and what is compared in the rows, and leaves the
header's first cell empty, over the column of row labels:

    | | Dell (via CDW-G) | Silicon Mechanics |
    |---|---|---|
    | price / node | $118,400 | $109,750 |

Each cell is then a fact of the thing its column's header names, with its row's label as the attribute
("Silicon Mechanics — price / node: $109,750"), never of the other columns' things. The general reading
of tables (kctui.compiler.builtin.table_facts) takes the header for the rows' attributes and reads no
table with an empty header cell; this one reads only such a table, and only when every other header
cell names a thing (`header_names`): by its form, or as a name the document gives elsewhere (a maker's
word, "Dell", is an English word by its frequency; the note names it in its prose), or by its capitals
beside such a column ("Silicon Mechanics"). A header of
attributes ("| | Users | Term | Per year |"), of periods ("| | Current (2026) | From Jan 1, 2027 |") or
of sides ("| | Pros | Cons |") is left to the general reading.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.sentences import ev
from kctui.compiler.builtin.table_facts import row_name, usable_value
from kctui.compiler.extraction import Entity
from kctui.compiler.readers import Document
from kctui.core.claims import Claim
from kctui.core.slugs import identity_key
from kctui.core.values import strip_inline

MIN_COLUMNS = 2  # things compared: one column alone is a list of values, not a comparison

_ASIDE = re.compile(r"\s*\([^()]*\)")  # a remark in brackets: "(via CDW-G)", "(quote)", "(K-series)"
_PART_DASH = re.compile(r"\s+[–—-]\s+")  # a dash between a brand and its model: "Cambium – XV2-21X"
_EMPHASIS = re.compile(r"^[*_`]+|[*_`]+$")


def column_name(cell: str) -> str:
    """The name a header cell gives its column's thing: without its remarks in brackets, a brand and its
    model joined where a dash sets them apart ("Aruba (HPE) – AP-535" → "Aruba AP-535"), an ordinary word
    before a model's designation left out ("Current XE8545": the word says which one, the designation
    names it)."""
    text = _EMPHASIS.sub("", _ASIDE.sub("", strip_inline(cell))).strip()
    text = _PART_DASH.sub(" ", text)
    words = text.split()
    if len(words) > 1 and words[0].isalpha() and wd.zipf(words[0]) >= wd.COMMON_ZIPF \
            and any(ch.isdigit() for ch in words[1]) and any(ch.isalpha() for ch in words[1]):
        text = " ".join(words[1:])
    return text


def names_things(name: str, known: Collection[str] = ()) -> bool:
    """Does a header's name name a thing by itself: a name by `table_facts.row_name` (not a number, a date,
    a phrase of ordinary words; of several words, one with a model's number: "Lenovo 100e Gen 4"), or one
    the document names elsewhere (`known`: identity keys; "Dell" is an English word by its frequency)?"""
    return bool(name) and (row_name(name) or identity_key(name) in known or (len(name.split()) > 1 and row_name(name, typed=True)))


def _titled(name: str) -> bool:
    """A name of several capitalised words ("Silicon Mechanics"): a name beside columns that name things,
    though its words alone are ordinary ones."""
    words = name.split()
    return len(words) > 1 and all(w[:1].isupper() or w[:1].isdigit() for w in words)


def header_names(header: tuple[str, ...] | list[str], known: Collection[str] = ()) -> list[str]:
    """The things a comparison table's header names, one a column, or [] when it is no such header: its
    first cell empty, and every other one naming a thing by itself (`names_things`) or, beside one that
    does, by its capitals (`_titled`)."""
    if len(header) < MIN_COLUMNS + 1 or strip_inline(header[0]):
        return []
    names = [column_name(c) for c in header[1:]]
    strong = [names_things(n, known) for n in names]
    if not any(strong) or not all(ok or _titled(n) for ok, n in zip(strong, names)):
        return []
    return names


def compared_claims(doc: Document, known: Collection[str] = ()) -> tuple[list[Claim], list[Entity]]:
    """The cells of every comparison table as claims of their columns' things, and those things; `known`:
    the identity keys of the names the document gives (kctui.compiler.builtin.recognise)."""
    claims: list[Claim] = []
    found: list[Entity] = []
    for block in doc.blocks:
        if block.kind != "table" or len(block.rows) < 2:
            continue
        header_line, header = block.rows[0]
        names = header_names(header, known)
        if not names:
            continue
        found += [Entity(name, "", name, (), ev(doc, header_line, header_line)) for name in names]
        for line, cells in block.rows[1:]:
            label = _EMPHASIS.sub("", strip_inline(cells[0])).strip() if cells else ""
            if not label:
                continue
            for name, cell in zip(names, cells[1:]):
                value = strip_inline(cell)
                if usable_value(value):
                    claims.append(Claim(name, label, value, "", "fact", "table", ev(doc, line, line)))
    return claims, found
