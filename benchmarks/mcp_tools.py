"""Benchmark: MCP tool-call latency of `kctui mcp` beside the same server's `tools/list` round trip.

    python benchmarks/mcp_tools.py             # 200 timed calls per tool
    python benchmarks/mcp_tools.py -n 50       # a quicker run

`kctui mcp` runs as a subprocess on the demo workspace (made with `kctui demo --no-tui` in a temporary
state directory) and is driven with the official SDK's stdio client, one session. Each call is timed
from send to the parsed result (`time.perf_counter_ns`). The anchor is `tools/list` on the same
session: what stdio, JSON-RPC, the SDK and a thread hop cost anyway, no service work. Measured, in
alternating blocks so background load falls on all alike:

list_pages     `list_knowledge_pages` (the search index read, every page of the base);
get_page       `get_knowledge_page` for one entity page (index row, revisions, body);
get_context    `get_context` with a 4 KB budget (FTS query, packet building);
append         `update_knowledge_page` appending a note (classify_update, one page promotion with
               fsyncs, its revision, in one BEGIN IMMEDIATE transaction); the page grows by one note
               per call, so later calls parse and write a larger page.

Printed: p50 and p99 in milliseconds and each tool's ratio to the anchor.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


async def _run(n: int, block: int, env: dict[str, str], ws: Path) -> dict[str, list[float]]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "kctui", "mcp", str(ws)], env=env)
    times: dict[str, list[float]] = {k: [] for k in ("tools/list", "list_pages", "get_page", "get_context", "append")}
    kb = "demo-notes"
    calls = {
        "list_pages": ("list_knowledge_pages", {"knowledge_base": kb}),
        "get_page": ("get_knowledge_page", {"knowledge_base": kb, "page": "sqlite"}),
        "get_context": ("get_context", {"knowledge_base": kb, "query": "SQLite WAL checkpoint", "budget": 4096}),
        "append": ("update_knowledge_page", {"knowledge_base": kb, "page": "tmux", "operation": "append",
                                             "kind": "note", "text": "benchmark note"}),
    }
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        for name, args in calls.values():  # warm-up: imports, the search index
            r = await s.call_tool(name, args)
            assert not r.is_error, r.content[0].text
        done = 0
        while done < n:
            k = min(block, n - done)
            for _ in range(k):
                t = time.perf_counter_ns()
                await s.list_tools()
                times["tools/list"].append((time.perf_counter_ns() - t) / 1e6)
            for key, (name, args) in calls.items():
                for _ in range(k):
                    t = time.perf_counter_ns()
                    r = await s.call_tool(name, args)
                    times[key].append((time.perf_counter_ns() - t) / 1e6)
                    assert not r.is_error, r.content[0].text
            done += k
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=200, help="timed calls per tool")
    ap.add_argument("--block", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="kctui-mcp-bench-") as tmp:
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("KCTUI_")},
               "KCTUI_STATE_DIR": f"{tmp}/state", "KCTUI_CONFIG_DIR": f"{tmp}/config", "PYTHONPATH": str(ROOT)}
        ws = Path(tmp) / "demo"
        subprocess.run([sys.executable, "-m", "kctui", "demo", "--dir", str(ws), "--no-tui"], env=env, check=True,
                       capture_output=True, timeout=300)
        times = asyncio.run(_run(args.n, args.block, env, ws.resolve()))
    anchor50, anchor99 = _pct(times["tools/list"], 0.5), _pct(times["tools/list"], 0.99)
    print(f"{'call':<12} {'p50 ms':>8} {'p99 ms':>8} {'p50 ×':>7} {'p99 ×':>7}  (n={args.n}, anchor: tools/list)")
    for key, vals in times.items():
        p50, p99 = _pct(vals, 0.5), _pct(vals, 0.99)
        print(f"{key:<12} {p50:8.2f} {p99:8.2f} {p50 / anchor50:7.2f} {p99 / anchor99:7.2f}")
    print(f"mean append {statistics.fmean(times['append']):.2f} ms")


if __name__ == "__main__":
    main()
