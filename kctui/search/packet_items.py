"""A context packet's items (kctui.search.context packs them): one item per header of the text packet, a
compiled page or a source, and each statement the line the text packet writes for it, in both forms.

An item says once what its statements share: a page its path, title, status and flag; a source its path and
the section of its first passages. Each statement is one string, as the text packet's line says it:

- a claim `"<text> ^[<source>:L<a>-L<b>]"`: the wiki's own citation ends it (`read_claim` parts them);
- a passage `"L<a>: <text>"` or `"L<a>-L<b>: <text>"`: its lines in front (`read_passage` parts them);
- a further section of a source, between its passages: `"§ <section>"` (`"§ (no heading)"` for none).

In text a statement's line is not indented under its header (`L29: …`, `* <claim>`): the header says whose it
is. In a source whose passages in the packet are all conversation turns, a turn said by the speaker of the
turn above it in its section leaves out the name (`L27: Lena: …` then `L31: I can bring him home …`, Lena's
too): at 2 KB the names on consecutive turns of one speaker took ~30 bytes a chat
packet, and a source with a passage that is no turn names every speaker, so a line with no name is never
a turn's own. The tersest packet (2 KB) labels a section by its date without the time of day that ends
its heading (`Sunday 21 January 2024`, not `…, 11:05 am`: conversations 79.5 → 79.7 %, session 27) or opens
it (`7 September, 2024`, not `12:30 pm on …`: 80.1 → 80.2 %, JSON 78.1 → 78.5 %, session 28), and its
evidence item is an array, its source then its passages (`["chat/s-8.md", "§ 3 April 2024", "L41: …"]`,
`full_item` reads it as the record, `kind_of` as evidence): its first section is a `§` line above its
passages as a further one is (`item_text` writes it in the header). At 2 KB a record's keys took ~50 bytes
a group, the ten or so sessions a chat packet quotes: no `kind` and `section` took JSON 78.5 → 79.3 %
(session 28), the array (and no knowledge base's id in the envelope) 79.4 → 80.2 % (session 29). A
turn said without the name took conversations 79.1 → 79.5 % of 1,484 questions with every evidence line in a
2 KB text packet (JSON 77.6 → 77.8 %).

A chat pasted as an export (a stamp on every line, no headings: kctui.search.turn_head) says each day once, as a
`§ <day>` line above the turns of that day (`§ Saturday 20 January 2024`, `§ 06/01/2024` where the stamp does not
say which field is the day), and each turn as `Name: …` without its stamp (~23 bytes a turn), as a Markdown chat's
session heading dates its turns.

A statement of a dated group (a session heading, a page titled by its date) carries the relative times it
holds as the dates they mean, before a claim's citation: `"… yesterday (yesterday = Mon 4 Mar 2024)"`.
A string per statement, not a record: at 2 KB the keys of a record per statement (`lines`, `text`,
`citation`) took a fifth of the packet's bytes, the statements of two or three more sources. A field with
nothing to say is left out (`flag`, `section`, `description`), not written empty. Larger packets (all but the
tersest envelope's) also name the pages that compile a source's passages: the source's own page once
(`sourcePage`), the others by the passage's lines (`compiledIn`: {"L29": ["entities/x.md"]}).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from kctui.core.relative_time import anchor_date as _anchor_date
from kctui.core.relative_time import resolve as resolve_relative
from kctui.core.relative_time import stamp_date
from kctui.search.quoting import section, untimed
from kctui.search.ranking import Statement
from kctui.search.turn_head import dated_turn, day_label
from kctui.search.turns_read import speaker_prefix

anchor_date = lru_cache(maxsize=1024)(_anchor_date)  # a group's heading is read once, not at every statement tried

Item = dict[str, Any] | list[str]  # a record, or the tersest packet's evidence item: [source, passage, …]
FLAG_ADVICE = "qualify what this page says; do not assert it as settled"
NO_HEADING = "(no heading)"

_PASSAGE = re.compile(r"L(\d+)(?:-L(\d+))?: (.*)", re.S)
_CLAIM = re.compile(r"(.*?) ?(\^\[(?:\\.|[^\]\\])+\])", re.S)


def lines_label(lines: tuple[int, int]) -> str:
    """(29, 29) -> "L29"; (3, 5) -> "L3-L5"."""
    return f"L{lines[0]}" if lines[0] == lines[1] else f"L{lines[0]}-L{lines[1]}"


def read_passage(line: str) -> tuple[tuple[int, int], str] | None:
    """A passage's string -> ((first, last) line, text); None for a `§ section` line."""
    m = _PASSAGE.fullmatch(line)
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2) or m.group(1))), m.group(3)


