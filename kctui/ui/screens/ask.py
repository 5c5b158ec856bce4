"""The ask screen (`i` on a base with a compiled wiki): type a question, enter asks it; the answer streams
in (a thread worker on the screen's own store connection, never the UI thread) with its citations below,
each marked verified or not; a flagged page is flagged. Then the focus is on the citations (F4 moves
there too, tab back to the question): enter opens one — a compiled page at its claims, a raw source at
its lines (shown here) — `k` keeps the answer as an output page, esc goes back. The service is
kctui.services.ask, the one the CLI and MCP use."""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from kctui.services.ask_cited import UNCHECKED_WHY, failing, source_text_lines
from kctui.services.context import ServiceContext
from kctui.services.errors import ServiceError
from kctui.ui import keys
from kctui.ui.format import ws_label
from kctui.ui.widgets.key_bar import KeyBar

SOURCE_CONTEXT = 2  # lines shown around a cited source range


def citation_text(c: dict[str, Any], tones: dict[str, str]) -> Text:
    """One citation row: ✓ or ✗ (in words too), the item, where it points."""
    t = Text(no_wrap=True, overflow="ellipsis")
    if c.get("verified"):
        t.append("✓ verified ", style=tones.get("success", ""))
    elif c.get("why") == UNCHECKED_WHY:
        t.append("– not checked ", style=tones.get("muted", ""))
    else:
        t.append("✗ unverified ", style=tones.get("error", ""))
    t.append(f"[{c.get('ref') or c['item']}] ", style="bold")
    lines = c.get("lines")
    at = f" L{lines[0]}-L{lines[1]}" if lines else ""
    t.append(c.get("path") or "")
    if c.get("source") and c["source"] != c.get("path"):
        t.append(f" ← {c['source']}{at}", style=tones.get("muted", ""))
    else:
        t.append(at, style=tones.get("muted", ""))
    if not c.get("verified") and c.get("why"):
        t.append(f" — {c['why']}", style=tones.get("muted", ""))
    return t


def verdict(result: dict[str, Any]) -> str:
    """The status line for a finished answer (never colour alone: words)."""
    if result["unanswerable"]:
        return "Nothing in the base answers this question."
    if result["mode"] == "extractive":
        head = "Extracted, not written (no model configured): the base's best cited statements."
        if failing(result):
            head += " ⚠ A citation (✗) is not held by its source lines now."
    elif result["verified"]:
        head = f"✓ Verified: every citation holds what the answer states ({result.get('model') or 'model'})."
    else:
        head = "⚠ UNVERIFIED: a citation does not hold what the answer states; not settled."
    if result["kept"]:
        head += f" Kept as {result['kept']}."
    return head


def source_excerpt(root: Path, rel: str, lines: list[int]) -> str:
    """The cited lines of a source (with a little context), numbered; `▶` marks the cited ones."""
    all_lines = source_text_lines(root, rel)  # never through a symlink out of sources/; decoded as compiled
    if all_lines is None:
        return f"{rel}: not read (a path out of sources/ or through a symlink, or a file that cannot be read)"
    a, b = lines
    lo, hi = max(1, a - SOURCE_CONTEXT), min(len(all_lines), b + SOURCE_CONTEXT)
    out = [f"sources/{rel} L{a}-L{b}:"]
    out += [f"{'▶' if a <= n <= b else ' '} {n:>4} │ {all_lines[n - 1]}" for n in range(lo, hi + 1)]
    return "\n".join(out)


