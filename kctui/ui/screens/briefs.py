"""The briefs screen (`v` on a base): the base's passes, newest first — when, trigger, outcome, and
what each did (pages written, held updates and conflicts filed, whether it wrote a brief) — and, while
a pass of the base runs, its checklist, live. enter opens the selected pass's brief in full
(`BriefScreen`, rendered Markdown); esc goes back.

Polled as the main screen polls: a thread worker on the screen's own store connection reads
`services.briefs.list_passes` (and the running pass's steps), and the next read is armed only after
the UI applied the last one, so reads never overlap."""

from __future__ import annotations

import threading
from typing import Any

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.option_list import Option

from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.ui import keys
from kctui.ui.format import JOB_PHASE, STOPPED, TRIGGER, duration, ws_label
from kctui.ui.long_markdown import is_long
from kctui.ui.widgets.key_bar import KeyBar, Line
from kctui.ui.widgets.long_text import LongText

INTERVAL = 0.5  # seconds between reads while the screen is open (the main screen's poll interval)


def when(at: str | None) -> str:
    return (at or "").replace("T", " ")[:16] or "—"


def pass_row(p: dict[str, Any], now_us: int, tones: dict[str, str]) -> Text:
    glyph, word, tone = STOPPED if p.get("stopped") else JOB_PHASE.get(p["phase"], ("?", p["phase"], "muted"))
    muted = tones.get("muted", "")
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"#{p['jobId'].rsplit('-', 1)[-1]:<4}", style="bold")
    t.append(f" {when(p['createdAt'])} ", style=muted)
    t.append(f"{TRIGGER.get(p['trigger'], p['trigger']):<6} ")
    t.append(f"{glyph} {word:<9}", style=tones.get(tone, ""))
    took = (p["completedUs"] or now_us) - p["startedUs"] if p["startedUs"] else None
    t.append(f" {duration(took):>5} ")
    t.append("▤ brief " if p["hasBrief"] else ("        " if p["phase"] in ("queued", "running") else "· none  "),
             style="" if p["hasBrief"] else muted)
    if p["phase"] == "failed":
        t.append(p.get("errorWords") or p.get("error") or "failed", style=muted if p.get("stopped") else tones.get("error", ""))
        return t
    if p["phase"] in ("queued", "running"):
        t.append("in progress" if p["phase"] == "running" else "waiting", style=muted)
        return t
    t.append(f"{p['pagesWritten']} page{'s' if p['pagesWritten'] != 1 else ''} · {p['held']} held · "
             f"{p['conflicts']} conflict{'s' if p['conflicts'] != 1 else ''}")
    return t


