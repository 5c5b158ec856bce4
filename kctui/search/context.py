"""Context packets (`kctui context`): the fused statements of both layers of a knowledge base
(kctui.search.ranking: the compiled pages' claims and the raw source passages, one ranking) inside a
byte budget, as text or JSON.

One line per statement; the statements of one page, or of one source, sit under one header, so a page's
title, status and flag and a source's path and section (a session's date) are written once per group,
not once per statement; a source's further sections follow its first under the same header, each as a
`§ section` line. A page that is not plainly current (contradicted, needs-review, stale, archived) keeps
its flag inline (`⚠ CONTRADICTED: why — qualify …`) in every packet that holds any of its statements, so
it is qualified rather than asserted. Raw passages are labelled EVIDENCE (source text, not compiled) with
their line numbers: `L29: …` under `## EVIDENCE notes/a.md` quotes `sources/notes/a.md` line 29. A page's
description is a statement of its own, there only when it matches (kctui.search.ranking).

The JSON packet mirrors the text packet item for item (kctui.search.packet_items): one item per header,
in the same order, each statement the line the text packet writes for it (a claim `"… ^[a.md:L3-L3]"`, a
passage `"L29: …"`), and nothing the text packet does not show but the compiling pages of a larger packet
(`sourcePage`, `compiledIn`). A field with nothing to say is left out (`flag`, `section`, `description`),
not written empty, and the tersest envelope echoes nothing the caller sent (the query, the budget, the
knowledge base's id) and leaves out what says nothing (the packet's own length; `compiled` /
`pendingChanges` when true / false; an evidence item's keys: it is an array of its source and its passages,
kctui.search.packet_items): at 2 KB every byte the envelope or a key takes is a statement left out. Its
text packet is headed by the knowledge base alone (`# Context — knowledge base notes-a`: without it the
notes' answer string lost two questions to the fill's churn, session 29) and ends with the count and the
budget that holds the next statement on one line (`— 28/130 statements; next: raise the budget to 2,338 bytes`).

Statements go in in rank order; one that does not fit in what is left is passed over for the next ones
that do, so the packet is never empty while a statement fits and never exceeds its budget; a statement
longer than MAX_STATEMENT_BYTES is cut to it around its first match. A long passage is quoted as its
sentences that name a query word (kctui.search.quoting.gist), and a conversation's turn (after the packet's
WHOLE_TURNS best statements: none since session 24) as its sentences that name one or hold a value
(`turn_gist`), its line citation whole: a second hop sits below the first statements, where a turn's talk
would cost the next turn's place. The text packet's last line names the budget that holds the next
statement, not what it is for (the line above it says the packet is truncated).
A packet says what it left out (`truncated`, `statementsIncluded` of `statementsAvailable`) and which budget
would hold the first statement it passed over (`nextActions`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kctui.search.pack_memo import Lazy, Sizes
from kctui.search.packet_items import FLAG_ADVICE, Item, full_item, group_items, item_text, items_text, kind_of, unit
from kctui.search.quoting import gist, tight_gaps, turn_gist, turn_line
from kctui.search.ranking import Statement

__all__ = ["FLAG_ADVICE", "Envelope", "full_item", "group_items", "item_text", "items_text", "kind_of", "pack_statements",
           "unit"]

MIN_BUDGET = 1024
MAX_BUDGET = 131_072
DEFAULT_BUDGET = 16_384
ECHO_BYTES = 240  # echoed strings (query, workspace) are clipped so the envelope always fits


def clip(text: str, max_bytes: int = ECHO_BYTES) -> str:
    """`text` cut to at most `max_bytes` UTF-8 bytes (on a character boundary, with …)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= max_bytes:
        return text
    return data[: max_bytes - 3].decode("utf-8", "ignore") + "…"


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


@dataclass
class Envelope:
    """What surrounds the items: everything but the items, for both forms."""

    query: str
    terms: list[str]  # the query's terms: a statement too long is cut around the first it holds
    knowledge_base: dict[str, Any]  # {"workspace", "id", "compiled", "pendingChanges"}
    uncovered: list[str]
    next_actions_empty: list[str]
    hint_more: str  # the other next step when truncated (narrow the query, …)


# Echo limits per tightness level: a small budget gets a terser envelope, never a broken one. The first
# level whose envelope takes at most ENVELOPE_SHARE of the budget is used, else the tersest that fits: at
# 2 KB nothing the caller sent is echoed back (the query, the workspace), nor the terms no page covers, as
# the text packet does not, so the bytes go to statements.
ENVELOPE_SHARE = 0.125
_TIGHT = ({"echo": 200, "list": 160, "action": 200, "actions": 3}, {"echo": 96, "list": 64, "action": 120, "actions": 3},
          {"echo": 0, "list": 0, "action": 90, "actions": 1})
