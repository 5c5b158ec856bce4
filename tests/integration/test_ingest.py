"""Adding sources (issue 16): `kctui add`, the ingest service and the two API routes.

Each bad input (a symlink, traversal in a name, oversized, an existing name, a file that vanishes while
it is copied) gives one line and changes nothing else; the happy paths copy exactly what was asked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from kctui import paths
from kctui.api.server import PREFIX, create_app
from kctui.config import Settings
from kctui.services import bases, jobs, source_copy
from kctui.services.context import ServiceContext
from kctui.services.errors import Conflict, InvalidInput
from kctui.services.ingest import TooLarge, ingest_content, ingest_paths

TOKEN = "ingest-token-" + "i" * 40


def tree(root: Path) -> dict[str, bytes | str]:
    """Everything under `root` (temporary files included), symlinks as their target."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            out[rel] = ("-> " + os.readlink(p)) if p.is_symlink() else ("<dir>" if p.is_dir() else p.read_bytes())
    return out


@pytest.fixture
def base(svc, workspace):
    _, b = bases.create_base(svc, workspace, "Inbox")
    src = paths.sources_path(workspace, b.id)
    (src / "kept.md").write_text("# Kept\n\nAlready here.\n")
    return b


@pytest.fixture
def sources(workspace, base) -> Path:
    return paths.sources_path(workspace, base.id)


@pytest.fixture
def outside(tmp_path) -> Path:
    d = tmp_path / "outside"
    (d / "sub").mkdir(parents=True)
    (d / "a.md").write_text("# A\n\nAlpha.\n")
    (d / "sub" / "b.txt").write_text("beta\n")
    return d


# -- happy paths -------------------------------------------------------------------------------------


def test_a_file_and_a_folder_are_copied(svc, workspace, base, sources, outside, tmp_path):
    lone = tmp_path / "lone.md"
    lone.write_text("# Lone\n")
    report = ingest_paths(svc, workspace, base.id, [str(lone), str(outside)])
    assert report.copied == ["lone.md", "a.md", "sub/b.txt"] and report.skipped == []
    assert (sources / "sub" / "b.txt").read_text() == "beta\n"
    assert (sources / "lone.md").read_text() == "# Lone\n"


def test_content_is_written_under_its_name(svc, workspace, base, sources):
    report = ingest_content(svc, workspace, base.id, "notes/2026-05-05.md", b"# Today\n")
    assert report.copied == ["notes/2026-05-05.md"]
    assert (sources / "notes" / "2026-05-05.md").read_bytes() == b"# Today\n"


def test_replace_overwrites_only_when_asked(svc, workspace, base, sources):
    with pytest.raises(Conflict, match="already exists"):
        ingest_content(svc, workspace, base.id, "kept.md", b"new\n")
    assert (sources / "kept.md").read_text() == "# Kept\n\nAlready here.\n"
    report = ingest_content(svc, workspace, base.id, "kept.md", b"new\n", replace=True)
    assert report.replaced == ["kept.md"] and (sources / "kept.md").read_text() == "new\n"


# -- bad input: one line, nothing else changed ---------------------------------------------------------


