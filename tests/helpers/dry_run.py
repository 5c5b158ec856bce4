"""What a dry run must leave as it was (every file with its stat fields, the store's tables), the demo
sources, a real pass to compare a dry run with, and a brief without what names its job and moment."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from kctui.services.compile_wait import compile_and_wait

TABLES = ("jobs", "briefs", "page_revisions", "review_items", "review_item_pages", "job_steps", "bases")


def demo_files() -> dict[str, str]:
    root = resources.files("kctui") / "demo_sources"
    return {p.name: p.read_text(encoding="utf-8") for p in root.iterdir() if p.is_file()}


def tree(root: Path) -> dict[str, tuple]:
    """Every file under `root`: bytes and the stat fields a reader or the page memo relies on."""
    out = {}
    for p in sorted(root.rglob("*")) if root.exists() else ():
        if p.is_file():
            st = p.lstat()
            out[p.relative_to(root).as_posix()] = (p.read_bytes(), st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    return out


def store_state(svc) -> dict[str, list]:
    return {t: [tuple(r) for r in svc.store.query(f"SELECT * FROM {t} ORDER BY rowid")] for t in TABLES}


def comparable(markdown: str) -> list[str]:
    """A brief without what names the job and its moment: its header lines and the timings."""
    lines = markdown.split("\n")
    lines = lines[: lines.index("## Time")] if "## Time" in lines else lines
    return [ln for ln in lines if ln and not ln.startswith(("# Change brief", "Compiled at", "**Dry run**"))]


def real_pass(svc, base) -> tuple[str, list]:
    _, _, job = compile_and_wait(svc, base.workspace, base.id)
    assert job is not None and job.phase == "succeeded", job
    items = svc.store.query("SELECT kind FROM review_items WHERE job_id = ?", (job.id,))
    return _brief(svc, job.id), items


def _brief(svc, job_id: str) -> str:
    from kctui.services.results import get_brief

    return get_brief(svc, job_id) or ""
