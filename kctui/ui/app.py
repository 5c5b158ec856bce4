# size: KctuiApp whole, in one place: start and stop, the poll, service calls of keys, the app-wide keys
"""The terminal app: `kctui` (or `kctui demo`) opens it. It embeds the host (a background start, see
`kctui.ui.host`), polls the store in a thread worker, and runs every service call of a key in a thread
worker too, so the UI never blocks on I/O. Tests build `KctuiApp(ctx_factory=…)` with no runtime and a
fake clock, and drive the services directly. The app-wide keys are here too: quit (asking first while a
compile runs), `?` help with every key of the registry and whether it applies where the person is, and
the command palette offering the registry's keys."""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from rich.markup import escape
from textual.app import App, SystemCommand
from textual.color import Color
from textual.screen import Screen

from kctui import paths
from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.ui import keys, memory
from kctui.ui.crash import CRASH_LOG, record_crash  # noqa: F401 - CRASH_LOG: where tests find the log
from kctui.ui.escape_prefix import EscapePrefix
from kctui.ui.host import HostController, RuntimeFactory, default_runtime
from kctui.ui.messages import (
    EMPTY,
    ActionDone,
    HostChanged,
    PollFailed,
    Snapshot,
    SnapshotReady,
)
from kctui.ui.poll import INTERVAL, Poller
from kctui.ui.review_session import ReviewSession
from kctui.ui.screens.confirm import ConfirmScreen, ask
from kctui.ui.screens.help import HelpRow, HelpScreen
from kctui.ui.screens.main import MainScreen
from kctui.ui.stale_keys import StaleKeys
from kctui.ui.themes import configured_theme, load_themes, theme_problems

log = logging.getLogger(__name__)

