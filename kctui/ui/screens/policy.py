"""The policy screen (`o` on a base): the base's compilation and trust policy as a form, one field a
row with a line saying what it does. F5 saves: every value is checked with the rules of `kctui kb
policy` (`services.policy.check_changes`, then `save_policy` in a thread worker, the same service the
CLI uses); a bad value is named in one line under its field and nothing is saved. F6 compiles the base
now. Never-auto guards: type one in the guard field and press enter to add it to the list, delete on
the list removes the selected one (both saved with F5). esc goes back (unsaved edits are dropped)."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from kctui.ui import keys
from kctui.ui.format import ws_label
from kctui.ui.widgets.key_bar import KeyBar, Line

# field -> (label, what it does)
FIELDS = {
    "compilation": ("Compilation", "manual: when asked · smart_auto: when changes settle"),
    "autonomy": ("Autonomy", "suggest holds all; guarded adds pages; auto also revises"),
    "never-auto": ("Never-auto guards", "a change to a matching page is always held (del removes)"),
    "min-confidence": ("Min confidence", "an update less sure than this (0–1) is held for review"),
    "stale-days": ("Stale days", "a page unconfirmed this many days is marked stale"),
    "extractor": ("Extractor", "builtin: offline · llm: a model at KCTUI_LLM_URL"),
    "link-style": ("Link style", "how the next compile writes links between pages"),
}
CHOICES = {
    "compilation": ("manual", "smart_auto"),
    "autonomy": ("suggest", "guarded", "auto"),
    "extractor": ("builtin", "llm"),
    "link-style": ("wikilink", "markdown"),
}
CHOICE_WORDS = {"wikilink": "wikilink, as [[slug|Text]]", "markdown": "markdown, as [Text](/concepts/slug.md)",
                "builtin": "builtin (offline)", "llm": "llm (a model)"}
JSON_KEYS = {"compilation": "compilation", "autonomy": "autonomy", "extractor": "extractor", "link-style": "linkStyle",
             "min-confidence": "minConfidence", "stale-days": "staleDays"}


def field_id(name: str) -> str:
    return "pol-" + name


class PolicyScreen(Screen[None]):
    DEFAULT_CSS = """
    PolicyScreen { background: $background; }
    PolicyScreen > Vertical { border: round $accent; background: $surface; height: 1fr; }
    PolicyScreen #pol-form { height: 1fr; padding: 0 1; }
    PolicyScreen .pol-row { height: auto; }
    PolicyScreen .pol-label { text-style: bold; width: 19; height: 1; }
    PolicyScreen .pol-help { color: $text-muted; height: auto; padding-left: 19; margin-bottom: 1; }
    PolicyScreen .pol-error { color: $error; text-style: bold; height: auto; padding-left: 19; }
    PolicyScreen Select { width: 1fr; max-width: 48; height: 1; }
    PolicyScreen Select > SelectCurrent { border: none; height: 1; padding: 0 1; background: $boost; }
    PolicyScreen Select:focus > SelectCurrent { border: none; background: $accent 40%; }
    PolicyScreen Input { border: none; height: 1; width: 1fr; max-width: 48; padding: 0 1; background: $boost; }
    PolicyScreen Input:focus { border: none; background: $accent 40%; }
    PolicyScreen #pol-guards { height: auto; max-height: 5; width: 1fr; max-width: 48; border: none;
                               background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    PolicyScreen #pol-guards:focus { background: $accent 25%; }
    PolicyScreen .pol-guard-row { height: auto; padding-left: 19; }
    PolicyScreen #pol-status { padding: 0 1; background: $panel; }
    """
    KEY_SCOPES = (keys.POLICY,)
    BINDINGS = keys.bindings(keys.POLICY)

    def __init__(self, workspace: str, kb_id: str, name: str) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.kb_name = workspace, kb_id, name
        self.data: dict[str, Any] | None = None  # the policy as stored
        self.guards: list[str] = []
        self.saving = False

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="pol-form"):
                for name, (label, help_text) in FIELDS.items():
                    with Horizontal(classes="pol-row"):
                        yield Static(label, classes="pol-label", markup=False)
                        if name in CHOICES:
                            yield Select([(Text(CHOICE_WORDS.get(v, v)), v) for v in CHOICES[name]],
                                         allow_blank=False, value=CHOICES[name][0], id=field_id(name))
                        elif name == "never-auto":
                            yield Input(placeholder="add: class:entity · tag:NAME · title:REGEX", id=field_id(name))
                        else:
                            yield Input(id=field_id(name))
                    if name == "never-auto":
                        with Horizontal(classes="pol-guard-row"):
                            yield OptionList(id="pol-guards")
                    yield Static(help_text, classes="pol-help", markup=False)
                    yield Static("", classes="pol-error", id=f"err-{name}", markup=False)
            yield Line("Loading the policy…", id="pol-status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = escape(f"Policy of {self.kb_name} ({ws_label(self.workspace)})")
        for name in FIELDS:
            self.query_one(f"#err-{name}").display = False
        self.query_one(f"#{field_id('compilation')}").focus()
        self.load()

    def load(self) -> None:
        from kctui.services import policy as policy_svc

        ws, kb = self.workspace, self.kb_id
        self.app.run_service("policy", lambda ctx: policy_svc.policy_json(ctx, ws, kb),  # type: ignore[attr-defined]
                             then=self.show_policy, quiet=True)

    def show_policy(self, data: dict[str, Any]) -> None:
        self.data = data
        for name in CHOICES:
            self.query_one(f"#{field_id(name)}", Select).value = str(data[JSON_KEYS[name]])
        self.query_one(f"#{field_id('min-confidence')}", Input).value = f"{float(data['minConfidence']):g}"
        self.query_one(f"#{field_id('stale-days')}", Input).value = str(data["staleDays"])
        self.guards = list(data.get("neverAuto") or [])
        self.show_guards()
        self.set_status("Saved values shown. F5 saves a change · F6 compiles now · esc back")

    def show_guards(self) -> None:
        listing = self.query_one("#pol-guards", OptionList)
        at = listing.highlighted
        listing.clear_options()
        if self.guards:
            listing.add_options([Option(Text(g), id=f"g{i}") for i, g in enumerate(self.guards)])
            listing.highlighted = min(at or 0, len(self.guards) - 1)
        else:
            listing.add_option(Option(Text("(none)"), disabled=True))

    def set_status(self, text: str) -> None:
        self.query_one("#pol-status", Line).set(text)

    def show_error(self, name: str | None, message: str = "") -> None:
        for field in FIELDS:
            err = self.query_one(f"#err-{field}", Static)
            on = field == name
            err.update(f"✘ {message}" if on else "")
            err.display = on
        if name is not None:
            self.query_one(f"#{field_id(name)}").focus()
            self.query_one(f"#err-{name}").scroll_visible(animate=False)
            self.set_status(f"✘ not saved: {message}")

    # -- reading the form -----------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """The form as `save_policy` arguments; PolicyFieldError for a value that is not a number."""
        from kctui.services.policy import PolicyFieldError

        out: dict[str, Any] = {"compilation": str(self.query_one(f"#{field_id('compilation')}", Select).value),
                               "autonomy": str(self.query_one(f"#{field_id('autonomy')}", Select).value),
                               "extractor": str(self.query_one(f"#{field_id('extractor')}", Select).value),
                               "link_style": str(self.query_one(f"#{field_id('link-style')}", Select).value),
                               "never_auto": list(self.guards)}
        raw = self.query_one(f"#{field_id('min-confidence')}", Input).value.strip()
        try:
            out["min_confidence"] = float(raw)
        except ValueError:
            raise PolicyFieldError("min-confidence", f"min-confidence must be a number from 0 to 1 (got “{raw}”)") from None
        raw = self.query_one(f"#{field_id('stale-days')}", Input).value.strip()
        try:
            out["stale_days"] = int(raw)
        except ValueError:
            raise PolicyFieldError("stale-days", f"stale-days must be a whole number of days (got “{raw}”)") from None
        return out

    # -- keys -----------------------------------------------------------------------------------------

    def why_not(self, action: str, parameters: tuple[object, ...] = ()) -> str | None:
        if action == "save":
            if self.data is None:
                return "the policy is still loading"
            if self.saving:
                return "a save is under way"
        if action == "remove_guard":
            if not self.guards:
                return "there is no never-auto guard to remove"
            if self.focused is not self.query_one("#pol-guards"):
                return "choose a guard in the list first (tab to it)"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if self.why_not(action, parameters) is None else None

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == field_id("never-auto"):
            self.add_guard(event.value)
        else:
            self.action_save()

    def add_guard(self, text: str) -> None:
        from kctui.services.policy import PolicyFieldError, check_changes

        text = text.strip()
        if not text:
            return
        try:
            guard = check_changes(never_auto=[text])["never_auto"][0].text()
        except PolicyFieldError as exc:
            self.show_error(exc.field, exc.message)
            return
        if guard not in self.guards:
            self.guards.append(guard)
        self.query_one(f"#{field_id('never-auto')}", Input).value = ""
        self.show_error(None)
        self.show_guards()
        self.set_status(f"guard {guard} added (not saved yet): F5 saves")

    def action_remove_guard(self) -> None:
        listing = self.query_one("#pol-guards", OptionList)
        at = listing.highlighted
        if at is None or not 0 <= at < len(self.guards):
            return
        gone = self.guards.pop(at)
        self.show_guards()
        self.set_status(f"guard {gone} removed (not saved yet): F5 saves")
        self.refresh_bindings()

    def action_save(self) -> None:
        from kctui.services import policy as policy_svc
        from kctui.services.policy import PolicyFieldError

        reason = self.why_not("save")
        if reason:
            self.set_status(f"F5 (Save): {reason}")
            return
        try:
            values = self.values()
            policy_svc.check_changes(**{k: v for k, v in values.items() if k != "compilation"})
        except PolicyFieldError as exc:
            self.show_error(exc.field, exc.message)
            return
        ws, kb = self.workspace, self.kb_id

        def work(ctx: Any) -> Any:
            try:
                return ("saved", *policy_svc.save_policy(ctx, ws, kb, **values))
            except PolicyFieldError as exc:
                return ("bad", exc.field, exc.message)

        def done(result: Any) -> None:
            self.saving = False
            if result[0] == "bad":
                self.show_error(result[1], result[2])
                return
            self.show_error(None)
            self.show_policy(result[2])
            self.set_status("✔ saved" if result[1] else "✔ nothing changed: the stored policy already says this")

        self.saving = True
        self.set_status("saving…")
        self.app.run_service("save policy", work, then=done, on_error=lambda: setattr(self, "saving", False))  # type: ignore[attr-defined]

    def action_compile_now(self) -> None:
        from kctui.services import jobs as jobs_svc
        from kctui.ui.words import compile_text

        ws, kb = self.workspace, self.kb_id
        def done(result: Any) -> None:
            self.set_status(compile_text(result))
            self.app.notify(compile_text(result), timeout=5, markup=False)  # a base's name is not markup

        self.app.run_service("compile", lambda ctx: jobs_svc.request_compile(ctx, ws, kb), then=done)  # type: ignore[attr-defined]

    def action_back(self) -> None:
        self.dismiss(None)