class AskScreen(ModalScreen[None]):
    CSS_PATH = "ask.tcss"
    KEY_SCOPES = (keys.ASK,)
    BINDINGS = keys.bindings(keys.ASK)

    class Partial(Message):
        def __init__(self, seq: int, text: str) -> None:
            super().__init__()
            self.seq, self.text = seq, text

    class Done(Message):
        def __init__(self, seq: int, result: dict[str, Any] | None, items: list[dict[str, Any]], error: str | None) -> None:
            super().__init__()
            self.seq, self.result, self.items, self.error = seq, result, items, error

    class Kept(Message):
        def __init__(self, seq: int, path: str | None, error: str | None) -> None:
            super().__init__()
            self.seq, self.path, self.error = seq, path, error

    def __init__(self, workspace: str, kb_id: str, name: str) -> None:
        super().__init__()
        self.workspace, self.kb_id, self.kb_name = workspace, kb_id, name
        self.result: dict[str, Any] | None = None
        self.items: list[dict[str, Any]] = []
        self.partial = ""  # the answer as far as it has streamed in
        self.asking = False
        self._seq = 0
        self._lock = threading.Lock()
        self._ctx: ServiceContext | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input(placeholder="ask: when does Python 3.12 reach end of life?", id="ask-input")
            yield Static("Type a question and press enter.", id="ask-status", markup=False)
            with VerticalScroll(id="ask-answer"):
                yield Static("", id="ask-text", markup=False)
            yield OptionList(id="ask-citations")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Vertical).border_title = Text(f"Ask {self.kb_name} ({ws_label(self.workspace)})")
        self.query_one(Input).focus()

    def on_unmount(self) -> None:
        self._seq += 1  # an answer still coming is shown to nobody
        threading.Thread(target=self._close, name="kctui-ask-close", daemon=True).start()

    def _close(self) -> None:
        with self._lock:
            if self._ctx is not None:
                self._ctx.close()
                self._ctx = None

    def _services(self) -> ServiceContext:
        if self._ctx is None:
            self._ctx = self.app.ctx_factory()  # type: ignore[attr-defined]
        return self._ctx

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "keep":
            return None if self.result is None or self.result["unanswerable"] or self.result["kept"] else True
        if action == "citations":
            return True if self.result is not None and self.result["citations"] else None
        return True

    # -- asking ---------------------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        question = event.value.strip()
        if not question:
            self.query_one("#ask-status", Static).update("Type a question first, then press enter.")
            return
        self._seq += 1
        self.result, self.items, self.partial, self.asking = None, [], "", True
        self.query_one("#ask-text", Static).update("")
        self.query_one("#ask-citations", OptionList).clear_options()
        self.query_one("#ask-status", Static).update(f"asking “{question}”…")
        self.refresh_bindings()
        self.run_worker(partial(self._ask_thread, self._seq, question), thread=True, group="ask", name="ask",
                        exit_on_error=False)

    def _ask_thread(self, seq: int, question: str) -> None:
        from kctui.services import ask

        def on_text(text: str) -> None:
            if seq == self._seq:
                self.post_message(self.Partial(seq, text))

        with self._lock:
            if seq != self._seq:
                return
            try:
                result, items = ask.answer(self._services(), self.workspace, self.kb_id, question, on_text=on_text)
                self.post_message(self.Done(seq, result, items, None))
            except ServiceError as exc:
                self.post_message(self.Done(seq, None, [], exc.message))
            except Exception as exc:  # noqa: BLE001 - shown, never raised into the UI
                self.post_message(self.Done(seq, None, [], f"ask failed: {type(exc).__name__}: {exc}"))

    def on_ask_screen_partial(self, message: Partial) -> None:
        if message.seq != self._seq or not self.asking:
            return
        self.partial = message.text
        self.query_one("#ask-text", Static).update(message.text)
        self.query_one("#ask-status", Static).update("answering… (streaming)")

    def on_ask_screen_done(self, message: Done) -> None:
        if message.seq != self._seq:
            return
        self.asking = False
        if message.error or message.result is None:
            self.query_one("#ask-status", Static).update(message.error or "no answer")
            self.refresh_bindings()
            return
        self.result, self.items = message.result, message.items
        self.show_result()

    def show_result(self) -> None:
        result = self.result
        if result is None:
            return
        tones = self.app.tones()  # type: ignore[attr-defined]
        text = result["answer"] or "(no answer)"
        if result["flags"]:
            text += "\n\n" + "\n".join(f"⚠ {f['status'].upper()}: {f['page']} — {f['why']} (qualify it)"
                                       for f in result["flags"])
        self.query_one("#ask-text", Static).update(text)
        self.query_one("#ask-status", Static).update(verdict(result))
        cites = self.query_one("#ask-citations", OptionList)
        cites.clear_options()
        cites.add_options([Option(citation_text(c, tones), id=str(n)) for n, c in enumerate(result["citations"])])
        if result["citations"]:
            cites.highlighted = 0
            cites.focus()  # k keeps, enter opens a citation; tab goes back to the question
        self.refresh_bindings()

    # -- citations ------------------------------------------------------------------------------------

    def action_citations(self) -> None:
        cites = self.query_one("#ask-citations", OptionList)
        if cites.option_count:
            cites.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.result is None or event.option_index >= len(self.result["citations"]):
            return
        self.open_citation(self.result["citations"][event.option_index])

    def open_citation(self, c: dict[str, Any]) -> None:
        """A compiled page opens at its claims; raw evidence shows its cited lines here."""
        from kctui import paths
        from kctui.ui.screens.page_read import PageScreen

        path = str(c.get("path") or "")
        if path.startswith("wiki/"):
            screen = PageScreen(self.workspace, self.kb_id, path[len("wiki/"):])
            self.app.push_screen(screen)
            self.app.call_after_refresh(screen.action_section, "claims")
            return
        source, lines = str(c.get("source") or ""), c.get("lines")
        if source.startswith("sources/") and lines:
            root = paths.sources_path(Path(self.workspace), self.kb_id)
            self.query_one("#ask-text", Static).update(source_excerpt(root, source[len("sources/"):], lines))
            self.query_one("#ask-status", Static).update(f"{source} at its cited lines · enter on another citation")

    # -- keeping --------------------------------------------------------------------------------------

    def action_keep(self) -> None:
        result = self.result
        if result is None or result["unanswerable"] or result["kept"]:
            self.app.notify("nothing to keep: ask a question the base answers first", severity="warning", timeout=4)
            return
        self.query_one("#ask-status", Static).update("keeping the answer…")
        self.run_worker(partial(self._keep_thread, self._seq, result, self.items), thread=True, group="ask",
                        name="keep", exit_on_error=False)

    def _keep_thread(self, seq: int, result: dict[str, Any], items: list[dict[str, Any]]) -> None:
        from kctui.services import ask

        with self._lock:
            try:
                path = ask.keep_result(self._services(), self.workspace, self.kb_id, result, items)
                self.post_message(self.Kept(seq, path, None))
            except ServiceError as exc:
                self.post_message(self.Kept(seq, None, exc.message))
            except Exception as exc:  # noqa: BLE001
                self.post_message(self.Kept(seq, None, f"keep failed: {type(exc).__name__}: {exc}"))

    def on_ask_screen_kept(self, message: Kept) -> None:
        if message.seq != self._seq or self.result is None:
            return
        if message.error:
            self.query_one("#ask-status", Static).update(f"not kept: {message.error}")
            return
        self.result["kept"] = message.path
        self.query_one("#ask-status", Static).update(verdict(self.result))
        self.app.notify(f"kept as {message.path}", timeout=4)
        self.refresh_bindings()

    def action_back(self) -> None:
        self.dismiss(None)
