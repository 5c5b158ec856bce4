"""Smart-automatic compilation and the bulk-change pause, as pure rules (host.md §3–§4).

Every function is a plain function of its inputs and `now_us` (int microseconds); nothing reads a
clock, a file or the store. The windows are parameters (`Windows`), with the reference host's
defaults: 5 s stability, 30 s quiet, 600 s between automatic jobs, a reconcile scan every 5 s.
Manual compilation ignores all of this: none of these rules is consulted for a manual request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

US = 1_000_000
STABILITY_WINDOW_S = 5.0
QUIET_WINDOW_S = 30.0
AUTO_MIN_INTERVAL_S = 600.0
SCAN_INTERVAL_S = 5.0
MAX_REASON_CHARS = 1000

# Environment variables (seconds, fractions allowed) that override the windows (issue 3).
WINDOW_ENV = {
    "stability_s": "KCTUI_STABILITY_WINDOW",
    "quiet_s": "KCTUI_QUIET_WINDOW",
    "min_interval_s": "KCTUI_AUTO_MIN_INTERVAL",
    "scan_interval_s": "KCTUI_SCAN_INTERVAL",
}

# Bulk-change thresholds (host.md §4).
BULK_DELETED_ABSOLUTE = 100  # more than this many vanished paths pauses
# At least this many, and more than half of the previous files, pauses. host.md §4 says 20; at 20 a base of
# fewer than 40 sources never paused (QA s31: 5 of 6 vanished and 6 archive items were filed), though
# policy.md promises a pause "when a large share of the sources vanished". Three keeps one or two
# files of a small base an ordinary edit.
BULK_DELETED_MIN = 3
BULK_TOTAL_ABSOLUTE = 1000
BULK_TOTAL_MIN = 200


@dataclass(frozen=True)
class Windows:
    stability_s: float = STABILITY_WINDOW_S
    quiet_s: float = QUIET_WINDOW_S
    min_interval_s: float = AUTO_MIN_INTERVAL_S
    scan_interval_s: float = SCAN_INTERVAL_S

    def __post_init__(self) -> None:
        for name in ("stability_s", "quiet_s", "min_interval_s", "scan_interval_s"):
            value = getattr(self, name)
            if not (value >= 0):  # also rejects NaN
                raise ValueError(f"{name} must be a number of seconds >= 0, not {value!r}")

    @property
    def quiet_us(self) -> int:
        return _us(self.quiet_s)

    @property
    def min_interval_us(self) -> int:
        return _us(self.min_interval_s)

    @property
    def stability_us(self) -> int:
        return _us(self.stability_s)


DEFAULT_WINDOWS = Windows()


def _us(seconds: float) -> int:
    return int(round(seconds * US))


def windows_from_env(environ: Mapping[str, str], base: Windows = DEFAULT_WINDOWS) -> Windows:
    """`base` with any of KCTUI_STABILITY_WINDOW / _QUIET_WINDOW / _AUTO_MIN_INTERVAL / _SCAN_INTERVAL.

    Raises ValueError naming the variable when a value is not a number of seconds >= 0.
    """
    values = {name: getattr(base, name) for name in WINDOW_ENV}
    for name, var in WINDOW_ENV.items():
        raw = environ.get(var)
        if raw is None or raw.strip() == "":
            continue
        try:
            value = float(raw)
        except ValueError:
            raise ValueError(f"{var}={raw!r} is not a number of seconds") from None
        if not (value >= 0) or value == float("inf"):
            raise ValueError(f"{var}={raw!r} must be a finite number of seconds >= 0")
        values[name] = value
    return Windows(**values)


# -- the quiet timer ---------------------------------------------------------------------------------


def quiet_timer_update(
    *,
    change_detected_at_us: int | None,
    previous_digest: str | None,
    current_digest: str | None,
    has_unstable: bool,
    now_us: int,
) -> int | None:
    """The new `changeDetectedAt` after a scan.

    It restarts (becomes `now`) when the scan's digest differs from the one the previous scan saw,
    or when any file is unstable (written within the stability window); otherwise it is kept.
    """
    if has_unstable or current_digest != previous_digest:
        return now_us
    return change_detected_at_us


def is_unstable(mtime_us: int, now_us: int, windows: Windows = DEFAULT_WINDOWS) -> bool:
    """A file whose mtime is within the stability window of now (either side) is unstable."""
    return abs(now_us - mtime_us) < windows.stability_us


# -- smart-automatic compilation ---------------------------------------------------------------------


def next_auto_compile_at(
    *,
    policy: str,
    source_digest: str | None,
    last_compiled_digest: str | None,
    change_detected_at_us: int | None,
    last_auto_requested_at_us: int | None,
    job_active: bool,
    paused: bool = False,
    has_sources: bool = True,
    windows: Windows = DEFAULT_WINDOWS,
) -> int | None:
    """When an automatic job becomes due if nothing else changes; None when none will be.

    None when: the policy is not smart_auto; the base is paused; a job of this base is queued or
    running; there is no digest or no source file; or the digest equals the last compiled one.
    Otherwise the later of `changeDetectedAt + quiet` and `lastAutoRequestedAt + min interval`
    (the first automatic job has no previous one; an unknown changeDetectedAt does not hold it back).
    """
    if policy != "smart_auto" or paused or job_active or not has_sources:
        return None
    if source_digest is None or source_digest == last_compiled_digest:
        return None
    due = 0 if change_detected_at_us is None else change_detected_at_us + windows.quiet_us
    if last_auto_requested_at_us is not None:
        due = max(due, last_auto_requested_at_us + windows.min_interval_us)
    return due


def auto_compile_due(
    *,
    policy: str,
    source_digest: str | None,
    last_compiled_digest: str | None,
    change_detected_at_us: int | None,
    last_auto_requested_at_us: int | None,
    job_active: bool,
    now_us: int,
    paused: bool = False,
    has_sources: bool = True,
    has_unstable: bool = False,
    windows: Windows = DEFAULT_WINDOWS,
) -> bool:
    """Whether the scheduler should queue an automatic job for this base now (host.md §3).

    Due when a new digest is pending, `now - changeDetectedAt >= quiet`, no job of the base is
    queued or running, `now - lastAutoRequestedAt >= min interval`, and no file is unstable.
    """
    if has_unstable:
        return False
    at = next_auto_compile_at(
        policy=policy,
        source_digest=source_digest,
        last_compiled_digest=last_compiled_digest,
        change_detected_at_us=change_detected_at_us,
        last_auto_requested_at_us=last_auto_requested_at_us,
        job_active=job_active,
        paused=paused,
        has_sources=has_sources,
        windows=windows,
    )
    return at is not None and now_us >= at


def queue_on_enable(source_digest: str | None, last_compiled_digest: str | None) -> bool:
    """Switching to smart_auto may lead to a job only when a digest is pending (never when equal)."""
    return source_digest is not None and source_digest != last_compiled_digest


# -- the bulk-change pause ---------------------------------------------------------------------------


def bulk_pause_reason(previous_files: int, deleted_raw: int, total_changed: int) -> str | None:
    """Why automatic work must pause for this change, or None (host.md §4).

    `deleted_raw` is the raw count of vanished paths, renames included; `total_changed` is
    added + deleted + modified + renamed. Checked only when the previous snapshot had files.
    """
    if previous_files <= 0:
        return None
    if deleted_raw > BULK_DELETED_ABSOLUTE or (deleted_raw >= BULK_DELETED_MIN and 2 * deleted_raw > previous_files):
        return bounded_reason(
            f"automatic compilation paused because {deleted_raw:,} of {previous_files:,} source files disappeared"
        )
    if total_changed > BULK_TOTAL_ABSOLUTE or (total_changed >= BULK_TOTAL_MIN and 2 * total_changed > previous_files):
        return bounded_reason(
            f"automatic compilation paused because {total_changed:,} source files changed at once"
            f" (the previous snapshot had {previous_files:,})"
        )
    return None


def sources_missing_reason(root_ok: bool, root_error: str | None) -> str | None:
    """A vanished or unreadable `sources/` (an unmount) pauses; it never reads as "all deleted"."""
    if root_ok:
        return None
    detail = (root_error or "the sources folder is missing or unreadable").strip()
    return bounded_reason(f"automatic compilation paused because {detail} (unmounted or moved?)")


def limit_pause_reason(limit_error: str | None) -> str | None:
    """Past the file-count or size limit: a clear error and a pause, nothing dropped silently."""
    if not limit_error:
        return None
    return bounded_reason(f"automatic compilation paused because {limit_error}")


def automatic_pause_reason(
    *,
    root_ok: bool,
    root_error: str | None,
    limit_error: str | None,
    previous_files: int,
    deleted_raw: int,
    total_changed: int,
) -> str | None:
    """The first reason that applies: a missing `sources/`, a passed limit, then a bulk change."""
    return (
        sources_missing_reason(root_ok, root_error)
        or limit_pause_reason(limit_error)
        or bulk_pause_reason(previous_files, deleted_raw, total_changed)
    )


def bounded_reason(text: str, limit: int = MAX_REASON_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
