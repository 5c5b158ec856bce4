"""`kctui ask` (issue 34) on the demo base, compiled by the built-in compiler (its Python page is
contradicted: two sources disagree on 3.12's end of life): a model on loopback (tests/helpers/answers.py)
whose cited answer is verified against the packet — or reported unverified when it cites an item the
packet does not hold or lines that do not hold its value — a malformed reply failing closed in one line,
a flagged page's flag in the answer; with no model, an extractive answer; and a kept answer that survives
the next compile, is never evidence, and turns stale when its cited source line changes."""

from __future__ import annotations

import json
import threading

from click.testing import CliRunner

from kctui import paths
from kctui.cli import main
from kctui.services import ask as ask_svc
from kctui.services import search as search_svc
from kctui.services.briefs import find_brief
from tests.helpers.answers import answer_json, compile_now, compiled_base
from tests.helpers.dry_run import demo_files
from tests.helpers.model import MODEL

QUESTION = "when does Python 3.12 reach end of life"
RIGHT = "Python 3.12 reaches end of life on 2028-10-31, though the notes disagree."


def demo(svc, ws) -> str:
    return compiled_base(svc, ws, demo_files(), name="Demo")


def test_a_correct_cited_answer_verifies_streams_and_carries_the_pages_flag(svc, workspace, answerer):
    kb = demo(svc, workspace)
    answerer.reply = lambda prompt: answer_json(RIGHT, [("1", [13, 13])])
    answerer.pieces, answerer.gate = 3, threading.Event()  # the stream waits after its first piece …
    seen: list[str] = []

    def on_text(text: str) -> None:
        seen.append(text)
        answerer.gate.set()  # … until the partial answer got here

    result = ask_svc.ask(svc, workspace, kb, QUESTION, on_text=on_text)
    assert "[1] ## Python — entities/python.md" in answerer.prompt()  # item ids are the packet's positions
    sent = answerer.requests[-1]
    assert sent["stream"] is True and sent["response_format"]["type"] == "json_schema"
    assert result["mode"] == "model" and result["model"] == MODEL and result["answer"] == RIGHT
    assert result["verified"] is True and result["unanswerable"] is False
    assert result["citations"] == [{"item": "1", "path": "wiki/entities/python.md",
                                    "source": "sources/python-release-cycle.md", "lines": [13, 13],
                                    "verified": True, "why": "holds 2028-10-31, 3.12"}]
    assert [f["status"] for f in result["flags"]] == ["contradicted"]
    assert result["flags"][0]["page"] == "wiki/entities/python.md"
    assert result["usage"] == {"prompt_tokens": 900, "completion_tokens": 60}
    assert result["packet_bytes"] > 0 and result["kept"] is None
    # the answer streamed in: partial texts, growing, ending in the whole answer
    assert len(seen) >= 2 and seen[-1] == RIGHT and all(RIGHT.startswith(s) for s in seen) and seen[0] != RIGHT


def test_an_item_not_in_the_packet_is_unverified(svc, workspace, answerer):
    kb = demo(svc, workspace)
    answerer.reply = lambda prompt: answer_json(RIGHT, [("1", [13, 13]), ("99", [1, 2])])
    result = ask_svc.ask(svc, workspace, kb, QUESTION)
    assert result["verified"] is False
    assert [c["verified"] for c in result["citations"]] == [True, False]
    assert result["citations"][1]["why"] == "item 99 is not in the packet"


def test_lines_that_do_not_hold_the_value_are_unverified(svc, workspace, answerer):
    kb = demo(svc, workspace)
    answerer.reply = lambda prompt: answer_json(RIGHT, [("1", [12, 12])])  # 3.11's line: 2027-10-31
    result = ask_svc.ask(svc, workspace, kb, QUESTION)
    assert result["verified"] is False and result["citations"][0]["verified"] is False
    assert "do not hold 2028-10-31" in result["citations"][0]["why"]
    out = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION])
    assert out.exit_code == 0 and "UNVERIFIED" in out.output and "✗ the cited lines do not hold" in out.output


def test_a_malformed_reply_fails_closed_with_one_line(svc, workspace, answerer):
    kb = demo(svc, workspace)
    answerer.reply = lambda prompt: '{"answer": "Python 3.12 ends'  # cut off: not JSON
    out = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION, "--keep"])
    assert out.exit_code == 1
    assert out.output.strip() == "kctui: error: the model's reply is not JSON; no answer given"
    assert not (paths.wiki_path(workspace, kb) / "outputs").exists()  # nothing kept
    answerer.reply = lambda prompt: json.dumps({"answer": "x", "citations": [{"item": "1", "lines": [9, 2]}],
                                                "confidence": 0.5, "unanswerable": False})
    out = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION])
    assert out.exit_code == 1 and len(out.output.strip().splitlines()) == 1 and "bad lines" in out.output


