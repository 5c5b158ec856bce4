"""Update and flag: build each touched page from its previous state and this pass's contributions,
classify the change (create < append < revise < supersede, trust.md §1), keep old values in the page's
append-only history, and flag conflicts and pages left without evidence.

A page's content is a function of its previous page and the contributions of the sources that changed;
contributions of unchanged sources are read back from the previous page itself.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from kctui.compiler.extraction import Extraction
from kctui.compiler.steps.recurrence import RECORDED_KEYS, recorded_names
from kctui.compiler.steps.registry import Contribution
from kctui.compiler.steps.title_names import source_aliases
from kctui.compiler.trust.changes import (
    ARCHIVED_SOURCE_KEY,
    ClaimChange,
    ConflictReport,
    PageUpdate,
    PassContext,
    claim_key,
    claim_order,
)
from kctui.compiler.trust.disputes import settle
from kctui.core.claims import Claim
from kctui.core.disputable import by_rate, disputable, fact_key
from kctui.core.page_edits import edit_entries
from kctui.core.pages import Mention, Page, SourceRef, escape_text, is_descriptive
from kctui.core.slugs import identity_key
from kctui.core.value_sense import all_same

MAX_RELATED = 12
MAX_HISTORY_DETAIL = 40
def diff_claims(path: str, old: list[Claim], new: list[Claim]) -> list[ClaimChange]:
    """Claim changes of one source: same key, other value = revised; gone = retracted; new = added;
    by key, then by `claim_order`."""
    if not old:  # a page's first word from this source (a first pass): all added
        return [ClaimChange("added", path, n.subject, n.attribute, n.scope, "", n.value)
                for n in sorted(new, key=lambda c: (claim_key(c), claim_order(c)))]
    old_ids = Counter(c.claim_id for c in old)
    new_ids = Counter(c.claim_id for c in new)
    gone = [c for c in old if old_ids[c.claim_id] > new_ids.get(c.claim_id, 0)]
    came = [c for c in new if new_ids[c.claim_id] > old_ids.get(c.claim_id, 0)]
    by_key_old: dict[tuple, list[Claim]] = {}
    by_key_new: dict[tuple, list[Claim]] = {}
    for c in gone:
        by_key_old.setdefault(claim_key(c), []).append(c)
    for c in came:
        by_key_new.setdefault(claim_key(c), []).append(c)
    out: list[ClaimChange] = []
    for key in sorted(set(by_key_old) | set(by_key_new)):
        olds = sorted(by_key_old.get(key, []), key=claim_order)
        news = sorted(by_key_new.get(key, []), key=claim_order)
        for o, n in zip(olds, news):
            out.append(ClaimChange("revised", path, n.subject, n.attribute, n.scope, o.value, n.value))
        for o in olds[len(news):]:
            out.append(ClaimChange("retracted", path, o.subject, o.attribute, o.scope, o.value, ""))
        for n in news[len(olds):]:
            out.append(ClaimChange("added", path, n.subject, n.attribute, n.scope, "", n.value))
    return out


def conflicts_of(claims: list[Claim], person: bool = False) -> dict[tuple[str, str, str], list[Claim]]:
    """Facts from different sources with the same key (attribute, scope, unit) and different values,
    each source asserting exactly one value (wiki.md §4 conflict rule)."""
    groups: dict[tuple[str, str, str], dict[str, list[Claim]]] = {}
    for c in disputable(claims, person):  # (atomic, and a value of its subject's fact: kctui.core.disputable)
        groups.setdefault((fact_key(c.key[1]), c.key[2], c.key[3]), {}).setdefault(c.evidence.path, []).append(c)
    out: dict[tuple[str, str, str], list[Claim]] = {}
    for key, by_path in groups.items():
        single = {p: cs[0] for p, cs in by_path.items() if all_same({x.norm_value for x in cs})}
        for same_rate in by_rate(single.values()):  # (a rate per parcel and a lump sum are two facts)
            if len(same_rate) >= 2 and not all_same({c.norm_value for c in same_rate}):
                out[key] = sorted(same_rate, key=lambda c: (c.evidence.path, c.evidence.start))
                break
    return dict(sorted(out.items()))


def _sentence(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    cut = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    if len(cut) > limit:
        cut = cut[: limit - 1].rsplit(" ", 1)[0] + "…"
    return cut if cut.endswith((".", "!", "?", "…")) else cut + "."


def _history_detail(changes: list[ClaimChange]) -> list[str]:
    lines = []
    for ch in changes:
        if ch.change == "added":
            continue
        scope = f" ({escape_text(ch.scope)})" if ch.scope else ""
        head = f"  * {ch.change} {escape_text(ch.subject)}{scope} {escape_text(ch.attribute)}: "
        if ch.change == "revised":
            lines.append(head + f"{escape_text(ch.old)} → {escape_text(ch.new)}")
        else:
            lines.append(head + f"{escape_text(ch.old)} (was in `{ch.path}`)")
    if len(lines) > MAX_HISTORY_DETAIL:
        lines = lines[:MAX_HISTORY_DETAIL] + [f"  * … and {len(lines) - MAX_HISTORY_DETAIL} more"]
    return lines


def _paths(paths: set[str]) -> str:
    shown = sorted(paths)[:5]
    more = f" and {len(paths) - 5} more" if len(paths) > 5 else ""
    return ", ".join(f"`{p}`" for p in shown) + more


def _links(ctx: PassContext, slugs: list[str]) -> list[tuple[str, str, str]]:
    return [(ctx.kinds[s], s, ctx.titles[s]) for s in slugs if s in ctx.kinds]


def _related(ctx: PassContext, page_slug: str, paths: set[str], kind: str) -> list[str]:
    counts: Counter[str] = Counter()
    for path in paths:
        for slug in ctx.fed.get(path, ()):
            if slug != page_slug and ctx.kinds.get(slug) == kind:
                counts[slug] += 1
    ranked = sorted(counts, key=lambda s: (-counts[s], ctx.titles[s].casefold(), s))
    return sorted(ranked[:MAX_RELATED], key=lambda s: (ctx.titles[s].casefold(), s))


def _carried_status(old: Page | None) -> str:
    """The status a rebuilt page keeps from its previous one: a person's sign-off or a pending review."""
    if old and old.compile_status in ("confirmed", "needs-review"):
        return old.compile_status
    if old and old.human_confirmed:  # a person's sign-off outlives a stale or settled spell
        return "confirmed"
    return "compiled"


