"""`kctui doctor [--fix] [--json]`: what a crash or a lost terminal left behind (`services/doctor.py`)."""

from __future__ import annotations

import sys
from typing import Any

import click


def _size(n: int) -> str:
    from kctui.services.gc import human_size  # noqa: PLC0415

    return human_size(n)


def _print_report(found: dict[str, Any]) -> None:
    host = found["host"]
    click.echo(f"state dir: {found['stateDir']} ({_size(found['stateBytes'])})")
    click.echo(f"host: {host['state']}" + (f" — {host['detail']}" if host["detail"] else ""))
    stuck = [lk for lk in found["locks"] if lk["stuck"]]
    click.echo(f"locks: {len(found['locks'])} ({len(stuck)} stuck)")
    for lk in stuck:
        click.echo(f"  stuck  {lk['path']}: {lk['detail']}")
    click.echo(f"leftovers: {len(found['leftovers'])}")
    for item in found["leftovers"]:
        click.echo(f"  {item['kind']:<17} {_size(item['bytes']):>9}  {item['path']}  ({item['reason']})")
    click.echo(f"orphaned processes: {len(found['orphans'])}")
    for proc in found["orphans"]:
        under = f" (under orphan {proc['parent']})" if proc.get("parent") else ""
        click.echo(f"  pid {proc['pid']}{under}: {proc['command']}  (end it with: kill {proc['pid']})")
    if len(found["orphans"]) > 1:
        click.echo(f"  (all at once: kill {' '.join(str(p['pid']) for p in found['orphans'])})")
    for b in found["bases"]:
        click.echo(f"base {b['id']} ({b['workspace']}): state {_size(b['stateBytes'])} "
                   f"(staged {_size(b['stagedBytes'])}, cache {_size(b['cacheBytes'])}), wiki {_size(b['wikiBytes'])}")
    click.echo("ok: nothing left behind" if found["ok"] else "problems found" + ("" if found.get("fixed") else
                                                                                  "; `kctui doctor --fix` cleans what is safe to clean"))


@click.command("doctor")
@click.option("--fix", is_flag=True, help="Clean what is safe to clean (recovery and leftovers; never a process).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def doctor_cmd(fix: bool, as_json: bool) -> None:
    """Report leftovers of crashes (staged folders, temporary files, stale locks), stuck locks, a host
    that no longer answers, orphaned kctui processes and the size of each base's state. Exit 0 when
    nothing is wrong (after --fix: when nothing is left), 1 otherwise."""
    from kctui.cli.common import open_services, print_json  # noqa: PLC0415
    from kctui.services import doctor  # noqa: PLC0415

    ctx = open_services()
    try:
        fixed = doctor.fix(ctx) if fix else None
        found = doctor.examine(ctx)
    finally:
        ctx.close()
    if fixed is not None:
        found["fixed"] = fixed
    if as_json:
        print_json(found)
    else:
        if fixed is not None:
            if fixed["recovery"]:
                click.echo(f"recovery: {fixed['recovery']}")
            for item in fixed["removed"]:
                click.echo(f"removed {item['kind']} {item['path']} ({_size(item['bytes'])})")
            for item in fixed["failed"]:
                click.echo(f"could not remove {item['path']}: {item['error']}")
        _print_report(found)
    sys.exit(0 if found["ok"] else 1)