def read_claim(line: str) -> tuple[str, str]:
    """A claim's string -> (text, citation); a claim with no citation -> (line, "")."""
    m = _CLAIM.fullmatch(line)
    return (m.group(1), m.group(2)) if m else (line, "")


def group_items(chosen: list[Statement], meta: dict[tuple[str, ...], dict[str, Any]],
                bare: bool = False) -> list[Item]:
    """The chosen statements as packet items, one per header of the text packet: a page, or a source with
    its sections one after another; items in the order of their best statement, a page's statements in rank
    order, a source's sections in the order of their best statement and each one's passages in line order.
    `bare` (the tersest envelope's packets): an evidence item is an array, its source then its passages, and
    names no compiling pages, as the text packet does not."""
    order: dict[tuple[str, ...], dict[tuple[str, ...], list[Statement]]] = {}  # the sections of a source together
    for s in chosen:
        order.setdefault(unit(s.group), {}).setdefault(s.group, []).append(s)
    return [_page_item(*next(iter(groups.items())), meta) if key[0] == "page" else _evidence_item(groups, meta, bare)
            for key, groups in order.items()]


def unit(group: tuple[str, ...]) -> tuple[str, ...]:
    """What a packet writes under one header: a page, or a source (its sections one after another)."""
    return group[:2]


def _page_item(group: tuple[str, ...], statements: list[Statement], meta: dict[tuple[str, ...], dict[str, Any]]) -> dict[str, Any]:
    """A page: its path, title and status once, its flag when it is not plainly current, its claims."""
    m = meta[group]
    anchor = anchor_date(str(m.get("title") or ""))
    item: dict[str, Any] = {"kind": "page", "page": m["page"], "title": m["title"], "status": m["status"]}
    if m.get("flag"):
        item["flag"] = m["flag"]
    desc = [s.text for s in statements if s.kind == "description"]
    if desc:
        item["description"] = desc[0]
    item["claims"] = [f"{s.text}{_dates(s.text, anchor)}" + (f" {s.citation}" if s.citation else "")
                      for s in statements if s.kind == "claim"]
    return item


def _evidence_item(groups: dict[tuple[str, ...], list[Statement]], meta: dict[tuple[str, ...], dict[str, Any]],
                   bare: bool = False) -> Item:
    """A source: its path once, the section of its first passages (`section`, when they sit under a
    heading), its passages, a further section's passages after its `§ section` line; `bare`: the array
    `[path, "§ section", passage, …]`."""
    first = meta[next(iter(groups))]
    item: dict[str, Any] = {"kind": "evidence", "source": first["source"]}
    passages: list[str] = []
    compiled: dict[str, list[str]] = {}
    turns = all(speaker_prefix(s.text) for statements in groups.values() for s in statements)
    for n, (group, statements) in enumerate(groups.items()):
        m = meta[group]
        label = section(m["source"], m["heading"] or m["title"])
        label = untimed(label) if bare else label
        anchor = anchor_date(str(m["heading"] or "")) or anchor_date(str(m["title"] or ""))
        if n:
            passages.append(f"§ {label or NO_HEADING}")
        elif label and bare:  # (the tersest item: its first section as a `§` line too, no `section` key)
            passages.append(f"§ {label}")
        elif label:
            item["section"] = label
        said, on = "", ""  # the speaker of the turn above in this section, the day its stamp said
        for s in sorted(statements, key=lambda s: s.lines):
            day, turn = dated_turn(s.text) if turns else ("", s.text)
            if day != on and day:  # an export's turns: their day once, above the turns of that day
                passages.append(f"§ {day_label(day)}")
                said, on = "", day
            lead = speaker_prefix(turn) if turns else ""
            text = turn[len(lead):] if lead and lead == said else turn
            said = lead
            passages.append(f"{lines_label(s.lines)}: {text}{_dates(s.text, (anchor_date(day) if day else stamp_date(s.text)) or anchor)}")
            if not bare and s.compiled:
                compiled[lines_label(s.lines)] = list(s.compiled)
    own = next((p for pages in compiled.values() for p in pages if p.startswith("sources/")), None)
    if own:  # the source's own page, once: a passage lists the other pages that compile it
        item["sourcePage"] = own
    if bare:  # (the tersest item: its source, then its passages)
        return [first["source"], *passages]
    item["passages"] = passages
    others = {at: [p for p in pages if p != own] for at, pages in compiled.items()}
    if any(others.values()):
        item["compiledIn"] = {at: pages for at, pages in others.items() if pages}
    return item


