"""`kctui kb create|list|show|policy`: create, list and configure knowledge bases."""

from __future__ import annotations

from pathlib import Path

import click

from kctui.cli.common import KctuiGroup, open_services, phase_text, print_json, table
from kctui.core.handed_back import handed_back, stopped_words
from kctui.services import bases as bases_svc
from kctui.services.pending_promotion import pending_words
from kctui.services.status import base_status_json


@click.group(cls=KctuiGroup)
def kb() -> None:
    """Create, list and configure knowledge bases."""


@kb.command("create")
@click.argument("workspace", type=click.Path())
@click.argument("name")
@click.option("--policy", type=click.Choice(["manual", "smart_auto"]), default="manual", show_default=True,
              help="Compilation policy: compile only when asked, or automatically after changes settle.")
@click.option("--description", default="", help="One sentence about the knowledge base (≤ 280 chars).")
@click.option("--from", "from_paths", multiple=True, type=click.Path(),
              help="Copy this file or folder into sources/ (repeatable). Symlinks are never copied.")
@click.option("--json", "as_json", is_flag=True, help="Print {changed, knowledgeBase} as JSON.")
def kb_create(workspace: str, name: str, policy: str, description: str, from_paths: tuple[str, ...], as_json: bool) -> None:
    """Create knowledge base NAME in WORKSPACE (reference layout .a3s/kb/bases/<id>/)."""
    svc = open_services()
    changed, base = bases_svc.create_base(svc, workspace, name, description=description, policy=policy,
                                          from_paths=list(from_paths), on_skip=lambda line: click.echo(line, err=True))
    if as_json:
        print_json({"changed": changed, "knowledgeBase": base_status_json(svc, base)})
        return
    verb = "created" if changed else "already exists:"
    kbj = base_status_json(svc, base)
    click.echo(f"{verb} {base.id} ({base.name}) — put sources in {kbj['sourcePath']}")


