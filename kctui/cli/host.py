"""`kctui serve` (the headless host) and `kctui worker` (the built-in compiler as a protocol worker)."""

from __future__ import annotations

import logging
import sys

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Loopback address to listen on (127.0.0.1 or ::1 only).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (0 picks a free one).")
@click.option("--no-worker", is_flag=True, help="Run no built-in compiler: external compilers claim all work.")
@click.option("--no-watch", is_flag=True, help="Do not watch sources or schedule automatic compiles.")
def serve_cmd(host: str, port: int, no_worker: bool, no_watch: bool) -> None:
    """Run the headless host: API server, watcher, scheduler, retries and the built-in compiler worker,
    until Ctrl-C or SIGTERM."""
    from kctui.api.serve import serve  # noqa: PLC0415
    from kctui.services.scheduler import SchedulerService  # noqa: PLC0415

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    extra = [] if no_watch else [SchedulerService()]
    sys.exit(serve(host, port, worker=not no_worker, extra_services=extra))


@click.command("worker")
@click.option("--url", required=True, help="The host's base URL, e.g. http://127.0.0.1:8765")
@click.option("--token-file", type=click.Path(dir_okay=False), help="Bearer token file (default: the state dir's api-token).")
@click.option("--once", is_flag=True, help="Handle at most one claim, then exit.")
def worker_cmd(url: str, token_file: str | None, once: bool) -> None:
    """Run the built-in compiler as a protocol worker against any host that speaks contract version 1."""
    from kctui.api.client import run_worker_cli  # noqa: PLC0415

    sys.exit(run_worker_cli(url, token_file, once))