def _status(old: Page | None, claims: list[Claim], mentions: list[Mention], conflicts: list) -> str:
    if not claims and not mentions:
        return "archived"
    if conflicts:
        return "contradicted"
    return _carried_status(old)


@dataclass(frozen=True)
class _Tally:
    """How a page changed: its claims added, revised and retracted and, for a concept or entity page, the
    sources that began and stopped mentioning it."""

    added: int
    revised: int
    retracted: int
    mentions_new: int = 0
    mentions_gone: int = 0

    @classmethod
    def of(cls, changes: list[ClaimChange], mentions_new: int = 0, mentions_gone: int = 0) -> _Tally:
        counts = Counter(ch.change for ch in changes)
        return cls(counts["added"], counts["revised"], counts["retracted"], mentions_new, mentions_gone)


def build_topic_page(slug: str, kind: str, old: Page | None, contributions: dict[str, Contribution],
                     ctx: PassContext, new_title: str = "", new_type: str = "", new_domain: str = "") -> tuple[Page, PageUpdate]:
    """A concept or entity page: unchanged sources' claims and mentions kept from `old`, changed
    sources' replaced by `contributions` (path -> Contribution)."""
    # a source the page still cites that is gone (a person kept its claims, then the file went, or a
    # revision restored them) is treated as changed: its claims leave the page as a change, never a crash
    changed = ctx.changed | _gone_sources(old, ctx)
    candidates, mentions = _topic_evidence(old, contributions, changed)
    etype = _entity_type(old, contributions, new_type)
    settled = settle(old, candidates, conflicts_of(candidates, person=etype == "person"))
    claims = sorted(settled.accepted, key=claim_order)
    touched_paths, changes = _topic_changes(old, claims, contributions, changed)
    paths = _cited_paths(old, claims + settled.disputed, mentions, ctx)
    title = old.title if old else new_title
    page = Page(
        kind=kind,
        slug=slug,
        title=title,
        aliases=_aliases(old, contributions, title),
        tags=[etype or "thing"] if kind == "entity" else ["concept"],
        domain=(old.domain if old and old.domain else new_domain) or "general",
        sources=[SourceRef(p, ctx.digests[p], ctx.source_slugs[p]) for p in sorted(paths, key=lambda p: p.encode())],
        compile_status=_status(old, claims, mentions, settled.groups),
        entity_type=(etype or "thing") if kind == "entity" else "",
        claims=claims,
        mentions=mentions,
        conflicts=settled.groups,
        disputed=sorted(settled.disputed, key=claim_order),
        **_carried(old),
    )
    page.description = _topic_description(page, len(paths))
    page.links = _topic_links(ctx, slug, paths)
    tally = _Tally.of(changes, *_mention_shift(old, mentions))
    update_kind = _topic_update_kind(old, page.compile_status, tally)
    page.history += _topic_history(ctx.created_at, update_kind, paths, touched_paths, changes, tally)
    opened = [ConflictReport(slug, kind, title, d.existing.attribute, d.existing.scope, [d.existing, d.incoming], d)
              for d in settled.opened]
    update = PageUpdate(slug, kind, title, update_kind, tally.added, tally.revised, tally.retracted, changes, opened)
    return page, update


