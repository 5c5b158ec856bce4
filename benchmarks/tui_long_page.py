"""Benchmark: keys on one long page in the app (QA session 30 #6: a page of 340 claims took 12-13 s a key).

    KCTUI_STATE_DIR=… KCTUI_CONFIG_DIR=… python benchmarks/tui_long_page.py WORKSPACE BASE-NAME PAGE [--size 100x30]

The app (no embedded host) runs headless under Pilot on an existing state dir — use a COPY of one: the
app writes to it. The page screen is pushed, then `?`, esc, `c`, `t`, `l` are pressed; printed: the
seconds until the page's data is in and until the app is idle, and each key's time to its processing.
Session 30's figures (the QA's `big` base, `entities/lagos.md`): docs/benchmarks.md, "The app"."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))


async def run(workspace: str, kb_id: str, page: str, size: tuple[int, int]) -> None:
    from kctui.ui.app import KctuiApp
    from kctui.ui.screens.page_read import PageScreen

    app = KctuiApp(workspaces=[workspace])
    async with app.run_test(size=size) as pilot:
        await pilot.pause(1.0)
        t0 = time.perf_counter()
        screen = PageScreen(workspace, kb_id, page)
        await app.push_screen(screen)
        while screen.data is None:
            await pilot.pause(0.02)
        print(f"data in: {time.perf_counter() - t0:.2f} s", flush=True)
        while not app.is_idle():
            await pilot.pause(0.05)
        print(f"idle: {time.perf_counter() - t0:.2f} s", flush=True)
        for key in ("question_mark", "escape", "c", "t", "l"):
            t0 = time.perf_counter()
            await pilot.press(key)
            print(f"{key}: {time.perf_counter() - t0:.2f} s", flush=True)


def main() -> None:
    from kctui import paths

    ap = argparse.ArgumentParser()
    ap.add_argument("workspace")
    ap.add_argument("base")
    ap.add_argument("page")
    ap.add_argument("--size", default="100x30")
    args = ap.parse_args()
    row = sqlite3.connect(paths.database_file()).execute(
        "SELECT id FROM bases WHERE workspace = ? AND name = ?", (str(Path(args.workspace).resolve()), args.base)).fetchone()
    if row is None:
        sys.exit(f"no base {args.base!r} in {args.workspace}")
    w, h = (int(x) for x in args.size.split("x"))
    asyncio.run(run(str(Path(args.workspace).resolve()), row[0], args.page, (w, h)))


if __name__ == "__main__":
    main()
