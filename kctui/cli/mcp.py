"""`kctui mcp [WORKSPACE …]`: the agent tools over MCP on standard input and output."""

from __future__ import annotations

import os

import click

from kctui.cli.common import fail, open_services


@click.command("mcp")
@click.argument("workspaces", nargs=-1, type=click.Path())
@click.option("--agent", default=None,
              help="Who the agent's edits and decisions are recorded as (default: $KCTUI_AGENT, else 'mcp').")
def mcp_cmd(workspaces: tuple[str, ...], agent: str | None) -> None:
    """Serve the knowledge tools to an MCP client (an assistant) over stdio; the named workspaces join
    the monitored set and are the tools' default."""
    from kctui.services.errors import ServiceError  # noqa: PLC0415
    from kctui.services.workspaces import add_workspace  # noqa: PLC0415

    name = (agent or os.environ.get("KCTUI_AGENT") or "mcp").strip()
    if not name or any(c.isspace() or c == ":" for c in name):
        fail(f"agent name {name!r} must be one word without ':'")
    ctx = open_services()
    added = []
    try:
        for ws in workspaces:
            try:
                added.append(add_workspace(ctx, ws)[1])
            except ServiceError as exc:
                fail(exc.message)
    finally:
        ctx.close()
    from kctui.mcp_server.server import serve_stdio  # noqa: PLC0415 - the SDK loads only for this command

    _exit_on_signals()
    serve_stdio(added, agent=f"agent:{name}")


HAND_BACK_S = 1.5  # a running compile has this long to hand its job back before the process exits


def _exit_on_signals() -> None:
    """SIGTERM, SIGHUP (the client or terminal went away) and SIGINT end `kctui mcp` within 2 s, at any
    moment: a compile it runs is stopped and its job handed back for a retry, then the process exits
    (the stdio loop, blocked reading its client, is not waited for)."""
    import signal  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from kctui.services.stopping import stop_all, wait_idle  # noqa: PLC0415

    def finish() -> None:
        wait_idle(HAND_BACK_S)
        os._exit(0)

    def handler(signum: int, frame: object) -> None:
        stop_all()
        threading.Thread(target=finish, name="kctui-mcp-exit", daemon=True).start()

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, handler)