def _topic_evidence(old: Page | None, contributions: dict[str, Contribution],
                    changed: set[str]) -> tuple[list[Claim], list[Mention]]:
    """The page's candidate claims (its own and disputed ones from unchanged sources, then the changed
    sources' contributions) and its mentions likewise, each in page order."""
    candidates = [c for c in ([*old.claims, *old.disputed] if old else []) if c.evidence.path not in changed]
    candidates += [c for contribution in contributions.values() for c in contribution.claims]
    mentions = [m for m in (old.mentions if old else []) if m.evidence.path not in changed]
    mentions += [m for contribution in contributions.values() for m in contribution.mentions]
    candidates.sort(key=claim_order)
    mentions.sort(key=lambda m: (m.evidence.path, m.evidence.start, m.surface))
    return candidates, mentions


def _topic_changes(old: Page | None, claims: list[Claim], contributions: dict[str, Contribution],
                   changed: set[str]) -> tuple[set[str], list[ClaimChange]]:
    """The changed sources the page heard from (before or now), and the claim changes of each."""
    old_claims = old.claims if old else []
    old_paths = {x.evidence.path for x in old_claims} | {m.evidence.path for m in (old.mentions if old else [])}
    touched_paths = (old_paths | set(contributions)) & changed
    changes: list[ClaimChange] = []
    before: dict[str, list[Claim]] = {}  # each source's claims, grouped once (not scanned once per source)
    after: dict[str, list[Claim]] = {}
    for group, of in ((before, old_claims), (after, claims)):
        for c in of:
            group.setdefault(c.evidence.path, []).append(c)
    for path in sorted(touched_paths):
        changes += diff_claims(path, before.get(path, []), after.get(path, []))
    return touched_paths, changes


def _gone_sources(old: Page | None, ctx: PassContext) -> set[str]:
    if old is None:
        return set()
    cited = {c.evidence.path for c in [*old.claims, *old.disputed]} | {m.evidence.path for m in old.mentions}
    return {p for p in cited if p not in ctx.digests}