BARE = len(_TIGHT) - 1  # the tersest level: no echo, and its evidence items name no compiling pages


def _fields(env: Envelope, budget: int, used: int, statements: tuple[int, int], next_budget: int | None,
            tight: int) -> dict[str, Any]:
    """The envelope: `statements` are (shown, available). The tersest level leaves out the echo fields
    (`query`, the knowledge base's `workspace`) and `uncoveredTerms`; the other fields are always there."""
    lim = _TIGHT[tight]
    truncated = statements[0] < statements[1]
    actions: list[str] = []
    if statements[1] == 0:
        actions = list(env.next_actions_empty)
    elif truncated:
        if next_budget and next_budget <= MAX_BUDGET:
            raise_it = f"raise the budget to {next_budget:,} bytes to hold the next statement"
        else:
            raise_it = f"raise the budget (it is {budget:,}; at most {MAX_BUDGET:,})"
        actions = [raise_it, env.hint_more]
    kb = {k: v for k, v in env.knowledge_base.items() if tight != BARE or not _said_nothing(k, v)}
    if "workspace" in kb:
        kb["workspace"] = clip(str(kb["workspace"]), lim["echo"])
    echo = {} if tight == BARE else {"query": clip(env.query, lim["echo"])}
    uncovered = {} if tight == BARE else {"uncoveredTerms": _clip_list(env.uncovered, lim["list"])}
    sizes = {} if tight == BARE else {"budget": budget, "bytes": used}
    said = {"knowledgeBase": kb} if kb or tight != BARE else {}
    return {
        **echo, **said, **sizes, "truncated": truncated,
        "statementsIncluded": statements[0], "statementsAvailable": statements[1], **uncovered,
        "nextActions": [clip(_short(a) if tight == BARE else a, lim["action"]) for a in actions[:lim["actions"]]],
    }


def _said_nothing(key: str, value: Any) -> bool:
    """A knowledge base's field the tersest envelope leaves out: the echo (`workspace`), and its state when
    it is the plain one (`compiled`: true, `pendingChanges`: false), which the text packet does not say."""
    return key in ("workspace", "id") or (key, value) in {("compiled", True), ("pendingChanges", False)}


def _clip_list(values: list[str], max_bytes: int) -> list[str]:
    out: list[str] = []
    size = 0
    for v in values:
        v = clip(v, 48)
        size += _size(v) + 3
        if size > max_bytes:
            if max_bytes:
                out.append("…")
            break
        out.append(v)
    return out


def _self_sized(text_for: Callable[[int], str]) -> str:
    """The packet whose `bytes` states its own size: `text_for(used)` until the number settles (at most
    five tries)."""
    used = 0
    text = ""
    for _ in range(5):
        text = text_for(used)
        if _size(text) == used:
            break
        used = _size(text)
    return text



MAX_STATEMENT_BYTES = 480
WHOLE_TURNS = 0  # the best statements, quoted whole (a turn's talk around its news can be the answer); the
# turns after them as their sentences that name a query word or hold a value (kctui.search.quoting.turn_gist):
# conversations 67.4 → 69.4 % of questions with every evidence turn in a 2 KB packet at 2 (session 14); at 0
# (session 24, every turn as its gist: the best turn's talk cost the second hop's place) 1,214 questions 74.1 →
# 74.4 % (four won, none lost; with the text packet's shorter last line 74.5 %, where 1 gives 74.3 %)
FULL_GISTS = 3  # the best statements quoted as their gist; a turn after them as its TURN_BYTES
# (kctui.search.quoting.turn_line): conversations 74.0 → 77.8 % of 1,304 questions with every evidence turn
# in a 2 KB packet (JSON 71.5 → 76.7 %; 70 / 60 / 45 / 40 bytes from the first statement: 76.5 / 77.0 / 78.2
# / 78.5 %, but the answer's words in the packet 21.1 → 16.9 % at 45; after the best three 18.6 %)
MAX_PASSES = 24  # statements passed over (too large for what is left) before the packet is closed


