"""`kctui compile-estimate`: the cost of a model-backed pass before spending anything (issue 8), and
`kctui llm check`: whether the configured model server would work for a compile (issue 17)."""

from __future__ import annotations

from pathlib import Path

import click

from kctui import paths
from kctui.cli.common import fail, open_services, print_json
from kctui.services import bases as bases_svc


@click.command("compile-estimate")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.option("--full", is_flag=True, help="Estimate re-reading every source, not only the changed ones.")
@click.option("--json", "as_json", is_flag=True, help="Print the estimate as JSON.")
def compile_estimate_cmd(workspace: str, kb_id: str, full: bool, as_json: bool) -> None:
    """Estimate the tokens and cost of compiling KB with the model; nothing is sent."""
    from kctui.compiler.llm.settings import load_llm_settings  # noqa: PLC0415
    from kctui.compiler.steps.estimate import estimate_pass, estimate_text  # noqa: PLC0415

    svc = open_services()
    try:
        base = bases_svc.get_base(svc, workspace, kb_id)
    finally:
        svc.close()
    settings = load_llm_settings()
    if not settings.configured:
        fail("no model is configured: set KCTUI_LLM_URL and KCTUI_LLM_MODEL (or url and model under [llm] in config.toml)")
    ws = Path(base.workspace)
    wiki = paths.wiki_path(ws, base.id)
    try:
        result = estimate_pass(paths.sources_path(ws, base.id), wiki if wiki.is_dir() else None, settings, full=full)
    except FileNotFoundError as exc:
        fail(str(exc))
    if as_json:
        print_json(result)
    else:
        click.echo(estimate_text(result))


@click.group("llm")
def llm_group() -> None:
    """The model-backed extractor's server: check it before compiling with it."""


@llm_group.command("check")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def llm_check_cmd(as_json: bool) -> None:
    """Probe the configured model server: its models, one tiny structured request, the output mode it
    takes, latency and tokens/s, and a one-line verdict. Exits 1 when compiling would fail."""
    from kctui.compiler.llm.check import run_check  # noqa: PLC0415
    from kctui.compiler.llm.settings import load_llm_settings  # noqa: PLC0415
    from kctui.config import ConfigError  # noqa: PLC0415

    try:
        settings = load_llm_settings()
    except ConfigError as exc:
        fail(str(exc))
    result = run_check(settings)
    if as_json:
        print_json(result.to_json())
    else:
        click.echo(result.text())
    if not result.ok:
        raise SystemExit(1)
