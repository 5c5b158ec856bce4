"""Context packets (`kctui context`): compiled pages first, raw evidence only as the fallback, inside a
byte budget.

A packet is for an assistant or a person. It leads with the compiled pages that match the query, each
page that is not plainly current (contradicted, needs-review, stale, archived) flagged inline with why,
so it is qualified rather than asserted. Then, only for query terms that no compiled page covers, raw
source excerpts, labelled as evidence. A page item carries the page's title, status and flag and the
page's claims that match the query, most relevant first, not the whole page. Items go in order; while
more items wait, an item larger than half the budget goes in *trimmed* to that share, and the first
item that does not fit in what is left goes in trimmed to fit, ending the packet. A trimmed item keeps
its title, status and flag; its least relevant claims (then its description's tail, then the text of
its one remaining claim) are cut, and it says how many claims it left out. So a small budget still
holds the best answers of several pages. A packet says what it left out (`truncated`: items left
out; `itemsTrimmed`: items cut down) and what budget would hold the first cut item whole. The whole
rendered packet (JSON or text) never exceeds the budget.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kctui.search.query import tokens

MIN_BUDGET = 1024
MAX_BUDGET = 131_072
DEFAULT_BUDGET = 16_384
ECHO_BYTES = 240  # echoed strings (query, workspace) are clipped so the envelope always fits

FLAG_ADVICE = "qualify what this page says; do not assert it as settled"


def clip(text: str, max_bytes: int = ECHO_BYTES) -> str:
    """`text` cut to at most `max_bytes` UTF-8 bytes (on a character boundary, with …)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= max_bytes:
        return text
    return data[: max_bytes - 3].decode("utf-8", "ignore") + "…"


# -- rendering --------------------------------------------------------------------------------------


def _claim_line(c: dict[str, Any]) -> str:
    return f"{c['text']} {c['citation']}"


def item_text(item: dict[str, Any], number: int) -> str:
    """One item as text (a block ending with a blank line)."""
    if item["kind"] == "evidence":
        head = (f"## [E{number}] EVIDENCE — raw source, not compiled: sources/{item['source']} "
                f"lines {item['lines'][0]}-{item['lines'][1]} (for: {', '.join(item['covers'])})")
        body = "\n".join("    " + ln for ln in item["text"].split("\n"))
        return f"{head}\n{body}\n  cite: {item['citation']}\n\n"
    out = [f"## [{number}] {item['title']} — {item['page']} ({item['status']})"]
    flag = item.get("flag")
    if flag:
        out.append(f"  ⚠ {flag['status'].upper()}: {flag['why']} — {FLAG_ADVICE}")
        for c in flag.get("conflicts", []):
            out.append(f"    disputed: {_claim_line(c)}")
        for r in flag.get("review", []):
            out.append(f"    review #{r['id']} ({r['kind']}): {r['reasonWords']}"
                       + (f" — {r['summary']}" if r.get("summary") else ""))
    if item.get("description"):
        out.append(f"  {item['description']}")
    for c in item.get("claims", []):
        out.append(f"  * {_claim_line(c)}")
    if item.get("claimsOmitted"):
        out.append(f"  … {item['claimsOmitted']} more matching claim(s) left out to fit the budget")
    return "\n".join(out) + "\n\n"


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


@dataclass
class Envelope:
    """What surrounds the items: everything but the items, for both forms."""

    query: str
    terms: list[str]
    knowledge_base: dict[str, Any]  # {"workspace", "id", "compiled", "pendingChanges"}
    match: str
    uncovered: list[str]
    pages_matched: int
    next_actions_empty: list[str]
    hint_more: str  # the other next step when truncated (narrow the query, …)


# Echo limits per tightness level: a small budget gets a terser envelope, never a broken one.
_TIGHT = ({"echo": 200, "list": 160, "action": 200}, {"echo": 96, "list": 64, "action": 120},
          {"echo": 40, "list": 0, "action": 90})


def _fields(env: Envelope, budget: int, used: int, n_items: int, shown: int, next_budget: int | None,
            tight: int, trimmed: int = 0) -> dict[str, Any]:
    lim = _TIGHT[tight]
    truncated = shown < n_items
    actions: list[str] = []
    if n_items == 0:
        actions = list(env.next_actions_empty)
    elif truncated or trimmed:
        what = "the first trimmed item whole" if trimmed else "the next item"
        need = f" to {next_budget:,} bytes to hold {what}" if next_budget and next_budget <= MAX_BUDGET else ""
        actions = [f"raise the budget{need} (it is {budget:,}; at most {MAX_BUDGET:,})", env.hint_more]
    kb = dict(env.knowledge_base)
    kb["workspace"] = clip(str(kb.get("workspace", "")), lim["echo"])
    return {
        "query": clip(env.query, lim["echo"]), "terms": _clip_list(env.terms, lim["list"]), "knowledgeBase": kb,
        "match": env.match, "budget": budget, "bytes": used, "truncated": truncated,
        "itemsIncluded": shown, "itemsTrimmed": trimmed, "itemsAvailable": n_items, "pagesMatched": env.pages_matched,
        "uncoveredTerms": _clip_list(env.uncovered, lim["list"]),
        "nextActions": [clip(a, lim["action"]) for a in actions[:3]],
    }


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


