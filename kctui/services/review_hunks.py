"""A held change decided hunk by hunk (issue 35): the hunks of an item, numbered across its pages as a
person counts them (1, 2, 3 …), and the page a partial decision leaves. Taking part of a change is a
new revision that holds exactly the accepted hunks; each claim of a rejected hunk stays as the page
had it, kept and flagged against the source revision it came from (`kctui.compiler.trust.kept`), as a
whole rejection does, so it is asked again when the source changes."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kctui.compiler.trust.kept import pin_kept
from kctui.core.hunks import Hunk, merge_hunks, page_hunks
from kctui.core.page_status import render_page, split_page, strip_status_line
from kctui.core.pages import KEPT_KEY
from kctui.services.errors import InvalidInput
from kctui.services.review_queue import ReviewItem


@dataclass(frozen=True)
class ItemHunk:
    number: int  # 1-based across the item's pages
    page: str
    local: int  # 0-based within its page
    hunk: Hunk

    def json(self) -> dict[str, Any]:
        h = self.hunk
        return {"hunk": self.number, "page": self.page, "kind": h.kind, "what": h.words, "section": h.section,
                "removed": list(h.old), "added": list(h.new), "citations": h.citations}


def body_of(text: str | None) -> str:
    """A page's body as hunks are cut from it: without front matter and status blockquote."""
    if not text:
        return ""
    return strip_status_line(split_page(text)[1])


def item_hunks(item: ReviewItem, current_of: Callable[[str], str | None],
               proposal_of: Callable[[str, str | None], str | None] | None = None) -> list[ItemHunk]:
    """The hunks of a held item: each page's live body against its proposal, pages in the item's order."""
    out: list[ItemHunk] = []
    for p in item.page_list:
        proposed = proposal_of(p.page_path, p.proposed_body) if proposal_of else p.proposed_body
        for local, h in enumerate(page_hunks(body_of(current_of(p.page_path)), body_of(proposed))):
            out.append(ItemHunk(len(out) + 1, p.page_path, local, h))
    return out


def accepted_by_page(item: ReviewItem, hunks: list[ItemHunk], action: str,
                     chosen: Iterable[int]) -> dict[str, set[int]]:
    """page -> the local hunks taken, when `action` (approve | reject) applies to the hunks numbered
    `chosen` and the opposite to the others. InvalidInput naming a number the item does not have."""
    if item.kind != "held":
        raise InvalidInput(f"review item {item.id} is a conflict: it has no hunks to choose (use-new, keep or dismiss)")
    chosen = sorted(set(int(n) for n in chosen))
    unknown = [n for n in chosen if not 1 <= n <= len(hunks)]
    if unknown:
        raise InvalidInput(f"review item {item.id} has {len(hunks)} hunk{'s' if len(hunks) != 1 else ''}; "
                           f"no hunk {', '.join(str(n) for n in unknown)}")
    out: dict[str, set[int]] = {p.page_path: set() for p in item.page_list}
    for h in hunks:
        if (h.number in chosen) == (action == "approve"):
            out[h.page].add(h.local)
    return out


def partial_page(current: str | None, proposed: str, accepted: set[int], rel: str, *, by: str, at: str,
                 seen_refs: dict[str, str] | None = None) -> str | None:
    """The page with the hunks `accepted` of the proposal taken and the others left: the proposal's
    front matter (its sources' revisions), the claims of rejected hunks kept and flagged. None: a page
    the proposal creates, none of whose hunks was taken."""
    pfm, pbody = split_page(proposed)
    if current is None:
        if not accepted:
            return None
        return render_page(copy.deepcopy(pfm), merge_hunks("", strip_status_line(pbody), accepted))
    cfm, cbody = split_page(current)
    merged = render_page(cfm, merge_hunks(strip_status_line(cbody), strip_status_line(pbody), accepted))
    kfm, kbody = split_page(pin_kept(merged, proposed, rel, by=by, at=at, seen_refs=seen_refs))
    fm = copy.deepcopy(pfm)
    if kfm.get(KEPT_KEY):
        fm[KEPT_KEY] = kfm[KEPT_KEY]
    else:
        fm.pop(KEPT_KEY, None)
    return render_page(fm, kbody)


__all__ = ["ItemHunk", "item_hunks", "accepted_by_page", "partial_page", "body_of"]
