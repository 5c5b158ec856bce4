"""The review session of the app (issue 35): the decisions taken in this run, newest last, so `z` undoes
the last one and again the one before; `N` opens the next unread item across bases. Mixed into the app:
the screens' keys call these, every service call runs in the app's worker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

RESOLVED_WORDS = {"approve": "approved: the proposed page is live", "reject": "rejected: the page is unchanged",
                  "use_new": "resolved with the new value", "keep": "resolved: the existing page was kept",
                  "dismiss": "dismissed"}


class ReviewSession:
    """Needs the app's `run_service` and `notify`."""

    session_decisions: list[int]

    def resolve_picked(self, item_id: int, choice: str, expected: int | None, hunks: Sequence[int] | None,
                       total: int, after: Callable[[bool], None] | None = None) -> None:
        """`a` / `r` in a review item: on picked hunks (marked, or the current one) it asks first, with the
        counts (QA s29 item 2: one hunk approved and sixteen left without a word); on the whole item it acts."""
        if not hunks or not total or len(set(hunks)) >= total:
            self.resolve_item(item_id, choice, expected, after=after, hunks=hunks, total=total)
            return
        from kctui.ui.screens.confirm import ask

        picked = sorted(set(hunks))
        rest = total - len(picked)
        them = f"hunk{'s' if len(picked) != 1 else ''} {', '.join(str(n) for n in picked)}"
        taken, left = (them, f"the other {rest}") if choice == "approve" else (f"the other {rest}", them)
        body = (f"{taken[0].upper()}{taken[1:]}: published. {left[0].upper()}{left[1:]}: left as the current page "
                "has them (a claim they revise kept and flagged until its source changes).")
        verb = "Approve" if choice == "approve" else "Reject"

        def answered(yes: bool | None) -> None:
            if yes:  # (no: nothing happens, the marks stay)
                self.resolve_item(item_id, choice, expected, after=after, hunks=picked, total=total)

        ask(self, f"{verb} {len(picked)} of {total} hunks of item #{item_id}?", body,  # type: ignore[arg-type]
            f"{choice} {len(picked)} of {total}", answered)

    def resolve_item(self, item_id: int, choice: str, expected: int | None,
                     after: Callable[[bool], None] | None = None, hunks: Sequence[int] | None = None,
                     total: int = 0, checked: bool = False) -> None:
        from kctui.services import review
        from kctui.services.review_undo import find_decision

        if choice == "approve" and not hunks and not checked:  # a value a person kept: asked first (QA s31 #2)
            self._approve_if_nothing_kept(item_id, expected, after)
            return

        def go(ctx: Any) -> int | None:
            review.resolve(ctx, item_id, choice, expected_revision=expected, hunks=hunks)
            try:
                return find_decision(ctx, item_id=item_id).id
            except Exception:  # noqa: BLE001 - a decision that published nothing has no record to undo
                return None

        def done(decision: int | None) -> None:
            if decision is not None:
                self.session_decisions.append(decision)
            if after:
                after(True)

        from kctui.core.hunks import partial_words

        part = f" (hunks {', '.join(str(n) for n in hunks)})" if hunks else ""
        words = partial_words(choice, hunks, total) if hunks and total else f"{RESOLVED_WORDS[choice]}{part}"
        self.run_service("resolve", go, ok_text=lambda _r: f"item #{item_id} {words}",  # type: ignore[attr-defined]
                         then=done, on_error=(lambda: after(False)) if after else None)

    def _approve_if_nothing_kept(self, item_id: int, expected: int | None,
                                 after: Callable[[bool], None] | None) -> None:
        """Approve the whole item; when its proposal replaces a value a person kept, ask first, naming it."""
        from kctui.services.review_kept import kept_overrides, overrides_words
        from kctui.services.review_queue import get_item
        from kctui.ui.screens.confirm import ask

        def go_on(yes: bool | None) -> None:
            if yes:
                self.resolve_item(item_id, "approve", expected, after=after, checked=True)
            elif after:
                after(False)

        def counted(lines: list[str]) -> None:
            if not lines:
                go_on(True)
                return
            body = "\n".join([*overrides_words(lines, limit=4), "", "Approve the item all the same?"])
            ask(self, f"Approve item #{item_id}: it overrides a kept value", body,  # type: ignore[arg-type]
                "approve over a kept value", go_on)

        self.run_service("check", lambda ctx: kept_overrides([get_item(ctx, item_id)]),  # type: ignore[attr-defined]
                         then=counted, quiet=True, reads_only=True)

    def undo_last(self, after: Callable[[], Any] | None = None) -> None:
        """Undo the session's last decision still standing (z); say so when there is none."""
        if not self.session_decisions:
            self.notify("z: no decision of this session to undo (older ones: v on the page screen, or "  # type: ignore[attr-defined]
                        "`kctui review undo`)", severity="warning", timeout=5)
            return
        decision = self.session_decisions[-1]
        from kctui.services.review_undo import undo_decision

        def done(result: Any) -> None:
            if decision in self.session_decisions:
                self.session_decisions.remove(decision)
            if after:
                after()

        self.run_service("undo", lambda ctx: undo_decision(ctx, decision_id=decision),  # type: ignore[attr-defined]
                         ok_text=lambda d: f"undone: {d.words}; item #{d.items[0][0]} is open again", then=done)

    def open_next_unread(self, after: int | None, replace: Any = None) -> None:
        """Open the next unread open item after `after` (any base); `replace`: the detail screen showing now."""
        from kctui.services.review_reads import next_unread
        from kctui.ui.screens.review_detail import open_item

        def go(nid: int | None) -> None:
            if nid is None:
                self.notify("N: every open review item has been read", timeout=4)  # type: ignore[attr-defined]
                return
            if replace is not None and replace.is_current:
                replace.dismiss(None)
            open_item(self, nid)  # type: ignore[arg-type]

        self.run_service("next", lambda ctx: next_unread(ctx, after), then=go, quiet=True,  # type: ignore[attr-defined]
                         reads_only=True)
