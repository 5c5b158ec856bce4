"""QA session 32 (helper T): a person's decision on a conflict holds on every page, and answers put it first.

Two notes give the RabbitMQ shutdown as 14 Nov 2026, a later one as 28 Nov 2026: one conflict on RabbitMQ's
page. Before: after `use-new` the decided page still stated 14 Nov from the second note, the other pages
(the notes' source pages, the "RabbitMQ shutdown" event's page) stated it unflagged, and `ask` answered
"RabbitMQ shutdown: 14 Nov 2026." first. Now the decision records the rejected value and the lines stating
it, every page stating it from those lines is flagged (at the decision and on every later pass), the
decided value is marked, and search, context and ask put it first — over the services, the CLI and MCP.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kctui.core.record_tables import AGAINST_MARK, DECIDED_MARK, mark_at
from kctui.services import review
from kctui.services import search as svc_search
from kctui.services.ask import ask
from tests.helpers.review import Base

INFRA = ("# Infra plan\n\nThe RabbitMQ cluster is being retired in favour of Kafka.\n"
         "RabbitMQ shutdown: 14 Nov 2026.\nKafka runs version 3.7.\n")
SYNC = ("# Platform sync, 1 October 2026\n\nAttendees: Lena Vogel, Tomas Berg.\n\n- RabbitMQ shutdown: 14 Nov 2026.\n"
        "- The billing-api moves to Postgres 16 next sprint.\n- Kafka owner: Lena Vogel.\n")
LATER = "# Platform sync, 15 October 2026\n\nAttendees: Lena Vogel.\n\n- RabbitMQ shutdown: 28 Nov 2026.\n"
OLD, NEW = "14 Nov 2026", "28 Nov 2026"
DECIDED_PAGE = "entities/rabbitmq.md"
QUESTION = "When is the RabbitMQ shutdown?"


@pytest.fixture
def rabbit(svc, workspace) -> Base:
    b = Base(svc, workspace, {"infra-plan.md": INFRA, "platform-sync-oct.md": SYNC})
    b.compile()
    b.write("platform-sync-oct15.md", LATER)
    b.compile()
    return b


def _conflict(b: Base) -> review.ReviewItem:
    [item] = [i for i in b.items() if i.kind == "conflict"]
    assert item.page_path == DECIDED_PAGE
    return item


def _claim_lines(b: Base) -> dict[str, list[str]]:
    """Every compiled page's claim lines (record tables as their lines), by page."""
    out = {}
    for p in sorted(b.wiki.rglob("*.md")):
        rel = p.relative_to(b.wiki).as_posix()
        if rel not in ("index.md", "log.md"):
            out[rel] = [ln for ln in b.page(rel)[1].split("\n") if ln.startswith("* **")]
    return out


def _said(line: str) -> str:
    """A claim line without a decision's or a kept value's flag."""
    at = mark_at(line)
    return line if at < 0 else line[:at]


def _stating(lines: dict[str, list[str]], value: str) -> dict[str, list[str]]:
    return {rel: [ln for ln in ls if value in _said(ln)] for rel, ls in lines.items()}


def _page_says(b: Base, rel: str, value: str) -> bool:
    return any(value in _said(ln) for ln in b.page(rel)[1].split("## Related")[0].split("\n"))


def test_use_new_flags_every_page_that_states_the_rejected_value(rabbit) -> None:
    item = _conflict(rabbit)
    before = _stating(_claim_lines(rabbit), OLD)
    assert sum(map(len, before.values())) >= 6 and len([r for r, ls in before.items() if ls]) >= 4
    review.resolve(rabbit.svc, item.id, "use_new", actor="human:ada")
    fm, _ = rabbit.page(DECIDED_PAGE)
    [rec] = fm["decided_values"]  # the decision records the rejected value and every line stating it
    assert (rec["chosen"], rec["rejected"], rec["action"], rec["by"]) == (NEW, OLD, "use_new", "human:ada")
    assert rec["chosen_citation"] == "platform-sync-oct15.md:L5-L5"
    assert set(rec["rejected_lines"]) == {"infra-plan.md:L4-L4", "platform-sync-oct.md:L5-L5"}
    assert not _page_says(rabbit, DECIDED_PAGE, OLD)  # one value (before: 14 Nov from the other note)
    lines = _claim_lines(rabbit)
    after = _stating(lines, OLD)
    assert {r for r, ls in after.items() if ls} == {r for r, ls in before.items() if ls} - {DECIDED_PAGE}
    for rel, ls in after.items():  # every other page still stating it says a person decided against it
        for ln in ls:
            assert f"{AGAINST_MARK} on " in ln and f", for {NEW})" in ln, (rel, ln)
        assert all(e["side"] in ("rejected", "chosen") for e in rabbit.page(rel)[0].get("decided_claims") or [])
    summary = rabbit.page("sources/infra-plan-md.md")[1].split("## Summary\n\n")[1].split("\n")[0]
    assert OLD in summary and f"{AGAINST_MARK} on " in summary  # the source page's summary too
    decided = [ln for ln in lines[DECIDED_PAGE] if ln.startswith("* **RabbitMQ** — date:")]
    assert decided == [f"* **RabbitMQ** — date: {NEW}{DECIDED_MARK} on {rec['at'][:10]}, over {OLD})"
                       " ^[platform-sync-oct15.md:L5-L5]"]


