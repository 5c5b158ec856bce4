"""Benchmark: the app's keystroke → updated-screen latency and resident memory, with a big store
(10,000 jobs and 5,000 open review items, inserted directly with SQL for speed) beside the same
measurements on an empty store (the same bases, no jobs, no review items).

    python benchmarks/tui.py                    # 40 samples of each key in each store
    python benchmarks/tui.py --samples 100
    python benchmarks/tui.py --jobs 20000 --items 10000

Each store runs in a fresh child process (so each RSS is that store's own). The app runs headless
under Pilot at 120×36 with no embedded host and a fake clock. A keystroke's latency is the time from
the press to the first screen update (the compositor's update, rendered to terminal segments) that
shows its effect:

  j         move the cursor in the bases table (the selected-base line follows)
  j jobs    move the cursor in the jobs table; the Running and Brief panes load that job
  pane      switch pane (1 → 3 → 2 → 4 → 1 …)
  c         compile the selected base: the request runs in a thread worker, then the poll, then the
            new queued job's row appears (each sample's job is cancelled afterwards, untimed)

Printed: p50 / p95 / max in ms per key and store, the resident memory after the run and the peak (from
/proc/self/status), and the big/empty ratios. Goals (issue 6): p95 ≤ 50 ms and RSS ≤ 200 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
US = 1_000_000
# benchmarks/queue.py would shadow the standard library's `queue` (Textual's writer thread imports it)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]


def rss_mb() -> tuple[float, float]:
    fields = {}
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            k, _, v = line.partition(":")
            fields[k] = v.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def build_store(svc, clock, root: Path, n_jobs: int, n_items: int) -> Path:
    from kctui import paths
    from kctui.services import bases

    ws = root / "ws"
    ws.mkdir()
    ids = []
    for i in range(12):
        _, b = bases.create_base(svc, ws, f"Base {i:02d}")
        src = paths.sources_path(ws, b.id)
        for k in range(5):
            (src / f"note{k}.md").write_text(f"# Note {k}\n\nline {i} {k}\n", encoding="utf-8")
        ids.append(b.id)
    wss = str(ws.resolve())
    rnd = random.Random(6)
    now = clock.now_us()
    with svc.store.write() as conn:
        rows = []
        for n in range(n_jobs):
            created = now - (n_jobs - n) * 60 * US
            phase = rnd.choices(["succeeded", "failed", "cancelled"], [85, 10, 5])[0]
            rows.append((f"job-{created}-{n + 1}", wss, ids[n % len(ids)], rnd.choice(["manual", "smart_auto"]), 0,
                         phase, "sha256:" + "0" * 64, created, created + US, created + 9 * US,
                         "the compiler reported a failure" if phase == "failed" else None,
                         "compiler_reported" if phase == "failed" else None))
        conn.executemany("INSERT INTO jobs(id, workspace, base_id, trigger, priority, phase, source_digest, created_at, "
                         "started_at, completed_at, error, error_code) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        conn.execute("INSERT OR REPLACE INTO sequences(name, value) VALUES ('job', ?)", (n_jobs + 1,))
        body = "---\ntitle: Page\n---\n\n# Page\n\n" + "- a fact about something: 42 ^[a.md:L1-L1]\n" * 20
        items = []
        for n in range(n_items):
            kind = "held" if n % 2 else "conflict"
            details = {} if kind == "held" else {
                "existing": {"value": "1000", "citation": "note1.md:L3-L3", "source": "note1.md"},
                "incoming": {"value": "500", "citation": "note2.md:L3-L3", "source": "note2.md"}}
            items.append((wss, ids[n % len(ids)], rows[n % max(1, len(rows))][0] if rows else "job-0-0", kind,
                          f"concepts/page{n}.md", f"page{n}", f"Page {n}", "revise" if kind == "held" else None,
                          "autonomy_ceiling" if kind == "held" else "contradiction", f"summary {n}", body,
                          json.dumps(details), 1, now))
        conn.executemany("INSERT INTO review_items(workspace, base_id, job_id, kind, page_path, slug, title, "
                         "update_kind, reason, summary, proposed_body, details_json, expected_revision, created_at) "
                         "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", items)
        for r in rows[-200:]:
            conn.execute("INSERT INTO briefs(job_id, workspace, base_id, markdown, created_at) VALUES (?,?,?,?,?)",
                         (r[0], wss, r[2], f"# Brief {r[0]}\n\n" + "- page updated\n" * 30, r[7]))
    return ws


async def measure(app, svc, ws: Path, samples: int) -> dict[str, list[float]]:
    from textual import events
    from textual._compositor import CompositorUpdate

    from kctui.services import jobs

    shown: list[float] = []  # when a screen update showed the awaited change
    waiting: list = []  # the condition being awaited, if any
    original = app._display

    def display(screen, renderable):
        original(screen, renderable)
        if renderable is not None:
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)
            if waiting and waiting[0]():
                shown.append(time.perf_counter())
                waiting.clear()

    app._display = display
    out: dict[str, list[float]] = {"j": [], "j jobs": [], "pane": [], "c": []}

    async def idle(pilot):
        for _ in range(2000):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.is_idle():
                return
        raise RuntimeError("the app did not settle")

    def send(key: str) -> None:
        """The key as the terminal driver delivers it (what Pilot.press does, without its idle waits,
        which sleep until the process looks idle and would dominate the measurement)."""
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app._driver.send_message(event)

    async def timed(pilot, key: str, done) -> float:
        shown.clear()
        waiting[:] = [done]
        t0 = time.perf_counter()
        send(key)
        while time.perf_counter() < t0 + 10:
            if shown:
                return (shown[0] - t0) * 1000
            await asyncio.sleep(0.0005)
        raise RuntimeError(f"{key}: the screen never showed the change")

    async with app.run_test(size=(120, 36)) as pilot:
        await idle(pilot)
        main = app.main
        for _ in range(50):
            if main.snapshot.bases:
                break
            await pilot.pause(0.05)
        # j in the bases table
        await pilot.press("1")
        await idle(pilot)
        for i in range(samples):
            key = "j" if (i // 10) % 2 == 0 else "k"
            before = main.queue.bases.cursor_row
            out["j"].append(await timed(pilot, key, lambda b=before: main.queue.bases.cursor_row != b))
            await idle(pilot)
        # j in the jobs table: the detail panes load the job
        await pilot.press("tab")
        await idle(pilot)
        for i in range(samples if main.queue.jobs.row_count > 1 else 0):  # the empty store has no jobs
            key = "j" if (i // 10) % 2 == 0 else "k"
            before = main.queue.jobs.cursor_key
            out["j jobs"].append(await timed(
                pilot, key, lambda b=before: main.queue.jobs.cursor_key != b and main.snapshot.detail is not None
                and main.snapshot.detail.job.id == main.queue.jobs.cursor_key and main.shown_job() is not None))
            await idle(pilot)
        # pane switches
        order = ["3", "2", "4", "1"]
        for i in range(samples):
            key = order[i % 4]
            target = {"1": "queue", "2": "running", "3": "review", "4": "brief"}[key]
            out["pane"].append(await timed(pilot, key, lambda t=target: main.active == t))
            await idle(pilot)
        # c on a base, then cancel the job it queued (untimed)
        await pilot.press("1")
        await idle(pilot)
        for _ in range(samples):
            base = main.selected_base()
            known = set(main.queue.jobs.keys())
            out["c"].append(await timed(pilot, "c", lambda seen=known: any(
                k not in seen for k in main.queue.jobs.keys())))
            await idle(pilot)
            for j in jobs.list_jobs(svc, kb_id=base.id, limit=5):
                if j.phase == "queued":
                    jobs.cancel(svc, ws, base.id, j.id)
            app.poller.poll_now()
            await idle(pilot)
    return out


def child(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    tmp = Path(tempfile.mkdtemp(prefix="kctui-tui-bench-"))
    os.environ["KCTUI_STATE_DIR"] = str(tmp / "state")
    os.environ["KCTUI_CONFIG_DIR"] = str(tmp / "config")
    from kctui.config import Settings
    from kctui.core.clock import FakeClock
    from kctui.services.context import ServiceContext
    from kctui.ui.app import KctuiApp

    clock = FakeClock()
    svc = ServiceContext.open(clock=clock, settings=Settings())
    t = time.perf_counter()
    ws = build_store(svc, clock, tmp, args.jobs, args.items)
    built = time.perf_counter() - t
    app = KctuiApp(ctx_factory=lambda: ServiceContext.open(clock=clock, settings=Settings()))
    out = asyncio.run(measure(app, svc, ws, args.samples))
    rss, peak = rss_mb()
    print(json.dumps({"latency": out, "rss": rss, "peak": peak, "built": built}))


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=10_000)
    ap.add_argument("--items", type=int, default=5_000)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    results = {}
    for name, n_jobs, n_items in (("empty", 0, 0), ("big", args.jobs, args.items)):
        cmd = [sys.executable, __file__, "--child", "--samples", str(args.samples), "--jobs", str(n_jobs),
               "--items", str(n_items)]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
        if proc.returncode:
            sys.exit(f"{name} store failed:\n{proc.stderr[-3000:]}")
        results[name] = json.loads(proc.stdout.strip().splitlines()[-1])
    e, b = results["empty"], results["big"]
    print(f"kctui app: keystroke → updated screen, {args.samples} samples per key, 120×36, headless Pilot")
    print(f"big store: {args.jobs:,} jobs and {args.items:,} open review items (built in {b['built']:.1f} s)\n")
    print(f"{'key':<8} {'empty p50':>10} {'p95':>8} {'max':>8}   {'big p50':>8} {'p95':>8} {'max':>8}   "
          f"{'p95 big/empty':>13}")
    worst = 0.0
    for key in e["latency"]:
        el, bl = e["latency"][key], b["latency"][key]
        worst = max(worst, pct(bl, 95))
        left = (f"{statistics.median(el):>10.1f} {pct(el, 95):>8.1f} {max(el):>8.1f}" if el
                else f"{'(no jobs)':>10} {'':>8} {'':>8}")
        ratio = f"{pct(bl, 95) / pct(el, 95):>13.2f}" if el else f"{'—':>13}"
        print(f"{key:<8} {left}   {statistics.median(bl):>8.1f} {pct(bl, 95):>8.1f} {max(bl):>8.1f}   {ratio}")
    print(f"\nresident memory after the run: empty {e['rss']:.0f} MB, big {b['rss']:.0f} MB "
          f"(peak {e['peak']:.0f} / {b['peak']:.0f} MB; big/empty {b['rss'] / e['rss']:.2f})")
    ok_lat, ok_mem = worst <= 50, b["peak"] <= 200
    print(f"goals: p95 ≤ 50 ms {'met' if ok_lat else 'MISSED'} (worst p95 {worst:.1f} ms); "
          f"RSS ≤ 200 MB {'met' if ok_mem else 'MISSED'} (peak {b['peak']:.0f} MB)")


if __name__ == "__main__":
    main()
