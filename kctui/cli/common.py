"""Shared plumbing of the CLI: one-line errors, opening the services, JSON and table output, the app."""

from __future__ import annotations

import json
import sqlite3
import sys
from typing import Any, NoReturn

import click

from kctui.config import ConfigError
from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.services.hostlock import HostLockHeld
from kctui.store.db import StoreError

EXIT_ERROR = 1
EXIT_USAGE = 2


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    click.echo(f"kctui: error: {message}", err=True)
    sys.exit(code)


class KctuiGroup(click.Group):
    """Turns every known error into one line on stderr and a non-zero exit; never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (ServiceError, StoreError, ConfigError, HostLockHeld) as exc:
            fail(getattr(exc, "message", None) or str(exc))
        except sqlite3.Error as exc:
            fail(f"database error: {exc}")
        except BrokenPipeError:
            # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
            import os  # noqa: PLC0415

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except PermissionError as exc:
            fail(f"permission denied: {exc.filename or exc}")
        except OSError as exc:
            fail(f"{exc.strerror or exc}{': ' + str(exc.filename) if exc.filename else ''}")
        except KeyboardInterrupt:
            click.echo("kctui: interrupted", err=True)
            sys.exit(130)


def open_services() -> ServiceContext:
    return ServiceContext.open()


def open_app() -> None:
    """Run the terminal app in this process (a bare `kctui`, `kctui demo`); exit with its code."""
    try:
        from kctui.ui.app import run_app  # noqa: PLC0415 - Textual loads only when the app opens
    except ImportError:
        click.echo("The terminal app is not part of this build yet; use `kctui --help` for the commands.")
        return
    from kctui.api.serve import ApiServer  # noqa: PLC0415 - the app serves the API when the settings enable it

    code = run_app(server_factory=ApiServer)
    if code:
        sys.exit(code)


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