def test_a_symlink_is_one_line_and_copies_nothing(svc, workspace, base, sources, tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("secret\n")
    link = tmp_path / "link.md"
    link.symlink_to(secret)
    before = tree(sources)
    report = ingest_paths(svc, workspace, base.id, [str(link)])
    assert [s.line() for s in report.skipped] == [f"skipped {link}: a symlink; kctui copies real files only"]
    assert report.copied == [] and tree(sources) == before


def test_a_symlink_inside_a_folder_is_one_line_the_rest_is_copied(svc, workspace, base, sources, outside, tmp_path):
    (tmp_path / "secret.md").write_text("secret\n")
    (outside / "sub" / "leak.md").symlink_to(tmp_path / "secret.md")
    (outside / "linked-dir").symlink_to(tmp_path)
    report = ingest_paths(svc, workspace, base.id, [str(outside)])
    assert sorted(s.path for s in report.skipped) == sorted([str(outside / "linked-dir"), str(outside / "sub" / "leak.md")])
    assert all("symlink" in s.reason for s in report.skipped)
    assert set(tree(sources)) == {"kept.md", "a.md", "sub", "sub/b.txt"}


@pytest.mark.parametrize("name", ["../x.md", "notes/../../x.md", "/etc/x.md", "a\0b.md", "", "a//b.md", "./a.md",
                                  "a\\..\\b.md", ".git/config", "x.md.swp"])
def test_a_bad_name_is_one_error_and_writes_nothing(svc, workspace, base, sources, name):
    before, around = tree(sources), tree(sources.parent.parent)
    with pytest.raises(InvalidInput) as exc:
        ingest_content(svc, workspace, base.id, name, b"x\n")
    assert "\n" not in exc.value.message
    assert tree(sources) == before and tree(sources.parent.parent) == around


def test_no_write_goes_through_a_symlinked_folder_in_sources(svc, workspace, base, sources, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (sources / "link").symlink_to(elsewhere)
    with pytest.raises(InvalidInput, match="sources/link is a symlink"):
        ingest_content(svc, workspace, base.id, "link/x.md", b"x\n")
    assert list(elsewhere.iterdir()) == []


def test_oversized_content_and_files(svc, workspace, base, sources, outside, monkeypatch):
    monkeypatch.setattr(source_copy, "MAX_FILE_BYTES", 8)
    monkeypatch.setattr("kctui.services.ingest.MAX_FILE_BYTES", 8)
    before = tree(sources)
    with pytest.raises(TooLarge, match="over the 8-byte limit"):
        ingest_content(svc, workspace, base.id, "big.md", b"123456789")
    assert tree(sources) == before
    report = ingest_paths(svc, workspace, base.id, [str(outside / "a.md")])  # 13 bytes
    assert [s.kind for s in report.skipped] == ["too_large"] and len(report.skipped) == 1
    assert tree(sources) == before


def test_the_base_limits_refuse_the_whole_request(clock, workspace, outside):
    ctx = ServiceContext.open(clock=clock, settings=Settings(max_files=2))
    try:
        _, b = bases.create_base(ctx, workspace, "Small")
        src = paths.sources_path(workspace, b.id)
        (src / "one.md").write_text("1\n")
        with pytest.raises(InvalidInput, match="over the limit of 2 files per knowledge base; nothing was copied"):
            ingest_paths(ctx, workspace, b.id, [str(outside)])  # would make 3
        assert set(tree(src)) == {"one.md"}
    finally:
        ctx.close()


def test_an_existing_name_in_a_folder_copy_is_one_line(svc, workspace, base, sources, tmp_path):
    d = tmp_path / "more"
    d.mkdir()
    (d / "kept.md").write_text("other\n")
    (d / "new.md").write_text("new\n")
    report = ingest_paths(svc, workspace, base.id, [str(d)])
    assert [s.line() for s in report.skipped] == [
        f"skipped {d / 'kept.md'}: sources/kept.md already exists (--replace overwrites it)"]
    assert report.copied == ["new.md"]
    assert (sources / "kept.md").read_text() == "# Kept\n\nAlready here.\n"


def test_a_file_that_vanishes_mid_copy_is_one_line_and_leaves_nothing(svc, workspace, base, sources, outside,
                                                                      monkeypatch):
    real = source_copy.read_source_file

    def vanishing(path, limit=source_copy.MAX_FILE_BYTES):
        if path.endswith("a.md"):
            os.unlink(path)
            raise FileNotFoundError(2, "No such file or directory", path)
        return real(path, limit)

    monkeypatch.setattr(source_copy, "read_source_file", vanishing)
    report = ingest_paths(svc, workspace, base.id, [str(outside)])
    assert [s.line() for s in report.skipped] == [f"skipped {outside / 'a.md'}: it vanished while being copied"]
    assert set(tree(sources)) == {"kept.md", "sub", "sub/b.txt"}  # no half file, no temporary file


def test_a_folder_holding_the_base_is_refused(svc, workspace, base, sources):
    before = tree(sources)
    with pytest.raises(InvalidInput, match="holds the knowledge base itself"):
        ingest_paths(svc, workspace, base.id, [str(workspace)])
    assert tree(sources) == before


def test_kb_create_from_shares_the_rules(svc, workspace, outside, tmp_path):
    (outside / "leak.md").symlink_to(tmp_path)
    lines: list[str] = []
    _, b = bases.create_base(svc, workspace, "Copied", from_paths=[str(outside)], on_skip=lines.append)
    assert lines == [f"skipped {outside / 'leak.md'}: a symlink; kctui copies real files only"]
    assert set(tree(paths.sources_path(workspace, b.id))) == {"a.md", "sub", "sub/b.txt"}


# -- the CLI -----------------------------------------------------------------------------------------


def kctui(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kctui", *args], input=stdin, capture_output=True, timeout=60,
                          env=os.environ.copy())


def test_cli_add_paths_stdin_and_compile(workspace, outside, tmp_path):
    assert kctui("kb", "create", str(workspace), "Cli").returncode == 0
    src = paths.sources_path(workspace, "cli")
    link = tmp_path / "link.md"
    link.symlink_to(outside / "a.md")
    proc = kctui("add", str(workspace), "cli", str(outside), str(link))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().strip() == "added 2 file(s) to cli"
    assert proc.stderr.decode().splitlines() == [f"kctui: skipped {link}: a symlink; kctui copies real files only"]
    again = kctui("add", str(workspace), "cli", str(outside / "a.md"))
    assert again.returncode == 1 and len(again.stderr.decode().splitlines()) == 1
    proc = kctui("add", str(workspace), "cli", "-", "--name", "today.md", "--compile", stdin=b"# Today\n\nNotes.\n")
    assert proc.returncode == 0, proc.stderr
    assert (src / "today.md").read_bytes() == b"# Today\n\nNotes.\n"
    assert "compile" in proc.stdout.decode() and "queued" in proc.stdout.decode()
    bad = kctui("add", str(workspace), "cli", "-", "--name", "../up.md", stdin=b"x")
    assert bad.returncode != 0 and bad.stderr.decode().strip().startswith("kctui: error: name '../up.md'")
    assert len(bad.stderr.decode().strip().splitlines()) == 1
    assert not (workspace / ".a3s" / "kb" / "bases" / "up.md").exists()
    assert kctui("add", str(workspace), "cli", "-", stdin=b"x").returncode != 0  # '-' needs --name


# -- the API -----------------------------------------------------------------------------------------


@pytest.fixture
def make_ctx(clock):
    return lambda: ServiceContext.open(clock=clock, settings=Settings())


async def _client(app, client=("127.0.0.1", 50000)):
    transport = httpx.ASGITransport(app=app, client=client)
    return httpx.AsyncClient(transport=transport, base_url="http://kctui" + PREFIX,
                             headers={"Authorization": f"Bearer {TOKEN}"})


async def test_api_ingest_routes(make_ctx, svc, workspace, base, sources, outside):
    app = create_app(make_ctx, TOKEN, max_body=4096)
    ws = str(workspace)
    async with await _client(app) as c:
        r = await c.post(f"/bases/{base.id}/ingest", json={"workspace": ws, "name": "api.md", "content": "# Api\n"})
        assert r.status_code == 200 and r.json()["data"]["copied"] == ["api.md"]
        assert (sources / "api.md").read_text() == "# Api\n"
        r = await c.post(f"/bases/{base.id}/ingest", json={"workspace": ws, "name": "api.md", "content": "again"})
        assert r.status_code == 409 and "already exists" in r.json()["message"]
        r = await c.post(f"/bases/{base.id}/ingest", json={"workspace": ws, "name": "x.md"})
        assert r.status_code == 400 and "content" in r.json()["message"]
        r = await c.post(f"/bases/{base.id}/ingest", json={"workspace": ws, "name": "../x.md", "content": "x"})
        assert r.status_code == 400
        r = await c.post(f"/bases/{base.id}/ingest", json={"workspace": ws, "name": "big.md", "content": "x" * 5000})
        assert r.status_code == 413
        r = await c.post(f"/bases/{base.id}/ingest-path", json={"workspace": ws, "path": str(outside)})
        assert r.status_code == 200 and r.json()["data"]["copied"] == ["a.md", "sub/b.txt"]
        r = await c.post(f"/bases/{base.id}/ingest-path", json={"workspace": ws, "path": str(outside / "a.md")})
        assert r.status_code == 409
        r = await c.post(f"/bases/{base.id}/ingest-path", json={"workspace": ws})
        assert r.status_code == 400 and "path" in r.json()["message"]
        r = await c.post(f"/bases/{base.id}/ingest-path", json={"workspace": ws, "path": "relative/x"})
        assert r.status_code == 400
    before = tree(sources)
    async with await _client(app, client=("192.0.2.7", 40000)) as c:
        r = await c.post(f"/bases/{base.id}/ingest", json={"workspace": ws, "name": "far.md", "content": "x"})
        assert r.status_code == 403
        r = await c.post(f"/bases/{base.id}/ingest-path", json={"workspace": ws, "path": str(outside)})
        assert r.status_code == 403
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://kctui" + PREFIX) as c:
        r = await c.post(f"/bases/{base.id}/ingest", json={"workspace": ws, "name": "t.md", "content": "x"})
        assert r.status_code == 401
    assert tree(sources) == before
    assert [j for j in jobs.list_jobs(svc) if j.phase == "queued"] == []  # ingest alone compiles nothing


def test_a_name_that_appears_while_copying_is_kept(svc, workspace, base, sources, outside, monkeypatch):
    calls = []

    def someone_writes_first():
        if not calls:
            (sources / "a.md").write_text("written meanwhile\n")
        calls.append(1)

    monkeypatch.setattr(source_copy, "sync_all", someone_writes_first)
    report = ingest_paths(svc, workspace, base.id, [str(outside)])
    assert [s.line() for s in report.skipped] == [f"skipped {outside / 'a.md'}: sources/a.md appeared while "
                                                  "copying; it was kept"]
    assert (sources / "a.md").read_text() == "written meanwhile\n"
    assert report.copied == ["sub/b.txt"] and len(calls) == 2
    assert set(tree(sources)) == {"kept.md", "a.md", "sub", "sub/b.txt"}  # no temporary file left


# -- what the compiler could never read: refused, one line each -------------------------------------


def test_an_empty_or_binary_file_is_one_line_and_copies_nothing(svc, workspace, base, sources, tmp_path):
    (tmp_path / "empty.md").write_bytes(b"")
    (tmp_path / "blank.md").write_bytes(b"  \n\n")
    (tmp_path / "image.bin").write_bytes(b"\x89PNG\x00\x01\x02")
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4\n\x00binary body\n")  # a PDF is read by its own reader
    before = tree(sources)
    report = ingest_paths(svc, workspace, base.id, [str(tmp_path / n) for n in
                                                    ("empty.md", "blank.md", "image.bin", "paper.pdf")])
    assert [s.line() for s in report.skipped] == [
        f"skipped {tmp_path / 'empty.md'}: the file is empty; there is nothing to compile",
        f"skipped {tmp_path / 'blank.md'}: the file is empty; there is nothing to compile",
        f"skipped {tmp_path / 'image.bin'}: a binary file (a NUL byte in its first 8 KiB); sources are text, "
        "Markdown, HTML or PDF"]
    assert report.copied == ["paper.pdf"] and set(tree(sources)) == set(before) | {"paper.pdf"}


@pytest.mark.parametrize("content", [b"", b"\x00\x01random"])
def test_empty_or_binary_content_is_refused(svc, workspace, base, sources, content):
    before = tree(sources)
    with pytest.raises(InvalidInput, match="^notes/x.md: .*; nothing was written$"):
        ingest_content(svc, workspace, base.id, "notes/x.md", content)
    assert tree(sources) == before


def test_cli_add_of_a_binary_file_is_one_line_and_fails(workspace, tmp_path):
    assert kctui("kb", "create", str(workspace), "Bin").returncode == 0
    (tmp_path / "image.bin").write_bytes(b"\x00\x01\x02abc")
    proc = kctui("add", str(workspace), "bin", str(tmp_path / "image.bin"))
    assert proc.returncode == 1
    assert proc.stderr.decode().splitlines() == [f"kctui: skipped {tmp_path / 'image.bin'}: a binary file (a NUL "
                                                 "byte in its first 8 KiB); sources are text, Markdown, HTML or PDF"]
    assert not (paths.sources_path(workspace, "bin") / "image.bin").exists()


def test_the_copy_rule_is_the_readers_rule():
    from kctui.compiler.readers import SNIFF_BYTES

    assert source_copy.SNIFF_BYTES == SNIFF_BYTES