@kb.command("list")
@click.argument("workspace", required=False, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print {items, total} as JSON.")
def kb_list(workspace: str | None, as_json: bool) -> None:
    """List knowledge bases (of WORKSPACE, or of every monitored workspace)."""
    svc = open_services()
    items = [base_status_json(svc, b) for b in bases_svc.list_bases(svc, workspace)]
    if as_json:
        print_json({"items": items, "total": len(items)})
        return
    if not items:
        click.echo("no knowledge bases yet — create one with `kctui kb create WORKSPACE NAME`")
        return
    rows = [[i["id"], phase_text(i["phase"]), i["compilationPolicy"],
             "yes" if i["compilation"]["pendingChanges"] else "no", i["workspaceRoot"]] for i in items]
    click.echo(table(rows, ["ID", "PHASE", "POLICY", "PENDING", "WORKSPACE"]))


@kb.command("show")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.option("--json", "as_json", is_flag=True)
def kb_show(workspace: str, kb_id: str, as_json: bool) -> None:
    """Show one knowledge base and its compilation state."""
    svc = open_services()
    from kctui.compiler.schema import load_schema  # noqa: PLC0415

    data = base_status_json(svc, bases_svc.get_base(svc, workspace, kb_id))
    schema = load_schema(Path(data["knowledgeBasePath"]))
    if as_json:
        print_json({**data, "schema": {"file": schema.name or None, "digest": f"sha256:{schema.digest}",
                                       "classes": [c for c in ("source", "concept", "entity") if c in schema.classes],
                                       "problem": schema.problem or None}})
        return
    print_base(data)
    click.echo(f"  schema         {schema.describe()}")


def stopped_phase(c: dict) -> str | None:
    """`◔ stopped (handed back, retry queued)` when the last compile was a stop handed back, not a crash."""
    if not handed_back(c["phase"], c.get("lastErrorCode"), c.get("lastError")):
        return None
    return ("◔ " if c.get("nextRetryAt") else "⚠ ") + stopped_words(bool(c.get("nextRetryAt")))


def print_base(data: dict) -> None:
    c = data["compilation"]
    click.echo(f"{data['id']}  {data['name']}")
    click.echo(f"  workspace      {data['workspaceRoot']}")
    pending = c.get("pendingPromotion")
    phase = "⚠ interrupted (host stopped)" if data.get("interrupted") else phase_text(c["phase"])
    if pending:
        phase = pending_words(pending)
    else:
        phase = stopped_phase(c) or phase
    click.echo(f"  phase          {phase}")
    click.echo(f"  policy         {c['policy']}")
    click.echo(f"  source digest  {c['sourceDigest'] or '-'}")
    compiled = c["lastCompiledDigest"] or "never"
    if pending and pending.get("newGenerationLive"):
        compiled += " (recorded; the live wiki is the pending promotion's newer generation)"
    click.echo(f"  compiled       {compiled}")
    click.echo(f"  pending        {'yes' if c['pendingChanges'] else 'no'}")
    if c["activeJobId"]:
        click.echo(f"  active job     {c['activeJobId']}")
    if c.get("nextRetryAt"):
        click.echo(f"  next retry     {c['nextRetryAt']}")
    if c.get("nextAutoCompileAt"):
        click.echo(f"  next auto      {c['nextAutoCompileAt']}")
    if c.get("nextScheduledCompileAt"):
        click.echo(f"  next scheduled {c['nextScheduledCompileAt']}")
    if c["pausedReason"]:
        click.echo(f"  paused         {c['pausedReason']}")
    if c["lastError"]:
        click.echo(f"  last error     [{c.get('lastErrorCode') or '-'}] {c['lastError']}")
    if "openReviewItems" in data:
        n = data["openReviewItems"]
        click.echo(f"  review         {n} open item{'s' if n != 1 else ''}" + (" (kctui review list)" if n else ""))


@kb.command("policy")
@click.argument("workspace", type=click.Path())
@click.argument("kb_id", metavar="KB")
@click.option("--compilation", type=click.Choice(["manual", "smart_auto"]),
              help="manual: compile when asked; smart_auto: compile after changes settle (switching to "
                   "manual cancels a queued automatic job).")
@click.option("--autonomy", type=click.Choice(["suggest", "guarded", "auto"]),
              help="What may be written unattended: suggest = nothing, guarded = create and append, "
                   "auto = also revise. Supersede always needs a person.")
@click.option("--never-auto", "never_auto", multiple=True, metavar="GUARD",
              help="Hold every change to matching pages: class:concept|entity|source, tag:NAME or "
                   "title:REGEX (repeatable; pass an empty string to clear).")
@click.option("--min-confidence", type=float, help="Hold updates whose confidence is below this (0–1, default 0.6).")
@click.option("--stale-days", type=int, help="Pages without new evidence or confirmation for this long become stale (default 90).")
@click.option("--link-style", type=click.Choice(["wikilink", "markdown"]),
              help="Write links as [[slug|Text]] or as OKF's [Text](/concepts/slug.md).")
@click.option("--extractor", type=click.Choice(["builtin", "llm"]), help="Extraction: built-in (offline) or a model.")
@click.option("--schedule", metavar="CRON", help="Queue a scheduled compile at these times (a cron expression "
              "such as '0 2 * * *', in this machine's time zone), or 'off'.")
@click.option("--schedule-always/--schedule-changed-only", "schedule_always", default=None,
              help="A scheduled compile runs even when the sources did not change since the last success "
                   "(default: only when they changed).")
@click.option("--compile-sources", "compile_sources", metavar="KINDS",
              help="Source kinds that are extracted, comma-separated (markdown,text,pdf,html); others are "
                   "gathered but not extracted.")
@click.option("--maintain-kinds", "maintain_kinds", metavar="CLASSES",
              help="Page classes the compiler writes, comma-separated (source,concept,entity).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole policy as JSON.")
def kb_policy(workspace: str, kb_id: str, compilation: str | None, autonomy: str | None,
              never_auto: tuple[str, ...], min_confidence: float | None, stale_days: int | None,
              link_style: str | None, extractor: str | None, schedule: str | None, schedule_always: bool | None,
              compile_sources: str | None, maintain_kinds: str | None, as_json: bool) -> None:
    """Show or change a knowledge base's compilation and trust policy."""
    from kctui.services import policy as policy_svc  # noqa: PLC0415

    svc = open_services()
    changed = False
    # validate everything before changing anything
    bases_svc.get_base(svc, workspace, kb_id)
    trust_changes = dict(autonomy=autonomy, never_auto=list(never_auto) if never_auto else None,
                         min_confidence=min_confidence, stale_days=stale_days, link_style=link_style,
                         extractor=extractor, schedule=schedule, schedule_always=schedule_always,
                         compile_sources=_comma_list(compile_sources), maintain_kinds=_comma_list(maintain_kinds))
    if any(v is not None for v in trust_changes.values()):
        changed, _ = policy_svc.update_policy(svc, workspace, kb_id, **trust_changes)
    if compilation:
        c2, _ = bases_svc.set_compilation_policy(svc, workspace, kb_id, compilation)
        changed = changed or c2
    data = policy_svc.policy_json(svc, workspace, kb_id)
    if as_json:
        print_json({"changed": changed, **data})
        return
    click.echo(f"{kb_id}{' (changed)' if changed else ''}")
    for key, value in data.items():
        if isinstance(value, list):
            value = ", ".join(value) or "-"
        click.echo(f"  {key:<15} {'-' if value is None else value}")


def _comma_list(text: str | None) -> list[str] | None:
    """`a, b,,c` as ["a", "b", "c"]; None when the option was not given."""
    return [k.strip() for k in text.split(",") if k.strip()] if text is not None else None
