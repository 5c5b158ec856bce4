"""The compiler worker loop, shared by the app's built-in worker, `kctui compile --wait`, `kctui serve`
and `kctui worker --url` (which plugs in an HTTP transport). One implementation, two transports.

Per claim: reject any contractVersion other than "1"; read only `sourcePath`; write only under
`outputPath`; send exactly one terminal result; after an ambiguous transport failure read the job state
before sending again; stop local work on a cancellation or a 409.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kctui.compiler.runner import CompileCancelled, CompileFailure, CompileRequest, ProgressEvent, compile_job
from kctui.core import handed_back
from kctui.core.failures import storage_error_of, storage_message
from kctui.core.models import CONTRACT_VERSION, FailureCode

log = logging.getLogger(__name__)

MAX_ERROR_CHARS = 1000


class ResultRefused(Exception):
    """The host answered 409: the job is no longer ours (cancelled, not running, not active)."""


class TransportError(Exception):
    """The outcome of a call is unknown (connection dropped, timeout, 5xx)."""


class UnsupportedContract(Exception):
    pass


class Transport(Protocol):
    def claim(self) -> dict[str, Any]: ...
    def report(self, claim: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]: ...
    def job_state(self, claim: dict[str, Any]) -> dict[str, Any] | None: ...


@dataclass
class JobOutcome:
    job_id: str
    result: str  # succeeded | failed | cancelled | refused | stopped
    error: str | None = None


class StopWatch:
    """Answers `should_stop()` for a running job: asks the transport at most every `interval` seconds."""

    def __init__(self, transport: Transport, claim: dict[str, Any], stop_event: threading.Event, interval: float = 0.5) -> None:
        self.transport, self.claim, self.stop_event, self.interval = transport, claim, stop_event, interval
        self._last = 0.0
        self.cancelled = False

    def __call__(self) -> bool:
        if self.stop_event.is_set():
            return True
        now = time.monotonic()
        if now - self._last >= self.interval:
            self._last = now
            try:
                job = self.transport.job_state(self.claim)
            except TransportError:
                return False
            if job is None or job.get("phase") != "running":
                self.cancelled = True
        return self.cancelled


def request_from_claim(claim: dict[str, Any], *, extractor: str = "builtin", link_style: str = "wikilink",
                       trust_policy: dict[str, Any] | None = None) -> CompileRequest:
    """A transport without a trust policy (an HTTP host that sends none) gets the default one (guarded)."""
    job = claim["job"]
    prev = claim.get("previousWikiPath")
    return CompileRequest(
        job_id=job["id"],
        trigger=job["trigger"],
        source_digest=job["sourceDigest"],
        created_at=job["createdAt"],
        source_path=Path(claim["sourcePath"]),
        previous_wiki_path=Path(prev) if prev and Path(prev).is_dir() else None,
        output_path=Path(claim["outputPath"]),
        extractor=extractor,
        link_style=link_style,
        trust_policy=trust_policy if trust_policy is not None else {},
    )


def send_result(transport: Transport, claim: dict[str, Any], body: dict[str, Any], *, attempts: int = 5,
                sleep: Callable[[float], None] = time.sleep) -> str:
    """Send the one terminal result. On an ambiguous failure read the job state first: if the job is
    no longer running the earlier send landed (or it was cancelled) and nothing is sent again."""
    for _ in range(attempts):
        try:
            transport.report(claim, body)
            return "sent"
        except ResultRefused:
            return "refused"
        except TransportError:
            pass
        # The outcome is unknown: nothing is sent again until the job's state has been read.
        for attempt in range(attempts):
            sleep(min(0.2 * 2**attempt, 5.0))
            try:
                state = transport.job_state(claim)
                break
            except TransportError:
                continue
        else:
            return "unknown"
        if state is None or state.get("phase") != "running":
            return "landed"
    return "unknown"


def run_claim(transport: Transport, claim: dict[str, Any], *, stop_event: threading.Event,
              progress: Callable[[str, ProgressEvent], None] | None = None,
              options: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> JobOutcome:
    if claim.get("contractVersion") != CONTRACT_VERSION:
        raise UnsupportedContract(f"the host speaks contract version {claim.get('contractVersion')!r}; this worker speaks {CONTRACT_VERSION!r}")
    job_id = claim["job"]["id"]
    chooser = options or getattr(transport, "compile_options", None)
    extra = chooser(claim) if chooser else {}
    request = request_from_claim(claim, **extra)
    watch = StopWatch(transport, claim, stop_event)
    on_progress = (lambda e: progress(job_id, e)) if progress else None
    body: dict[str, Any]
    try:
        report = compile_job(request, progress=on_progress, should_stop=watch)
    except CompileCancelled:
        if watch.cancelled or not stop_event.is_set():
            return JobOutcome(job_id, "cancelled")
        body = {"outcome": "failed", "transient": True, "errorCode": FailureCode.COMPILER_CRASHED,
                "error": handed_back.BY_WORKER}
        send_result(transport, claim, body)
        return JobOutcome(job_id, "stopped", body["error"])
    except CompileFailure as exc:
        body = {"outcome": "failed", "transient": exc.transient, "errorCode": exc.code,
                "error": exc.message[:MAX_ERROR_CHARS]}
    except Exception as exc:  # noqa: BLE001 - a compiler bug must still end the job
        storage = storage_error_of(exc)
        if storage is not None:  # a full or read-only disk: one line, a code, a retry once it can write
            code, error = storage
            log.warning("compile of %s could not write: %s", job_id, error)
            body = {"outcome": "failed", "transient": True, "errorCode": code,
                    "error": storage_message(code, error, "writing the staged wiki")[:MAX_ERROR_CHARS]}
        else:
            log.error("compiler crashed on %s: %s", job_id, traceback.format_exc())
            body = {"outcome": "failed", "transient": False, "errorCode": FailureCode.COMPILER_CRASHED,
                    "error": f"compiler crashed: {type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]}
    else:
        body = {"outcome": "succeeded", "compilerVersion": report.compiler_version}
    if watch.cancelled:
        return JobOutcome(job_id, "cancelled")
    sent = send_result(transport, claim, body)
    if sent == "refused":
        return JobOutcome(job_id, "refused")
    return JobOutcome(job_id, body["outcome"], body.get("error"))


def run_worker(transport: Transport, *, stop_event: threading.Event, once: bool = False,
               until: Callable[[], bool] | None = None, poll_min: float = 0.2, poll_max: float = 5.0,
               progress: Callable[[str, ProgressEvent], None] | None = None,
               on_outcome: Callable[[JobOutcome], None] | None = None,
               options: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
               jitter: Callable[[], float] | None = None,
               after_job: Callable[[], None] | None = None) -> list[JobOutcome]:
    """Poll `claim` with bounded, jittered backoff; run each claim; stop on `stop_event` or `until()`.
    `after_job` runs once a job's result is sent (the worker is idle then: kctui.services.heap)."""
    import random  # noqa: PLC0415

    jitter = jitter or random.random
    outcomes: list[JobOutcome] = []
    delay = poll_min
    while not stop_event.is_set() and not (until and until()):
        try:
            claim = transport.claim()
        except TransportError as exc:
            log.warning("claim failed: %s", exc)
            claim = {"claimed": False, "contractVersion": CONTRACT_VERSION}
        if claim.get("claimed"):
            delay = poll_min
            outcome = run_claim(transport, claim, stop_event=stop_event, progress=progress, options=options)
            outcomes.append(outcome)
            if on_outcome:
                on_outcome(outcome)
            if after_job:
                after_job()
            if once:
                break
            continue
        if claim.get("contractVersion") != CONTRACT_VERSION:
            raise UnsupportedContract(f"the host speaks contract version {claim.get('contractVersion')!r}")
        if once:
            break
        stop_event.wait(delay * (0.5 + jitter() / 2))
        delay = min(delay * 2, poll_max)
    return outcomes
