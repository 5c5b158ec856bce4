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

    serve_stdio(added, agent=f"agent:{name}")
