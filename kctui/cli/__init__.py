"""The `kctui` command. A bare `kctui [WORKSPACE …]` opens the app; subcommands drive the host.

Each module of this package defines its commands and groups and imports nothing of this one; this
module builds the root group `main` and adds them (the console script is `kctui.cli:main`)."""

from __future__ import annotations

import click

from kctui import __version__
from kctui.cli.add import add_cmd
from kctui.cli.common import KctuiGroup, open_app, open_services
from kctui.cli.demo import demo_cmd
from kctui.cli.host import serve_cmd, worker_cmd
from kctui.cli.jobs import cancel_cmd, compile_cmd, jobs_cmd, resume_cmd, status_cmd
from kctui.cli.kb import kb
from kctui.cli.llm import compile_estimate_cmd, llm_group
from kctui.cli.mcp import mcp_cmd
from kctui.cli.pages import brief_cmd, page
from kctui.cli.review import review
from kctui.cli.search import context_cmd, search_cmd
from kctui.services.workspaces import add_workspace

__all__ = ["main"]


class MainGroup(KctuiGroup):
    """`kctui [WORKSPACE …]`: arguments that are not a command name are workspaces for the app."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            ctx.meta["kctui.workspaces"] = list(args)
            args = []
        return super().parse_args(ctx, args)


@click.group(cls=MainGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kctui")
@click.pass_context
def main(ctx: click.Context) -> None:
    """kctui keeps knowledge bases compiled.

    Run `kctui [WORKSPACE …]` with no command to open the terminal app (named workspace folders are
    added to the monitored set). State lives in $KCTUI_STATE_DIR (default: the platform state dir).
    """
    if ctx.invoked_subcommand is not None:
        return
    workspaces = ctx.meta.get("kctui.workspaces", [])
    svc = open_services()
    for ws in workspaces:
        add_workspace(svc, ws)
    svc.close()
    open_app()


for _command in (
    kb, compile_cmd, cancel_cmd, status_cmd, jobs_cmd, resume_cmd,  # knowledge bases and jobs
    add_cmd, page, brief_cmd, review, search_cmd, context_cmd,      # sources, pages, review, search
    compile_estimate_cmd, llm_group,                                # the model-backed extractor
    demo_cmd, serve_cmd, worker_cmd, mcp_cmd,                       # the demo, the host, workers, agents
):
    main.add_command(_command)
