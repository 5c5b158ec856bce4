"""Model-backed extraction through the real host path (policy via the CLI, request_compile, the worker
loop with LocalTransport) — the key never reaches logs, the store, briefs or error text — and the
endoflife 2025 → 2026 generations compiled by the fake model (skipped when ../shared is absent)."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from kctui import paths
from kctui.compiler.steps.pipeline import compile_pass
from kctui.core.slugs import near_key
from kctui.services import jobs, results
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers import make_base
from tests.helpers.corpus import EOL, copy_generation, releases
from tests.helpers.model import KEY, WIDGET, llm_request
from tests.helpers.wiki import check_wiki, pages, tree

SLICE = ["alpine-linux", "angular", "apache-kafka", "centos", "django", "go", "isc-dhcp", "jquery", "kubernetes"]


def _cli(*args: str) -> str:
    from kctui.cli import main

    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_key_never_reaches_logs_store_briefs_or_errors(svc, workspace: Path, fake, caplog, state_dir: Path) -> None:
    caplog.set_level(logging.DEBUG)
    base = make_base(svc, workspace, "Products", files={"products/widget.md": WIDGET})
    assert "extractor" in _cli("kb", "policy", str(workspace), base.id, "--extractor", "llm")
    estimate = json.loads(_cli("compile-estimate", str(workspace), base.id, "--json"))
    assert (estimate["documents_to_send"], estimate["requests"], estimate["cached_chunks"]) == (1, 1, 0)
    assert estimate["estimated_cost"] > 0 and fake.requests == []  # nothing sent to estimate

    _, _, job = jobs.request_compile(svc, workspace, base.id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert [o.result for o in outcomes] == ["succeeded"], outcomes
    sources, wiki = paths.sources_path(workspace, base.id), paths.wiki_path(workspace, base.id)
    check_wiki(wiki, sources)
    brief = results.get_brief(svc, job.id)
    assert brief and "tokens in" in brief and "estimated cost $" in brief
    assert fake.auth == [f"Bearer {KEY}"]  # the key was used ...
    assert "1 chunks, 1 answered" in _cli("compile-estimate", str(workspace), base.id, "--full")

    # ... and a server that echoes it back in an error body does not get it into the job's error
    before = tree(wiki)
    fake.answer = lambda p, n: (400, {}, json.dumps({"error": f"bad request for key {KEY}"}).encode())
    (sources / "products" / "widget.md").write_text(WIDGET.replace("2.1.4", "2.1.5"), encoding="utf-8")
    _, _, failing = jobs.request_compile(svc, workspace, base.id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert [o.result for o in outcomes] == ["failed"]
    row = jobs.get_job(svc, failing.id)
    assert row.error_code == "model_unavailable" and not row.transient
    assert "refused the request (HTTP 400)" in row.error and "[redacted]" in row.error
    assert tree(wiki) == before  # the last wiki stays

    blobs = {str(p): p.read_bytes() for root in (state_dir, paths.kb_path(workspace, base.id))
             for p in root.rglob("*") if p.is_file()}
    blobs["logs"] = caplog.text.encode()
    blobs["errors"] = " ".join(str(o.error) for o in outcomes).encode() + row.error.encode()
    blobs["brief"] = brief.encode()
    assert "model request" in caplog.text and any("kctui.sqlite3" in k for k in blobs)
    for where, data in blobs.items():
        assert KEY.encode() not in data and KEY[8:24].encode() not in data, f"the key leaked into {where}"


@pytest.mark.skipif(not EOL.is_dir(), reason=f"the shared endoflife corpus is not present at {EOL}")
def test_endoflife_next_generation_by_the_model_is_valid(tmp_path: Path, fake) -> None:
    src = tmp_path / "kb" / "sources"
    copy_generation("2025-08-22", SLICE + ["apache-activemq-artemis"], src)
    first = llm_request(src, "job-2025", at="2025-08-22T00:00:00Z")
    r1 = compile_pass(first)
    check_wiki(first.output_path, src)
    sent_first = len(fake.requests)
    copy_generation("2026-08-22", SLICE + ["cilium", "duckdb"], src)
    second = llm_request(src, "job-2026", prev=first.output_path, at="2026-08-22T00:00:00Z")
    r2 = compile_pass(second)
    check_wiki(second.output_path, src)
    assert r1.conflicts == [] and r2.conflicts == []

    # only changed and new products were sent; unchanged ones kept their pages byte for byte
    later = fake.prompts()[sent_first:]
    for name in ("centos", "isc-dhcp"):
        assert not any(f"Source file: products/{name}.md" in p for p in later)
        slug = f"sources/products-{name}-md.md"
        assert tree(second.output_path)[slug] == tree(first.output_path)[slug]
    # every changed release fact is a revise of exactly that claim
    expected = set()
    for name in SLICE:
        old = releases(EOL / "2025-08-22" / "products" / f"{name}.md")
        new = releases(EOL / "2026-08-22" / "products" / f"{name}.md")
        for cycle in old.keys() & new.keys():
            for f in ("latest", "eol", "latestReleaseDate"):
                a, b = old[cycle].get(f), new[cycle].get(f)
                if a is not None and b is not None and a != b:
                    expected.add((f"products/{name}.md", f, cycle, a, b))
    revised = {(c.path, c.attribute, c.scope, c.old, c.new) for c in r2.claim_changes
               if c.change == "revised" and c.attribute in ("latest", "eol", "latestReleaseDate")}
    assert expected and revised == expected
    # one entity page per product, new products created, the dropped one's source page removed
    found = pages(second.output_path)
    keys = [near_key(d["title"]) for d, _ in found.values() if d["type"] in ("Entity", "Concept")]
    assert len(keys) == len(set(keys))
    kinds = {u.slug: u.kind for u in r2.updates}
    assert kinds["products-cilium-md"] == kinds["products-duckdb-md"] == "create"
    assert kinds["products-apache-activemq-artemis-md"] == "remove"
    assert "tokens in" in r2.report.brief_markdown
