"""Pane 1, the queue: every monitored base (phase as glyph and word, pending changes, next automatic
compile, pause reason) and the newest jobs (trigger, age, outcome), both keyed by id and updated in place."""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from kctui.ui.format import (
    BASE_COLUMNS,
    JOB_COLUMNS,
    age,
    base_cells,
    base_line,
    base_next,
    job_cells,
    until,
)
from kctui.ui.messages import Snapshot
from kctui.ui.widgets.border import set_border_subtitle
from kctui.ui.widgets.key_bar import Line
from kctui.ui.widgets.keyed_table import KeyedTable, Row

EMPTY_HINT = ("No knowledge bases yet. Press [b]w[/b] to add a workspace folder or [b]b[/b] to create a "
              "knowledge base (or run `kctui demo`).")


FILTER_MARK = "⧩"  # a filter is on: the pane's subtitle says which and how many rows it shows


def matches(needle: str, cells) -> bool:
    return not needle or needle in haystack(cells)


_HAYSTACKS: dict[int, tuple[object, str]] = {}  # id(a row's cells) -> (the cells, their text in lower case)


def haystack(cells) -> str:
    """A row's text as a filter searches it, kept while the row's cells are the same list (a table's
    build_rows keeps a row's cells while the row is unchanged): each typed character of a filter
    searched 500 rows' cells joined anew."""
    got = _HAYSTACKS.get(id(cells))
    if got is not None and got[0] is cells:
        return got[1]
    text = " ".join(c.plain for c in cells).lower()
    if len(_HAYSTACKS) >= 20_000:
        _HAYSTACKS.clear()
    _HAYSTACKS[id(cells)] = (cells, text)
    return text


class QueuePane(Vertical):
    PANE = "queue"
    TITLE = "1 Queue"

    def compose(self) -> ComposeResult:
        yield Static(EMPTY_HINT, id="queue-empty", classes="hint")
        yield KeyedTable(BASE_COLUMNS, id="bases")
        yield Line("", id="base-line", classes="pane-note")
        yield Line("Jobs", id="jobs-label", classes="pane-label")
        yield KeyedTable(JOB_COLUMNS, id="jobs")

    def on_mount(self) -> None:
        self.query_one("#queue-empty").display = False  # until the first read says there is no base

    @property
    def bases(self) -> KeyedTable:
        return self.query_one("#bases", KeyedTable)

    @property
    def jobs(self) -> KeyedTable:
        return self.query_one("#jobs", KeyedTable)

    def show(self, snap: Snapshot, needle: str, tones: dict[str, str], follow_job: str | None) -> None:
        """Both tables updated in place (a row is laid out again only when what it shows changed), the
        jobs' label and the pane's subtitle."""
        base_rows, job_rows = self.rows(snap, tones)
        if needle:
            base_rows = [(k, c) for k, c in base_rows if matches(needle, c)]
            job_rows = [(k, c) for k, c in job_rows if matches(needle, c)]
        self.bases.sync(base_rows)
        self.jobs.sync(job_rows, follow=follow_job)
        empty = self.query_one("#queue-empty")
        if empty.display != (not snap.bases):
            empty.display = not snap.bases
        self.show_base_line(snap)
        self.query_one("#jobs-label", Line).set(jobs_label(snap, needle, len(job_rows)))
        subtitle = pane_subtitle(snap, needle, len(base_rows), len(job_rows))
        if subtitle != getattr(self, "_subtitle", None):
            self._subtitle = subtitle
            set_border_subtitle(self, Text(subtitle))

    def rows(self, snap: Snapshot, tones: dict[str, str]) -> tuple[list[Row], list[Row]]:
        """(key, cells) of every base and every job, each row's cells built again only when its
        signature (what the cells show) changed (`KeyedTable.build_rows`)."""
        now, t = snap.now_us, id(tones)
        many = len({b.workspace for b in snap.bases}) > 1
        base_rows = self.bases.build_rows(
            (b.key, (b, base_next(b, now), many, t), partial(base_cells, b, now, tones, many)) for b in snap.bases)
        names = {b.key: b.name for b in snap.bases}
        running = snap.job(snap.running_job_id) if snap.running_job_id else None
        job_rows = self.jobs.build_rows(
            (j.id, (j, age(now, j.created_at), j.completed_at is None and j.started_at is not None and now,
                    names.get(j.base_key), t, running.id if running and j.phase == "queued" else None),
             partial(job_cells, j, now, names, tones, running)) for j in snap.jobs)
        return base_rows, job_rows

    def show_base_line(self, snap: Snapshot) -> None:
        b = snap.base(self.bases.cursor_key)
        self.query_one("#base-line", Line).set(base_line(b, snap.now_us) if b else "")


def jobs_label(snap: Snapshot, needle: str, shown_jobs: int) -> str:
    """The line above the jobs: how many are shown (a filter), or listed of all there are."""
    if needle:
        shown = f"{shown_jobs} / {len(snap.jobs)} shown"
    elif snap.jobs_total > len(snap.jobs):
        shown = f"newest {len(snap.jobs)} of {snap.jobs_total}"
    else:
        shown = f"{snap.jobs_total}"
    return f"Jobs ({shown})"


def pane_subtitle(snap: Snapshot, needle: str, shown_bases: int, shown_jobs: int) -> str:
    """The pane's bottom edge: the bases and workspaces and the next scheduled compile, or, with a
    filter on, which filter and how many rows it shows."""
    n = len(snap.bases)
    if needle:
        return (f"{FILTER_MARK} filter “{needle}”: {shown_bases} / {n} bases, "
                f"{shown_jobs} / {len(snap.jobs)} jobs shown · esc clears")
    ws = len(snap.workspaces)
    sched = min((b.next_scheduled_us for b in snap.bases if b.next_scheduled_us is not None), default=None)
    return f"{n} base{'s' if n != 1 else ''} in {ws} workspace{'s' if ws != 1 else ''}" + (
        f" · next scheduled {until(snap.now_us, sched)}" if sched is not None else "")