def _cut(text: str, words: frozenset[str]) -> str:
    """One line of at most MAX_STATEMENT_BYTES, kept around the first word of the query it holds."""
    flat = " ".join(text.split())
    if len(flat.encode("utf-8")) <= MAX_STATEMENT_BYTES:
        return flat
    low = flat.casefold()
    at = min((i for w in words if (i := low.find(w)) >= 0), default=0)
    start = max(0, at - MAX_STATEMENT_BYTES // 3)
    piece = ("…" if start else "") + flat[start:]
    return clip(piece, MAX_STATEMENT_BYTES)


def _short(action: str) -> str:
    """An action as the text packet's last line says it: the budget's numbers in brackets left out, and
    what the larger budget is for (the line above says the packet is truncated)."""
    return action.split(" (it is ")[0].removesuffix(" to hold the next statement")


def _render_text(fields: dict[str, Any], items: list[Item], tight: int = 0, kb_id: Any = None, body: str | None = None) -> str:
    kb = fields.get("knowledgeBase", {})
    count = f"— {fields['statementsIncluded']}/{fields['statementsAvailable']} statements"
    if tight == BARE:  # the tersest envelope: nothing the caller sent (the query, the budget), and the
        # count says whether the packet is truncated
        head = f"# Context — knowledge base {kb_id}\n"  # (the text's title: JSON leaves the id out)
        tail = [count]
    else:
        head = (f"# Context for “{fields['query']}” — knowledge base {kb.get('id')}\n"
                "(EVIDENCE: raw source text, not compiled)\n")
        tail = [f"{count}, {fields['bytes']:,}/{fields['budget']:,} bytes" + (" (truncated)" if fields["truncated"] else "")]
    if fields.get("uncoveredTerms"):
        tail.append("no compiled page covers: " + ", ".join(fields["uncoveredTerms"]))
    nxt = [f"next: {_short(a)}" for a in fields["nextActions"][:1]]
    if tight == BARE:
        tail = ["; ".join(tail + nxt)]
    else:
        tail += nxt
    return head + (items_text(items) if body is None else body) + "\n".join(tail) + "\n"


def _render_json(fields: dict[str, Any], items: list[Item], tight: int = 0, kb_id: Any = None, body: str | None = None) -> str:
    """`body`: the items as rendered already (`_json_items`)."""
    head = _json(fields)
    return head[:-1] + ',"items":[' + (_json_items(items) if body is None else body) + "]}\n"


def pack_statements(env: Envelope, statements: list[Statement], meta: dict[tuple[str, ...], dict[str, Any]],
                    budget: int, fmt: str) -> str:
    """The packet in at most `budget` bytes (see the module's text). A statement goes in when the packet
    with it stays within the budget, counted as the envelope at its largest (every number at its widest,
    the actions of a truncated packet) plus each group's item as rendered: an upper bound, so only the
    group a statement joins is rendered again for each one tried."""
    render: Callable[..., str] = _render_json if fmt == "json" else _render_text
    one: Callable[[list[Item]], str] = _json_items if fmt == "json" else items_text
    words = frozenset(t for term in env.terms for t in term.casefold().split())
    statements = Lazy(statements, lambda n, s: _shortened(s, words, n >= WHOLE_TURNS, n >= FULL_GISTS))  # (quoted
    # when the fill reaches it)
    wide = 10 ** len(str(MAX_BUDGET)) - 1

    def text_for(chosen: list[Statement], used: int, tight: int, next_budget: int | None) -> str:
        items = group_items(chosen, meta, tight == BARE)
        fields = _fields(env, budget, used, (len(chosen), len(statements)), next_budget, tight)
        return render(fields, items, tight, env.knowledge_base.get("id"))

    sized: dict[tuple[int, int, bool], int] = {}  # (level, the budget's digits, JSON) -> size: the budget is only a
    # number in it

    def envelope(tight: int, budget: int = budget, form: Callable[..., str] = render) -> int:
        key = (tight, len(str(budget)), form is _render_json)
        if key not in sized:
            # the numbers at their widest: the packet's size is at most the budget, its statements at most
            # those available
            forms = [_fields(env, budget, budget, (0, n), MAX_BUDGET, tight) for n in (0, 1)]
            for f in forms:
                f["statementsIncluded"] = f["statementsAvailable"] = len(statements)
            sized[key] = max(_size(form(f, [], tight, env.knowledge_base.get("id"))) for f in forms)
        return sized[key]

    tight, size = _level(envelope, budget)
    sizes = {bare: Sizes(lambda grown, bare=bare: _size(one(group_items(grown, meta, bare)))) for bare in (False, True)}
    chosen, first_left = _fill(statements, meta, budget - size, fmt, one, tight == BARE, sizes)
    nb = None
    if first_left is not None:
        nb = _next_budget(statements, meta, chosen, first_left, fmt, one, envelope,
                          _size(text_for(chosen + [statements[first_left]], wide, tight, MAX_BUDGET)) + 64, sizes)
    items = group_items(chosen, meta, tight == BARE)
    body = one(items)  # (the items are the same whatever the envelope says)
    return _self_sized(lambda used: render(_fields(env, budget, used, (len(chosen), len(statements)), nb, tight), items,
                                           tight, env.knowledge_base.get("id"), body))


def _json_items(items: list[Item]) -> str:
    return ",".join(_json(i) for i in items)


def _level(envelope: Callable[..., int], budget: int) -> tuple[int, int]:
    """(tightness level, envelope size) for `budget`: the first level whose JSON envelope takes at most
    ENVELOPE_SHARE of it, else the tersest level that fits. The text packet is at its JSON packet's level
    (its own envelope is smaller: a short query's echoed in 2 KB of text had cost 100 bytes of statements)."""
    sizes = [envelope(t, budget) for t in range(len(_TIGHT))]
    fits = [t for t, size in enumerate(sizes) if size <= budget]
    if not fits:
        raise ValueError(f"the packet's envelope does not fit in {budget} bytes")
    tight = next((t for t in fits if envelope(t, budget, _render_json) <= ENVELOPE_SHARE * budget), fits[-1])
    return tight, sizes[tight]


def _next_budget(statements: Sequence[Statement], meta: dict[tuple[str, ...], dict[str, Any]], chosen: list[Statement],
                 first_left: int, fmt: str, one: Callable[[list[Item]], str], envelope: Callable[..., int],
                 start: int, sizes: dict[bool, Sizes] | None = None) -> int:
    """The smallest budget tried whose packet holds the next statement and all this one holds (from `start`
    up by 128 bytes eight times, then by half again, then halving back): a statement passed over makes room
    for later ones, which a larger budget may leave out, so the two together are tried, not assumed."""
    want = {id(s) for s in chosen} | {id(statements[first_left])}

    def holds(budget: int) -> bool:
        tight, size = _level(envelope, budget)
        got, _left = _fill(statements, meta, budget - size, fmt, one, tight == BARE, sizes)
        return want <= {id(s) for s in got}

    failed, budget = start - 128, start
    while budget < MAX_BUDGET and not holds(budget):
        failed, budget = budget, budget + 128 if budget < start + 8 * 128 else int(budget * 1.5)
    if budget >= MAX_BUDGET:
        return MAX_BUDGET
    while budget - failed > 256:  # (the smallest that holds both lies between the last two tried, most often)
        mid = (failed + budget) // 2
        if holds(mid):
            budget = mid
        else:
            failed = mid
    return budget


def _fill(statements: Sequence[Statement], meta: dict[tuple[str, ...], dict[str, Any]], room: int, fmt: str,
          one: Callable[[list[Item]], str], bare: bool = False,
          sizes_of: dict[bool, Sizes] | None = None) -> tuple[list[Statement], int | None]:
    """The statements that go in, in order, within `room` bytes for the items (each item, a page or a source
    with its sections, rendered again as it grows), and the first one passed over (None when all went in).
    `sizes_of`: the items' sizes measured by an earlier fill of the same statements (pack_memo.Sizes)."""
    if sizes_of is None:
        sizes_of = {bare: Sizes(lambda grown: _size(one(group_items(grown, meta, bare))))}
    measured = sizes_of[bare]
    members: dict[tuple[str, ...], list[Statement]] = {}
    sizes: dict[tuple[str, ...], int] = {}
    chosen: list[Statement] = []
    used = passed = 0
    first_left: int | None = None
    for i, s in enumerate(statements):
        key = unit(s.group)
        grown = members.get(key, []) + [s]
        size = measured.size(grown)
        comma = 1 if fmt == "json" and key not in sizes and sizes else 0
        if used - sizes.get(key, 0) + size + comma <= room:
            used += size - sizes.get(key, 0) + comma
            members[key], sizes[key] = grown, size
            chosen.append(s)
            continue
        first_left = i if first_left is None else first_left
        passed += 1
        if passed >= MAX_PASSES:
            break
    return chosen, first_left


def _shortened(s: Statement, words: frozenset[str], below: bool = False, after: bool = False) -> Statement:
    """A statement as the packet quotes it: a passage as its gist (a turn `below` the first WHOLE_TURNS
    statements as its turn gist, one `after` the first FULL_GISTS as its turn line), then at most
    MAX_STATEMENT_BYTES."""
    quote = turn_gist if below else gist
    text = _cut(quote(s.text, words) if s.kind == "passage" else s.text, words)
    if after and s.kind == "passage":
        text = turn_line(text, words)
    if text == s.text:
        return s
    if s.kind == "passage":  # (its end gap marks without their space: conversations 79.5 → 79.6 %, session 27)
        text = tight_gaps(text)
    return Statement(s.group, s.kind, text, s.score, s.source, s.lines, s.citation, s.compiled)  # (replace(s, text=…))
