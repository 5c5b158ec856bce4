"""Benchmark: how long kctui takes to start, as whole processes, beside anchors run in the same rounds.

    python benchmarks/startup.py                 # 12 rounds of the CLI calls, 10 of the app
    python benchmarks/startup.py --rounds 20 --app-rounds 15
    python benchmarks/startup.py --no-app        # the CLI calls only (no tmux needed)

The CLI calls (median wall time of whole processes, the calls interleaved round by round so that a busy
moment of the machine touches every call alike):

  anchors  `python -c pass`, `python -c "import click"`
  kctui    `kctui --help`, `kctui status --json`, `kctui search WS KB QUERY`,
           `kctui context WS KB QUESTION --budget 2048`
  goal     each kctui call ≤ 3× `python -c "import click"`

The app: the time from starting the process in a tmux session of 100×30 to the screen showing all four
panes' titles (polling `tmux capture-pane`), beside the same for a bare Textual app showing one
DataTable row. Goal: ≤ 1.0 s and ≤ 2× the bare app.

Byte-code caching is left on (PYTHONDONTWRITEBYTECODE is removed from the children's environment): an
installed kctui runs from cached byte-code, and without it every call compiles its modules again.

The knowledge base searched is built once in a temporary state dir: the handbook corpus from
`../shared/corpus/handbook` when it is there, else the app's bundled demo sources.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANDBOOK = ROOT.parent / "shared" / "corpus" / "handbook"
PANE_TITLES = ("1 Queue", "2 Running", "3 Review", "4 Brief")
BARE_APP = '''
from textual.app import App, ComposeResult
from textual.widgets import DataTable


class Bare(App):
    def compose(self) -> ComposeResult:
        yield DataTable()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Base", "Phase")
        table.add_row("anchor-row", "ready")


Bare().run()
'''


def kctui_command() -> list[str]:
    script = Path(sys.executable).with_name("kctui")
    return [str(script)] if script.exists() else [sys.executable, "-m", "kctui"]


def build_base(state: Path, work: Path) -> tuple[str, str, str, str]:
    """A compiled knowledge base to query: (workspace, base id, search query, context question)."""
    env = {**os.environ, "KCTUI_STATE_DIR": str(state)}
    ws = work / "ws"
    ws.mkdir(parents=True)
    kctui = kctui_command()
    subprocess.run([*kctui, "kb", "create", str(ws), "bench"], env=env, check=True, capture_output=True)
    sources = ws / ".a3s" / "kb" / "bases" / "bench" / "sources"
    if HANDBOOK.is_dir():
        shutil.copytree(HANDBOOK, sources, dirs_exist_ok=True)
        query, question = "incident review", "how are incidents reviewed"
    else:
        shutil.copytree(ROOT / "kctui" / "demo_sources", sources, dirs_exist_ok=True)
        query, question = "release", "when is the next release"
    subprocess.run([*kctui, "compile", str(ws), "bench", "--wait"], env=env, check=True, capture_output=True)
    return str(ws), "bench", query, question


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def cli_timings(calls: dict[str, list[str]], env: dict[str, str], rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in calls}
    for argv in calls.values():  # warm the file cache once
        timed(argv, env)
    names = list(calls)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            times[name].append(timed(calls[name], env))
    return times


def _tmux(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["tmux", *args], capture_output=True, text=True)


def first_paint(command: str, marks: tuple[str, ...], session: str, timeout: float = 20.0) -> float:
    """Seconds from starting `command` in a fresh 100×30 tmux session to every mark being on screen."""
    _tmux("kill-session", "-t", session)
    start = time.perf_counter()
    if _tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command).returncode != 0:
        raise RuntimeError(f"tmux could not start: {command}")
    screen = ""
    while time.perf_counter() - start < timeout:
        screen = _tmux("capture-pane", "-p", "-t", session).stdout
        if all(m in screen for m in marks):
            elapsed = time.perf_counter() - start
            break
        time.sleep(0.004)
    else:
        _tmux("kill-session", "-t", session)
        raise RuntimeError(f"{command!r} did not show {marks} within {timeout:.0f} s; the screen:\n{screen}")
    _tmux("send-keys", "-t", session, "q")
    for _ in range(500):  # the app quits (its host stops, its lock is released) before the next run
        if _tmux("has-session", "-t", session).returncode != 0:
            break
        time.sleep(0.01)
    _tmux("kill-session", "-t", session)
    return elapsed


def app_timings(state: Path, work: Path, rounds: int) -> dict[str, list[float]]:
    bare = work / "bare_app.py"
    bare.write_text(BARE_APP, encoding="utf-8")
    app_cmd = f"env KCTUI_STATE_DIR={state} KCTUI_CONFIG_DIR={work / 'config'} {' '.join(kctui_command())}"
    bare_cmd = f"{sys.executable} {bare}"
    times: dict[str, list[float]] = {"bare Textual app": [], "kctui app": []}
    session = f"kctui-startup-{os.getpid()}"
    first_paint(bare_cmd, ("anchor-row",), session)  # warm both once
    first_paint(app_cmd, PANE_TITLES, session)
    for _ in range(rounds):
        times["bare Textual app"].append(first_paint(bare_cmd, ("anchor-row",), session))
        times["kctui app"].append(first_paint(app_cmd, PANE_TITLES, session))
    return times


def report(title: str, times: dict[str, list[float]], anchor: str, goal: float) -> bool:
    base = statistics.median(times[anchor])
    print(f"\n{title} (median of {len(times[anchor])}; ratio to {anchor!r})")
    ok = True
    for name, values in times.items():
        med = statistics.median(values)
        ratio = med / base
        mark = ""
        if name != anchor and not name.startswith("python -c"):
            within = ratio <= goal
            ok = ok and within
            mark = "  ✔ within goal" if within else f"  ✘ above {goal:g}×"
        print(f"  {name:<34} {med * 1000:7.0f} ms  p90 {sorted(values)[int(0.9 * (len(values) - 1))] * 1000:5.0f} ms"
              f"  {ratio:5.2f}×{mark}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12, help="rounds of the CLI calls (median of these)")
    parser.add_argument("--app-rounds", type=int, default=10, help="starts of each app")
    parser.add_argument("--no-app", action="store_true", help="skip the app (no tmux needed)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="kctui-startup-") as tmp:
        work = Path(tmp)
        state = work / "state"
        env = {**os.environ, "KCTUI_STATE_DIR": str(state), "KCTUI_CONFIG_DIR": str(work / "config")}
        # as an installed kctui runs: with its modules' byte-code cached (pip compiles site-packages at
        # install; an editable install writes __pycache__ on first use unless this is set)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        ws, kb, query, question = build_base(state, work)
        kctui = kctui_command()
        calls = {
            "python -c pass": [sys.executable, "-c", "pass"],
            'python -c "import click"': [sys.executable, "-c", "import click"],
            "kctui --help": [*kctui, "--help"],
            "kctui status --json": [*kctui, "status", "--json"],
            "kctui search": [*kctui, "search", ws, kb, query],
            "kctui context --budget 2048": [*kctui, "context", ws, kb, question, "--budget", "2048"],
        }
        ok = report("CLI calls", cli_timings(calls, env, args.rounds), 'python -c "import click"', 3.0)
        if not args.no_app:
            if shutil.which("tmux") is None:
                print("\nthe app: skipped (tmux is not installed)")
            else:
                times = app_timings(state, work, args.app_rounds)
                ok = report("The app at 100×30, to its four panes", times, "bare Textual app", 2.0) and ok
                app = statistics.median(times["kctui app"])
                print(f"  kctui app median {app:.2f} s: {'✔ within' if app <= 1.0 else '✘ above'} the 1.0 s goal")
                ok = ok and app <= 1.0
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
