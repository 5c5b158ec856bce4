"""Shared plumbing of the CLI: one-line errors, opening the services, JSON and table output, the app."""

from __future__ import annotations

import json
import sqlite3
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

if TYPE_CHECKING:
    from kctui.services.context import ServiceContext

EXIT_ERROR = 1
EXIT_USAGE = 2


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    click.echo(f"kctui: error: {message}", err=True)
    sys.exit(code)


# The errors kctui raises for a person, by module: looked up in `sys.modules` when an error arrives, so
# the CLI imports none of these modules to start (an error of a module never imported cannot be raised).
KNOWN_ERRORS = (
    ("kctui.services.errors", "ServiceError"),
    ("kctui.store.db", "StoreError"),
    ("kctui.config", "ConfigError"),
    ("kctui.services.hostlock", "HostLockHeld"),
)


def error_line(exc: Exception) -> str | None:
    """The one line a person reads for an error kctui or the platform raised; None for anything else
    (click's own exceptions, bugs), which is raised on."""
    for module_name, class_name in KNOWN_ERRORS:
        cls = getattr(sys.modules.get(module_name), class_name, None)
        if cls is not None and isinstance(exc, cls):
            return getattr(exc, "message", None) or str(exc)
    if isinstance(exc, sqlite3.Error):
        return f"database error: {exc}"
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename or exc}"
    if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
        return f"{exc.strerror or exc}{': ' + str(exc.filename) if exc.filename else ''}"
    return None


class OneLineUsageError(click.UsageError):
    """Click's usage error (a bad option or value, a missing argument) as the one `kctui: error: …` line
    the other errors are, naming the help to read; exit status 2 as click's."""

    def show(self, file: Any = None) -> None:
        message = self.format_message().strip().rstrip(".")
        where = f"; see '{self.ctx.command_path} --help'" if self.ctx is not None else ""
        click.echo(f"kctui: error: {' '.join(message.split())}{where}", err=True)


def one_line(exc: click.UsageError) -> click.UsageError:
    """`exc` as one line; a group run with no command still shows its help (click's NoArgsIsHelpError)."""
    if isinstance(exc, (OneLineUsageError, getattr(click.exceptions, "NoArgsIsHelpError", OneLineUsageError))):
        return exc
    out = OneLineUsageError(exc.format_message(), exc.ctx)
    out.exit_code = exc.exit_code
    return out


class KctuiGroup(click.Group):
    """Turns every known error into one line on stderr and a non-zero exit; never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise one_line(exc) from None
        except BrokenPipeError:
            # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
            import os  # noqa: PLC0415

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except KeyboardInterrupt:
            click.echo("kctui: interrupted", err=True)
            sys.exit(130)
        except Exception as exc:
            line = error_line(exc)
            if line is None:
                raise
            fail(line)


def open_services() -> ServiceContext:
    from kctui.services.context import ServiceContext  # noqa: PLC0415 - loaded by the commands that use it

    return ServiceContext.open()


def open_app() -> None:
    """Run the terminal app in this process (a bare `kctui`, `kctui demo`); exit with its code."""
    try:
        from kctui.ui.app import run_app  # noqa: PLC0415 - Textual loads only when the app opens
    except ImportError:
        click.echo("The terminal app is not part of this build yet; use `kctui --help` for the commands.")
        return
    code = run_app(server_factory=api_server)
    if code:
        sys.exit(code)


def api_server(host: str, port: int) -> Any:
    """The app's API server, made by the embedded host once it starts (after the first frame): the web
    stack loads then, not before the screen is drawn."""
    from kctui.api.serve import ApiServer  # noqa: PLC0415

    return ApiServer(host, port)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False))


PHASE_GLYPH = {
    "source_ready": "○", "queued": "◔", "running": "▶", "succeeded": "✔", "failed": "✘",
    "paused": "⏸", "cancelled": "⊘",
}


def phase_text(phase: str) -> str:
    return f"{PHASE_GLYPH.get(phase, '?')} {phase}"


def table(rows: list[list[str]], headers: list[str]) -> str:
    widths = [len(h) for h in headers]
    for r in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, r)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = [fmt.format(*headers).rstrip(), fmt.format(*("-" * w for w in widths)).rstrip()]
    lines += [fmt.format(*r).rstrip() for r in rows]
    return "\n".join(lines)