class BriefsScreen(Screen[None]):
    DEFAULT_CSS = """
    BriefsScreen { background: $background; }
    BriefsScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    BriefsScreen #briefs-count { padding: 0 1; color: $text-muted; }
    BriefsScreen #briefs-running { padding: 0 1; height: auto; max-height: 10; border-bottom: solid $panel-lighten-2; }
    BriefsScreen #briefs-list { height: 1fr; margin: 0 1; border: none; background: $surface; text-wrap: nowrap; text-overflow: ellipsis; }
    """
    KEY_SCOPES = (keys.BRIEFS,)
    BINDINGS = [*keys.bindings(keys.BRIEFS), Binding("down", "move(1)", show=False),
                Binding("up", "move(-1)", show=False)]

    class Read(Message):
        def __init__(self, data: dict[str, Any] | None, detail: Any, now_us: int, error: str | None) -> None:
            super().__init__()
            self.data, self.detail, self.now_us, self.error = data, detail, now_us, error

    def __init__(self, workspace: str, kb_id: str, name: str) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.kb_name = workspace, kb_id, name
        self.passes: list[dict[str, Any]] | None = None
        self.detail: Any = None  # the running pass's JobDetail, or None
        self._lock = threading.Lock()
        self._ctx: ServiceContext | None = None
        self._timer: Timer | None = None
        self._closed = False
        self._reading = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Line("Loading the passes…", id="briefs-count")
            yield Static("", id="briefs-running", markup=False)
            yield OptionList(id="briefs-list")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = escape(f"Passes of {self.kb_name} ({ws_label(self.workspace)})")
        self.query_one("#briefs-running").display = False
        self.query_one(OptionList).focus()
        self.read()

    def on_screen_resume(self) -> None:
        if self.passes is not None and self._timer is None:
            self.read()

    def on_unmount(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.stop()
        threading.Thread(target=self._close, name="kctui-briefs-close", daemon=True).start()

    def _close(self) -> None:
        with self._lock:
            if self._ctx is not None:
                self._ctx.close()
                self._ctx = None

    # -- the poll ------------------------------------------------------------------------------------

    @property
    def idle(self) -> bool:
        return not self._reading

    def read(self) -> None:
        self._timer = None
        if self._closed or self._reading:
            return
        if self.app.screen is not self:  # a brief is open over the list: read again when it closes
            return
        self._reading = True
        self.run_worker(self._read_thread, thread=True, group="briefs", name="briefs", exit_on_error=False)

    def _read_thread(self) -> None:
        from kctui.services import briefs
        from kctui.ui.poll import read_detail

        with self._lock:
            try:
                if self._ctx is None:
                    self._ctx = self.app.ctx_factory()  # type: ignore[attr-defined]
                data = briefs.list_passes(self._ctx, self.workspace, self.kb_id)
                running = next((p for p in data["items"] if p["phase"] == "running"), None)
                detail = read_detail(self._ctx, running["jobId"], {}) if running else None
                self.post_message(self.Read(data, detail, self._ctx.now(), None))
            except ServiceError as exc:
                self.post_message(self.Read(None, None, 0, exc.message))
            except Exception as exc:  # noqa: BLE001 - shown, never raised into the UI
                self.post_message(self.Read(None, None, 0, f"reading the passes failed: {type(exc).__name__}: {exc}"))

    def on_briefs_screen_read(self, message: Read) -> None:
        self._reading = False
        if self._closed:
            return
        if message.error:
            self.query_one("#briefs-count", Line).set(message.error)
        else:
            self.show(message.data, message.detail, message.now_us)  # type: ignore[arg-type]
        self._timer = self.set_timer(INTERVAL, self.read, name="briefs-poll")

    def show(self, data: dict[str, Any], detail: Any, now_us: int) -> None:
        from kctui.ui.widgets.running_pane import elapsed, render_steps

        tones = self.app.tones()  # type: ignore[attr-defined]
        listing = self.query_one("#briefs-list", OptionList)
        keep = self.selected_pass()
        rows = [Option(pass_row(p, now_us, tones), id=p["jobId"]) for p in data["items"]]
        changed = self.passes is None or [p for p in self.passes] != data["items"] or now_us // 60_000_000 != \
            getattr(self, "_minute", None)
        self.passes = data["items"]
        self._minute = now_us // 60_000_000
        if changed:
            listing.clear_options()
            listing.add_options(rows)
            ids = [p["jobId"] for p in self.passes]
            if ids:
                listing.highlighted = ids.index(keep) if keep in ids else 0
        n, total = len(data["items"]), data["total"]
        self.query_one("#briefs-count", Line).set(
            "No pass yet: compile the base (c on the main screen)." if not total else
            f"{total} pass{'es' if total != 1 else ''}, newest first" + (f" (the newest {n} shown)" if n < total else "")
            + " · enter opens the brief · esc back")
        box = self.query_one("#briefs-running", Static)
        self.detail = detail
        if detail is None:
            box.display = False
            return
        head = Text()
        head.append(f"▶ pass {detail.job.short} running", style=f"bold {tones.get('primary', '')}".strip())
        head.append(f" · {elapsed(detail, now_us)}\n")
        head.append_text(render_steps(detail, tones))
        box.update(head)
        box.display = True

    def selected_pass(self) -> str | None:
        listing = self.query_one("#briefs-list", OptionList)
        at = listing.highlighted
        if at is None or not self.passes or not 0 <= at < len(self.passes):
            return None
        return self.passes[at]["jobId"]

    # -- keys -----------------------------------------------------------------------------------------

    def why_not(self, action: str, parameters: tuple[object, ...] = ()) -> str | None:
        if action in ("open", "move") and not self.passes:
            return "this base has no pass yet"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if self.why_not(action, parameters) is None else None

    def action_move(self, delta: int) -> None:
        listing = self.query_one("#briefs-list", OptionList)
        (listing.action_cursor_down if delta > 0 else listing.action_cursor_up)()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        job = self.selected_pass()
        if job is None:
            self.app.notify(f"enter (Open): {self.why_not('open') or 'no pass is chosen'}", severity="warning",
                            timeout=4, markup=False)
            return
        p = next(x for x in self.passes or [] if x["jobId"] == job)
        self.app.push_screen(BriefScreen(self.workspace, self.kb_id, p))

    def action_back(self) -> None:
        self.dismiss(None)


class BriefScreen(Screen[None]):
    """One pass's brief in full, as rendered Markdown; a pass that wrote none says why."""

    DEFAULT_CSS = """
    BriefScreen { background: $background; }
    BriefScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    BriefScreen #brief-head { padding: 0 1; height: auto; }
    BriefScreen #brief-scroll { height: 1fr; padding: 0 1; }
    BriefScreen #brief-md { margin: 0; padding: 0; }
    BriefScreen #brief-long { display: none; }
    BriefScreen #brief-scroll.long { scrollbar-gutter: stable; }
    BriefScreen #brief-md MarkdownH1, BriefScreen #brief-md MarkdownH2, BriefScreen #brief-md MarkdownH3 {
        margin: 1 0 0 0; padding: 0; content-align: left middle; text-align: left; }
    BriefScreen #brief-md MarkdownH1 { margin: 0; }
    """
    KEY_SCOPES = ()
    BINDINGS = [Binding("escape", "back", "Back", show=False, id="back"),
                Binding("j", "move(1)", show=False), Binding("k", "move(-1)", show=False)]

    def __init__(self, workspace: str, kb_id: str, pass_: dict[str, Any]) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.pass_ = workspace, kb_id, pass_
        self.markdown: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="brief-head", markup=False)
            with VerticalScroll(id="brief-scroll", can_focus=True):
                yield Markdown("", id="brief-md", open_links=False)
                yield LongText(id="brief-long")
        yield KeyBar()

    def on_mount(self) -> None:
        p = self.pass_
        glyph, word, _tone = STOPPED if p.get("stopped") else JOB_PHASE.get(p["phase"], ("?", p["phase"], "muted"))
        short = "#" + p["jobId"].rsplit("-", 1)[-1]
        self.query_one(Vertical).border_title = f"Brief of pass {short}"
        head = f"{p['jobId']} · {TRIGGER.get(p['trigger'], p['trigger'])} · {glyph} {word} · {when(p['createdAt'])}"
        self.query_one("#brief-head", Static).update(head)
        self.query_one("#brief-scroll").focus()
        if not p["hasBrief"]:
            why = (f"This pass failed: {p.get('errorWords') or p.get('error') or 'see the job'}; a failed pass writes "
                   "no brief." if p["phase"] == "failed" else
                   "This pass wrote no brief (only a successful pass of a compiler that writes one has a brief).")
            self.query_one("#brief-md", Markdown).update(why)
            return
        from kctui.services.briefs import find_brief

        ws, kb, job = self.workspace, self.kb_id, p["jobId"]
        self.app.run_service("brief", lambda ctx: find_brief(ctx, ws, kb, job),  # type: ignore[attr-defined]
                             then=self.show_brief, quiet=True)

    def show_brief(self, data: dict[str, Any]) -> None:
        self.markdown = data["markdown"]
        long = is_long(data["markdown"])  # a pass over thousands of sources: one widget, rendered in a thread
        self.query_one("#brief-md", Markdown).display = not long
        self.query_one("#brief-long", LongText).display = long
        self.query_one("#brief-scroll").set_class(long, "long")  # its width stays when the scroll bar comes
        if long:
            self.query_one("#brief-long", LongText).show(data["markdown"], "brief")
        else:
            self.query_one("#brief-md", Markdown).update(data["markdown"])

    @property
    def load_pending(self) -> bool:
        """A long brief is being rendered (app.is_idle waits)."""
        return any(w.pending for w in self.query(LongText))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True

    def why_not(self, action: str, parameters: tuple[object, ...] = ()) -> str | None:
        return None

    def action_move(self, delta: int) -> None:
        self.query_one("#brief-scroll").scroll_relative(y=delta, animate=False)

    def action_back(self) -> None:
        self.dismiss(None)