def _cited_paths(old: Page | None, claims: list[Claim], mentions: list[Mention], ctx: PassContext) -> set[str]:
    """The sources the page cites: of its claims (disputed ones included) and mentions, and the current
    sources a person cited in a statement they wrote on it (issue 15)."""
    paths = {c.evidence.path for c in claims} | {m.evidence.path for m in mentions}
    paths |= {str(e.get("source")) for e in edit_entries(old.extra if old else {})
              if str(e.get("source") or "") in ctx.digests and str(e.get("source")) in ctx.source_slugs}
    return paths


def _aliases(old: Page | None, contributions: dict[str, Contribution], title: str) -> list[str]:
    aliases = set(old.aliases if old else [])
    for contribution in contributions.values():
        aliases |= contribution.aliases
    aliases = {a for a in aliases if identity_key(a) != identity_key(title)}
    return sorted(aliases, key=lambda a: (a.casefold(), a))


def _entity_type(old: Page | None, contributions: dict[str, Contribution], new_type: str) -> str:
    """The page's own entity type, else the first contribution's (in path order), else the new page's."""
    etype = old.entity_type if old and old.entity_type not in ("", "thing") else ""
    if not etype:
        etype = next((c.entity_type for _, c in sorted(contributions.items()) if c.entity_type), "") or new_type
    return etype


def _carried(old: Page | None) -> dict[str, list | dict]:
    """What a rebuilt page carries over from its previous one as it is: sign-offs, frontmatter, history."""
    if old is None:
        return {"verified": [], "extra": {}, "history": []}
    return {"verified": list(old.verified), "extra": dict(old.extra), "history": list(old.history)}


def _topic_links(ctx: PassContext, slug: str, paths: set[str]) -> dict[str, list[tuple[str, str, str]]]:
    return {
        "Related Concepts": _links(ctx, _related(ctx, slug, paths, "concept")),
        "Related Entities": _links(ctx, _related(ctx, slug, paths, "entity")),
        "Sources": _links(ctx, sorted({ctx.source_slugs[p] for p in paths}, key=lambda s: (ctx.titles[s].casefold(), s))),
    }


def _mention_shift(old: Page | None, mentions: list[Mention]) -> tuple[int, int]:
    """(sources that began mentioning the page, sources that stopped)."""
    old_mention_paths = {m.evidence.path for m in (old.mentions if old else [])}
    new_mention_paths = {m.evidence.path for m in mentions}
    return len(new_mention_paths - old_mention_paths), len(old_mention_paths - new_mention_paths)


def _topic_update_kind(old: Page | None, status: str, tally: _Tally) -> str:
    if old is None:
        return "create"
    if status == "archived" and old.compile_status != "archived":
        return "supersede"
    if tally.revised or tally.retracted or tally.mentions_gone or old.compile_status == "archived":
        return "revise"  # (bringing an archived page back changes what it says too)
    if tally.added or tally.mentions_new:
        return "append"
    return "refresh"


def _topic_history(at: str, update_kind: str, paths: set[str], touched_paths: set[str], changes: list[ClaimChange],
                   tally: _Tally) -> list[str]:
    """The page's history lines for this pass (none for a refresh)."""
    if update_kind == "create":
        return [f"* {at}: created from {_paths(paths)}."]
    if update_kind == "supersede":
        return [f"* {at}: archived: no evidence left after {_paths(touched_paths)} changed.", *_history_detail(changes)]
    if update_kind in ("revise", "append"):
        return [
            f"* {at}: from {_paths(touched_paths)}: {tally.added} claims added, {tally.revised} revised, "
            f"{tally.retracted} retracted; {tally.mentions_new} sources began and {tally.mentions_gone} stopped "
            "mentioning it.",
            *_history_detail(changes),
        ]
    return []


