"""The built-in compiler end to end on a small knowledge base: validity, links, citations, determinism,
incremental = full, cache on = cache off, deletion, conflicts, bad input, cancellation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kctui.compiler.runner import CompileCancelled, CompileRequest, compile_job
from kctui.compiler.steps.pipeline import compile_pass
from kctui.core.frontmatter import parse_document
from tests.helpers.wiki import (
    CODE_SPAN,
    CONFLICT_NOTE,
    SETUP,
    check_wiki,
    generation_two,
    make_kb,
    pages,
    request,
    tree,
)


def test_compile_writes_a_valid_linked_cited_wiki(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    req = request(src, "job-1")
    events = []
    result = compile_pass(req, progress=events.append)
    check_wiki(req.output_path, src)
    assert [e.step for e in events if e.state == "done"] == ["gather", "extract", "match", "update", "flag", "brief"]
    found = pages(req.output_path)
    assert found["entities/widget-server.md"][0]["entity_type"] == "product"
    assert {"sources/products-widget-md.md", "sources/papers-gizmo-report-pdf.md", "concepts/long-term-support.md",
            "concepts/sprocket.md", "concepts/gizmo.md", "concepts/facade-crate.md", "entities/acme.md"} <= set(found)
    assert found["entities/acme.md"][0]["entity_type"] == "company" and "Acme Ltd" in found["entities/acme.md"][0]["aliases"]
    for rel, (data, _) in found.items():
        assert data["type"] in ("Source", "Concept", "Entity") and data["generated"]["at"] == req.created_at
        assert data["status"] == "stable" and data["compile_status"] == "compiled"
    assert "^[papers/gizmo report.pdf:p1]" in found["concepts/gizmo.md"][1]
    index = (req.output_path / "index.md").read_text(encoding="utf-8")
    assert index.startswith("---\nokf_version: '0.2'\n---\n") and f"{len(found)} pages" in index
    log = (req.output_path / "log.md").read_text(encoding="utf-8")
    assert log.startswith("# Knowledge Base Log\n\n## 2026-08-22\n\n* **Update**: 2026-08-22T00:00:00Z job `job-1`")
    brief = (req.output_path.parent / "brief.md").read_text(encoding="utf-8")
    assert brief == result.report.brief_markdown and "## Conflicts opened\n\nNone." in brief
    assert all(u.kind == "create" for u in result.updates)


def test_same_inputs_give_byte_identical_output_and_cache_changes_nothing(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    plain = compile_pass(request(src, "job-1", out="a"), cache_dir=None)
    compile_pass(request(src, "job-1", out="b"), cache_dir=tmp_path / "cache")
    warm = compile_pass(request(src, "job-1", out="c"), cache_dir=tmp_path / "cache")
    assert warm.cache_hits == 5 and plain.cache_hits == 0
    out = {name: tree(request(src, "job-1", out=name).output_path) for name in "abc"}
    assert out["a"] == out["b"] == out["c"]


def test_output_does_not_depend_on_the_process_hash_seed(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    src = make_kb(tmp_path)
    code = (
        "import sys; from pathlib import Path; from kctui.compiler.runner import CompileRequest; "
        "from kctui.compiler.steps.pipeline import compile_pass; src = Path(sys.argv[1]); "
        "compile_pass(CompileRequest('job-1', 'manual', 'sha256:x', '2026-08-22T00:00:00Z', src, None, "
        "src.parent / sys.argv[2] / 'wiki'), cache_dir=None)"
    )
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", code, str(src), f"seed{seed}"], check=True, env=env)
    assert tree(src.parent / "seed1" / "wiki") == tree(src.parent / "seed2" / "wiki")


def test_unchanged_sources_are_not_even_read_once_their_digests_are_known(tmp_path: Path, monkeypatch) -> None:
    import os
    import time as _time

    from kctui.compiler.steps import gather

    src = make_kb(tmp_path)
    hour_ago = _time.time() - 3600
    for p in src.rglob("*"):
        if p.is_file():
            os.utime(p, (hour_ago, hour_ago))  # older than the memo: not "racily clean"
    cache = tmp_path / "cache"
    first = request(src, "job-1")
    compile_pass(first, cache_dir=cache)
    hashed: list[str] = []
    real = gather.digest_file
    monkeypatch.setattr(gather, "digest_file", lambda f, *a: (hashed.append(f.path), real(f, *a))[1])
    (src / "guides" / "setup.txt").write_text(SETUP + "- Region: eu-west\n", encoding="utf-8")
    second = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    with_memo = compile_pass(second, cache_dir=cache)
    assert hashed == ["guides/setup.txt"] and with_memo.changes.modified == ["guides/setup.txt"]
    plain = compile_pass(request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z", out="plain"),
                         cache_dir=None)
    assert tree(second.output_path) == tree(request(src, "job-2", out="plain").output_path)
    assert plain.changes.modified == ["guides/setup.txt"]


def test_incremental_equals_full_and_keeps_old_values(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    first = request(src, "job-1", at="2026-08-22T00:00:00Z")
    compile_pass(first, cache_dir=tmp_path / "cache")
    generation_two(src)
    outs = {}
    for job, kw in {"inc": {"cache_dir": tmp_path / "cache"}, "inc-nocache": {"cache_dir": None},
                    "full": {"cache_dir": None, "full": True}, "full-cache": {"cache_dir": tmp_path / "cache", "full": True}}.items():
        req = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z", out=job)
        result = compile_pass(req, **kw)
        outs[job] = (tree(req.output_path), result)
    trees = [t for t, _ in outs.values()]
    assert all(t == trees[0] for t in trees)
    result = outs["inc"][1]
    assert result.files_extracted == 2 and result.changes.added == ["guides/faq.md"]  # only changed sources re-read
    assert len(result.changes.unchanged) == 3 and outs["full"][1].files_extracted == 5
    assert result.changes.deleted == ["guides/setup.txt"] and result.changes.modified == ["products/widget.md"]
    inc_wiki = request(src, "job-2", out="inc").output_path
    check_wiki(inc_wiki, src)
    revised = [c for c in result.claim_changes if c.change == "revised"]
    assert [(c.attribute, c.scope, c.old, c.new) for c in revised] == [("latest", "2.1", "2.1.4", "2.1.5")]
    added = {(c.attribute, c.scope) for c in result.claim_changes if c.change == "added" and c.path == "products/widget.md"}
    # the new record: its identifying value and its three values
    assert added == {("releaseCycle", "3.0"), ("releaseDate", "3.0"), ("eol", "3.0"), ("latest", "3.0")}
    entity = (inc_wiki / "entities" / "widget-server.md").read_text(encoding="utf-8")
    updates = entity.split("## Updates", 1)[1]
    assert "* 2026-08-22T00:00:00Z: created from `products/widget.md`." in updates  # history is append-only
    assert "revised Widget Server (2.1) latest: 2.1.4 → 2.1.5" in updates
    # the release list is one table, a cited row per record, the revised value in its row
    assert "| releaseCycle | eol | latest | releaseDate | Source |" in entity
    assert "| 2.1 | false | 2.1.5 | 2025-03-18 | ^[products/widget.md:L9-L12] |" in entity and "2.1.4 |" not in entity
    kinds = {u.slug: u.kind for u in result.updates}
    assert kinds["widget-server"] == "revise" and kinds["guides-faq-md"] == "create"
    # pages no changed source touches are copied byte for byte
    before = tree(first.output_path)
    assert trees[0]["concepts/sprocket.md"] == before["concepts/sprocket.md"]
    # ... by a hard link to the previous generation's file when both live on one filesystem
    assert (inc_wiki / "concepts" / "sprocket.md").stat().st_ino == (first.output_path / "concepts" / "sprocket.md").stat().st_ino
    assert trees[0]["sources/papers-gizmo-report-pdf.md"] == before["sources/papers-gizmo-report-pdf.md"]
    log = trees[0]["log.md"].decode()
    assert log.index("## 2026-09-01") < log.index("## 2026-08-22")
    assert before["log.md"].decode().split("\n", 2)[2] in log  # earlier entries kept byte for byte


def test_deleting_a_source_retracts_its_claims_and_archives_orphans(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    first = request(src, "job-1")
    compile_pass(first, cache_dir=None)
    (src / "guides" / "setup.txt").unlink()
    second = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    result = compile_pass(second, cache_dir=None)
    wiki = second.output_path
    check_wiki(wiki, src)
    assert not (wiki / "sources" / "guides-setup-txt.md").exists()
    acme = parse_document((wiki / "entities" / "acme.md").read_text(encoding="utf-8"))
    assert acme[0]["compile_status"] == "archived" and acme[0]["status"] == "deprecated" and acme[0]["sources"] == []
    assert "guides/setup.txt" not in "".join(p.read_text(encoding="utf-8") for p in wiki.glob("*/*.md")
                                             if "Archived" not in p.read_text(encoding="utf-8"))
    kinds = {u.slug: u.kind for u in result.updates}
    assert kinds["guides-setup-txt"] == "remove" and kinds["acme"] == "supersede"
    # ("role": the `- Owner: Acme Ltd.` line gives Acme the role it names, issue 31)
    assert {(c.change, c.attribute) for c in result.claim_changes} == {("retracted", "Owner"), ("retracted", "Port"),
                                                                        ("retracted", "note"), ("retracted", "role")}


def test_two_sources_disagreeing_is_one_conflict_citing_both(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    first = request(src, "job-1")
    compile_pass(first, cache_dir=None)
    (src / "notes").mkdir()
    (src / "notes" / "widget support.md").write_text(CONFLICT_NOTE, encoding="utf-8")
    second = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    result = compile_pass(second, cache_dir=None)
    check_wiki(second.output_path, src)
    assert len(result.conflicts) == 1
    conflict = result.conflicts[0]
    assert (conflict.slug, conflict.attribute, conflict.scope) == ("widget-server", "eol", "1.10")
    assert sorted(c.evidence.path for c in conflict.claims) == ["notes/widget support.md", "products/widget.md"]
    data, body = pages(second.output_path)["entities/widget-server.md"]
    assert data["compile_status"] == "contradicted" and data["status"] == "draft"
    assert "> * **Widget Server** (1.10) — eol: 2024-11-06 ^[products/widget.md:L" in body
    assert "> * **Widget Server** (1.10) — eol: 2024-12-01 ^[notes/widget support.md:L7-L7]" in body
    assert "## Conflicts opened\n\n* [Widget Server](wiki/entities/widget-server.md): eol (1.10)" in result.report.brief_markdown
    # the note goes away: the dispute goes with it
    (src / "notes" / "widget support.md").unlink()
    third = request(src, "job-3", prev=second.output_path, at="2026-09-02T00:00:00Z")
    assert compile_pass(third, cache_dir=None).conflicts == []
    assert pages(third.output_path)["entities/widget-server.md"][0]["compile_status"] == "compiled"


def test_bad_input_is_reported_and_nothing_else_is_lost(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    bad = src / "bad"
    bad.mkdir()
    (bad / "binary.md").write_bytes(b"# x\n\x00\x01\x02")
    (bad / "latin1.md").write_bytes("Caf\xe9 Widget\n\n- Price: 3 EUR\n".encode("latin-1"))
    with open(bad / "huge.txt", "wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    (bad / "bomb.md").write_text("---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a]\nc: [*b, *b]\n---\n- Size: 7 kg\n", encoding="utf-8")
    (bad / "deep.md").write_text("---\nx: " + "[" * 10_000 + "]" * 10_000 + "\n---\n- Depth: 10000\n", encoding="utf-8")
    (bad / "empty.md").write_bytes(b"")
    (bad / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\ngarbage\n%%EOF")
    (bad / "odd name #1 ü.md").write_text("- Colour: blue\n", encoding="utf-8")
    req = request(src, "job-1")
    result = compile_pass(req, cache_dir=None)
    skipped = {s.path: s.reason for s in result.skipped}
    assert skipped == {"bad/binary.md": "binary", "bad/huge.txt": "too_large", "bad/empty.md": "empty",
                       "bad/broken.pdf": "unreadable"}
    warnings = "\n".join(result.report.warnings)
    assert "bad/latin1.md: not valid UTF-8 (first bad byte at offset 3); read as Windows-1252 (Latin-1)" in warnings
    assert "bad/bomb.md: frontmatter refused: YAML aliases are not allowed" in warnings
    assert "bad/deep.md: frontmatter refused" in warnings
    check_wiki(req.output_path, src)
    found = pages(req.output_path)
    for name in ("bad-latin1-md", "bad-bomb-md", "bad-deep-md", "bad-odd-name-1-ü-md", "products-widget-md"):
        assert f"sources/{name}.md" in found, name
    assert "^[bad/odd name #1 ü.md:L1-L1]" in found["sources/bad-odd-name-1-ü-md.md"][1]
    assert "— Size: 7 kg ^[bad/bomb.md:L6-L6]" in found["sources/bad-bomb-md.md"][1]
    assert "Café Widget" in found["sources/bad-latin1-md.md"][1] and "\ufffd" not in found["sources/bad-latin1-md.md"][1]
    for reason in ("binary", "too_large", "empty", "unreadable"):
        assert reason in result.report.brief_markdown


def test_cancel_stops_between_files(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    seen = []
    with pytest.raises(CompileCancelled):
        compile_pass(request(src, "job-1"), progress=seen.append,
                     should_stop=lambda: any(e.step == "extract" and e.state == "progress" for e in seen))
    assert not any(e.step == "update" for e in seen)


def test_runner_seam_and_markdown_link_style(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    first = request(src, "job-1", style="markdown")
    report = compile_job(first)
    assert report.compiler_version.endswith(" builtin") and report.brief_markdown and report.pages_written > 5
    check_wiki(first.output_path, src)
    for p in first.output_path.glob("*/*.md"):
        assert "[[" not in CODE_SPAN.sub("", p.read_text(encoding="utf-8")), p.name
    # the base switches back to wikilinks: every page is re-rendered, none keeps the old style
    second = request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    compile_job(second)
    check_wiki(second.output_path, src)
    for p in second.output_path.glob("*/*.md"):
        assert "](/" not in CODE_SPAN.sub("", p.read_text(encoding="utf-8")), p.name


def test_a_wiki_from_another_compiler_version_is_recompiled_once(tmp_path: Path) -> None:
    src = make_kb(tmp_path)
    old = request(src, "job-0")
    compile_pass(old, cache_dir=None)
    for page in old.output_path.glob("*/*.md"):  # as an earlier release would have written them
        page.write_text(page.read_text(encoding="utf-8").replace(" builtin\n", " builtin-0.2\n"), encoding="utf-8")
    first = request(src, "job-1", prev=old.output_path, at="2026-09-01T00:00:00Z")
    result = compile_pass(first, cache_dir=None)
    assert result.files_extracted == 5 and len(result.changes.modified) == 5
    check_wiki(first.output_path, src)
    for data, _ in pages(first.output_path).values():
        assert data["generated"]["by"].endswith(" builtin") and data["generated"]["at"] == first.created_at
    second = request(src, "job-2", prev=first.output_path, at="2026-09-02T00:00:00Z")
    assert compile_pass(second, cache_dir=None).files_extracted == 0  # converged: nothing re-read


def test_missing_sources_folder_is_a_transient_failure(tmp_path: Path) -> None:
    from kctui.compiler.runner import CompileFailure

    req = CompileRequest("j", "manual", "sha256:x", "2026-08-22T00:00:00Z", tmp_path / "nope", None, tmp_path / "out" / "wiki")
    with pytest.raises(CompileFailure) as info:
        compile_pass(req)
    assert info.value.code == "source_unreadable" and info.value.transient
    shutil.rmtree(tmp_path / "out", ignore_errors=True)
