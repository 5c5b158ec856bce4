"""How the panes show things: every state as a glyph AND a word (never colour alone), ages and times
from the snapshot's clock, and table cells as Rich `Text` (no markup parsing of user data)."""

from __future__ import annotations

import os

from rich.text import Text

from kctui.core.glyphs import ITEM_GLYPHS
from kctui.ui.messages import BaseView, ItemView, JobView

US = 1_000_000

# state -> (glyph, word, tone); a tone is a theme variable name resolved by the screen
BASE_PHASE = {
    "source_ready": ("○", "source ready", "muted"),
    "queued": ("◔", "queued", "accent"),
    "running": ("▶", "running", "primary"),
    "succeeded": ("✔", "succeeded", "success"),
    "failed": ("✘", "failed", "error"),
    "paused": ("⏸", "paused", "warning"),
}
JOB_PHASE = {
    "queued": ("◔", "queued", "accent"),
    "running": ("▶", "running", "primary"),
    "succeeded": ("✔", "succeeded", "success"),
    "failed": ("✘", "failed", "error"),
    "cancelled": ("⊘", "cancelled", "muted"),
}
STEP_STATE = {
    "pending": ("○", "waiting", "muted"),
    "started": ("▶", "working", "primary"),
    "progress": ("▶", "working", "primary"),
    "done": ("✔", "done", "success"),
}
ITEM_KIND = {
    "held": (ITEM_GLYPHS["held"], "held", "warning"),
    "conflict": (ITEM_GLYPHS["conflict"], "conflict", "error"),
}
TRIGGER = {"manual": "manual", "retry": "retry", "smart_auto": "auto", "scheduled": "sched"}


def cell(text: str, style: str = "") -> Text:
    return Text(text, style=style, no_wrap=True, overflow="ellipsis", end="")


