"""No keystroke crashes the app, on any screen, at 80×24, 100×30 and 160×50.

The screens and keys are found by the test, not listed in it:

- every bound key is read from the binding chain of the screen on top (the focused widget, the screen,
  the app — greyed-out and hidden ones too) and pressed once;
- on the main screen that happens in every pane (and on two rows of the queue: a base whose names are
  full of markup characters, and the base with held updates and a conflict); any screen a key pushes is recorded with the arguments it
  was built with, and is then opened again on its own and gets every one of its keys pressed (a key
  that closes it opens a fresh copy for the next key); screens pushed from there are explored too;
- every Screen subclass defined under `kctui.ui` must be reached this way (a screen no key opens is a
  failure that names it), and so must the command palette.

A crash fails the test with the screen and key; so does a key whose service call died of an unexpected
exception (the notification `… failed: SomeError: …`). The data includes names with markup
characters (`[/]`, `[b]`), which must reach the screen as text."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
import re
import time
import unicodedata
from dataclasses import dataclass, field

import pytest
from textual import events
from textual.app import REPLACED_KEYS
from textual.command import CommandPalette
from textual.keys import _character_to_key, _get_unicode_name_from_key
from textual.screen import Screen
from textual.widgets import Input

import kctui.ui
from kctui.ui.screens.main import MainScreen
from tests.tui.fixtures import compile_pass, make_app, make_base, page, ready, running_base, world

SIZES = [(80, 24), (100, 30), (160, 50)]
UNEXPECTED = re.compile(r" failed: [A-Z]\w*(Error|Exception)\b")


def kctui_screens() -> set[type[Screen]]:
    """Every Screen subclass defined in a module under kctui.ui (importing them all first)."""
    for mod in pkgutil.walk_packages(kctui.ui.__path__, "kctui.ui."):
        importlib.import_module(mod.name)
    found: set[type[Screen]] = set()
    todo = [Screen]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("kctui.ui.") and not inspect.isabstract(sub):
                found.add(sub)
    return found


def all_screen_classes() -> set[type[Screen]]:
    seen: set[type[Screen]] = set()
    todo = [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return seen


@dataclass
class Made:
    """Screens built while the app ran: class → (args, kwargs) of the first one."""

    first: dict[type, tuple[tuple, dict]] = field(default_factory=dict)

    def spy(self, monkeypatch: pytest.MonkeyPatch) -> None:
        kctui_screens()  # imports every module under kctui.ui, so each screen class is there to wrap
        for cls in all_screen_classes():
            if "__init__" not in cls.__dict__ and cls is not CommandPalette:
                continue
            original = cls.__init__

            def init(self_, *a, __cls=cls, __orig=original, **kw):
                if type(self_) is __cls and __cls not in self.first:
                    self.first[__cls] = (a, kw)
                __orig(self_, *a, **kw)

            monkeypatch.setattr(cls, "__init__", init)


def bound_keys(screen: Screen) -> list[str]:
    """Every key bound anywhere in the screen's binding chain, in chain order, once each."""
    out: dict[str, None] = {}
    for _node, bindings in screen._modal_binding_chain:
        for key, _binding in bindings:
            out.setdefault(key, None)
    return list(out)


class Driver:
    """One size: an app that is restarted when a key quits it."""

    def __init__(self, clock, size) -> None:
        self.clock, self.size = clock, size
        self.app = None
        self._ctx = None
        self.pilot = None
        self.pressed = 0

    async def start(self) -> None:
        self.app = make_app(self.clock)
        self._ctx = self.app.run_test(size=self.size)
        self.pilot = await self._ctx.__aenter__()
        await ready(self.pilot)

    async def stop(self) -> None:
        if self._ctx is not None:
            ctx, self._ctx = self._ctx, None
            await ctx.__aexit__(None, None, None)  # re-raises the app's exception, if any

    async def ensure_running(self) -> None:
        if self.app is None or self.app.return_code is not None:
            await self.stop()
            await self.start()

    async def press(self, key: str, where: str) -> None:
        """The key as the terminal driver delivers it, then a wait until the app has handled it and
        its effects (workers, the poll) are done — Pilot.press's idle heuristics sleep far longer."""
        self.pressed += 1
        app = self.app
        name = _character_to_key(key) if len(key) == 1 and not key.isalnum() else key
        try:
            char = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(name, name)))
        except KeyError:
            char = name if len(name) == 1 else None
        event = events.Key(name, char)
        event.set_sender(app)
        app._driver.send_message(event)
        await self.settle()
        if app._exception is not None:
            raise AssertionError(f"{self.size}: {key!r} on {where} crashed the app") from app._exception
        bad = [n.message for n in app._notifications if UNEXPECTED.search(n.message)]
        if bad:
            raise AssertionError(f"{self.size}: {key!r} on {where}: {bad[0]}")

    async def settle(self) -> None:
        app = self.app
        calm, deadline = 0, time.monotonic() + 10
        while calm < 2 and time.monotonic() < deadline and app.return_code is None:
            await asyncio.sleep(0)
            await self.pilot._wait_for_screen()
            await app.workers.wait_for_complete()
            calm = calm + 1 if app.is_idle() else 0
            if not calm:
                await asyncio.sleep(0.005)

    async def type(self, text: str, where: str) -> None:
        for ch in text:
            await self.press(ch, where)

    def top(self) -> Screen:
        return self.app.screen

    async def back_to(self, depth: int) -> None:
        while self.app.return_code is None and len(self.app.screen_stack) > depth:
            await self.settle()  # a screen just pushed has mounted before it is taken off
            self.app.pop_screen()
            await self.settle()


