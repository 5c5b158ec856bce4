"""Benchmark: claim round-trip latency over loopback, beside a bare ASGI hello-world on the same server.

    python benchmarks/api.py                    # 2,000 timed requests per route, 300 cycles per kind
    python benchmarks/api.py -n 500 --cycles 100   # a quicker run

The server is a real uvicorn on 127.0.0.1 (a free port) in its own process, configured as
`kctui serve` configures it (access log off, keep-alive, lifespan on), serving one ASGI callable that
answers `GET /hello` itself — a bare ASGI hello-world (no Starlette, no token check, no thread pool,
no database) — and hands every other request to the real protocol app (`kctui.api.server.create_app`:
token middleware, routing, the thread pool, the services, SQLite with `synchronous=FULL`). The hello
route exists only here; the product app has none. The store lives in a temporary state directory with
one knowledge base made through the services from a tiny source file.

The client is one `httpx.Client` (one keep-alive connection) in this process; each request is timed
from send to the parsed answer (`time.perf_counter_ns`). Measured:

hello          `GET /hello` — what uvicorn, loopback TCP and the client cost anyway (the baseline);
claim (idle)   `POST /compilations/claim` with an empty queue: `claimed: false` (one SQLite read
               transaction behind the token check and the routing);
claim→result   cycles of: `POST /bases/{id}/compilations` (queue a manual job; timed apart) →
               `POST /compilations/claim` (`claimed: true`: the UPDATE … RETURNING, the base update,
               the job folder) → `POST …/result`, either
                 failed     a permanent failure (no promotion I/O), or
                 succeeded  after the client staged two pages under `outputPath` (not timed):
                            validation, fsyncs and the atomic promotion of the new wiki.

hello and the idle claim alternate in blocks of --block requests, so background load falls on both
alike; the ratios printed are route / hello at p50 and at p99.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this folder is sys.path[0], and its queue.py would shadow the standard library's
# `queue` (anyio, under Starlette's thread pool, imports it): drop the folder from the path first.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import argparse
import importlib.util
import math
import platform
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PREFIX = "/api/v1/knowledge"
TOKEN_ENV = "KCTUI_BENCH_TOKEN"
HELLO_BODY = b'{"hello":"world"}'
PAGE = "---\ntype: Concept\ntitle: Bench\n---\n# Bench\n\nA staged page.\n"
INDEX = "# Index\n\n1 page.\n\n## Concepts\n\n* [Bench](/concepts/bench.md) - A staged page.\n"


# -- the server (child process) ----------------------------------------------------------------------


def build_app(token: str) -> Callable[..., Any]:
    """The real protocol app, plus `/hello` answered by a bare ASGI function in front of it."""
    from kctui.api.server import create_app  # noqa: PLC0415 - after the state directory is set
    from kctui.config import Settings  # noqa: PLC0415
    from kctui.services.context import ServiceContext  # noqa: PLC0415

    product = create_app(lambda: ServiceContext.open(settings=Settings()), token)
    hello_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(HELLO_BODY)).encode())]

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/hello":
            await send({"type": "http.response.start", "status": 200, "headers": hello_headers})
            await send({"type": "http.response.body", "body": HELLO_BODY})
            return
        await product(scope, receive, send)  # everything else, lifespan included

    return app


def serve_child() -> int:
    """Run the server on 127.0.0.1:<free port>; the first line on stdout is `PORT <n>`."""
    import uvicorn  # noqa: PLC0415

    app = build_app(os.environ[TOKEN_ENV])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=1, timeout_keep_alive=5)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


# -- measuring ---------------------------------------------------------------------------------------


def percentile(samples: list[int], p: float) -> float:
    """Nearest-rank percentile of nanosecond samples, in milliseconds."""
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1] / 1e6


class Bench:
    def __init__(self, url: str, token: str, workspace: str, kb_id: str) -> None:
        import httpx  # noqa: PLC0415

        self.client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30,
                                   trust_env=False)
        self.workspace, self.kb_id = workspace, kb_id

    def close(self) -> None:
        self.client.close()

    def _timed(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        started = time.perf_counter_ns()
        response = self.client.request(method, path, json=body) if body is not None else \
            self.client.request(method, path)
        answer = response.json()
        spent = time.perf_counter_ns() - started
        if response.status_code != 200:
            raise SystemExit(f"{method} {path} answered {response.status_code}: {response.text[:300]}")
        return spent, answer

    def hello(self) -> int:
        spent, answer = self._timed("GET", "/hello")
        assert answer == {"hello": "world"}
        return spent

    def claim_idle(self) -> int:
        spent, answer = self._timed("POST", f"{PREFIX}/compilations/claim", {})
        if answer["data"]["claimed"] is not False:
            raise SystemExit("the queue was expected to be empty")
        return spent

    def cycle(self, outcome: str) -> tuple[int, int, int]:
        """request (queue) → claim → [stage] → result; the three round trips in ns."""
        ws, kb = self.workspace, self.kb_id
        request, queued = self._timed("POST", f"{PREFIX}/bases/{kb}/compilations", {"workspace": ws})
        assert queued["data"]["job"]["phase"] == "queued", queued
        claim, claimed = self._timed("POST", f"{PREFIX}/compilations/claim", {})
        data = claimed["data"]
        assert data["claimed"] is True and data["contractVersion"] == "1", data
        job = data["job"]
        body: dict[str, Any] = {"workspace": ws, "outcome": outcome, "compilerVersion": "bench/1"}
        if outcome == "succeeded":  # the compiler's work: not timed
            out = Path(data["outputPath"])
            (out / "concepts").mkdir(parents=True, exist_ok=True)
            (out / "index.md").write_text(INDEX, encoding="utf-8")
            (out / "concepts/bench.md").write_text(PAGE, encoding="utf-8")
        else:
            body.update(transient=False, error="bench: a permanent failure")
        result, done = self._timed("POST", f"{PREFIX}/bases/{kb}/compilations/{job['id']}/result", body)
        if done["data"]["job"]["phase"] != outcome:
            raise SystemExit(f"the job ended {done['data']['job']['phase']}: {done['data']['job']['error']}")
        return request, claim, result


def run_alternating(fns: dict[str, Callable[[], int]], n: int, block: int, warmup: int) -> dict[str, list[int]]:
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    samples: dict[str, list[int]] = {name: [] for name in fns}
    done = 0
    while done < n:
        k = min(block, n - done)
        for name, fn in fns.items():
            samples[name].extend(fn() for _ in range(k))
        done += k
    return samples


# -- main --------------------------------------------------------------------------------------------


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve-child"], env=env,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("PORT "):
        proc.kill()
        raise SystemExit(f"the server did not start (said {line!r})")
    url = f"http://127.0.0.1:{int(line.split()[1])}"
    import httpx  # noqa: PLC0415

    deadline = time.monotonic() + 15
    while True:  # uvicorn prints nothing when ready: poll until it answers
        try:
            httpx.get(url + "/hello", timeout=1, trust_env=False)
            return proc, url
        except httpx.TransportError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise SystemExit("the server did not answer") from None
            time.sleep(0.05)


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--requests", type=int, default=2000,
                        help="timed requests of hello and of the idle claim (default 2000)")
    parser.add_argument("--cycles", type=int, default=300,
                        help="timed claim→result cycles of each outcome (default 300)")
    parser.add_argument("--block", type=int, default=100, help="requests per block; hello and claim alternate")
    parser.add_argument("--warmup", type=int, default=200, help="untimed requests of each kind first")
    parser.add_argument("--dir", default=None, help="where to make the temporary state (default: system temp)")
    parser.add_argument("--serve-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_child:
        return serve_child()

    root = Path(tempfile.mkdtemp(prefix="kctui-bench-api-", dir=args.dir))
    env = {**os.environ, "KCTUI_STATE_DIR": str(root / "state"), "KCTUI_CONFIG_DIR": str(root / "config"),
           TOKEN_ENV: "bench-" + os.urandom(24).hex()}
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env.pop(var, None)
    os.environ.update({k: env[k] for k in ("KCTUI_STATE_DIR", "KCTUI_CONFIG_DIR")})
    proc = bench = None
    try:
        from kctui.config import Settings  # noqa: PLC0415
        from kctui.services import bases  # noqa: PLC0415
        from kctui.services.context import ServiceContext  # noqa: PLC0415

        ws = root / "ws"
        ws.mkdir()
        ctx = ServiceContext.open(settings=Settings())
        try:
            _, base = bases.create_base(ctx, ws, "Bench")
        finally:
            ctx.close()
        sources = Path(base.workspace) / ".a3s/kb/bases" / base.id / "sources"
        (sources / "note.md").write_text("# A note\n\nSomething to compile.\n", encoding="utf-8")

        proc, url = start_server(env)
        bench = Bench(url, env[TOKEN_ENV], base.workspace, base.id)
        idle = run_alternating({"hello": bench.hello, "claim": bench.claim_idle}, args.requests, args.block,
                               args.warmup)
        cycles: dict[str, list[tuple[int, int, int]]] = {}
        for outcome in ("failed", "succeeded"):
            for _ in range(min(args.warmup, 20)):
                bench.cycle(outcome)
            cycles[outcome] = [bench.cycle(outcome) for _ in range(args.cycles)]
        hello_after = [bench.hello() for _ in range(args.requests // 4 or 1)]  # the baseline did not drift
    finally:
        if bench is not None:
            bench.close()
        if proc is not None:
            stop_server(proc)
        shutil.rmtree(root, ignore_errors=True)

    h50, h99 = percentile(idle["hello"], 50), percentile(idle["hello"], 99)
    rows: list[tuple[str, list[int]]] = [
        ("GET /hello (bare ASGI, the baseline)", idle["hello"]),
        ("POST claim, empty queue (claimed: false)", idle["claim"]),
    ]
    for outcome, runs in cycles.items():
        rows += [
            (f"  [{outcome}] POST compilations (queue a job)", [r[0] for r in runs]),
            (f"  [{outcome}] POST claim (claimed: true)", [r[1] for r in runs]),
            (f"  [{outcome}] POST result ({outcome})", [r[2] for r in runs]),
            (f"  [{outcome}] claim→result (2 round trips)", [r[1] + r[2] for r in runs]),
        ]
    rows.append(("GET /hello again, after the cycles", hello_after))

    http = "httptools" if importlib.util.find_spec("httptools") else "h11"  # what uvicorn's "auto" picks
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    print(f"kctui loopback API latency: uvicorn ({http}, {loop}) on 127.0.0.1 in its own process, one "
          f"keep-alive httpx client; Python {platform.python_version()}, {os.cpu_count()} CPU(s)")
    print(f"hello and the idle claim: {args.requests} timed requests each, alternating blocks of {args.block}, "
          f"after {args.warmup} warm-up each; claim→result: {args.cycles} cycles per outcome")
    print()
    print(f"{'':48s} {'n':>5s} {'p50 ms':>8s} {'p99 ms':>8s} {'p50/hello':>10s} {'p99/hello':>10s}")
    for label, samples in rows:
        p50, p99 = percentile(samples, 50), percentile(samples, 99)
        ratios = "" if label.startswith("GET /hello") else f"{p50 / h50:9.1f}x {p99 / h99:9.1f}x"
        print(f"{label:48s} {len(samples):5d} {p50:8.3f} {p99:8.3f} {ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
