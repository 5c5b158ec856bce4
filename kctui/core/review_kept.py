"""What approving a proposal would undo of a person's decision (QA s31 item 2): a value a person kept
(rejected a change of, `kept_claims`) that the proposal no longer carries. An approval says so before it
publishes, in the CLI and the app's confirm dialog."""

from __future__ import annotations

from kctui.core.frontmatter import FrontmatterError
from kctui.core.pages import kept_entries, kept_match, parse_page


def overridden_kept(live: str | None, proposed: str | None, slug: str = "page") -> list[str]:
    """One line per kept value of the live page that the proposal drops or changes:
    `Datadog Owner: Jonas Weber (kept by human:ada on 2026-11-03)`."""
    if not live or not proposed:
        return []
    try:
        cur, new = parse_page(live, slug), parse_page(proposed, slug)
    except (ValueError, FrontmatterError):
        return []
    out = []
    for e in kept_entries(cur.extra):
        if any(kept_match(e, c) for c in new.claims):
            continue
        scope = f" ({e.get('scope')})" if e.get("scope") else ""
        by = str(e.get("by") or "a person").removeprefix("human:")
        out.append(f"{e.get('subject')}{scope} {e.get('attribute')}: {e.get('value')} "
                   f"(kept by {by} on {str(e.get('at') or '')[:10]})")
    return out


__all__ = ["overridden_kept"]
