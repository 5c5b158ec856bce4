"""Issue 15 acceptance: `kctui mcp` started as a subprocess and driven with the official SDK's stdio
client, on the demo workspace (its one real disagreement is the conflict to resolve): the tool list, a
compile, listing and reading pages, a conflict resolved with a stale and then the right
expected_revision, an agent's append (recorded as the agent's), a refused supersede and a refused
revise of a human-confirmed page, the brief, and a policy change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp")
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

KB = "demo-notes"
TOOLS = {"compile_knowledge_base", "list_knowledge_pages", "get_knowledge_page", "update_knowledge_page",
         "list_conflicts", "resolve_conflict", "get_change_brief", "set_compile_policy", "search_knowledge",
         "get_context", "ask", "undo_review_decision"}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("KCTUI_")},
            "KCTUI_STATE_DIR": str(tmp_path / "state"), "KCTUI_CONFIG_DIR": str(tmp_path / "config"),
            "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def _cli(env: dict[str, str], *args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "kctui", *args], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_an_agent_drives_the_knowledge_tools_over_mcp(env: dict[str, str], tmp_path: Path) -> None:
    ws = (tmp_path / "demo")
    _cli(env, "demo", "--dir", str(ws), "--no-tui")
    ws = ws.resolve()
    sources = ws / ".a3s" / "kb" / "bases" / KB / "sources"
    wiki = ws / ".a3s" / "kb" / "bases" / KB / "wiki"
    (sources / "billing.md").write_text("# Billing API\n\nThe billing-api service handles invoices.\n\n"
                                        "The on-call engineer for billing-api is Lena Vogel.\n", encoding="utf-8")
    anyio.run(_drive, env, ws, wiki)
    history = json.loads(_cli(env, "page", "history", str(ws), KB, "sqlite", "--json"))["items"]
    assert history[-1]["author"] == "agent:tester"  # the agent's edit is recorded as the agent's
    policy = json.loads(_cli(env, "kb", "policy", str(ws), KB, "--json"))
    assert policy["autonomy"] == "auto" and policy["staleDays"] == 30


async def _drive(env: dict[str, str], ws: Path, wiki: Path) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "kctui", "mcp", str(ws), "--agent", "tester"],
                                   env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        listed = (await s.list_tools()).tools
        assert {t.name for t in listed} == TOOLS
        assert all(t.output_schema and t.input_schema.get("properties") for t in listed)

        async def call(name: str, **args):
            r = await s.call_tool(name, args)
            assert r.content and r.content[0].type == "text" and r.content[0].text  # every result also as text
            return r

        async def ok(name: str, **args) -> dict:
            r = await call(name, **args)
            assert not r.is_error, r.content[0].text
            return r.structured_content

        async def refused(name: str, code: str, **args) -> str:
            r = await call(name, **args)
            assert r.is_error and r.content[0].text.startswith(f"[{code}] "), r.content[0].text  # (QA s30 #11)
            return r.content[0].text

        # a dry run previews the pass and publishes nothing; a real pass returns its brief
        preview = await ok("compile_knowledge_base", knowledge_base=KB, dry_run=True)
        assert preview["changed"] is False and preview["jobId"].startswith("dry-run-") and "billing.md" in preview["brief"]
        done = await ok("compile_knowledge_base", knowledge_base=KB)
        assert done["phase"] == "succeeded" and done["jobId"] and "billing.md" in done["brief"]

        pages = await ok("list_knowledge_pages", knowledge_base=KB)
        paths = {p["page"] for p in pages["items"]}
        assert {"sources/billing-md.md", "entities/python.md", "entities/sqlite.md"} <= paths
        assert pages["total"] == len(pages["items"]) == len(list(wiki.glob("*/*.md")))
        entities = await ok("list_knowledge_pages", knowledge_base=KB, page_class="entity")
        assert entities["items"] and all(p["pageClass"] == "entity" for p in entities["items"])
        contradicted = await ok("list_knowledge_pages", knowledge_base=KB, status="contradicted")
        assert [p["page"] for p in contradicted["items"]] == ["entities/python.md"]

        # an argument error is one [invalid_input] line naming the arguments, not pydantic's report (QA s30 #11)
        wrong = await refused("get_knowledge_page", "invalid_input", knowledge_base=KB, slug="sqlite")
        assert wrong == ("[invalid_input] get_knowledge_page: unknown argument 'slug'; argument 'page' is required; "
                         "get_knowledge_page takes knowledge_base, page, workspace")
        page = await ok("get_knowledge_page", knowledge_base=KB, page="sqlite")
        assert page["claims"] and all(c["citation"] for c in page["claims"])
        assert page["revisions"] and page["revision"] == page["revisions"][-1]["revision"]

        # the demo's disagreement: a stale revision changes nothing, the right one records the decision
        conflicts = await ok("list_conflicts", knowledge_base=KB, kind="conflict")
        [item] = conflicts["items"]
        assert item["page"] == "entities/python.md" and item["decisions"] == ["use-new", "keep", "dismiss"]
        before = (wiki / "entities" / "python.md").read_bytes()
        approve = await refused("resolve_conflict", "invalid_input", item_id=item["id"], decision="approve",
                                expected_revision=item["expectedRevision"])
        assert "decision='use-new' | 'keep' | 'dismiss'" in approve and "--" not in approve
        await refused("resolve_conflict", "conflict", item_id=item["id"], decision="keep",
                      expected_revision=item["expectedRevision"] - 1 if item["expectedRevision"] > 1 else 99)
        assert (wiki / "entities" / "python.md").read_bytes() == before
        fresh = (await ok("list_conflicts", knowledge_base=KB, kind="conflict"))["items"][0]
        # the agent records the person's decision: it confirms the page (the agent's own would not)
        decided = await ok("resolve_conflict", item_id=fresh["id"], decision="keep",
                           expected_revision=fresh["expectedRevision"], reviewer="human:ada")
        assert decided["state"] == "resolved_keep"
        python = await ok("get_knowledge_page", knowledge_base=KB, page="python")
        assert python["humanConfirmed"] and python["compileStatus"] == "confirmed"

        # an agent appends a cited statement; supersede and a revise of a confirmed page are refused
        added = await ok("update_knowledge_page", knowledge_base=KB, page="sqlite", operation="append",
                         text="WAL mode appeared in SQLite 3.7.0", citation="sqlite-wal.md:L12-L12", value="3.7.0")
        assert added["author"] == "agent:tester" and added["revision"] == page["revision"] + 1
        assert "WAL mode appeared in SQLite 3.7.0" in (wiki / "entities" / "sqlite.md").read_text(encoding="utf-8")
        await refused("update_knowledge_page", "invalid_input", knowledge_base=KB, page="sqlite", operation="append",
                      text="WAL came in 9.9", citation="sqlite-wal.md:L12-L12", value="9.9")
        await refused("update_knowledge_page", "supersede", knowledge_base=KB, page="sqlite", operation="supersede",
                      text="replace it all")
        before = (wiki / "entities" / "python.md").read_bytes()
        await refused("update_knowledge_page", "human_confirmed", knowledge_base=KB, page="python",
                      operation="revise", section="Notes", text="rewritten by an agent")
        assert (wiki / "entities" / "python.md").read_bytes() == before
        await ok("update_knowledge_page", knowledge_base=KB, page="python", operation="append", kind="note",
                 text="checked against the release calendar")

        brief = await ok("get_change_brief", knowledge_base=KB)
        assert brief["jobId"] == done["jobId"] and brief["markdown"].startswith("# Change brief")
        policy = await ok("set_compile_policy", knowledge_base=KB, autonomy="auto", stale_days=30)
        assert policy["changed"] and policy["policy"]["autonomy"] == "auto"
        await refused("set_compile_policy", "invalid_input", knowledge_base=KB, never_auto=["nonsense"])

        found = await ok("search_knowledge", knowledge_base=KB, query="write-ahead log")
        assert found["items"]
        packet = await ok("get_context", knowledge_base=KB, query="SQLite WAL", budget=2048)
        assert packet["bytes"] <= 2048 and packet["packet"]["items"]
        answer = await ok("ask", knowledge_base=KB, question="What is the SQLite write-ahead log?")
        assert answer["mode"] == "extractive" and answer["answer"] and answer["citations"]
        assert set(answer) >= {"question", "answer", "mode", "citations", "flags", "packet_bytes", "model", "usage", "kept"}
        await refused("get_knowledge_page", "not_found", knowledge_base=KB, page="no-such-page")
