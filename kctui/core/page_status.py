"""A page's trust status in its frontmatter and in a visible line at the top of its body (trust.md §5).

`compile_status` is ours; OKF's `status` follows it (a page waiting on a person is `draft`, an archived
page `deprecated`, anything else `stable`); `verified` lists people's confirmations. Pure text in, text
out; the same functions serve the compiler (writing pages) and the review queue (resolving them).
"""

from __future__ import annotations

from typing import Any

COMPILE_STATUSES = ("compiled", "needs-review", "contradicted", "stale", "confirmed", "archived")
STATUS_LINE_PREFIX = "> **Status:"

STATUS_WORDS = {
    "needs-review": "an update to this page is waiting for review",
    "contradicted": "sources disagree on this page; a person decides",
    "stale": "no new evidence or confirmation for a long time",
    "archived": "no evidence is left for this page; kept for recovery",
}
# The one visible format of a page that is not plainly current (compiler and review queue alike):
#
#     > **Status: contradicted** — the sources disagree on 1 fact; a person decides.
#     >
#     > * **Python** (3.12) — end of life: 2028-10-31 ^[python-release-cycle.md:L13-L13]
#     > * **Python** (3.12) — end of life: 2028-10-02 ^[team-upgrade-notes.md:L8-L8]
#
# The status line, then (for a contradicted page) the disagreeing claim lines of the same blockquote.


def conflict_note(n: int) -> str:
    return f"the sources disagree on {n} fact{'s' if n != 1 else ''}; a person decides."


def stale_note(stale_after: str | None) -> str:
    when = f" (stale since {stale_after[:10]})" if stale_after else ""
    return f"no new evidence or confirmation within the knowledge base's stale-days{when}; check it before relying on it."


ARCHIVED_NOTE = "Archived for recovery: no source supports this page any more."


def okf_status(compile_status: str) -> str:
    if compile_status in ("needs-review", "contradicted"):
        return "draft"
    if compile_status == "archived":
        return "deprecated"
    return "stable"


def status_line(compile_status: str, note: str | None = None) -> str | None:
    """The visible line for a page that is not plainly current; None for compiled/confirmed."""
    if compile_status not in STATUS_WORDS:
        return None
    text = note or STATUS_WORDS[compile_status]
    return f"{STATUS_LINE_PREFIX} {compile_status}** — {text}"


def split_page(text: str) -> tuple[dict[str, Any], str]:
    from kctui.core.frontmatter import parse_document  # noqa: PLC0415 - YAML loads when a page is read

    data, body, _ = parse_document(text)
    return (data or {}), body


def _status_block(lines: list[str]) -> tuple[int, int] | None:
    """(start, end) of the status blockquote: the status line and the `>` lines that continue it, at the
    top of the body (read under a leading `# Title` line too)."""
    i = 0
    while i < len(lines) and lines[i].strip() == "":
        i += 1
    if i < len(lines) and lines[i].startswith("# "):
        i += 1
        while i < len(lines) and lines[i].strip() == "":
            i += 1
    if i >= len(lines) or not lines[i].startswith(STATUS_LINE_PREFIX):
        return None
    j = i + 1
    while j < len(lines) and lines[j].startswith(">"):
        j += 1
    return i, j


def block_claim_lines(body: str) -> list[str]:
    """The claim lines under a status line (`> * …`), without their `> ` mark."""
    lines = body.split("\n")
    span = _status_block(lines)
    if span is None:
        return []
    return [ln[2:] for ln in lines[span[0] + 1: span[1]] if ln.startswith("> * ")]


def strip_status_line(body: str) -> str:
    """The body without its status blockquote (status line and the claim lines under it)."""
    lines = body.split("\n")
    span = _status_block(lines)
    if span is None:
        return body.lstrip("\n")
    i, j = span
    while j < len(lines) and lines[j].strip() == "":
        j += 1
    return "\n".join(lines[:i] + lines[j:]).lstrip("\n")


def status_block(compile_status: str, note: str | None = None, claim_lines: list[str] | None = None) -> list[str]:
    """The status blockquote's lines ([] for a plainly current page)."""
    line = status_line(compile_status, note)
    if line is None:
        return []
    claims = claim_lines if compile_status == "contradicted" and claim_lines else []
    return [line] + ([">"] + [f"> {c}" for c in claims] if claims else [])


def render_page(frontmatter: dict[str, Any], body: str) -> str:
    from kctui.core.frontmatter import dump_yaml  # noqa: PLC0415 - YAML loads when a page is written

    return f"---\n{dump_yaml(frontmatter)}---\n\n{body.lstrip(chr(10))}"


def set_page_status(
    text: str,
    compile_status: str,
    *,
    note: str | None = None,
    verified_by: str | None = None,
    at: str | None = None,
    stale_after: str | None = None,
    claim_lines: list[str] | None = None,
    parsed: tuple[dict[str, Any], str] | None = None,
) -> str:
    """Return the page with `compile_status`, `status`, optional `verified` entry and status line set.

    A contradicted page keeps the claim lines under its status line unless `claim_lines` replaces
    them; any other status drops them with the line. `parsed`: `split_page(text)` when the caller has
    it already (its frontmatter dict is changed in place)."""
    if compile_status not in COMPILE_STATUSES:
        raise ValueError(f"unknown compile_status {compile_status!r}")
    fm, body = parsed if parsed is not None else split_page(text)
    fm["compile_status"] = compile_status
    fm["status"] = okf_status(compile_status)
    if verified_by:
        verified = [v for v in fm.get("verified") or [] if isinstance(v, dict)]
        verified.append({"by": verified_by, "at": at})
        fm["verified"] = verified
    if stale_after:
        fm["stale_after"] = stale_after
    kept = block_claim_lines(body)
    body = strip_status_line(body)
    block = status_block(compile_status, note, claim_lines if claim_lines is not None else kept)
    if block:
        body = "\n".join(block) + "\n\n" + body
    return render_page(fm, body)


def record_resolved_conflict(text: str, fingerprint: str) -> str:
    """Add a dispute a person decided to the page's `resolved_conflicts`, so no later pass raises the
    same disagreement (same fact, same two values) again."""
    if not fingerprint:
        return text
    fm, body = split_page(text)
    done = [str(f) for f in fm.get("resolved_conflicts") or []]
    if fingerprint in done:
        return text
    fm["resolved_conflicts"] = sorted(done + [fingerprint])
    return render_page(fm, body)


def page_compile_status(text: str) -> str:
    fm, _ = split_page(text)
    value = fm.get("compile_status")
    return value if value in COMPILE_STATUSES else "compiled"


FLAG_KEYS = frozenset({"status", "compile_status", "generated", "last_updated", "stale_after"})


def same_content(a: str, b: str) -> bool:
    """Two texts of a page say the same, whatever their status flags and timestamps."""
    (fa, ba), (fb, bb) = split_page(a), split_page(b)
    return (strip_status_line(ba) == strip_status_line(bb)
            and {k: v for k, v in fa.items() if k not in FLAG_KEYS} == {k: v for k, v in fb.items() if k not in FLAG_KEYS})
