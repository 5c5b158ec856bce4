"""The ask screen (`i`, issue 34) at 80×24 over the demo base (its Python page contradicted), a model on
loopback streaming the answer (tests/helpers/answers.py): the partial answer is on screen while the
stream waits, then the verdict, the page's flag and the citations; F4 moves to the citations, `k`
keeps the answer under wiki/outputs/, enter on a citation opens the page; esc goes back."""

from __future__ import annotations

import re
import threading

from kctui import paths
from kctui.ui.screens.ask import AskScreen
from kctui.ui.screens.main import MainScreen
from kctui.ui.screens.page_read import PageScreen
from tests.helpers.answers import answer_json
from tests.tui.fixtures import make_app, ready, select_base, until

SIZE = (80, 24)
ANSWER = "Python 3.12 reaches end of life on 2028-10-31; the team notes say otherwise, so it is disputed."


def python_item(prompt: str) -> str:
    return re.search(r"^\[(\d+)\] ## Python — entities/python\.md", prompt, re.M).group(1)


def shown(screen, wid: str) -> str:
    return str(screen.query_one(f"#{wid}").render())


async def open_ask(pilot, demo) -> AskScreen:
    """The ask screen on the demo base, from the main screen's `i`."""
    await ready(pilot)
    await select_base(pilot, demo["demo"])
    await pilot.press("i")
    await until(pilot, lambda: isinstance(pilot.app.screen, AskScreen))
    return pilot.app.screen


async def test_the_answer_streams_in_with_its_flag_and_citations_and_k_keeps_it(svc, clock, demo, answerer):
    answerer.reply = lambda prompt: answer_json(ANSWER, [(python_item(prompt), [13, 13])])
    answerer.pieces, answerer.gate = 4, threading.Event()
    async with make_app(clock).run_test(size=SIZE) as pilot:
        await ready(pilot)
        await select_base(pilot, demo["demo"])
        assert pilot.app.main.check_action("ask", ()) is True
        await pilot.press("i")
        await until(pilot, lambda: isinstance(pilot.app.screen, AskScreen))
        ask = pilot.app.screen
        assert ask.focused.id == "ask-input"
        await pilot.press(*"when does Python 3.12 reach end of life", "enter")
        # the stream holds after its first piece: part of the answer is on screen, not all of it (waited for
        # without `until`, which waits for the worker to end)
        for _ in range(400):
            if ask.partial:
                break
            await pilot.pause(0.025)
        assert ask.asking and ANSWER.startswith(ask.partial) and ask.partial != ANSWER, shown(ask, "ask-status")
        assert shown(ask, "ask-text") == ask.partial and "streaming" in shown(ask, "ask-status")
        answerer.gate.set()
        await until(pilot, lambda: ask.result is not None)
        assert "✓ Verified" in shown(ask, "ask-status")
        text = shown(ask, "ask-text")
        assert ANSWER in text and "⚠ CONTRADICTED: wiki/entities/python.md" in text
        cites = ask.query_one("#ask-citations")
        assert cites.option_count == 1 and "✓ verified" in str(cites.get_option_at_index(0).prompt)
        # F4: the citations; k keeps the answer as an output page
        await pilot.press("f4")
        assert ask.focused is cites
        await pilot.press("k")
        await until(pilot, lambda: ask.result["kept"] is not None)
        kept = paths.kb_path(demo["ws"], demo["demo"]) / ask.result["kept"]
        assert kept.is_file() and "type: Output" in kept.read_text(encoding="utf-8")
        assert "Kept as wiki/outputs/" in shown(ask, "ask-status")
        # enter on the citation opens the page at its claims
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, PageScreen) and pilot.app.screen.section == "claims")
        assert pilot.app.screen.page == "entities/python.md"
        await pilot.press("escape")
        await until(pilot, lambda: pilot.app.screen is ask)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, MainScreen))


async def test_a_malformed_reply_is_one_line_and_nothing_to_keep(svc, clock, demo, answerer):
    answerer.reply = lambda prompt: "not json"
    async with make_app(clock).run_test(size=SIZE) as pilot:
        ask = await open_ask(pilot, demo)
        await pilot.press(*"python", "enter")
        await until(pilot, lambda: not ask.asking)
        assert shown(ask, "ask-status") == "the model's reply is not JSON; no answer given"
        assert ask.check_action("keep", ()) is None  # greyed: nothing to keep


async def test_with_no_model_enter_on_a_source_citation_shows_its_lines(svc, clock, demo):
    async with make_app(clock).run_test(size=SIZE) as pilot:
        ask = await open_ask(pilot, demo)
        await pilot.press(*"Will McGugan", "enter")
        await until(pilot, lambda: ask.result is not None)
        assert shown(ask, "ask-status").startswith("Extracted, not written")
        assert ask.result["citations"][0]["path"] == "sources/terminal-apps.txt"
        await pilot.press("enter")  # the focus is on the citations
        text = shown(ask, "ask-text")
        assert text.startswith("sources/terminal-apps.txt L3-L4:")
        assert "▶    3 │ Textual is a Python framework" in text and "▶    4 │ who also wrote Rich." in text
        assert "     2 │" in text and "     5 │" in text  # a little context, unmarked
