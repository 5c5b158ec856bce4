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

    def resolve_item(self, item_id: int, choice: str, expected: int | None,
                     after: Callable[[bool], None] | None = None, hunks: Sequence[int] | None = None) -> None:
        from kctui.services import review
        from kctui.services.review_undo import find_decision

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

        part = f" (hunks {', '.join(str(n) for n in hunks)})" if hunks else ""
        self.run_service("resolve", go, ok_text=lambda _r: f"item #{item_id} {RESOLVED_WORDS[choice]}{part}",  # type: ignore[attr-defined]
                         then=done, on_error=(lambda: after(False)) if after else None)

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
