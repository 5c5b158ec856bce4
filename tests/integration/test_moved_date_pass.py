"""A date a later note moves again is raised for a person (QA session 31, problem 7): "the Postgres cutover
moves from 14 Nov to 21 Nov" gives the cutover `date: 21 Nov`; a later "moves from 21 Nov to 28 Nov" opens a
conflict on that page, both dates cited."""

from __future__ import annotations

import json
from pathlib import Path

from kctui.compiler.runner import CompileRequest
from kctui.compiler.steps.pipeline import compile_pass


def _run(src: Path, job: str, prev: Path | None, at: str):  # noqa: ANN202
    req = CompileRequest(job, "manual", "sha256:" + job.encode().hex().ljust(64, "0")[:64], at, src, prev,
                         src.parent / job / "wiki", trust_policy={})
    result = compile_pass(req, cache_dir=None)
    return result, req.output_path, json.loads((req.output_path.parent / "review.json").read_text(encoding="utf-8"))["items"]


def test_a_date_moved_again_is_a_conflict_for_a_person(tmp_path: Path) -> None:
    src = tmp_path / "kb" / "sources"
    src.mkdir(parents=True)
    (src / "standup-10.md").write_text("# Standup 10 Nov\n\n- Mara: the Postgres cutover moves from 14 Nov to 21 Nov "
                                       "because the vendor patch is late.\n- Postgres cutover dry run went fine.\n",
                                       encoding="utf-8")
    _, wiki1, _ = _run(src, "job-1", None, "2026-01-01T00:00:00Z")
    page = (wiki1 / "entities" / "postgres-cutover.md").read_text(encoding="utf-8")
    assert "**Postgres cutover** — date: 21 Nov" in page
    (src / "planning-19.md").write_text("# Planning 19 Nov\n\n## Decisions\n- The Postgres cutover moves from 21 Nov "
                                        "to 28 Nov.\n", encoding="utf-8")
    result, _, items = _run(src, "job-2", wiki1, "2026-01-02T00:00:00Z")
    assert [(c.slug, [x.value for x in c.claims]) for c in result.conflicts] == [("postgres-cutover", ["21 Nov", "28 Nov"])]
    assert any(it["kind"] == "conflict" and it["page"] == "entities/postgres-cutover.md" for it in items)