def age(now_us: int, then_us: int | None) -> str:
    if then_us is None:
        return "—"
    s = max(0, (now_us - then_us) // US)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m"
    if s < 86400:
        return f"{s // 3600}h"
    return f"{s // 86400}d"


def until(now_us: int, at_us: int | None) -> str:
    if at_us is None:
        return "—"
    return "due" if at_us <= now_us else "in " + age(at_us, now_us)


def duration(us: int | None) -> str:
    if us is None or us < 0:
        return "—"
    s = us // US
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def ws_label(workspace: str) -> str:
    return os.path.basename(workspace.rstrip("/")) or workspace


def phase_words(table: dict[str, tuple[str, str, str]], phase: str) -> tuple[str, str]:
    glyph, word, tone = table.get(phase, ("?", phase, "muted"))
    return f"{glyph} {word}", tone


def pending_counts(b: BaseView) -> tuple[tuple[str, int], ...]:
    """The last scan's change counts, when the base has changes to compile: they count from the snapshot
    the last compile request accepted, so after a cancelled compile whose changes were undone they
    describe nothing pending (`kctui status` says `pending no`). A paused base holds its changes back
    from its digest, so its counts always stand."""
    return b.pending_counts if b.pending or b.phase == "paused" else ()


def base_changes(b: BaseView) -> str:
    d = dict(pending_counts(b))
    if d.get("totalChanged"):
        return f"{d['totalChanged']} changed"
    return "yes" if b.pending else "—"


def base_next(b: BaseView, now_us: int) -> str:
    if b.next_retry_us is not None:
        return "retry " + until(now_us, b.next_retry_us)
    if b.next_auto_us is None and b.next_scheduled_us is not None:
        return "sched " + until(now_us, b.next_scheduled_us)
    if b.policy != "smart_auto":
        return "manual"
    return until(now_us, b.next_auto_us) if b.next_auto_us is not None else AUTO_IDLE[auto_idle(b)][0]


# why a smart_auto base has no automatic compile ahead: (the Next cell, the words of the line under it)
AUTO_IDLE = {"paused": ("paused", "none while paused"),
             "job": ("after job", "none while a compile of it is queued or running"),
             "current": ("on change", "when a source changes (the wiki is up to date)"),
             "unscanned": ("on scan", "once its sources are scanned (nothing compiled yet)"),
             "waiting": ("soon", "once the source changes settle")}


def auto_idle(b: BaseView) -> str:
    """Why a smart_auto base has no next automatic compile (a key of AUTO_IDLE)."""
    if b.phase == "paused":
        return "paused"
    if b.active_job_id or b.phase in ("queued", "running"):
        return "job"
    if b.pending:
        return "waiting"
    return "current" if b.compiled else "unscanned"


STOPPED = ("◔", "stopped", "accent")  # a compile a signal stopped and handed back: not a crash


def base_phase(b: BaseView) -> tuple[str, str]:
    return phase_words({"failed": STOPPED}, "failed") if b.stopped else phase_words(BASE_PHASE, b.phase)


def base_note(b: BaseView) -> str:
    if b.promotion_pending:
        return b.promotion_pending
    if b.phase == "paused":
        return b.paused_reason or "paused"
    if b.stopped:
        return "handed back, retry queued" if b.next_retry_us is not None else "handed back"
    if b.phase == "failed":
        return b.last_error_words or "the last compile failed"
    if b.follow_up:
        return "another compile follows"
    return ""


def base_cells(b: BaseView, now_us: int, tones: dict[str, str], many_ws: bool = False) -> list[Text]:
    phase, tone = base_phase(b)
    name = f"{ws_label(b.workspace)}/{b.name}" if many_ws else b.name
    # (no Policy column: Next says "manual" for a manual base, so the review count fits at 100 columns)
    return [cell(name, "bold"), cell(phase, tones.get(tone, "")), cell(base_changes(b)),
            cell(base_next(b, now_us)), cell(str(b.open_items) if b.open_items else "—"),
            cell(short_note(base_note(b)), tones.get("warning", "") if b.phase == "paused" else "")]


def short_note(note: str) -> str:
    return note.removeprefix("automatic compilation paused because ")


def base_line(b: BaseView, now_us: int) -> str:
    """One line about the selected base, in full (the table may cut its note)."""
    phase, _ = base_phase(b)
    parts = [f"{b.name} ({b.id} in {ws_label(b.workspace)})", phase]
    note = base_note(b)
    if note:
        parts.append(note)
    counts = pending_counts(b)
    if counts and dict(counts).get("totalChanged"):
        parts.append("pending: " + ", ".join(f"{v} {k}" for k, v in counts if v and k != "totalChanged"))
    if b.policy == "smart_auto" and b.phase != "paused":
        idle = b.next_auto_us is None and b.next_retry_us is None and b.next_scheduled_us is None
        parts.append("next automatic compile " + (AUTO_IDLE[auto_idle(b)][1] if idle else base_next(b, now_us)))
    return " · ".join(parts)


def job_outcome(j: JobView, now_us: int) -> str:
    if j.stopped:
        return phase_words({"failed": STOPPED}, "failed")[0] + " (handed back)"
    text, _ = phase_words(JOB_PHASE, j.phase)
    if j.phase == "queued" and j.not_before and j.not_before > now_us:
        return f"{text} (retry {until(now_us, j.not_before)})"
    if j.phase == "running" and j.cancel_requested:
        return f"{text} (cancelling)"
    if j.phase == "failed" and j.error_words:
        return f"{text}: {j.error_words}"
    return text


def job_cells(j: JobView, now_us: int, names: dict[str, str], tones: dict[str, str],
              running: JobView | None = None) -> list[Text]:
    _, tone = phase_words({"failed": STOPPED} if j.stopped else JOB_PHASE, j.phase)
    took = (j.completed_at or now_us) - j.started_at if j.started_at else None
    outcome = job_outcome(j, now_us)
    if j.phase == "queued" and running is not None and running.id != j.id and not (j.not_before and j.not_before > now_us):
        # one job runs at a time across workspaces (protocol.md): say which one this one waits for
        outcome += f" (waiting for {names.get(running.base_key, running.base_id)} {running.short})"
    return [cell(j.short), cell(names.get(j.base_key, j.base_id)), cell(TRIGGER.get(j.trigger, j.trigger)),
            cell(age(now_us, j.created_at)), cell(duration(took)), cell(outcome, tones.get(tone, ""))]


# the review table's Why column: the reason in a few words (the detail and the selected row's line say it in full)
SHORT_REASON = {"contradiction": "contradiction", "never_auto": "never-auto guard", "human_confirmed": "confirmed page",
                "low_confidence": "low confidence", "supersede": "replaces a page", "autonomy_ceiling": "above autonomy",
                "compile_loss": "values missed"}


def item_cells(i: ItemView, tones: dict[str, str]) -> list[Text]:
    glyph, word, tone = ITEM_KIND.get(i.kind, ("?", i.kind, "muted"))
    return [cell(f"#{i.id}"), cell(f"{glyph} {word}", tones.get(tone, "")), cell(i.base_id),
            cell(i.label or i.title or i.page), cell(SHORT_REASON.get(i.reason or "", i.reason_words))]


# (Base is cut first: the line under the table names the selected base in full, and Note keeps its header
# at 100 columns)
BASE_COLUMNS = (("Base", 12), ("Phase", 14), ("Changes", 10), ("Next", 9), ("Rev", 3), ("Note", None))
JOB_COLUMNS = (("Job", 5), ("Base", 16), ("Trigger", 7), ("Age", 4), ("Took", 6), ("Outcome", None))
ITEM_COLUMNS = (("Item", 5), ("Kind", 10), ("Base", 10), ("Page", 14), ("Why", None))
FAILURE_HINT = "see its error"
