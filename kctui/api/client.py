"""The HTTP transport of the shared worker loop, and `kctui worker --url URL [--token-file F] [--once]`.

The loop itself is `kctui.services.worker.run_worker` (the same one the host's built-in worker runs
in-process); this module only speaks the protocol of host.md §6 to any host: kctui's or the reference.

- Answers in the success envelope or raw (unwrapped) are both accepted.
- 409 → `ResultRefused` (the job is no longer ours: stop, send nothing more).
- Connection errors, timeouts, 5xx and unreadable 2xx bodies → `TransportError` (outcome unknown: the
  loop reads the job state before it sends again).
- Anything else (401, 400, …) → `HostRefused`: retrying cannot fix it, so the worker stops with it.
- Job state comes from `GET /bases/{id}/compilation` (every host has it): the claimed job is running
  exactly while it is the base's `activeJobId`.
"""

from __future__ import annotations

import ipaddress
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from kctui.api.signals import install_stop_signals
from kctui.api.token import TokenError, read_token
from kctui.compiler.contract import ProgressEvent
from kctui.services.heap import HeapSettler
from kctui.services.worker import JobOutcome, ResultRefused, TransportError, UnsupportedContract, run_worker

log = logging.getLogger(__name__)

PREFIX = "/api/v1/knowledge"
DEFAULT_URL = "http://127.0.0.1:8765"