def test_ask_and_context_put_the_decided_value_first(rabbit) -> None:
    review.resolve(rabbit.svc, _conflict(rabbit).id, "use_new", actor="human:ada")
    result = ask(rabbit.svc, rabbit.ws, rabbit.kb.id, QUESTION)
    first = result["answer"].split("\n")[0]
    assert NEW in first and DECIDED_MARK.strip() in first  # before: "RabbitMQ shutdown: 14 Nov 2026." first
    assert all(AGAINST_MARK.strip() in ln for ln in result["answer"].split("\n") if OLD in _said(ln))
    assert result["verified"]  # the flags are not read as values the cited lines must hold
    packet = svc_search.context(rabbit.svc, rabbit.ws, rabbit.kb.id, QUESTION, fmt="text")
    dated = [ln for ln in packet.split("\n") if re.search(r"\d{1,2} Nov 2026", ln)]
    assert NEW in dated[0] and DECIDED_MARK.strip() in dated[0]
    assert all(AGAINST_MARK.strip() in ln for ln in dated if OLD in _said(ln))


def test_raw_passages_of_the_decided_lines_carry_the_flags(rabbit) -> None:
    review.resolve(rabbit.svc, _conflict(rabbit).id, "use_new", actor="human:ada")
    packet = svc_search.context(rabbit.svc, rabbit.ws, rabbit.kb.id, "shutdown date", fmt="text")
    passages = [ln for ln in packet.split("\n") if re.match(r"L\d", ln) and "Nov 2026" in ln]
    assert len(passages) >= 2  # before: "L5: - RabbitMQ shutdown: 14 Nov 2026." as if nobody had decided
    for ln in passages:
        assert (AGAINST_MARK if OLD in _said(ln) else DECIDED_MARK) in ln, ln
    result = ask(rabbit.svc, rabbit.ws, rabbit.kb.id, "shutdown date")
    first = result["answer"].split("\n")[0]
    assert NEW in first and DECIDED_MARK.strip() in first and result["verified"]


def test_keep_flags_the_new_value_and_puts_the_kept_one_first(rabbit) -> None:
    review.resolve(rabbit.svc, _conflict(rabbit).id, "keep", actor="human:ada")
    [rec] = rabbit.page(DECIDED_PAGE)[0]["decided_values"]
    assert (rec["chosen"], rec["rejected"], rec["rejected_lines"]) == (OLD, NEW, ["platform-sync-oct15.md:L5-L5"])
    for rel, ls in _stating(_claim_lines(rabbit), NEW).items():
        assert all(AGAINST_MARK in ln for ln in ls), rel
    first = ask(rabbit.svc, rabbit.ws, rabbit.kb.id, QUESTION)["answer"].split("\n")[0]
    assert OLD in first and DECIDED_MARK.strip() in first


def test_a_compile_after_the_decision_does_not_bring_the_rejected_value_back(rabbit) -> None:
    review.resolve(rabbit.svc, _conflict(rabbit).id, "use_new", actor="human:ada")
    rabbit.compile()  # nothing changed: nothing asked again, the flags stay
    assert rabbit.items() == []
    rabbit.write("platform-sync-oct.md", SYNC + "- Next sync: 29 October 2026.\n")  # the note read again
    rabbit.write("infra-plan.md", INFRA.replace(f"{OLD}.", f"{OLD} (tentative)."))  # the rejected line reworded
    rabbit.compile()
    assert not [i for i in rabbit.items() if i.kind == "conflict"]  # the decided fact is not disputed again
    assert not _page_says(rabbit, DECIDED_PAGE, OLD)
    for rel, ls in _stating(_claim_lines(rabbit), OLD).items():  # the rebuilt pages are flagged by the pass
        assert all(AGAINST_MARK in ln for ln in ls), (rel, ls)
    for item in rabbit.items():  # … and so are the proposals held for a person
        for p in item.page_list:
            for ln in (p.proposed_body or "").split("\n"):
                if ln.startswith("* **") and OLD in _said(ln):
                    assert AGAINST_MARK in ln, (p.page_path, ln)


def test_undo_takes_the_flags_back(rabbit) -> None:
    from kctui.services.review_undo import undo_decision

    item = _conflict(rabbit)
    review.resolve(rabbit.svc, item.id, "use_new", actor="human:ada")
    flagged = {rel for rel, ls in _claim_lines(rabbit).items() if any(AGAINST_MARK in ln for ln in ls)}
    assert len(flagged) >= 3  # two source pages and the event's page, published with the decision
    undo_decision(rabbit.svc, item_id=item.id, actor="human:ada")
    assert not any(AGAINST_MARK in ln or DECIDED_MARK in ln for ls in _claim_lines(rabbit).values() for ln in ls)


def test_the_cli_and_mcp_show_the_decision(rabbit, monkeypatch, clock) -> None:
    from kctui.cli import main
    from kctui.config import Settings
    from kctui.mcp_server.tools import Tools
    from kctui.services.context import ServiceContext

    item = _conflict(rabbit)
    tools = Tools([str(rabbit.ws)], agent="agent:test",
                  ctx_factory=lambda: ServiceContext.open(clock=clock, settings=Settings()))
    tools.resolve_conflict(item.id, "use-new", item.expected_revision, reviewer="human:ada")
    packet, text = tools.get_context(None, rabbit.kb.id, QUESTION)
    assert DECIDED_MARK.strip() in text and AGAINST_MARK.strip() in text
    answer, _ = tools.ask(None, rabbit.kb.id, QUESTION)
    assert NEW in answer.answer.split("\n")[0]
    out = CliRunner().invoke(main, ["ask", str(rabbit.ws), rabbit.kb.id, QUESTION, "--json"])
    assert out.exit_code == 0, out.output
    first = json.loads(out.output)["answer"].split("\n")[0]
    assert NEW in first and DECIDED_MARK.strip() in first