def _topic_description(page: Page, n_sources: int) -> str:
    if page.compile_status == "archived":
        return f"{page.title} (archived: no source supports it any more)."
    descriptive = [c for c in page.claims if is_descriptive(c)]
    plural = "s" if n_sources != 1 else ""
    if descriptive:
        c = descriptive[0]
        text = f"{c.subject} {c.attribute} {c.value}" if c.form == "statement" else f"{c.subject}: {c.value}"
        return _sentence(text)
    if page.kind == "entity":
        return f"{page.title}, a {page.entity_type or 'thing'} mentioned in {n_sources} source{plural}."
    return f"{page.title}, a term used in {n_sources} source{plural}."


def _source_links(ctx: PassContext, path: str) -> dict[str, list[tuple[str, str, str]]]:
    fed = sorted(ctx.fed.get(path, ()), key=lambda s: (ctx.titles[s].casefold(), s))
    return {
        "Concepts Introduced or Reinforced": _links(ctx, [s for s in fed if ctx.kinds.get(s) == "concept"]),
        "Entities Mentioned": _links(ctx, [s for s in fed if ctx.kinds.get(s) == "entity"]),
    }


def relink_source_page(old: Page, ctx: PassContext) -> tuple[Page, PageUpdate]:
    """An unchanged source's page rendered again (another link style): same content, links rebuilt."""
    path = old.sources[0].resource if old.sources else ""
    old.links = _source_links(ctx, path)
    return old, PageUpdate(old.slug, "source", old.title, "refresh")


def build_source_page(slug: str, ex: Extraction, old: Page | None, ctx: PassContext, tags: list[str]) -> tuple[Page, PageUpdate]:
    path = ex.path
    claims = sorted(ex.claims, key=claim_order)
    changes = diff_claims(path, old.claims if old else [], claims)
    page = Page(
        kind="source",
        slug=slug,
        title=ex.title,
        aliases=source_aliases(ex.title, _own_names(ex), path),
        tags=tags,
        domain=ex.domain,
        sources=[SourceRef(path, ex.digest, slug)],
        compile_status=_carried_status(old),
        date_ingested=old.date_ingested if old and old.date_ingested else ctx.created_at,
        source_type=ex.source_type,
        summary=ex.summary,
        claims=claims,
        questions=list(ex.questions),
        **_carried(old),
    )
    page.extra = {k: v for k, v in page.extra.items() if k not in _REMADE_KEYS}
    page.description = _sentence(ex.summary[0]) if ex.summary else f"Source file {path} ({ex.kind})."
    page.extra.update(recorded_names(ex))
    page.links = _source_links(ctx, path)
    tally = _Tally.of(changes)
    kind = _source_update_kind(old, tally)
    page.history += _source_history(ctx.created_at, ex, old, len(claims), changes, tally)
    return page, PageUpdate(slug, "source", ex.title, kind, tally.added, tally.revised, tally.retracted, changes)


def _own_names(ex: Extraction) -> list[str]:
    """The names a source gives pages of their own (its subject, entities and concepts, and their aliases)."""
    things = [*([ex.subject] if ex.subject else []), *ex.entities, *ex.concepts]
    return [n for t in things for n in (t.name, *t.aliases)]


_REMADE_KEYS = (ARCHIVED_SOURCE_KEY, *RECORDED_KEYS)  # a source page's, made again each time


def _source_update_kind(old: Page | None, tally: _Tally) -> str:
    if old is None:
        return "create"
    if tally.revised or tally.retracted or old.compile_status == "archived":
        return "revise"
    return "append" if tally.added else "refresh"


def _source_history(at: str, ex: Extraction, old: Page | None, n_claims: int, changes: list[ClaimChange],
                    tally: _Tally) -> list[str]:
    """The source page's history lines for this pass: its ingestion, or a change of the file's content."""
    if old is None:
        return [f"* {at}: ingested `{ex.path}` ({ex.digest}): {n_claims} claims."]
    old_digest = old.sources[0].digest if old.sources else "unknown"
    if old_digest == ex.digest:
        return []
    return [f"* {at}: `{ex.path}` changed ({old_digest} → {ex.digest}): {tally.added} claims added, "
            f"{tally.revised} revised, {tally.retracted} retracted.", *_history_detail(changes)]