def test_the_model_saying_unanswerable_exits_3(svc, workspace, answerer):
    kb = demo(svc, workspace)
    answerer.reply = lambda prompt: answer_json("The base does not say.", [], 0.1, unanswerable=True)
    out = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION])
    assert out.exit_code == 3 and out.output.startswith("nothing in ")


def test_an_empty_model_answer_blames_the_model_not_the_base(svc, workspace, answerer):
    """QA s30 #12: an empty answer not marked unanswerable is the model's failure (exit 1), not "nothing in"."""
    kb = demo(svc, workspace)
    answerer.reply = lambda prompt: answer_json("", [], 0.0)
    out = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION])
    assert out.exit_code == 1 and "nothing in" not in out.output, out.output
    assert "replied with an empty answer" in out.output and out.output.count("\n") == 1


def test_with_no_model_the_answer_is_extracted_and_says_so(svc, workspace):
    kb = demo(svc, workspace)
    out = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data) >= {"question", "answer", "mode", "citations", "flags", "packet_bytes", "model", "usage", "kept"}
    assert data["mode"] == "extractive" and data["model"] is None
    assert data["answer"].splitlines()[0] == "Python (3.12) — end of life: 2028-10-31 [1]"
    assert all(c["verified"] for c in data["citations"]) and data["flags"][0]["status"] == "contradicted"
    text = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION]).output
    assert text.startswith("Extracted, not written")
    none = CliRunner().invoke(main, ["ask", str(workspace), kb, "xylophone quokka zeppelin"])
    assert none.exit_code == 3 and none.output.count("\n") == 1 and "nothing in" in none.output


def test_a_kept_answer_survives_the_next_compile_is_never_evidence_and_turns_stale(svc, workspace):
    kb = demo(svc, workspace)
    result = ask_svc.ask(svc, workspace, kb, QUESTION, keep=True, asker="human:tester")
    kept = workspace / ".a3s" / "kb" / "bases" / kb / result["kept"]
    assert result["kept"].startswith("wiki/outputs/") and kept.is_file()
    text = kept.read_text(encoding="utf-8")
    assert "asked_by: human:tester" in text and "compile_status: current" in text
    assert "sources/python-release-cycle.md L13-L13" in text and "generation: job-" in text
    # the next compile carries it, unchanged, and nothing reads it as evidence
    (paths.sources_path(workspace, kb) / "extra.md").write_text("# Extra\n\nThe quokka is a marsupial.\n")
    compile_now(svc, workspace, kb)
    assert kept.read_text(encoding="utf-8") == text
    wiki = paths.wiki_path(workspace, kb)
    for page in wiki.rglob("*.md"):
        if "outputs" not in page.parts:
            assert "outputs/" not in page.read_text(encoding="utf-8"), page
    assert search_svc.search(svc, workspace, kb, "\"never read back as evidence\"")["items"] == []
    assert "outputs/" not in search_svc.context(svc, workspace, kb, QUESTION, fmt="text")
    assert "Kept answers gone stale" not in find_brief(svc, workspace, kb)["markdown"]
    # its cited source line changes: the next pass marks it stale and its brief says so
    cycle = paths.sources_path(workspace, kb) / "python-release-cycle.md"
    lines = cycle.read_text(encoding="utf-8").split("\n")
    assert "2028-10-31" in lines[12]
    lines[12] = lines[12].replace("2028-10-31", "2028-12-31")
    cycle.write_text("\n".join(lines), encoding="utf-8")
    compile_now(svc, workspace, kb)
    now = kept.read_text(encoding="utf-8")
    assert "compile_status: stale" in now and "⚠ stale" in now
    brief = find_brief(svc, workspace, kb)["markdown"]
    assert "## Kept answers gone stale" in brief and "sources/python-release-cycle.md L13-L13 changed" in brief


def test_with_no_model_a_citation_whose_source_line_changed_is_not_verified(svc, workspace):
    """QA s30 #2: an extractive citation is checked against the source lines it cites now."""
    kb = demo(svc, workspace)
    src = paths.kb_path(workspace, kb) / "sources" / "python-release-cycle.md"
    src.write_text(src.read_text(encoding="utf-8").replace("2028-10-31", "2029-01-31"), encoding="utf-8")
    data = json.loads(CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION, "--json"]).output)
    first = data["citations"][0]
    assert data["answer"].splitlines()[0] == "Python (3.12) — end of life: 2028-10-31 [1]"
    assert first["verified"] is False and first["why"] == "the cited lines no longer say “2028-10-31”"
    assert data["verified"] is False
    text = CliRunner().invoke(main, ["ask", str(workspace), kb, QUESTION]).output
    assert "✗ the cited lines no longer say “2028-10-31”" in text and "⚠ a citation" in text