def _render_json(fields: dict[str, Any], items: list[str]) -> str:
    head = _json(fields)
    return head[:-1] + ',"items":[' + ",".join(items) + "]}\n"


def _render_text(fields: dict[str, Any], items: list[str]) -> str:
    kb = fields["knowledgeBase"]
    head = (f"# Context for “{fields['query']}” — knowledge base {kb.get('id')}\n"
            "Compiled pages come first; ⚠ marks a page that is not plainly current (qualify it). "
            "EVIDENCE items are raw source text, not compiled knowledge.\n\n")
    notes = (["truncated"] if fields["truncated"] else []) + (
        [f"{fields['itemsTrimmed']} trimmed to fit"] if fields["itemsTrimmed"] else [])
    tail = [f"— {fields['itemsIncluded']} of {fields['itemsAvailable']} items, {fields['bytes']:,} of "
            f"{fields['budget']:,} bytes" + (f" ({'; '.join(notes)})" if notes else "") + "."]
    if fields["uncoveredTerms"]:
        tail.append("no compiled page covers: " + ", ".join(fields["uncoveredTerms"]))
    for a in fields["nextActions"]:
        tail.append(f"next: {a}")
    return head + "".join(items) + "\n".join(tail) + "\n"


def _text_items(items: list[dict[str, Any]]) -> list[str]:
    out = []
    counts = {"evidence": 0, "page": 0}
    for it in items:
        key = "evidence" if it["kind"] == "evidence" else "page"
        counts[key] += 1
        out.append(item_text(it, counts[key]))
    return out


def item_size(item: dict[str, Any], fmt: str) -> int:
    return _size(_json(item)) + 1 if fmt == "json" else _size(item_text(item, 99))


# -- trimming an item that does not fit whole ------------------------------------------------------

TRIM_DESCRIPTION = 200  # a trimmed item's description is cut to this many bytes, then dropped
CLAIM_WIDTHS = (400, 240, 160, 96)  # the last resort: the one remaining claim's text cut this far


def _clip_claim(claim: dict[str, Any], width: int) -> dict[str, Any]:
    out = dict(claim, text=clip(str(claim.get("text", "")), width))
    if "value" in out:
        out["value"] = clip(str(out["value"]), width)
    return out


def _short_flag(flag: dict[str, Any] | None) -> dict[str, Any] | None:
    """A flag with its lists cut down (the first two disputed claims, one review reason); its status
    and why are never cut."""
    if not flag:
        return flag
    out = dict(flag)
    if out.get("conflicts"):
        out["conflicts"] = [_clip_claim(c, 160) for c in out["conflicts"][:2]]
    if out.get("review"):
        out["review"] = [dict(r, summary=clip(str(r.get("summary") or ""), 96)) for r in out["review"][:1]]
    return out


def _named(text: str, words: frozenset[str]) -> int:
    return len(words.intersection(tokens(text))) if words else 0


def trimmed_forms(item: dict[str, Any], words: frozenset[str] = frozenset()):
    """Smaller forms of an item, the most useful first. A page keeps its title, status and flag in
    every form; it loses its least relevant claims first (its claims are ranked) down to one, and
    says how many claims it left out (`claimsOmitted`). Its description (the page's own definition)
    outlasts that last claim when it names at least as many of the query's `words`; otherwise the
    description's tail goes first. Last of all, most of the text of the one remaining claim goes.
    An evidence excerpt loses lines from its end."""
    if item.get("kind") == "evidence":
        lines = item["text"].split("\n")
        for m in range(len(lines) - 1, 0, -1):
            start = item["lines"][0]
            yield dict(item, text="\n".join(lines[:m]), lines=[start, start + m - 1],
                       citation=f"^[{item['source']}:L{start}-L{start + m - 1}]", trimmed=True)
        return
    claims = list(item.get("claims") or [])
    desc = str(item.get("description") or "")
    short = clip(desc, TRIM_DESCRIPTION)
    desc_first = bool(desc) and _named(desc, words) >= max(1, _named(str(claims[0].get("text", "")), words) if claims else 0)
    flags = [item.get("flag")]
    if _short_flag(item.get("flag")) != item.get("flag"):
        flags.append(_short_flag(item.get("flag")))

    def form(flag: Any, n: int, description: str, width: int = 0) -> dict[str, Any]:
        kept = claims[:n]
        if width and kept:
            kept = kept[:-1] + [_clip_claim(kept[-1], width)]
        return dict(item, flag=flag, description=description, claims=kept, trimmed=True,
                    claimsOmitted=len(claims) - n)

    for flag in flags:
        whole = flag is item.get("flag")
        if desc_first:
            order = [(n, desc) for n in range(len(claims), 0, -1)] + [(1, short), (0, desc), (1, "")]
        else:
            order = [(n, d) for n in range(len(claims), 0, -1) for d in dict.fromkeys([desc, short])] + [(1, "")]
        seen = set()
        for n, d in order:
            if (n, d) in seen or n > len(claims) or (whole and n == len(claims) and d == desc):
                continue
            seen.add((n, d))
            yield form(flag, n, d)
        if claims:
            for width in CLAIM_WIDTHS:
                yield form(flag, 1, "", width)
        if desc:
            yield form(flag, 0, short)
        yield form(flag, 0, "")


