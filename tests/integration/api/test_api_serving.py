"""`kctui serve` (`serve()` / `run_serve`, in a thread or a subprocess with its own clock): loopback only,
the token file, the built-in worker and `kctui worker` against it, and stopping within the budget."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from kctui import paths
from kctui.api.client import HttpTransport, run_worker_cli
from kctui.api.serve import ServeError, check_loopback_host, serve
from kctui.api.server import PREFIX
from kctui.api.token import TokenError, load_or_create_token, read_token
from kctui.services import jobs as jobs_svc
from kctui.services.context import ServiceContext
from tests.integration.api.support import already_set, compile_base, data, new_base, serving, summary, wait_phase

# -- serving: loopback only, token file, lifecycle --------------------------------------------------


def test_non_loopback_bind_is_refused(state: Path) -> None:
    for host in ("0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "127.0.0.1.example.com"):
        with pytest.raises(ServeError, match="loopback only"):
            check_loopback_host(host)
    for host in ("127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"):
        check_loopback_host(host)
    said: list[str] = []
    assert serve("0.0.0.0", 0, worker=False, echo=said.append) == 2
    assert "loopback only" in said[0] and not paths.host_lock_file().exists()
    assert not paths.api_token_file().exists()
    with socket.socket() as busy:  # a port in use: a clear error, and the lock is released again
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert serve("127.0.0.1", port, worker=False, echo=said.append) == 1
    assert "cannot listen on 127.0.0.1" in said[-1]
    assert serve("127.0.0.1", port, worker=False, echo=said.append, stop_event=already_set()) == 0


def test_token_file_is_0600_and_refused_when_others_can_read_it(state: Path, tmp_path: Path) -> None:
    token = load_or_create_token()
    f = paths.api_token_file()
    assert (os.stat(f).st_mode & 0o777) == 0o600 and len(token) >= 43
    assert load_or_create_token() == token == read_token(f)
    os.chmod(f, 0o640)
    with pytest.raises(TokenError, match="readable by other users"):
        read_token()
    with pytest.raises(TokenError, match="readable by other users"):
        load_or_create_token()  # never silently replaced or used
    os.chmod(f, 0o600)
    link = tmp_path / "link-token"
    link.symlink_to(f)
    with pytest.raises(TokenError, match="symlink"):
        read_token(link)
    with pytest.raises(TokenError, match="no API token file"):
        read_token(tmp_path / "absent")


def test_serve_with_builtin_worker_compiles_and_holds_the_lock(state: Path, ws: str) -> None:
    with serving(worker=True) as (url, c):
        kb = new_base(c, ws, "Built in", {"one.md": "# One\n", "two.txt": "two\n"})
        compile_base(c, ws, kb["id"])
        s = wait_phase(c, ws, kb["id"], {"succeeded", "failed"})
        assert s["phase"] == "succeeded", s
        assert (Path(kb["knowledgeBasePath"]) / "wiki/index.md").is_file()
        said: list[str] = []
        assert serve("127.0.0.1", 0, echo=said.append) == 1
        assert "another kctui host" in said[0]
    assert (os.stat(paths.api_token_file()).st_mode & 0o777) == 0o600


def test_stopping_the_host_reports_the_running_builtin_job_for_retry(state, ws, monkeypatch) -> None:
    from kctui.compiler.runner import CompileCancelled
    from kctui.services import worker as worker_mod

    started = threading.Event()

    def endless(request, *, progress=None, should_stop):
        started.set()
        while True:
            if should_stop():
                raise CompileCancelled()
            time.sleep(0.01)

    monkeypatch.setattr(worker_mod, "compile_job", endless)
    with serving(worker=True) as (url, c):
        kb = new_base(c, ws, "Interrupted")
        job_id = compile_base(c, ws, kb["id"])["job"]["id"]
        assert started.wait(10)
        assert summary(c, ws, kb["id"])["phase"] == "running"
    # `serving` checked that the host stopped within the 2 s budget
    ctx = ServiceContext.open()
    try:
        job = jobs_svc.get_job(ctx, job_id)
        assert (job.phase, job.error_code, bool(job.transient)) == ("failed", "compiler_crashed", True)
        assert [j.trigger for j in jobs_svc.list_jobs(ctx) if j.phase == "queued"] == ["retry"]
        assert not [j for j in jobs_svc.list_jobs(ctx) if j.phase == "running"]
    finally:
        ctx.close()


def test_kctui_worker_compiles_the_demo_base_against_serve_no_worker(state: Path, ws: str) -> None:
    demo = sorted(str(p) for p in (Path(paths.__file__).parent / "demo_sources").iterdir() if p.is_file())
    with serving(worker=False) as (url, c):
        made = data(c.post("/bases", json={"workspace": ws, "name": "Demo notes", "paths": demo}))
        kb = made["knowledgeBase"]
        assert sorted(p.name for p in Path(kb["sourcePath"]).iterdir()) == sorted(Path(p).name for p in demo)
        assert run_worker_cli(url, None, once=True) == 0  # nothing queued: exits at once
        job = compile_base(c, ws, kb["id"])["job"]
        time.sleep(0.3)
        assert summary(c, ws, kb["id"])["phase"] == "queued"  # --no-worker: nobody else claims
        assert run_worker_cli(url, str(paths.api_token_file()), once=True) == 0
        s = summary(c, ws, kb["id"])
        assert s["phase"] == "succeeded" and s["lastCompiledDigest"] == job["sourceDigest"]
        final = data(c.get(f"/bases/{kb['id']}/compilations/{job['id']}", params={"workspace": ws}))
        assert final["phase"] == "succeeded" and final["claimedBy"] == "external"
        wiki = Path(kb["knowledgeBasePath"]) / "wiki"
        assert (wiki / "index.md").is_file() and len(list(wiki.rglob("*.md"))) > len(demo)
        ctx = ServiceContext.open()
        try:
            assert not [j for j in jobs_svc.list_jobs(ctx) if j.phase in ("queued", "running")]
        finally:
            ctx.close()


def test_kctui_worker_compiles_under_the_bases_policy_not_the_default(state: Path, ws: str) -> None:
    """Issue 5: a remote `kctui worker --url` reads the base's policy from the claim's compileOptions;
    under `--autonomy suggest` nothing is written unattended: every update is held for review."""
    from click.testing import CliRunner

    from kctui.cli import main
    from kctui.services import review as review_svc

    with serving(worker=False) as (url, c):
        kb = new_base(c, ws, "Careful notes", {"alpha.md": "# Alpha\n\nAlpha is a service.\n\nPort: 8080\n",
                                               "beta.txt": "Beta runs on Alpha.\n"})
        out = CliRunner().invoke(main, ["kb", "policy", ws, kb["id"], "--autonomy", "suggest",
                                        "--link-style", "markdown"])
        assert out.exit_code == 0, out.output
        job = compile_base(c, ws, kb["id"])["job"]
        seen: list[dict[str, Any]] = []
        real_claim = HttpTransport.claim

        def spy(self: HttpTransport) -> dict[str, Any]:
            answer = real_claim(self)
            seen.append(answer)
            return answer

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(HttpTransport, "claim", spy)
            assert run_worker_cli(url, str(paths.api_token_file()), once=True) == 0
        assert seen and seen[0]["claimed"] and seen[0]["compileOptions"]["trustPolicy"]["autonomy"] == "suggest"
        assert seen[0]["compileOptions"]["linkStyle"] == "markdown"
        s = summary(c, ws, kb["id"])
        assert s["phase"] == "succeeded" and s["lastCompiledDigest"] == job["sourceDigest"]
        wiki = Path(kb["knowledgeBasePath"]) / "wiki"
        sources = sorted((wiki / "sources").glob("*.md"))
        assert sources
        for page in sources:  # held creates: stubs awaiting review, none of the compiled content
            text = page.read_text(encoding="utf-8")
            assert "compile_status: needs-review" in text and "8080" not in text, page.name
        ctx = ServiceContext.open()
        try:
            items = review_svc.list_items(ctx, ws, kb_id=kb["id"])
        finally:
            ctx.close()
        assert items and {i.reason for i in items} == {"autonomy_ceiling"}
        assert {p.page_path for i in items for p in i.page_list} >= {f"sources/{p.name}" for p in sources}


def test_http_transport_compile_options_reads_the_claim_extension() -> None:
    claim = {"compileOptions": {"trustPolicy": {"autonomy": "auto"}, "linkStyle": "markdown", "extractor": "llm"}}
    assert HttpTransport.compile_options(claim) == {"trust_policy": {"autonomy": "auto"}, "link_style": "markdown",
                                                    "extractor": "llm"}
    assert HttpTransport.compile_options({}) == {}  # another host: the defaults (guarded policy)
    assert HttpTransport.compile_options({"compileOptions": "x"}) == {}
    assert HttpTransport.compile_options({"compileOptions": {"linkStyle": "odd", "extractor": 3}}) == {}


def test_worker_refuses_a_non_loopback_url_and_a_loose_token_file(state: Path, tmp_path: Path, capsys) -> None:
    assert run_worker_cli("http://192.168.1.2:8765", None, once=True) == 2
    loose = tmp_path / "tok"
    loose.write_text("t" * 43)
    os.chmod(loose, 0o644)
    assert run_worker_cli("http://127.0.0.1:9", str(loose), once=True) == 1
    os.chmod(loose, 0o600)
    assert run_worker_cli("http://127.0.0.1:9", str(loose), once=True) == 1  # nothing listens on port 9
    err = capsys.readouterr().err
    assert "not a loopback address" in err and "readable by other users" in err
    assert "cannot reach the host" in err


def test_serve_stops_on_sigterm_within_two_seconds(state: Path) -> None:
    code = "import sys; from kctui.api.serve import run_serve; sys.exit(run_serve('127.0.0.1', 0, False))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ})
    try:
        line = proc.stdout.readline().strip()
        assert re.fullmatch(r"kctui host listening on http://127\.0\.0\.1:\d+", line), (line, proc.stderr.read())
        url = line.rsplit(" ", 1)[1]
        r = httpx.get(url + PREFIX + "/bases", headers={"Authorization": f"Bearer {read_token()}"}, trust_env=False)
        assert r.status_code == 200
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(5) == 0
        assert time.monotonic() - t0 < 2.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
