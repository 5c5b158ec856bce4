"""Benchmark: search over the endoflife wiki, beside `rg` (or `grep -ri`) over the same wiki files.

    python benchmarks/search.py                    # the whole 2026 folder, 40 runs per query
    python benchmarks/search.py --runs 100
    python benchmarks/search.py --corpus /path/to/shared/corpus

Once, in a temporary state directory: create a knowledge base from the endoflife 2026 products folder
and compile it through the real host path (request_compile + the built-in worker). Then:
  index build    the first query's refresh: every page read, parsed and indexed (cold)
  search         `services.search.search(…, limit=10)` per query: the whole use case, including the
                 generation check before each query, ranking, snippets and claim selection
  context        `services.search.context(…, budget=16 KiB)` per query (JSON packet)
  baseline       `rg -i -l -F -e term …` (or `grep -r -i -l -F`) over the same wiki folder, the same
                 terms, as a subprocess, the way a person would run it
  incremental    one source changed and recompiled: the refresh that follows (pages touched, time)
Printed per query and overall: p50 and p99 latency in ms, and the ratio search / baseline.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"

QUERIES = (
    "django 4.2 end of life",
    "kubernetes eol",
    "debian 12 release date",
    "aws lambda python 3.12",
    "angular lts",
    "amazon eks 1.30",
    "alpine linux latest",
    "elasticsearch support",
    "ansible-core python",
    "apache kafka latest",
    "azure kubernetes service",
    "bellsoft liberica jdk 21",
    "end of extended support",
    "firefox esr",
    "go 1.22",
    "jira software",
)


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def baseline_cmd(terms: list[str], wiki: Path) -> list[str]:
    rg = shutil.which("rg")
    pats = [x for t in terms for x in ("-e", t)]
    if rg:
        return [rg, "-i", "-l", "-F", "--no-messages", *pats, str(wiki)]
    return ["grep", "-r", "-i", "-l", "-F", *pats, str(wiki)]


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    products = args.corpus / "endoflife" / "2026-08-22" / "products"
    if not products.is_dir():
        sys.exit(f"the endoflife corpus is not at {products}")
    tmp = Path(tempfile.mkdtemp(prefix="kctui-search-bench-"))
    os.environ["KCTUI_STATE_DIR"] = str(tmp / "state")
    os.environ["KCTUI_CONFIG_DIR"] = str(tmp / "config")
    sys.path.insert(0, str(ROOT))
    from kctui import paths
    from kctui.services import bases, jobs
    from kctui.services import search as svc
    from kctui.services.context import ServiceContext
    from kctui.services.local_transport import LocalTransport
    from kctui.services.worker import run_worker

    def compile_now() -> float:
        t0 = time.perf_counter()
        jobs.request_compile(ctx, ws, kb)
        outcomes = run_worker(LocalTransport(ctx), stop_event=threading.Event(), once=True)
        assert [o.result for o in outcomes] == ["succeeded"], outcomes
        return time.perf_counter() - t0

    try:
        ws = tmp / "ws"
        ws.mkdir()
        ctx = ServiceContext.open()
        _, base = bases.create_base(ctx, ws, "Endoflife", from_paths=[str(products)])
        kb = base.id
        compile_s = compile_now()
        wiki = paths.wiki_path(ws, kb)
        pages = [p for p in wiki.rglob("*.md") if p.name not in ("index.md", "log.md")]
        mb = sum(p.stat().st_size for p in pages) / 1e6
        print(f"endoflife 2026: {sum(1 for _ in products.iterdir())} sources -> {len(pages)} pages, {mb:.1f} MB "
              f"(compiled in {compile_s:.1f} s)")
        t0 = time.perf_counter()
        stats = svc.refresh(ctx, ws, kb)
        build_s = time.perf_counter() - t0
        index_mb = (tmp / "state" / "search.sqlite3").stat().st_size / 1e6
        print(f"index build (cold): {build_s * 1000:.0f} ms for {stats.added} pages; index file {index_mb:.1f} MB")
        check = timed(lambda: svc.refresh(ctx, ws, kb), args.runs)
        print(f"generation check before each query (nothing changed): p50 {pct(check, .5):.2f} ms")
        tool = "rg" if shutil.which("rg") else "grep -ri"
        print(f"\n{'query':<28} {'search p50/p99':>16} {'context p50/p99':>17} {tool + ' p50/p99':>18} {'ratio p50':>10}")
        all_s: list[float] = []
        all_c: list[float] = []
        all_b: list[float] = []
        for q in QUERIES:
            top = svc.search(ctx, ws, kb, q, limit=10)
            s = timed(lambda q=q: svc.search(ctx, ws, kb, q, limit=10), args.runs)
            c = timed(lambda q=q: svc.context(ctx, ws, kb, q, budget=16_384), args.runs)
            cmd = baseline_cmd(q.split(), wiki)
            b = timed(lambda cmd=cmd: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                     check=False), args.runs)
            all_s += s
            all_c += c
            all_b += b
            first = top["items"][0]["title"] if top["items"] else "—"
            print(f"{q:<28} {pct(s, .5):>7.2f}/{pct(s, .99):<7.2f} {pct(c, .5):>8.2f}/{pct(c, .99):<7.2f} "
                  f"{pct(b, .5):>8.2f}/{pct(b, .99):<8.2f} {pct(s, .5) / pct(b, .5):>9.2f}x   first: {first}")
        print(f"\n{'all queries':<28} {pct(all_s, .5):>7.2f}/{pct(all_s, .99):<7.2f} {pct(all_c, .5):>8.2f}/"
              f"{pct(all_c, .99):<7.2f} {pct(all_b, .5):>8.2f}/{pct(all_b, .99):<8.2f}")
        print(f"ratio search/{tool}: p50 {pct(all_s, .5) / pct(all_b, .5):.2f}x, p99 {pct(all_s, .99) / pct(all_b, .99):.2f}x"
              f"  (context/{tool}: p50 {pct(all_c, .5) / pct(all_b, .5):.2f}x, p99 {pct(all_c, .99) / pct(all_b, .99):.2f}x)")
        print(f"(mean search {statistics.fmean(all_s):.2f} ms over {len(all_s)} runs)")

        src = paths.sources_path(ws, kb) / "django.md"
        src.write_text(src.read_text(encoding="utf-8") + "\nDjango is maintained by the Django Software Foundation.\n",
                       encoding="utf-8")
        recompile_s = compile_now()
        t0 = time.perf_counter()
        inc = svc.refresh(ctx, ws, kb)
        inc_ms = (time.perf_counter() - t0) * 1000
        print(f"\nincremental: one source changed, recompiled in {recompile_s:.1f} s; refresh {inc_ms:.0f} ms — "
              f"{inc.updated} updated, {inc.added} added, {inc.removed} removed, {inc.unchanged} untouched")
        ctx.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