@lru_cache(maxsize=8192)
def _passage_line(text: str, lines: tuple[int, int], said: int, anchor: Any) -> str:
    """A passage's line: its lines, its text (without the `said` characters of a speaker the turn above named),
    the dates its relative times mean (a packet renders a group again for each statement it tries)."""
    return f"{lines_label(lines)}: {text[said:]}{_dates(text, stamp_date(text) or anchor)}"


def _dates(text: str, anchor: Any) -> str:
    dates = _dates_of(text, anchor) if anchor is not None else ()
    return f" ({'; '.join(dates)})" if dates else ""


@lru_cache(maxsize=4096)
def _dates_of(text: str, anchor: Any) -> tuple[str, ...]:
    """The relative times of a statement as the dates they mean (a packet renders a group again for each
    statement it tries: each is read once)."""
    return tuple(r.gloss() for r in resolve_relative(text, anchor)
                 if r.gloss() not in text)  # a compiled statement that says it already


def kind_of(item: Item) -> str:
    """An item's kind: `evidence` for an array (the tersest packet's evidence item) or an item that says none."""
    return "evidence" if isinstance(item, list) else str(item.get("kind", "evidence"))


def full_item(item: Item) -> dict[str, Any]:
    """An item as a record: the tersest packet's evidence item `[source, passage, …]` as
    `{"kind": "evidence", "source": …, "passages": […]}` (its first section its first `§` line); a record
    as it is."""
    if isinstance(item, list):
        return {"kind": "evidence", "source": item[0] if item else "", "passages": list(item[1:])}
    return item


def items_text(items: list[Item]) -> str:
    """The items as the text packet writes them, one header each."""
    return "".join(item_text(item) for item in items)


def item_text(item: Item) -> str:
    """One item in text: a page or a source under its header, a statement a line."""
    item = full_item(item)
    if kind_of(item) == "evidence":
        passages, label = item["passages"], item.get("section")
        if not label and passages and passages[0].startswith("§ "):  # (the tersest item's first section)
            passages, label = passages[1:], passages[0][2:]
        out = [f"## EVIDENCE {item['source']}" + (f" — {label}" if label else "")]
        out += passages
        return "\n".join(out) + "\n"
    out = [f"## {item['title']} — {item['page']} ({item['status']})"]
    flag = item.get("flag")
    if flag:
        out.append(f"⚠ {flag['status'].upper()}: {flag['why']} — {FLAG_ADVICE}")
        out += [f"  disputed: {c}" for c in flag.get("conflicts", [])[:4]]
        out += [f"  review #{r['id']} ({r['kind']}): {r['reasonWords']}" for r in flag.get("review", [])[:2]]
    if item.get("description"):
        out.append(item["description"])
    out += [f"* {c}" for c in item.get("claims", [])]
    return "\n".join(out) + "\n"
