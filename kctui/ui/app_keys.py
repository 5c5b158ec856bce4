"""The app-wide keys: quit (asking first while a compile runs), `?` help with every key of the registry
and whether it applies where the person is, and the command palette offering the registry's keys.
Mixed into KctuiApp."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

from rich.markup import escape
from textual.app import App, SystemCommand
from textual.screen import Screen

from kctui import paths
from kctui.ui import keys
from kctui.ui.screens.confirm import ConfirmScreen, ask
from kctui.ui.screens.help import HelpRow, HelpScreen
from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.page_view import PageViewScreen
from kctui.ui.screens.review_detail import ReviewDetailScreen
from kctui.ui.screens.search import SearchScreen


class AppKeys(App[None]):
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
            elif isinstance(under, ReviewDetailScreen) and keys.DETAIL in k.scopes:
                state = under.why_not(params[0]) if name == "resolve" and params else None
            elif keys.APP in k.scopes or (keys.READER in k.scopes and isinstance(under, (SearchScreen, PageViewScreen))):
                state = None
            elif set(k.scopes) & set(getattr(under, "KEY_SCOPES", ())):
                why = getattr(under, "why_not", None)
                _, name, params = _parse(k.action)
                state = why(name, params) if why is not None else None
            else:
                state = keys.SCOPE_WORDS.get(k.scopes[0], "elsewhere")
            rows.append(HelpRow(k.group, keys.keys_text(k, self.user_keymap), k.help, k.id, state))
        where = "main screen" if isinstance(under, MainScreen) else under.__class__.__name__
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


def _parse(action: str) -> tuple[str, str, tuple[object, ...]]:
    from textual.actions import parse

    return parse(action)
