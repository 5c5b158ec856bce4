"""Drive the app (Pilot, headless) into representative states and write SVG screenshots here.

    python screenshots/make_screenshots.py            # writes screenshots/*.svg
    python screenshots/make_screenshots.py pages.svg  # only the named ones

The data is the tests' deterministic world (tests/tui/fixtures.py): a workspace called `notes` with a
base in every phase, a running compile with live progress, a held update, a conflict and a brief, on a
fake clock, in a throw-away state directory. No host is embedded, so nothing moves while shooting.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

SHOTS = [
    # (file, terminal size, keys, theme[, data]); a key "type:TEXT" types TEXT; data is "world" (default) or
    # "demo" (the bundled demo sources compiled by the built-in compiler: linked pages, a real conflict)
    ("queue.svg", (120, 36), ["1"], None),
    ("running.svg", (120, 36), ["2"], None),
    ("review-conflict.svg", (120, 36), ["3", "j", "enter"], None),
    ("review-held-diff.svg", (120, 36), ["3", "enter"], None),
    ("brief.svg", (120, 36), ["1", "tab", "j", "j", "j", "4"], None),
    ("help.svg", (120, 36), ["question_mark"], None),
    ("clear-pause.svg", (120, 36), ["1", "j", "j", "j", "j", "u"], None),
    ("narrow-review.svg", (80, 24), ["3"], None),
    ("queue-light.svg", (120, 36), ["1"], "kctui-light"),
    ("pages.svg", (100, 30), ["g"], None, "demo"),
    ("page.svg", (100, 30), ["g", "type:entities/python", "enter"], None, "demo"),
    ("page-claims.svg", (100, 30), ["g", "type:entities/python", "enter", "c"], None, "demo"),
    ("policy.svg", (100, 30), ["o"], None, "demo"),
    ("briefs.svg", (100, 30), ["1", "j", "v"], None),
    ("briefs-running.svg", (100, 30), ["1", "j", "j", "v"], None),
    ("brief-full.svg", (100, 30), ["1", "j", "v", "enter"], None),
]


def demo(svc, clock, root: Path) -> None:
    import threading

    from kctui.services import jobs
    from kctui.services.local_transport import LocalTransport
    from kctui.services.worker import run_worker
    from tests.tui.fixtures import make_base

    ws = root / "notes"
    ws.mkdir(parents=True, exist_ok=True)
    ws = ws.resolve()
    sources = ROOT / "kctui" / "demo_sources"
    base = make_base(svc, ws, "Demo", {p.name: p.read_text(encoding="utf-8") for p in sorted(sources.iterdir())
                                       if p.is_file()})
    jobs.request_compile(svc, ws, base.id)
    run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)


async def shoot(name: str, size: tuple[int, int], keys: list[str], theme: str | None, data: str = "world") -> None:
    from kctui.config import Settings
    from kctui.core.clock import FakeClock
    from kctui.services.context import ServiceContext
    from tests.tui.fixtures import make_app, ready, settle, world

    tmp = Path(tempfile.mkdtemp(prefix="kctui-shots-"))
    os.environ["KCTUI_STATE_DIR"] = str(tmp / "state")
    os.environ["KCTUI_CONFIG_DIR"] = str(tmp / "config")
    clock = FakeClock()
    svc = ServiceContext.open(clock=clock, settings=Settings())
    if data == "demo":
        demo(svc, clock, tmp)
    else:
        world(svc, clock, tmp, running=True)
    app = make_app(clock)
    async with app.run_test(size=size) as pilot:
        if theme:
            app.theme = theme
        await ready(pilot)
        for key in keys:
            await pilot.press(*(key[5:] if key.startswith("type:") else [key]))
            await settle(pilot)
        await pilot.pause(0.3)
        await settle(pilot)
        app.save_screenshot(filename=name, path=str(HERE))
    svc.close()
    print(f"wrote screenshots/{name}")


def main() -> None:
    for os_var in [v for v in os.environ if v.startswith("TEXTUAL") or v in ("NO_COLOR", "FORCE_COLOR")]:
        os.environ.pop(os_var)
    only = set(sys.argv[1:])  # file names to shoot (default: all)
    for name, size, keys, theme, *data in SHOTS:
        if not only or name in only:
            asyncio.run(shoot(name, size, keys, theme, *data))


if __name__ == "__main__":
    main()
