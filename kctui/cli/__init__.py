"""The `kctui` command. A bare `kctui [WORKSPACE …]` opens the app; subcommands drive the host.

Each module of this package defines its commands and groups and imports nothing of this one; this
module builds the root group `main` (the console script is `kctui.cli:main`). The root group is lazy
(click's documented lazy-group pattern): a command's module is imported only when that command runs,
and `kctui --help` lists the commands from the table below without importing any of them, so a call
pays only for what it uses. `tests/unit/test_cli_lazy.py` checks the table against the commands."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

import click

from kctui import __version__
from kctui.cli.common import KctuiGroup, one_line

__all__ = ["COMMANDS", "main"]

# name -> (module, attribute, the help's first paragraph as `kctui --help` lists it)
COMMANDS: dict[str, tuple[str, str, str]] = {
    # knowledge bases and jobs
    "kb": ("kctui.cli.kb", "kb", "Create, list and configure knowledge bases."),
    "compile": ("kctui.cli.jobs", "compile_cmd",
                "Request a manual compile of KB now (ignores the smart-auto windows and clears a pause)."),
    "cancel": ("kctui.cli.jobs", "cancel_cmd", "Cancel KB's queued or running job (or the given JOB)."),
    "status": ("kctui.cli.jobs", "status_cmd", "Show every knowledge base's compilation state."),
    "jobs": ("kctui.cli.jobs", "jobs_cmd", "List running, queued and recent jobs."),
    "resume": ("kctui.cli.jobs", "resume_cmd",
               "Clear KB's bulk-change pause: rescan, accept the snapshot, and queue a manual compile."),
    # sources, pages, review, search
    "add": ("kctui.cli.add", "add_cmd",
            "Copy files or folders (a folder's contents, keeping its tree) into KB's sources/, or standard input "
            "with `-` and --name."),
    "page": ("kctui.cli.pages", "page", "The compiled pages, their revisions, and a person's direct edits."),
    "brief": ("kctui.cli.pages", "brief_cmd",
              "Print the change brief of JOB (default: the base's latest pass that wrote one)."),
    "review": ("kctui.cli.review", "review", "Held updates and conflicts waiting for a person."),
    "search": ("kctui.cli.search", "search_cmd",
               'Search the compiled wiki of KB for QUERY (words, "quoted phrases", word* for a prefix).'),
    "context": ("kctui.cli.search", "context_cmd",
                "A context packet about QUERY for an assistant or a person, at most --budget bytes."),
    "ask": ("kctui.cli.ask", "ask_cmd", "Ask KB a QUESTION and get an answer citing the base."),
    # the model-backed extractor
    "compile-estimate": ("kctui.cli.llm", "compile_estimate_cmd",
                         "Estimate the tokens and cost of compiling KB with the model; nothing is sent."),
    "llm": ("kctui.cli.llm", "llm_group", "The model-backed extractor's server: check it before compiling with it."),
    # the demo, the host, workers, agents
    "demo": ("kctui.cli.demo", "demo_cmd",
             "Create a demo workspace with a knowledge base of bundled sample sources, compile it, open the app."),
    "serve": ("kctui.cli.host", "serve_cmd",
              "Run the headless host: API server, watcher, scheduler, retries and the built-in compiler worker, "
              "until Ctrl-C or SIGTERM."),
    "worker": ("kctui.cli.host", "worker_cmd",
               "Run the built-in compiler as a protocol worker against any host that speaks contract version 1."),
    "doctor": ("kctui.cli.doctor", "doctor_cmd",
               "Report leftovers of crashes (staged folders, temporary files, stale locks), stuck locks, a host that "
               "no longer answers, orphaned kctui processes and the size of each base's state."),
    "mcp": ("kctui.cli.mcp", "mcp_cmd",
            "Serve the knowledge tools to an MCP client (an assistant) over stdio; the named workspaces join the "
            "monitored set and are the tools' default."),
}


def load_command(name: str) -> click.Command:
    module, attribute, _help = COMMANDS[name]
    command = getattr(importlib.import_module(module), attribute)
    if not isinstance(command, click.Command):  # pragma: no cover - the table test keeps this true
        raise TypeError(f"{module}.{attribute} is not a click command")
    return command


class LazyCommands(Mapping[str, click.Command]):
    """The root group's `commands`: every name of the table, each command imported when first looked up."""

    def __init__(self) -> None:
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in COMMANDS:
            raise KeyError(name)
        if name not in self._loaded:
            self._loaded[name] = load_command(name)
        return self._loaded[name]

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(COMMANDS))

    def __len__(self) -> int:
        return len(COMMANDS)


class MainGroup(KctuiGroup):
    """The lazy root group. Arguments that are not a command name are workspaces for the app."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands()  # type: ignore[assignment] - read-only: the table is the one list

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own layout, from the table's help lines: listing the commands imports none of them
        names = sorted(COMMANDS)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(n, click.Command(n, help=COMMANDS[n][2]).get_short_help_str(limit)) for n in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in COMMANDS:
            ctx.meta["kctui.workspaces"] = list(args)
            args = []
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:  # `kctui --bogus`: one line, as every usage error
            raise one_line(exc) from None


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
    from kctui.cli.common import open_app, open_services  # noqa: PLC0415
    from kctui.services.workspaces import add_workspace  # noqa: PLC0415

    workspaces = ctx.meta.get("kctui.workspaces", [])
    svc = open_services()
    for ws in workspaces:
        add_workspace(svc, ws)
    svc.close()
    open_app()