class HostRefused(Exception):
    """The host refused a request for a reason a retry cannot fix (wrong token, bad request, …)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"the host answered {status}: {message}")
        self.status = status


def _unwrap(body: Any) -> Any:
    if isinstance(body, dict) and "code" in body and "data" in body:
        return body["data"]
    return body


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:200] or response.reason_phrase
    if isinstance(body, dict):
        return str(body.get("message") or body.get("error") or body)[:500]
    return str(body)[:200]


class HttpTransport:
    """`Transport` of `kctui.services.worker` over HTTP. `url` is the host's origin (a trailing
    `/api/v1/knowledge` is accepted too)."""

    def __init__(self, url: str, token: str, *, workspace: str | None = None, timeout: float = 10.0,
                 result_timeout: float = 300.0, transport: httpx.BaseTransport | None = None) -> None:
        base = url.rstrip("/")
        if base.endswith(PREFIX):
            base = base[: -len(PREFIX)]
        self.workspace = workspace
        self.claim_error: TransportError | None = None
        self.result_timeout = result_timeout  # a success is validated and promoted before the answer
        self.client = httpx.Client(base_url=base + PREFIX, timeout=timeout, transport=transport,
                                   headers={"Authorization": f"Bearer {token}"}, trust_env=False)

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> HttpTransport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: str, path: str, *, json: dict[str, Any] | None = None,
              params: dict[str, str] | None = None, timeout: float | None = None) -> Any:
        try:
            response = self.client.request(method, path, json=json, params=params,
                                           timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT)
        except httpx.HTTPError as exc:  # connect/read/write errors and timeouts: outcome unknown
            raise TransportError(f"{method} {path}: {type(exc).__name__}: {exc}") from exc
        status = response.status_code
        if status == 409:
            raise ResultRefused(_message(response))
        if status >= 500:
            raise TransportError(f"{method} {path}: the host answered {status}: {_message(response)}")
        if not 200 <= status < 300:
            raise HostRefused(status, _message(response))
        try:
            return _unwrap(response.json())
        except ValueError as exc:
            raise TransportError(f"{method} {path}: the host's answer is not JSON") from exc

    @staticmethod
    def _job_path(claim: dict[str, Any]) -> tuple[str, str, str]:
        job = claim["job"]
        return claim["workspaceRoot"], job["knowledgeBaseId"], job["id"]

    def claim(self) -> dict[str, Any]:
        body = {"workspace": self.workspace} if self.workspace else {}
        try:
            data = self._call("POST", "/compilations/claim", json=body)
            if not isinstance(data, dict):
                raise TransportError("the host's claim answer is not a JSON object")
        except TransportError as exc:
            self.claim_error = exc  # the loop treats it as "no work" and backs off
            raise
        self.claim_error = None
        return data

    def report(self, claim: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        workspace, kb_id, job_id = self._job_path(claim)
        try:
            return self._call("POST", f"/bases/{kb_id}/compilations/{job_id}/result",
                              json={"workspace": workspace, **body}, timeout=self.result_timeout)
        except HostRefused as exc:
            if exc.status == 404:  # the base or job is gone: the result can never land
                raise ResultRefused(str(exc)) from exc
            raise

    @staticmethod
    def compile_options(claim: dict[str, Any]) -> dict[str, Any]:
        """The base's compile options from the claim's `compileOptions` (a kctui host sends them): the
        trust policy, link style and extractor. A host that sends none (or values this worker does not
        know) leaves the defaults of `request_from_claim` (the default policy, guarded)."""
        opts = claim.get("compileOptions")
        if not isinstance(opts, dict):
            return {}
        out: dict[str, Any] = {}
        if isinstance(opts.get("trustPolicy"), dict):
            out["trust_policy"] = opts["trustPolicy"]  # a policy that cannot be read fails closed (all held)
        if opts.get("linkStyle") in ("wikilink", "markdown"):
            out["link_style"] = opts["linkStyle"]
        if opts.get("extractor") in ("builtin", "llm"):
            out["extractor"] = opts["extractor"]
        return out

    def job_state(self, claim: dict[str, Any]) -> dict[str, Any] | None:
        workspace, kb_id, job_id = self._job_path(claim)
        try:
            summary = self._call("GET", f"/bases/{kb_id}/compilation", params={"workspace": workspace})
        except HostRefused as exc:
            if exc.status == 404:
                return None
            raise
        if not isinstance(summary, dict):
            raise TransportError("the host's compilation summary is not a JSON object")
        running = summary.get("activeJobId") == job_id
        return {"id": job_id, "phase": "running" if running else "ended"}


# -- `kctui worker` --------------------------------------------------------------------------------


def check_loopback_url(url: str) -> str | None:
    """None when `url` is http(s) to a loopback host, else why not (the token must not leave the machine)."""
    try:
        parsed = httpx.URL(url)
    except Exception as exc:  # noqa: BLE001 - httpx raises several kinds for a malformed URL
        return f"{url!r} is not a URL: {exc}"
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return f"{url!r} is not an http:// URL"
    host = parsed.host
    if host == "localhost":
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass
    return f"{host} is not a loopback address; the protocol is loopback only (127.0.0.1, ::1 or localhost)"


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _progress_printer() -> Callable[[str, ProgressEvent], None]:
    last: dict[str, Any] = {"step": None}

    def show(job_id: str, event: ProgressEvent) -> None:
        if event.step != last["step"] or event.state == "done":
            last["step"] = event.step
            count = f" {event.done}/{event.total}" if event.total else ""
            _stderr(f"  {job_id} {event.step}{count}")

    return show


def _describe(outcome: JobOutcome) -> str:
    words = {"succeeded": "succeeded", "failed": "failed", "cancelled": "cancelled by the host; stopped",
             "refused": "result refused by the host (409); stopped", "stopped": "stopped; reported for retry"}
    tail = f" — {outcome.error}" if outcome.error else ""
    return f"{outcome.job_id}: {words.get(outcome.result, outcome.result)}{tail}"


def run_worker_cli(url: str, token_file: str | Path | None, once: bool, *,
                   stop_event: threading.Event | None = None,
                   transport: httpx.BaseTransport | None = None) -> int:
    """`kctui worker`: compile jobs claimed from the host at `url` until stopped (or one claim with
    `once`). Exit code 0 when done (or nothing to do with `once`), 1 on a failed job or an error."""
    problem = check_loopback_url(url)
    if problem:
        _stderr(f"kctui: error: {problem}")
        return 2
    try:
        token = read_token(Path(token_file) if token_file else None)
    except TokenError as exc:
        _stderr(f"kctui: error: {exc}")
        return 1
    stop = stop_event or threading.Event()
    restore = install_stop_signals(stop, second_interrupts=True)
    outcomes: list[JobOutcome] = []
    try:
        with HttpTransport(url, token, transport=transport) as http:
            if not once:
                _stderr(f"kctui worker polling {url}")
            outcomes = run_worker(http, stop_event=stop, once=once, progress=_progress_printer(),
                                  on_outcome=lambda o: _stderr(_describe(o)), after_job=HeapSettler())
    except UnsupportedContract as exc:
        _stderr(f"kctui: error: {exc}; refusing to compile")
        return 1
    except (HostRefused, ResultRefused, TransportError) as exc:
        _stderr(f"kctui: error: {exc}")
        return 1
    finally:
        restore()
    if once and not outcomes:
        if http.claim_error is not None:
            _stderr(f"kctui: error: cannot reach the host: {http.claim_error}")
            return 1
        _stderr("no work to claim")
    if any(o.result in ("failed", "refused") for o in outcomes):
        return 1
    return 0
