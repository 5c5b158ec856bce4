"""A page's trust status in its frontmatter and in a visible line at the top of its body (trust.md §5).

`compile_status` is ours; OKF's `status` follows it (a page waiting on a person is `draft`, an archived
page `deprecated`, anything else `stable`); `verified` lists people's confirmations. Pure text in, text
out; the same functions serve the compiler (writing pages) and the review queue (resolving them).
"""

from __future__ import annotations

from typing import Any

from kctui.core.frontmatter import dump_yaml, parse_document

COMPILE_STATUSES = ("compiled", "needs-review", "contradicted", "stale", "confirmed", "archived")
STATUS_LINE_PREFIX = "> **Status:"

STATUS_WORDS = {
    "needs-review": "an update to this page is waiting for review",
    "contradicted": "sources disagree on this page; a person decides",
    "stale": "no new evidence or confirmation for a long time",
    "archived": "no evidence is left for this page; kept for recovery",
}


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
    data, body, _ = parse_document(text)
    return (data or {}), body


def strip_status_line(body: str) -> str:
    lines = body.split("\n")
    i = 0
    while i < len(lines) and lines[i].strip() == "":
        i += 1
    if i < len(lines) and lines[i].startswith(STATUS_LINE_PREFIX):
        del lines[i]
        while i < len(lines) and lines[i].strip() == "":
            del lines[i]
        return "\n".join(lines[:i] + lines[i:]).lstrip("\n")
    return body.lstrip("\n")


def render_page(frontmatter: dict[str, Any], body: str) -> str:
    return f"---\n{dump_yaml(frontmatter)}---\n\n{body.lstrip(chr(10))}"


def set_page_status(
    text: str,
    compile_status: str,
    *,
    note: str | None = None,
    verified_by: str | None = None,
    at: str | None = None,
    stale_after: str | None = None,
) -> str:
    """Return the page with `compile_status`, `status`, optional `verified` entry and status line set."""
    if compile_status not in COMPILE_STATUSES:
        raise ValueError(f"unknown compile_status {compile_status!r}")
    fm, body = split_page(text)
    fm["compile_status"] = compile_status
    fm["status"] = okf_status(compile_status)
    if verified_by:
        verified = [v for v in fm.get("verified") or [] if isinstance(v, dict)]
        verified.append({"by": verified_by, "at": at})
        fm["verified"] = verified
    if stale_after:
        fm["stale_after"] = stale_after
    body = strip_status_line(body)
    line = status_line(compile_status, note)
    if line:
        body = f"{line}\n\n{body}"
    return render_page(fm, body)


def page_compile_status(text: str) -> str:
    fm, _ = split_page(text)
    value = fm.get("compile_status")
    return value if value in COMPILE_STATUSES else "compiled"
