"""How benchmarks/tui.py times a keystroke: the probe wraps the app's display so the first screen update
(the compositor's update, rendered to terminal segments) after which a condition holds is stamped with
the wall clock and the UI thread's CPU clock; and the anchor, a bare Textual DataTable holding the
same rows as the app's jobs table, its cursor moved down and up, timed by the same probe."""

from __future__ import annotations

import asyncio
import time


class Probe:
    """Times a keystroke from the moment the driver delivers it to the first screen update (the
    compositor's update, rendered to terminal segments) after which `done()` holds."""

    def __init__(self, app) -> None:
        from textual._compositor import CompositorUpdate

        self.app = app
        self.shown: list[float] = []
        self.cpu_shown: list[float] = []
        self.cpu: list[float] = []  # the UI thread's CPU time of each timed key (ms), beside its latency
        self.waiting: list = []
        original = app._display

        def display(screen, renderable):
            original(screen, renderable)
            if renderable is not None:
                if isinstance(renderable, CompositorUpdate):
                    renderable.render_segments(app.console)
                if self.waiting and self.waiting[0]():
                    self.shown.append(time.perf_counter())
                    self.cpu_shown.append(time.thread_time())
                    self.waiting.clear()

        app._display = display

    def send(self, key: str) -> None:
        """The key as the terminal driver delivers it (what Pilot.press does, without its idle waits,
        which sleep until the process looks idle and would dominate the measurement)."""
        from textual import events

        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(self.app)
        self.app._driver.send_message(event)

    async def timed(self, key: str, done) -> float:
        self.shown.clear()
        self.cpu_shown.clear()
        self.waiting[:] = [done]
        c0 = time.thread_time()
        t0 = time.perf_counter()
        self.send(key)
        while time.perf_counter() < t0 + 10:
            if self.shown:
                self.cpu.append((self.cpu_shown[0] - c0) * 1000)
                return (self.shown[0] - t0) * 1000
            await asyncio.sleep(0.0005)
        raise RuntimeError(f"{key}: the screen never showed the change (status: {self.app.main.query_one('#status').plain!r})")


async def idle(app, pilot) -> None:
    for _ in range(4000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.is_idle():
            return
    raise RuntimeError("the app did not settle")


async def measure_anchor(rows: list[list[str]], samples: int, size: tuple[int, int]) -> list[float]:
    """A bare Textual DataTable holding the same rows as the jobs table: a cursor move."""
    from textual.app import App
    from textual.widgets import DataTable

    class Bare(App):
        def compose(self):
            yield DataTable(cursor_type="row")

        def on_mount(self) -> None:
            t = self.query_one(DataTable)
            t.add_columns(*[f"c{i}" for i in range(len(rows[0]))])
            t.add_rows(rows)
            t.focus()

        def is_idle(self) -> bool:
            return True

    app = Bare()
    scr = Probe(app)
    out = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        table = app.query_one(DataTable)
        for i in range(samples):
            key = "down" if (i // 10) % 2 == 0 else "up"
            before = table.cursor_row
            out.append(await scr.timed(key, lambda b=before: table.cursor_row != b))
            await pilot.pause()
    return out, scr.cpu
