"""Pane 2, the running job: the step checklist (gather … brief) with counts, the elapsed time, the
current file and the log tail, read from the store (so it works for a host in another process too)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll

from kctui.ui.format import (
    JOB_PHASE,
    STEP_STATE,
    TRIGGER,
    duration,
    job_outcome,
    ws_label,
)
from kctui.ui.messages import JobDetail
from kctui.ui.widgets.border import set_border_subtitle
from kctui.ui.widgets.key_bar import Block
from kctui.ui.widgets.quiet_focus import QuietFocus
from kctui.ui.words import STARTING

NO_JOB = "No job yet. Select a base in the Queue pane (1) and press c to compile it."


def elapsed(detail: JobDetail, now_us: int) -> str:
    job = detail.job
    if job.started_at is None:
        return "not started"
    end = job.completed_at or now_us
    return ("took " if job.completed_at else "elapsed ") + duration(end - job.started_at)


def render_head(detail: JobDetail, now_us: int, tones: dict[str, str]) -> Text:
    job = detail.job
    _, _, tone = JOB_PHASE.get(job.phase, ("?", job.phase, "muted"))
    # line 1: what matters while it runs (the outcome and its time); line 2: which base, how it started
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"{job.short} ", style="bold")
    t.append(job_outcome(job, now_us), style=tones.get(tone, ""))
    t.append(f" · {elapsed(detail, now_us)}\n")
    t.append(f"{detail.base_name} ({ws_label(job.workspace)}) · {TRIGGER.get(job.trigger, job.trigger)}")
    return t


def render_steps(detail: JobDetail, tones: dict[str, str]) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    if detail.job.phase not in ("queued", "running") and all(s.state == "pending" for s in detail.steps):
        t.append("No step progress was recorded for this job (its compiler reports none).",
                 style=tones.get("muted", ""))
        return t
    stopped = detail.job.phase in ("failed", "cancelled")
    for i, s in enumerate(detail.steps):
        glyph, word, tone = STEP_STATE.get(s.state, ("?", s.state, "muted"))
        if stopped and s.state in ("started", "progress"):
            glyph, word, tone = "✘", "stopped", "error"
        count = f"{s.done}/{s.total}" if s.total else ("" if s.state == "pending" else str(s.done))
        t.append(f"{glyph} ", style=tones.get(tone, ""))
        t.append(f"{s.step:<7}", style="bold" if s.state in ("started", "progress") else "")
        t.append(f" {count:>9} {word}")
        if i < len(detail.steps) - 1:
            t.append("\n")
    return t


class LogTail(Block):
    """The log's newest lines, as many as its height shows (a short pane shows the last few, not the first
    of the tail): cut at each paint, so a resize needs no new read."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self._lines: tuple[str, ...] = ()
        self._style = ""

    def show_lines(self, lines: tuple[str, ...], style: str, key: object) -> None:
        if key != self._key:
            self._key, self._lines, self._style = key, lines, style
            self.refresh()

    def render(self) -> object:  # type: ignore[override]
        rows = max(1, self.content_size.height)
        return Text("\n".join(self._lines[-rows:]), no_wrap=True, overflow="ellipsis", style=self._style)


def current_file(detail: JobDetail) -> str:
    for s in detail.steps:
        if s.state in ("started", "progress") and s.current:
            return s.current
    return "—"


class RunningPane(QuietFocus, VerticalScroll, can_focus=True):
    """Fixed-height blocks (CSS in app.tcss), so a progress tick repaints them without a new layout; the
    log takes the height left (its newest lines); a short pane drops the blank rows between blocks
    (`-short`, set on a resize: app.tcss) and, with no row left for a log line, the log (`-no-log`), so
    nothing scrolls and the checklist stays readable."""

    BLOCKS = 10  # rows of the blocks above the log: the head (2), the checklist (6), the current file, "Log"
    GAPS = 2  # the blank rows between them, dropped in a short pane
    LOG_ROWS = 3  # log lines a pane keeps before it drops those blank rows

    PANE = "running"
    TITLE = "2 Running"

    def compose(self) -> ComposeResult:
        yield Block(STARTING, id="run-head")  # (its first show() says what there is)
        yield Block("", id="run-steps")
        yield Block("", id="run-current")
        yield Block("", id="run-log-label", classes="pane-label")
        yield LogTail(id="run-log", classes="log")

    def on_resize(self) -> None:
        rows = self.content_size.height
        self.set_class(rows < self.BLOCKS + self.GAPS + self.LOG_ROWS, "-short")
        self.set_class(rows <= self.BLOCKS, "-no-log")  # not one log line fits: no "Log" heading over none

    def _set(self, wid: str, content: object, key: object) -> None:
        self.query_one(f"#{wid}", Block).set(content, key)

    def show(self, detail: JobDetail | None, now_us: int, tones: dict[str, str]) -> None:
        if detail is None:
            self._set("run-head", Text(NO_JOB), NO_JOB)
            for wid in ("run-steps", "run-current", "run-log-label"):
                self._set(wid, "", "")
            self.query_one("#run-log", LogTail).show_lines((), "", "")
            set_border_subtitle(self, "")
            return
        t = tuple(sorted(tones.items()))
        head = render_head(detail, now_us, tones)
        self._set("run-head", head, (head.plain, t))
        steps = render_steps(detail, tones)
        self._set("run-steps", steps, (steps.plain, detail.job.phase, t))
        cur = f"Current file: {current_file(detail)}" if detail.job.phase == "running" else (
            "Waiting for the compiler to claim it." if detail.job.phase == "queued" else "")
        self._set("run-current", Text(cur, style="bold", no_wrap=True, overflow="ellipsis"), cur)
        self._set("run-log-label", Text("Log", style="bold"), "Log")
        log = tuple(detail.log[-12:]) if detail.log else (
            ("(no log lines yet)",) if detail.job.open else ("(no log lines)",))
        self.query_one("#run-log", LogTail).show_lines(log, tones.get("muted", ""), (log, t))
        done = sum(1 for s in detail.steps if s.state == "done")
        set_border_subtitle(self, f"{done}/{len(detail.steps)} steps")