ITEM_SHARE = 2  # while more items wait, one item takes at most 1/ITEM_SHARE of the budget


def pack(env: Envelope, items: list[dict[str, Any]], budget: int, fmt: str, available: int | None = None) -> str:
    """Render the packet in `budget` bytes, items in order. While more items wait, an item larger
    than half the budget (1/ITEM_SHARE) goes in trimmed to that share (see `trimmed_forms`), so one long page
    cannot crowd out the next pages' answers; the first item that does not fit in what is left goes
    in trimmed to fit, and the packet ends there. The result is never larger than `budget`. `items`
    may be a prefix of the `available` items when the rest lie beyond the budget anyway."""
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise ValueError(f"budget {budget} is outside {MIN_BUDGET}..{MAX_BUDGET}")
    render, sep, rendered_of = _renderer(fmt)
    whole = rendered_of(items)
    sizes = [_size(r) + sep for r in whole]
    total = max(len(items), available or 0)
    wide = 10 ** len(str(MAX_BUDGET)) - 1  # a `bytes` placeholder at least as wide as any real value
    share = budget // ITEM_SHARE
    words = frozenset(t for term in env.terms for t in tokens(term))

    def text_for(rendered: list[str], used: int, next_budget: int | None, tight: int, trimmed: int,
                 shown_budget: int = budget) -> str:
        return render(_fields(env, shown_budget, used, total, len(rendered), next_budget, tight, trimmed), rendered)

    def next_need(j: int) -> int | None:
        """A budget that surely holds items 0..j whole: an upper bound, with the widest envelope (level
        0, which any larger budget may use) and every number at its widest, and large enough that no
        item of them exceeds its share."""
        if j >= total or j >= len(items):
            return None
        need = max(_size(text_for(whole[:j + 1], wide, MAX_BUDGET, 0, 0, MAX_BUDGET)),
                   ITEM_SHARE * max(sizes[:j + 1]) + ITEM_SHARE)
        return need

    def fits(rendered: list[str], j: int, tight: int, trimmed: int) -> bool:
        return _size(text_for(rendered, budget, next_need(j), tight, trimmed)) <= budget

    tight = next((t for t in range(len(_TIGHT)) if fits([], 0, t, 0)), None)
    if tight is None:
        raise ValueError(f"the packet's envelope does not fit in {budget} bytes")
    chosen: list[dict[str, Any]] = []
    rendered: list[str] = []
    trimmed = 0
    first_cut: int | None = None  # the first item not included whole

    def with_item(form: dict[str, Any], i: int) -> list[str]:
        return rendered_of(chosen + [form]) if fmt == "text" else rendered + [whole[i] if form is items[i] else _json(form)]

    for i, item in enumerate(items):
        cut = i if first_cut is None else first_cut
        form = item
        if sizes[i] > share and i + 1 < total:  # more items wait: the most useful form within the share
            form = next((f for f in trimmed_forms(item, words) if item_size(f, fmt) + sep <= share), item)
        trial = with_item(form, i)
        placed = fits(trial, cut if form is not item else (first_cut if first_cut is not None else i + 1), tight,
                      trimmed + (form is not item))
        if placed:
            chosen.append(form)
            rendered = trial
            if form is not item:
                trimmed += 1
                first_cut = cut
            continue
        first_cut = cut
        room = budget - _size(text_for(rendered, budget, next_need(cut), tight, trimmed + 1))
        for form in trimmed_forms(item, words):  # the packet ends with this item, trimmed to what is left
            if item_size(form, fmt) + sep > room + 64:  # cheap bound first; `fits` decides
                continue
            trial = with_item(form, i)
            if fits(trial, cut, tight, trimmed + 1):
                chosen.append(form)
                rendered = trial
                trimmed += 1
                break
        break
    nb = next_need(first_cut if first_cut is not None else len(chosen))
    return _self_sized(lambda used: text_for(rendered, used, nb, tight, trimmed))


def _renderer(fmt: str) -> tuple[Callable[[dict[str, Any], list[str]], str], int,
                                  Callable[[list[dict[str, Any]]], list[str]]]:
    """For `fmt`: the packet's renderer, the bytes between two rendered items, and the items' renderer."""
    if fmt == "json":
        def rendered_of(chosen: list[dict[str, Any]]) -> list[str]:
            return [_json(it) for it in chosen]

        return _render_json, 1, rendered_of
    return _render_text, 0, _text_items


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


def sizes_at(rendered: list[str], k: int, sep: int) -> int:
    return _size(rendered[k]) + (sep if k else 0)
