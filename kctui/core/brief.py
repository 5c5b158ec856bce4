"""The change brief (trust.md §7): a pull-request-style account of one compile pass, as Markdown."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_ITEMS = 40
UPDATE_ORDER = ("create", "append", "revise", "supersede", "remove")
UPDATE_WORDS = {"create": "created", "append": "appended", "revise": "revised", "supersede": "superseded (archived)",
                "remove": "removed"}


@dataclass(frozen=True)
class BriefPage:
    page_class: str
    slug: str
    title: str
    kind: str  # create | append | revise | supersede | remove
    added: int = 0
    revised: int = 0
    retracted: int = 0


@dataclass(frozen=True, slots=True)
class BriefClaimChange:
    change: str  # added | revised | retracted
    path: str
    subject: str
    attribute: str
    scope: str
    old: str
    new: str


@dataclass(frozen=True)
class BriefHeld:
    page_class: str
    slug: str
    title: str
    kind: str  # create | append | revise | supersede (the trust.md §1 class of the held change)
    reason: str  # the reason code (trust.md §3)
    words: str  # the reason in words
    summary: str = ""


@dataclass(frozen=True)
class BriefStale:
    page_class: str
    slug: str
    title: str
    since: str  # the instant it went stale


@dataclass(frozen=True)
class BriefConflict:
    page_class: str
    slug: str
    title: str
    attribute: str
    scope: str
    sides: tuple[tuple[str, str], ...]  # (value, citation)


@dataclass
class BriefData:
    job_id: str
    trigger: str
    created_at: str
    source_digest: str
    compiler: str
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    unchanged: int = 0
    pages: list[BriefPage] = field(default_factory=list)
    refreshed: int = 0  # pages whose citations or links moved without a claim changing
    claim_changes: list[BriefClaimChange] = field(default_factory=list)
    conflicts: list[BriefConflict] = field(default_factory=list)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)  # (path, reason, detail)
    skipped_before: int = 0  # skipped again, unchanged since a brief listed them (not listed again)
    warnings: list[str] = field(default_factory=list)
    links_dropped: list[str] = field(default_factory=list)
    unreached: list[tuple[str, int, tuple[str, ...]]] = field(default_factory=list)  # (path, count, examples)
    dropped_claims: int = 0
    timings: list[tuple[str, float]] = field(default_factory=list)
    cache_hits: int = 0
    model_usage: str = ""  # a model-backed pass: tokens, estimated cost, requests (kctui.compiler.llm)
    policy: str | None = None  # the autonomy the pass ran under; None: no trust policy was given
    held: list[BriefHeld] = field(default_factory=list)
    stale: list[BriefStale] = field(default_factory=list)
    reread: int = 0  # unchanged sources read again because a page of theirs waits for review
    held_items: int | None = None  # review items the held pages were filed as (one per source change)
    outputs_stale: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)  # kept answers gone stale: (path, question, why)


def _code(path: str) -> str:
    return "`" + path.replace("`", "'") + "`"


def _capped(lines: list[str]) -> list[str]:
    if len(lines) <= MAX_ITEMS:
        return lines
    return lines[:MAX_ITEMS] + [f"  * … and {len(lines) - MAX_ITEMS} more"]


def _page_link(page_class: str, slug: str, title: str) -> str:
    folder = {"source": "sources", "concept": "concepts", "entity": "entities"}[page_class]
    return f"[{title.replace('[', '(').replace(']', ')')}](wiki/{folder}/{slug}.md)"


def render_brief(b: BriefData) -> str:
    total = sum(t for _, t in b.timings)
    out = [f"# Change brief: job `{b.job_id}`", ""]
    out.append(f"Compiled at {b.created_at} ({b.trigger}) by {b.compiler}; sources `{b.source_digest}`; "
               f"{total:.2f} s.")
    out += _source_changes(b)
    out += _pages_section(b)
    out += _review_sections(b)
    out += _claims_section(b)
    out += _stale_section(b)
    out += _outputs_section(b)
    out += ["", "## Links", ""]
    out.append("Every link written resolves; none dropped." if not b.links_dropped
               else f"{len(b.links_dropped)} dropped: " + ", ".join(b.links_dropped[:MAX_ITEMS]))
    out += _skipped_sections(b)
    out += _loss_guard_section(b)
    out += ["", "## Time", ""]
    out.append(" · ".join(f"{step} {secs:.3f} s" for step, secs in b.timings) + f" · total {total:.3f} s")
    out.append(f"Extraction cache hits: {b.cache_hits}. Tokens and cost: "
               f"{b.model_usage or 'none (built-in extractor, no model)'}.")
    return "\n".join(out) + "\n"


def _source_changes(b: BriefData) -> list[str]:
    out = ["", "## Source changes", ""]
    out.append(f"{len(b.added)} added, {len(b.modified)} modified, {len(b.deleted)} deleted, "
               f"{len(b.renamed)} renamed, {b.unchanged} unchanged.")
    for label, paths in (("added", b.added), ("modified", b.modified), ("deleted", b.deleted)):
        if paths:
            out.append(f"* {label}:")
            out += _capped([f"  * {_code(p)}" for p in paths])
    if b.renamed:
        out.append("* renamed (same content):")
        out += _capped([f"  * {_code(a)} → {_code(n)}" for a, n in b.renamed])
    return out


def _pages_section(b: BriefData) -> list[str]:
    out = ["", "## Pages", ""]
    if b.policy is not None:
        out.append("What this pass wrote; changes the trust policy held are listed under Updates held.")
    counts = {k: sum(1 for p in b.pages if p.kind == k) for k in UPDATE_ORDER}
    out.append(", ".join(f"{counts[k]} {UPDATE_WORDS[k]}" for k in UPDATE_ORDER)
               + f"; {b.refreshed} with citations or links refreshed only.")
    for kind in UPDATE_ORDER:
        rows = [p for p in b.pages if p.kind == kind]
        if rows:
            out.append(f"* {UPDATE_WORDS[kind]}:")
            out += _capped([f"  * {_page_link(p.page_class, p.slug, p.title)} ({p.page_class}): {p.added} claims added, "
                            f"{p.revised} revised, {p.retracted} retracted" for p in rows])
    return out


def _claims_section(b: BriefData) -> list[str]:
    out = ["", "## Claims", ""]
    n = {k: sum(1 for c in b.claim_changes if c.change == k) for k in ("added", "revised", "retracted")}
    out.append(f"{n['added']} added, {n['revised']} revised, {n['retracted']} retracted"
               f" ({b.dropped_claims} candidate claims dropped because their cited lines did not contain the value).")
    detail = []
    for c in b.claim_changes:
        if c.change == "added":
            continue
        scope = f" ({c.scope})" if c.scope else ""
        tail = f"{_code(c.old)} → {_code(c.new)}" if c.change == "revised" else f"{_code(c.old)} withdrawn"
        detail.append(f"* {c.change} {c.subject}{scope} {c.attribute}: {tail} in {_code(c.path)}")
    return out + _capped(detail)


def _stale_section(b: BriefData) -> list[str]:
    out = ["", "## Pages gone stale", ""]
    if b.policy is None:
        out.append("Not evaluated: this pass ran without a trust policy.")
        return out
    out.append(f"{len(b.stale)} pages went stale (no new evidence or confirmation within the policy's stale days)."
               if b.stale else "None.")
    return out + _capped([f"* {_page_link(x.page_class, x.slug, x.title)} ({x.page_class}): stale since {x.since}"
                          for x in b.stale])


def _outputs_section(b: BriefData) -> list[str]:
    """Kept answers (wiki/outputs/) whose cited page or source lines changed: a section only when there are any."""
    if not b.outputs_stale:
        return []
    out = ["", "## Kept answers gone stale", "", f"{len(b.outputs_stale)} kept answers cite what changed; ask them again:"]
    return out + _capped([f"* [{q.replace('[', '(').replace(']', ')')}](wiki/{path}): {'; '.join(why[:3])}"
                          for path, q, why in b.outputs_stale])


def _skipped_sections(b: BriefData) -> list[str]:
    """Files skipped, and the warnings (a section only when there are any)."""
    out = ["", "## Files skipped", ""]
    if not b.skipped:
        out.append("None." if not b.skipped_before else "None new.")
    out += _capped([f"* {_code(p)}: {reason}" + (f" ({detail})" if detail else "") for p, reason, detail in b.skipped])
    if b.skipped_before:
        out.append(f"{b.skipped_before} file(s) skipped again, unchanged since an earlier brief listed them.")
    if b.warnings:
        out += ["", "## Warnings", ""]
        out += _capped([f"* {w}" for w in b.warnings])
    return out


def _loss_guard_section(b: BriefData) -> list[str]:
    out = ["", "## Compile-loss guard", ""]
    lost = sum(c for _, c, _ in b.unreached)
    out.append(f"{lost} dates, versions and numbers in {len(b.unreached)} re-read sources reached no claim.")
    rows = sorted(b.unreached, key=lambda r: (-r[1], r[0]))
    return out + _capped([f"* {_code(p)}: {count} (e.g. {', '.join(ex)})" for p, count, ex in rows])


HELD_ORDER = ("create", "append", "revise", "supersede")


def _review_sections(b: BriefData) -> list[str]:
    """Updates held and conflicts opened: together, exactly the items this pass files in the review queue."""
    out = ["", "## Updates held", ""]
    if b.policy is None:
        out.append("None: this pass ran without a trust policy, so every update was written "
                   "(each is classified above as create, append, revise or supersede).")
    else:
        out += _held_lines(b)
    out += ["", "## Conflicts opened", ""]
    if not b.conflicts:
        out.append("None.")
    for c in b.conflicts:
        scope = f" ({c.scope})" if c.scope else ""
        sides = " vs ".join(f"{_code(v)} {cite}" for v, cite in c.sides)
        out.append(f"* {_page_link(c.page_class, c.slug, c.title)}: {c.attribute}{scope}: {sides}")
    return out


def _held_lines(b: BriefData) -> list[str]:
    """What the trust policy held: the items filed, counts by kind, and each held page by kind."""
    sets = len(b.held) if b.held_items is None else b.held_items
    pages = "" if sets == len(b.held) else f" ({len(b.held)} page updates, one decision per source change)"
    out = [f"Trust policy: {b.policy}. This pass filed {sets + len(b.conflicts)} review items: "
           f"{sets} held{pages} and {len(b.conflicts)} conflicts opened."]
    if b.held:
        counts = ", ".join(f"{sum(1 for h in b.held if h.kind == k)} {k}" for k in HELD_ORDER
                           if any(h.kind == k for h in b.held))
        out.append(f"Held: {counts}.")
    if b.reread:
        out.append(f"{b.reread} unchanged sources were read again so pages waiting for review are proposed in full.")
    for kind in HELD_ORDER:
        rows = [h for h in b.held if h.kind == kind]
        if rows:
            out.append(f"* {kind} held:")
            out += _capped([f"  * {_page_link(h.page_class, h.slug, h.title)} ({h.page_class}): {h.words} "
                            f"(`{h.reason}`)" for h in rows])
    return out


# -- reading the counts back (the one line `compile --wait` ends with) ------------------------------------

_SECTION_COUNTED = {"## Files skipped": "skipped", "## Warnings": "warnings"}


def brief_counts(markdown: str) -> dict[str, int] | None:
    """The counts a brief written by `render_brief` states: pages changed (created, appended, revised,
    superseded, removed), files skipped and warnings. None when the text is not such a brief (an
    external compiler's own brief)."""
    import re

    pages = None
    counts = {"skipped": 0, "warnings": 0}
    section = None
    words = "|".join(re.escape(UPDATE_WORDS[k]) for k in UPDATE_ORDER)
    page_line = re.compile(rf"^(\d+) ({words})(?:, (\d+) ({words}))*")
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = _SECTION_COUNTED.get(line.strip())
            if line.strip() == "## Pages":
                section = "pages"
            continue
        if section == "pages" and pages is None and page_line.match(line):
            pages = sum(int(n) for n, _w in re.findall(rf"(\d+) ({words})", line.split(";", 1)[0]))
        elif section in counts:
            more = re.match(r"^\s+\* … and (\d+) more$", line)
            if more:
                counts[section] += int(more.group(1))
            elif line.startswith("* "):
                counts[section] += 1
    if pages is None:
        return None
    return {"pages": pages, **counts}
