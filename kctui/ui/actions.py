"""The key actions of the main screen. Each service call runs in a thread worker through
`app.run_service` (never on the UI thread) and reports its outcome, or its error in words, as a
notification. Destructive ones ask first (kctui.ui.screens.confirm.ask)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from kctui.services import bases as bases_svc
from kctui.services import jobs as jobs_svc
from kctui.services import workspaces as workspaces_svc
from kctui.ui.screens.add_workspace import AddWorkspaceScreen
from kctui.ui.screens.confirm import ask
from kctui.ui.screens.main_state import MainState
from kctui.ui.screens.new_kb import NewKb, NewKbScreen
from kctui.ui.screens.review_detail import open_item
from kctui.ui.screens.search import SearchScreen
from kctui.ui.stops import PANE_STOP, STOPS
from kctui.ui.widgets.keyed_table import KeyedTable
from kctui.ui.widgets.review_pane import ReviewPane
from kctui.ui.words import changes_body, compile_text


class MainActions(MainState):
    """The key actions of the main screen (MainScreen adds its layout and which keys apply)."""

    # -- moving around ------------------------------------------------------------------------------

    def action_focus_pane(self, pane: str) -> None:
        self.focus_stop(PANE_STOP[pane])

    def action_cycle(self, delta: int) -> None:
        cur = self.current_stop() or "bases"
        self.focus_stop(STOPS[(STOPS.index(cur) + delta) % len(STOPS)])

    def action_move(self, delta: int) -> None:
        w = self.focused
        if isinstance(w, KeyedTable):
            (w.action_cursor_down if delta > 0 else w.action_cursor_up)()
        elif w is not None:
            w.scroll_relative(y=delta, animate=False)

    def action_open(self) -> None:
        stop = self.current_stop()
        if stop == "bases":
            base = self.selected_base()
            job = next((j for j in self.snapshot.jobs if base and j.base_key == base.key), None)
            self.focus_stop("jobs")
            if job is not None:
                self.follow = False
                self.queue.jobs.select_key(job.id)
        elif stop == "jobs":
            self.follow = False
            self.focus_stop("running")
            self.app.poller.poll_now(full=False)  # type: ignore[attr-defined]
        elif stop == "items":
            item = self.selected_item()
            if item is not None:
                open_item(self.app, item.id)

    def action_back(self) -> None:
        f = self.query_one("#filter", Input)
        pane = getattr(self, "_filter_pane", self.active)
        if f.display or self.needle.get(pane):
            self.needle[pane] = ""
            f.value = ""
            f.display = False
            self.focus_stop(PANE_STOP[pane])
            self.rerender()
            return
        self.follow = True
        self.focus_stop("bases")
        self.app.poller.poll_now()  # type: ignore[attr-defined]

    def action_filter(self) -> None:
        self._filter_pane = self.active
        f = self.query_one("#filter", Input)
        f.value = self.needle.get(self.active, "")
        f.display = True
        f.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            pane = getattr(self, "_filter_pane", self.active)
            self.needle[pane] = event.value.strip().lower()
            self.reshow(pane)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            event.input.display = False
            self.focus_stop(PANE_STOP[getattr(self, "_filter_pane", self.active)])

    # -- the queue ----------------------------------------------------------------------------------

    def action_compile(self) -> None:
        base = self.selected_base()
        if base is None:
            return

        def then(result: Any) -> None:
            _, base_record, job = result
            self.follow = True  # the Running pane takes the job up as soon as it is claimed
            self.pending_follow = job.id if job is not None else None
            self.app.show_result(job, base_record)  # type: ignore[attr-defined]

        self.app.run_service("compile", lambda ctx: jobs_svc.request_compile(ctx, base.workspace, base.id),  # type: ignore[attr-defined]
                             ok_text=compile_text, then=then)

    def action_dry_run(self) -> None:
        """A dry run in its own thread and store connection: it never waits for, nor holds up, the
        other actions or the host's worker."""
        base = self.selected_base()
        if base is None:
            return
        app = self.app
        app.notify(f"{base.name}: dry run started", timeout=3)

        def work() -> None:
            from kctui.services.dry_run import run_dry_run, summary_line  # noqa: PLC0415
            from kctui.services.errors import ServiceError  # noqa: PLC0415

            ctx = app.ctx_factory()  # type: ignore[attr-defined]
            try:
                run = run_dry_run(ctx, base.workspace, base.id)
                text, ok = f"{base.name}: {summary_line(run)}", run.phase == "succeeded"
            except ServiceError as exc:
                run, text, ok = None, f"dry run: {exc.message}", False
            finally:
                ctx.close()
            app.call_from_thread(self.dry_run_done, base.name, run, text, ok)

        app.run_worker(work, thread=True, group="dry-run", name="dry-run", exit_on_error=False)

    def dry_run_done(self, name: str, run: Any, text: str, ok: bool) -> None:
        from kctui.ui.screens.dry_run import DryRunScreen  # noqa: PLC0415

        self.app.notify(text, severity="information" if ok else "error", timeout=5 if ok else 10)
        if run is not None and run.brief:
            self.app.push_screen(DryRunScreen(f"Dry run of {name} · {run.id}", run.brief["markdown"]))

    def action_cancel(self) -> None:
        job = self.cancel_target()
        if job is None:
            return
        name = next((b.name for b in self.snapshot.bases if b.key == job.base_key), job.base_id)
        body = (f"{name} · {job.trigger} · {job.phase}.\n\n"
                + ("The compile stops and its result is refused; the wiki stays as it was."
                   if job.phase == "running" else "The queued compile is removed from the queue."))

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.run_service(  # type: ignore[attr-defined]
                    "cancel", lambda ctx: jobs_svc.cancel(ctx, job.workspace, job.base_id, job.id),
                    ok_text=lambda r: f"job {job.short} cancelled" if r[0] else f"job {job.short} had already ended")

        ask(self.app, f"Cancel job {job.short}?", body, "cancel the job", answer)

    def action_clear_pause(self) -> None:
        base = self.selected_base()
        if base is None:
            return
        try:
            from kctui.services.scheduler import resume_base, source_changes
        except ImportError:  # an older build: a manual compile clears the pause too
            resume_base = source_changes = None  # type: ignore[assignment]

        def resume(ctx: Any) -> Any:
            if resume_base is None:
                return jobs_svc.request_compile(ctx, base.workspace, base.id)[1:]
            return resume_base(ctx, base.workspace, base.id, compile=True)

        def resumed_text(result: Any) -> str:
            job = result[1]
            return f"{base.name}: pause cleared" + (f", compile #{job.id.rsplit('-', 1)[-1]} queued" if job else "")

        def answer(yes: bool | None) -> None:
            if yes:
                def then(result: Any) -> None:
                    self.follow = True
                    self.pending_follow = result[1].id if result[1] is not None else None
                    self.app.show_result(result[1], result[0])  # type: ignore[attr-defined]

                self.app.run_service("clear pause", resume, ok_text=resumed_text, then=then)  # type: ignore[attr-defined]

        def ask_to_clear(counts: dict[str, Any] | None) -> None:
            ask(self.app, f"Clear the pause of {base.name}?", changes_body(base.name, base.paused_reason, counts),
                "clear the pause and compile", answer)

        if source_changes is None:
            ask_to_clear(None)
        else:
            self.app.run_service("change counts", lambda ctx: source_changes(ctx, base.workspace, base.id),  # type: ignore[attr-defined]
                                 then=ask_to_clear, quiet=True, reads_only=True)

    def action_toggle_policy(self) -> None:
        base = self.selected_base()
        if base is None:
            return
        new = "manual" if base.policy == "smart_auto" else "smart_auto"
        note = ": compile with c" if new == "manual" else ": it compiles by itself once source changes settle"
        self.app.run_service(  # type: ignore[attr-defined]
            "policy", lambda ctx: bases_svc.set_compilation_policy(ctx, base.workspace, base.id, new),
            ok_text=lambda r: f"{base.name} is now {new}{note}")

    def action_search(self) -> None:
        base = self.selected_base()
        if base is not None:
            self.app.push_screen(SearchScreen(base.workspace, base.id, base.name))

    def action_pages(self) -> None:
        from kctui.ui.screens.pages import PagesScreen

        base = self.selected_base()
        if base is not None:
            self.app.push_screen(PagesScreen(base.workspace, base.id, base.name))

    def action_policy(self) -> None:
        from kctui.ui.screens.policy import PolicyScreen

        base = self.selected_base()
        if base is not None:
            self.app.push_screen(PolicyScreen(base.workspace, base.id, base.name))

    def action_briefs(self) -> None:
        from kctui.ui.screens.briefs import BriefsScreen

        base = self.selected_base()
        if base is not None:
            self.app.push_screen(BriefsScreen(base.workspace, base.id, base.name))

    def action_add_workspace(self) -> None:
        def added(ws: str | None) -> None:
            if ws:
                self.app.run_service(  # type: ignore[attr-defined]
                    "add workspace", lambda ctx: workspaces_svc.add_workspace(ctx, ws),
                    ok_text=lambda r: f"now monitoring {r[1]}" if r[0] else f"{r[1]} is already monitored")

        self.app.push_screen(AddWorkspaceScreen(), added)

    def action_new_kb(self) -> None:
        base = self.selected_base()

        def create(req: NewKb | None) -> None:
            if req is None:
                return
            self.app.run_service(  # type: ignore[attr-defined]
                "new knowledge base",
                lambda ctx: bases_svc.create_base(ctx, req.workspace, req.name, description=req.description,
                                                  policy=req.policy, from_paths=req.from_paths or None),
                ok_text=lambda r: (f"created {r[1].name} ({r[1].id})" if r[0] else f"{r[1].name} already exists")
                + ("" if req.from_paths else f"; put its sources in .a3s/kb/bases/{r[1].id}/sources/"),
                then=lambda r: self.call_after_refresh(lambda: self.queue.bases.select_key(f"{r[1].workspace}\0{r[1].id}")))

        self.app.push_screen(NewKbScreen(list(self.snapshot.workspaces), base.workspace if base else None), create)

    # -- the review queue ---------------------------------------------------------------------------

    def action_resolve(self, choice: str) -> None:
        pane = self.query_one(ReviewPane)
        marked = pane.marked_items(self.snapshot)
        if marked and choice in ("approve", "reject"):  # a / r act on every marked row
            held = [i for i in marked if i.kind == "held"]
            self.confirm_bulk(choice, [i.id for i in held], {i.id: i.expected_revision for i in held},
                              len({(i.workspace, i.base_id) for i in held}), len(marked) - len(held), "marked")
            return
        item = self.selected_item()
        if item is not None:
            self.app.resolve_item(item.id, choice, item.expected_revision)  # type: ignore[attr-defined]

    def action_mark(self) -> None:
        item = self.selected_item()
        if item is None:
            return
        self.query_one(ReviewPane).toggle_mark(item.id)
        self.query_one(ReviewPane).items.action_cursor_down()
        self.update_bindings()

    def action_bulk(self, choice: str) -> None:
        """A / R: every open held update matching the pane's filter — counted by the service over all
        open items (not only the rows loaded), then confirmed."""
        from kctui.services.review_bulk import select_items  # noqa: PLC0415

        needle = self.needle["review"]

        def counted(sel: Any) -> None:
            self.confirm_bulk(choice, [i.id for i in sel.items], {i.id: i.expected_revision for i in sel.items},
                              len(sel.bases()), len(sel.conflicts), f"matching “{needle}”" if needle else "open")

        self.app.run_service("count", lambda ctx: select_items(ctx, everything=True, filter_text=needle or None),
                             then=counted, quiet=True, reads_only=True)  # type: ignore[attr-defined]

    def confirm_bulk(self, choice: str, ids: list[int], seen: dict[int, int], bases: int,
                     left_out: int, which: str) -> None:
        verb = {"approve": "Approve", "reject": "Reject"}[choice]
        if not ids:
            self.app.notify(f"no {which} held update to {choice}" + (
                f" ({left_out} conflict{'s' if left_out != 1 else ''}: resolve each with n, e or d)" if left_out else ""),
                severity="warning", timeout=5)
            return
        n = len(ids)
        lines = [f"{verb} {n} {which} held update{'s' if n != 1 else ''} in {bases} knowledge base"
                 f"{'s' if bases != 1 else ''}?", "",
                 ("Each proposed page is published as it was proposed" if choice == "approve"
                  else "Each page keeps what it says; its needs-review flag is cleared")
                 + ", in one promotion per knowledge base."]
        if left_out:
            lines.append(f"{left_out} conflict{'s are' if left_out != 1 else ' is'} left out: resolve each with "
                         "n (use new), e (keep) or d (dismiss).")
        lines.append("An item whose page changed since you saw it is skipped, not applied.")

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_bulk(choice, ids, seen)

        ask(self.app, f"{verb} {n} held update{'s' if n != 1 else ''}", "\n".join(lines), f"{choice} {n}", answered)

    def run_bulk(self, choice: str, ids: list[int], seen: dict[int, int]) -> None:
        """In a thread worker (the UI never waits): one bulk action, its progress on the pane's line."""
        from kctui.services.review_bulk import bulk_resolve, select_items  # noqa: PLC0415

        pane = self.query_one(ReviewPane)
        verb = {"approve": "approving", "reject": "rejecting"}[choice]
        app = self.app

        def progress(phase: str, done: int, total: int) -> None:
            app.call_from_thread(pane.show_progress, verb, phase, done, total)

        def work(ctx: Any) -> Any:
            chosen = select_items(ctx, item_ids=ids)
            return bulk_resolve(ctx, chosen.items, choice, seen=seen, progress=progress)

        def finished(outcome: Any) -> None:
            pane.show_progress(verb, "done", 0, 0)
            pane.clear_marks()

        def words(outcome: Any) -> str:
            done = {"approve": "approved", "reject": "rejected"}[choice]
            text = f"{len(outcome.applied)} {done} in {outcome.promotions} promotion(s)"
            if outcome.skipped:
                text += f"; {len(outcome.skipped)} skipped ({outcome.skipped[0][1]})"
            if outcome.failed:
                text += f"; failed: {outcome.failed[0][1]}"
            return text

        pane.show_progress(verb, "deciding", 0, len(ids))
        app.run_service(f"{choice} {len(ids)}", work, ok_text=words, then=finished,  # type: ignore[attr-defined]
                        on_error=lambda: pane.show_progress(verb, "done", 0, 0))