PROBE = "python"  # the world's compiled wiki has a page on Python
MAIN_CONTEXTS = [("1", 0), ("1", 2), ("2", 0), ("4", 0), ("3", 1), ("3", 0)]


STOP_OF = {"1": "bases", "2": "running", "3": "items", "4": "brief"}


def in_context(d: Driver, pane: str, row: int) -> bool:
    if d.app.return_code is not None or len(d.app.screen_stack) != 1:
        return False
    main = d.app.main
    if isinstance(main.focused, Input) or any(main.needle.values()) or main.current_stop() != STOP_OF[pane]:
        return False
    return getattr(main.focused, "cursor_row", row) == row


async def explore_main(d: Driver, made: Made) -> set[type]:
    """Every key of the main screen in every pane; returns the screen classes the keys pushed."""
    pushed: set[type] = set()
    for pane, row in MAIN_CONTEXTS:
        keys = None
        i = 0
        while keys is None or i < len(keys):
            await d.ensure_running()
            if not in_context(d, pane, row):
                await d.back_to(1)
                await d.settle()
                main = d.app.main
                for _ in range(3):  # leave the filter input first
                    if isinstance(main.focused, Input) or any(main.needle.values()):
                        await d.press("escape", "main (filter)")
                await d.press(pane, "main")
                await d.press("home", "main")
                for _ in range(row):
                    await d.press("j", "main")
            if keys is None:
                keys = bound_keys(d.top())
            await d.press(keys[i], f"main (pane {pane}, row {row})")
            i += 1
            if d.app.return_code is None and not isinstance(d.top(), MainScreen):
                pushed.add(type(d.top()))
    return pushed


async def explore_screen(d: Driver, made: Made, cls: type) -> set[type]:
    """Open `cls` as it was first built and press each of its keys once (on a fresh copy when a key
    closed it); returns the screen classes its keys pushed."""
    args, kw = made.first[cls]
    pushed: set[type] = set()
    keys = None
    i = 0
    while True:
        await d.ensure_running()
        if not isinstance(d.top(), cls):
            await d.back_to(1)
            screen = cls(*args, **kw)
            # a screen with a fixed id (the command palette) taken off just now may not be removed yet
            deadline = time.monotonic() + 10
            while screen.id and any(n.id == screen.id for n in d.app._nodes) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
                await d.settle()
            await d.app.push_screen(screen)
            await d.settle()
            if isinstance(d.top().focused, Input) and not d.top().focused.value:
                await d.type(PROBE, cls.__name__)  # a text field: something to find first
                await asyncio.sleep(0.5)  # a debounced search starts, then its worker answers
                await d.settle()
            if keys is None:
                keys = bound_keys(d.top())
        if i >= len(keys):
            break
        depth = len(d.app.screen_stack)
        await d.press(keys[i], cls.__name__)
        i += 1
        if d.app.return_code is None and len(d.app.screen_stack) > depth:
            pushed.add(type(d.top()))
            await d.back_to(depth)
    return pushed


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_every_key_on_every_screen(svc, clock, tmp_path, monkeypatch, size):
    data = world(svc, clock, tmp_path, running=False)
    # first in the queue (ids sort by name), compiled, with markup characters in every name it shows
    odd = make_base(svc, data["ws"], "Aa [b] odd [i]names", {"a.md": "# [/] Python [b]title\neol: 2030\n"})
    compile_pass(svc, data["ws"], odd.id, {"concepts/python-b.md": page("Python [/] [b]x", "eol", "2030",
                                                                        "a.md:L2-L2")})
    running_base(svc, clock, data["ws"])  # last: a job runs while the keys are pressed (q asks, x cancels)
    made = Made()
    made.spy(monkeypatch)
    d = Driver(clock, size)
    await d.start()
    try:
        reached = {MainScreen}
        todo = sorted(await explore_main(d, made) - reached, key=lambda c: c.__name__)
        while todo:
            cls = todo.pop(0)
            if cls in reached:
                continue
            reached.add(cls)
            more = await explore_screen(d, made, cls)
            todo += sorted(more - reached - set(todo), key=lambda c: c.__name__)
    finally:
        await d.stop()
    screens = kctui_screens()
    # a base class other screens build on (DimmedModal) is reached through theirs
    shown = {c for c in screens if not any(o is not c and issubclass(o, c) for o in screens)}
    missing = {c.__name__ for c in shown if c not in reached}
    assert not missing, f"no key opens these screens (or none was pressed where it applies): {sorted(missing)}"
    assert CommandPalette in reached, "the command palette was not opened"