class KctuiApp(EscapePrefix, StaleKeys, ReviewSession, App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "kctui"
    BINDINGS = keys.bindings(keys.APP)
    COMMAND_PALETTE_BINDING = "f2"

    def __init__(self, *, ctx_factory: Callable[[], ServiceContext] | None = None,
                 runtime_factory: RuntimeFactory | None = None, workspaces: Sequence[str] = (),
                 poll_interval: float = INTERVAL, handle_signals: bool = False) -> None:
        super().__init__()
        self.ctx_factory = ctx_factory or (lambda: ServiceContext.open())
        self.host = HostController(runtime_factory, self._host_changed) if runtime_factory else None
        self.host_text = "host: not embedded"
        self.initial_workspaces = list(workspaces)
        self.handle_signals = handle_signals
        self.snapshot: Snapshot = EMPTY
        self.pending_actions = 0
        self.session_decisions: list[int] = []  # the review decisions of this run, newest last (z undoes)
        self.working: dict[str, int] = {}  # service calls of keys in flight, by label (the status line)
        self._poll_soon = False
        self.hung_up = False
        self.stop_on_signals: Any = None  # kctui.ui.stop_signals.StopOnSignals, when run_app installed it
        self._action_lock = threading.Lock()
        self._action_ctx: ServiceContext | None = None
        self._tones: dict[str, str] | None = None
        self._last_poll_error: str | None = None
        self.poller = Poller(self, self.ctx_factory, self._wanted_job, interval=poll_interval)
        self.user_keymap, self._startup_notes = {}, []
        keymap, key_error = keys.load_keymap()
        self.user_keymap = keymap
        if key_error:
            self._startup_notes.append(key_error)
        themes, errors = load_themes()
        for t in themes:
            self.register_theme(t)
        wanted, config_error = configured_theme()
        self.theme, theme_note = theme_problems({t.name for t in themes}, wanted, errors, config_error)
        if theme_note:
            self._startup_notes.append(theme_note)

    # -- start and stop ---------------------------------------------------------------------------

    def notify(self, message: str, *, title: str = "", severity: Any = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Notifications quote names of bases, pages and files: plain text unless a caller asks."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # -- an unexpected exception: logged, one line, a non-zero exit -------------------------------------

    crash_line: str | None = None

    def _handle_exception(self, error: Exception) -> None:
        if self.crash_line is None:
            self.crash_line = record_crash(error)
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if self.crash_line is not None and "debug" not in self.features:
            self._exit_renderables.clear()  # the traceback is in the crash log, not on the terminal
            print(self.crash_line, file=sys.stderr)
            return
        super()._print_error_renderables()

    def get_default_screen(self) -> Screen:
        return MainScreen()

    @property
    def main(self) -> MainScreen:
        return self.screen_stack[0]  # type: ignore[return-value]

    async def on_event(self, event: Any) -> None:
        # a key typed before the screen on top showed is not run on it; esc and a key typed fast, read
        # as one alt+key, both run
        if (self.replayed(event) or not self.stale_key(event)) and not await self.split_escape(event):
            await super().on_event(event)

    def on_mount(self) -> None:
        self.watch_screens()
        if self.user_keymap:
            self.set_keymap(self.user_keymap)
        for note in self._startup_notes:
            self.notify(note, severity="error", timeout=12)
        if self.initial_workspaces:
            from kctui.services.workspaces import add_workspace

            wss = list(self.initial_workspaces)
            self.run_service("add workspace", lambda ctx: [add_workspace(ctx, w) for w in wss], quiet=True)
        # the first read of the store starts once the screen is drawn: the panes show first, then fill
        self.call_after_refresh(self.poller.start)
        if self.stop_on_signals is not None:  # installed by run_app before start-up; now it can ask the loop
            self.stop_on_signals.loop = asyncio.get_running_loop()
        elif self.handle_signals and threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                try:
                    loop.add_signal_handler(sig, self.hang_up)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass

    def hang_up(self) -> None:
        """The terminal went away (ssh drop) or we were asked to stop: hand the job back, then exit."""
        self.hung_up = True
        threading.Thread(target=self.shutdown, name="kctui-shutdown", daemon=False).start()
        self.exit()

    def shutdown(self, quick: bool = False) -> None:
        """Stop the embedded host (its running job is handed back) and close the store. Idempotent.
        `quick` (a signal): the host gets `stop_signals.HOST_STOP_S` to hand its job back."""
        self.poller.stop()
        if self.host is not None:
            if quick:
                from kctui.ui.stop_signals import HOST_STOP_S

                self.host.stop(HOST_STOP_S / 2, worker_timeout=HOST_STOP_S / 2)
            else:
                self.host.stop()
        with self._action_lock:
            if self._action_ctx is not None:
                self._action_ctx.close()
                self._action_ctx = None

    def _host_changed(self, state: str, text: str) -> None:  # from the host's start thread
        self.post_message(HostChanged(state, text))

    def on_host_changed(self, message: HostChanged) -> None:
        self.host_text = message.text
        if message.state == "failed":
            self.notify(message.text, severity="error", timeout=10)
        elif "(API off:" in message.text:  # the whole reason, which the status line may cut
            self.notify(self.host.api_reason if self.host is not None and self.host.api_reason else message.text,
                        title="The loopback API is off", severity="warning", timeout=15)
        if self.is_mounted and self.screen_stack:
            self.main.update_status()

    # -- the poll ---------------------------------------------------------------------------------

    def _wanted_job(self) -> str | None:
        try:
            return self.main.wanted_job()
        except Exception:  # noqa: BLE001 - not composed yet
            return None

    def on_snapshot_ready(self, message: SnapshotReady) -> None:
        try:
            if self.host is not None and self.host.state == "off" and not self.hung_up:
                self.host.start()  # after the first poll: the UI is up before the host's imports run
            if message.snapshot is not None and not self._closing:
                if self.snapshot is EMPTY:
                    self.call_after_refresh(memory.settle)
                    self.set_interval(memory.IDLE_EVERY, self._collect_when_idle)
                self.snapshot = message.snapshot
                self._last_poll_error = None
                if self.main.is_mounted:  # else MainScreen.on_mount applies it
                    self.main.apply(message.snapshot)
        finally:
            self.poller.done(message.seq)

    def _collect_when_idle(self) -> None:
        if self.is_idle():
            memory.collect_idle()

    def on_poll_failed(self, message: PollFailed) -> None:
        if message.error != self._last_poll_error:
            self._last_poll_error = message.error
            self.notify(message.error, severity="error", timeout=8)

    def is_idle(self) -> bool:
        """No key action and no poll in flight (tests and the benchmark wait for this)."""
        waiting = bool(self.screen_stack) and (getattr(self.main, "_detail_timer", None) is not None
                                               or getattr(self.screen, "load_pending", False))
        return self.pending_actions == 0 and self.poller.idle and not self._poll_soon and not waiting

    # -- service calls from keys ------------------------------------------------------------------

    def run_service(self, label: str, fn: Callable[[ServiceContext], Any], *, ok_text: Callable[[Any], str] | None = None,
                    then: Callable[[Any], None] | None = None, on_error: Callable[[], None] | None = None,
                    quiet: bool = False, reads_only: bool = False) -> None:
        """Run `fn(ctx)` in a thread worker (one at a time, on the app's own store connection); report
        the outcome as a notification and call `then(result)` (or `on_error()`) back on the UI thread.
        A key's call is acknowledged on the status line first, and its thread starts once that is on
        screen; `reads_only` calls (a detail, a count) change nothing, so no poll follows them."""
        self.pending_actions += 1
        start = partial(self.run_worker, partial(self._service_thread, label, fn, ok_text, then, on_error, quiet,
                                                 reads_only), thread=True, group="actions", name=label,
                        exit_on_error=False)
        if quiet:
            start()
        else:
            self.acknowledge(label, +1)
            self.call_after_refresh(start)

    def acknowledge(self, label: str, delta: int) -> None:
        """A key's service call started (+1) or ended (-1): the status line says so at once."""
        n = self.working.get(label, 0) + delta
        if n > 0:
            self.working[label] = n
        else:
            self.working.pop(label, None)
        if self.is_mounted and self.screen_stack and self.main.is_mounted:
            self.main.update_status()

    def _service_thread(self, label: str, fn: Callable[[ServiceContext], Any], ok_text: Any, then: Any,
                        on_error: Any, quiet: bool, reads_only: bool = False) -> None:
        try:
            with self._action_lock:
                if self._action_ctx is None:
                    self._action_ctx = self.ctx_factory()
                result = fn(self._action_ctx)
            text = ok_text(result) if ok_text else ""
            self.post_message(ActionDone(label, True, text, result, then, quiet, reads_only))
        except ServiceError as exc:
            self.post_message(ActionDone(label, False, f"{label}: {exc.message}", None,
                                         (lambda _r: on_error()) if on_error else None))
        except Exception as exc:
            log.exception("%s failed", label)
            self.post_message(ActionDone(label, False, f"{label} failed: {type(exc).__name__}: {exc}", None,
                                         (lambda _r: on_error()) if on_error else None))

    def on_action_done(self, message: ActionDone) -> None:
        self.pending_actions = max(0, self.pending_actions - 1)
        if message.action in self.working:
            self.acknowledge(message.action, -1)
        if message.text and not (message.ok and message.quiet):
            self.notify(message.text, severity="information" if message.ok else "error",
                        timeout=5 if message.ok else 10)
        if message.callback is not None:
            message.callback(message.result)
        if message.reads_only:
            return
        # the poll's thread starts once this update is on screen, so it does not compete with it
        self._poll_soon = True
        self.call_after_refresh(self._poll_after_action)

    def _poll_after_action(self) -> None:
        self._poll_soon = False
        self.poller.poll_now()

    def show_result(self, job: Any = None, base: Any = None) -> None:
        """Show what a service call returned at once (the poll follows with everything else)."""
        from kctui.ui.poll import merge

        if self.snapshot is not EMPTY and (job is not None or base is not None):
            self.snapshot = merge(self.snapshot, job, base)
            self.main.apply(self.snapshot)

    # -- the app-wide keys: quit, help --------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "quit" and isinstance(self.screen, ConfirmScreen):
            return False
        return True

    def action_quit(self) -> None:  # type: ignore[override]
        snap = self.snapshot
        job = snap.job(snap.running_job_id)
        if job is None:
            self.exit()
            return
        here = self.host is not None and self.host.owns_worker
        body = (f"Job {job.short} of {job.base_id} is compiling. " +
                ("Quitting stops it and hands it back: it is reported as interrupted, nothing is left running, "
                 "and the wiki stays as it was." if here else
                 "It goes on in the kctui host that runs it."))
        ask(self, "Quit while a compile runs?", body, "quit", lambda yes: self.exit() if yes else None)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        under = self.screen
        rows = []
        for k in keys.REGISTRY:
            _, name, params = _parse(k.action)
            if isinstance(under, MainScreen) and keys.MAIN in k.scopes:
                state = under.why_not(name, params)
            elif _is_screen(under, "review_detail", "ReviewDetailScreen") and keys.DETAIL in k.scopes:
                state = under.why_not(name, params)  # type: ignore[attr-defined]
            elif keys.APP in k.scopes or (keys.READER in k.scopes and (
                    _is_screen(under, "search", "SearchScreen") or _is_screen(under, "page_view", "PageViewScreen"))):
                state = None
            elif set(k.scopes) & set(getattr(under, "KEY_SCOPES", ())):
                why = getattr(under, "why_not", None)
                _, name, params = _parse(k.action)
                state = why(name, params) if why is not None else None
            else:
                state = keys.elsewhere(k.scopes[0])
            rows.append(HelpRow(k.group, keys.keys_text(k, self.user_keymap), k.help, k.id, state))
        where = _screen_words(under)
        self.push_screen(HelpScreen(rows, where, f"{paths.config_file().name} [keys]", self.tones()["muted"]))

    # -- the command palette ----------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        here = set(getattr(screen, "KEY_SCOPES", ()))
        for k in keys.REGISTRY:  # the keys of a screen with its own scopes (pages, policy, briefs) first
            if k.palette and here & set(k.scopes):
                yield SystemCommand(escape(f"{k.description} ({keys.keys_text(k, self.user_keymap)})"), escape(k.help),
                                    partial(self.run_screen_action, screen, k.id))
        for k in keys.REGISTRY:
            if k.palette and (keys.MAIN in k.scopes or keys.APP in k.scopes):
                # the title is read as markup: a key label in brackets (`Filter [/]`) would be a closing tag
                yield SystemCommand(f"{k.description} ({keys.keys_text(k, self.user_keymap)})", k.help,
                                    partial(self.run_registry_action, k.id))
        yield from super().get_system_commands(screen)

    def run_screen_action(self, screen: Screen, binding_id: str) -> None:
        """A palette command of the screen it was opened on (its own check says whether it applies)."""
        k = keys.BY_ID[binding_id]
        _, name, params = _parse(k.action)
        if screen is not self.screen:
            return
        if screen.check_action(name, params) is True:
            self.call_later(self.run_action, k.action, screen)
        else:
            why = getattr(screen, "why_not", None)
            reason = (why(name, params) if why is not None else None) or "it does not apply now"
            self.notify(f"{k.description}: {reason}", severity="warning", timeout=4)

    def run_registry_action(self, binding_id: str) -> None:
        k = keys.BY_ID[binding_id]
        target: Any = self if keys.APP in k.scopes else self.main
        _, name, params = _parse(k.action)
        if target.check_action(name, params) is True:
            self.call_later(self.run_action, k.action, target)
        else:
            reason = target.why_not(name, params) if target is self.main else "it does not apply now"
            self.notify(f"{k.description}: {reason}", severity="warning", timeout=4)


    # -- theme colours for table cells ------------------------------------------------------------

    def tones(self) -> dict[str, str]:
        if self._tones is None:
            v = self.get_css_variables()

            def hexof(name: str, fallback: str = "") -> str:
                try:
                    return Color.parse(v[name]).hex
                except Exception:  # noqa: BLE001
                    return fallback

            fg, bg = Color.parse(v.get("foreground", "#dddddd")), Color.parse(v.get("background", "#000000"))
            self._tones = {name: hexof(name) for name in ("primary", "accent", "success", "warning", "error")}
            self._tones["muted"] = fg.blend(bg, 0.45).hex
            for name in ("accent", "panel-lighten-2"):  # the pane borders (MainScreen.style_panes)
                self._tones[name] = v.get(name, "")
        return self._tones

    def watch_theme(self, theme: str) -> None:
        self._tones = None
        if self.is_mounted and self.screen_stack:
            self.call_after_refresh(self.main.restyle)


def _parse(action: str) -> tuple[str, str, tuple[object, ...]]:
    from textual.actions import parse

    return parse(action)


def _screen_words(screen: Screen) -> str:
    """The help title's name of the screen `?` was pressed on, in words (never a class name)."""
    if isinstance(screen, MainScreen):
        return keys.SCREEN_WORDS[keys.MAIN]
    if _is_screen(screen, "review_detail", "ReviewDetailScreen"):
        return keys.SCREEN_WORDS[keys.DETAIL]
    if _is_screen(screen, "search", "SearchScreen"):
        return keys.SCREEN_WORDS[keys.READER]
    if _is_screen(screen, "page_view", "PageViewScreen"):
        return keys.SCREEN_WORDS[keys.PAGE]
    if _is_screen(screen, "briefs", "BriefScreen"):
        return "brief"
    scopes = getattr(screen, "KEY_SCOPES", ())
    return keys.SCREEN_WORDS.get(scopes[0], "this screen") if scopes else "this screen"


def _is_screen(screen: Screen, module: str, name: str) -> bool:
    """Is `screen` a `kctui.ui.screens.<module>.<name>`? Screens load when first opened, and one whose
    module was never imported cannot be on the stack."""
    cls = getattr(sys.modules.get(f"kctui.ui.screens.{module}"), name, None)
    return cls is not None and isinstance(screen, cls)


def run_app(workspaces: Sequence[str] | None = None, server_factory: Callable[[str, int], Any] | None = None) -> int:
    """`kctui` with no command: open the app with the embedded host (serving the loopback API through
    `server_factory(host, port)` when the settings enable it); stop the host on the way out (quit, SIGHUP
    from a dropped ssh session, SIGTERM) so no job is left running."""
    log_file = paths.state_dir() / "app.log"
    try:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        logging.basicConfig(filename=str(log_file), level=logging.INFO,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    except OSError:
        pass
    from kctui.ui.pool_helpers import start_pool_helpers  # noqa: PLC0415

    start_pool_helpers()  # before Textual takes sys.stderr
    factory = functools.partial(default_runtime, server_factory=server_factory)
    app = KctuiApp(runtime_factory=factory, workspaces=list(workspaces or ()), handle_signals=True)
    from kctui.ui.stop_signals import StopOnSignals

    app.stop_on_signals = StopOnSignals(app).install()  # from here a signal stops the app within 2 s
    try:
        app.run()
    except OSError:  # the terminal is gone
        pass
    finally:
        stopping_note(lambda: app.shutdown(quick=app.hung_up))
    if app.crash_line is not None:
        return app.return_code or 1
    return app.return_code or 0


def stopping_note(stop: Callable[[], None], after: float = 0.5, out: Any = None) -> None:
    """Run `stop` (the host handing its job back); when it takes longer than `after` seconds, say so on
    the terminal the app just gave back, so a quit never looks like a hang (QA s31 #5: 12-15 s blank)."""
    stream = out if out is not None else sys.stderr
    timer = threading.Timer(after, lambda: print("kctui: stopping… (handing the running job back)",
                                                 file=stream, flush=True))
    timer.daemon = True
    timer.start()
    try:
        stop()
    finally:
        timer.cancel()
