"""The built-in compiler on ordinary team notes nobody tuned it for (tests/fixtures/notes: meeting
notes, a decision record, a runbook, a vendor table, a TODO list, an on-call page, a tool note, a team
page): a page for every named person, tool, service and vendor, each with its stated facts cited; every
TODO item, action item and decision a cited claim; no page titled by a common word or a section name;
a prose disagreement is exactly one conflict and a rephrasing none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kctui.compiler.builtin.names import common_phrase
from kctui.compiler.steps.pipeline import compile_pass
from kctui.core.pages import parse_claim_line
from tests.helpers.wiki import check_wiki, pages, request

NOTES = Path(__file__).parents[1] / "fixtures" / "notes"
PEOPLE = {"Priya Raman", "Tomás Okafor", "Lena Vogel"}
THINGS = {"RabbitMQ", "Kafka", "PostgreSQL", "Redis", "Datadog", "PagerDuty", "Vault", "billing-api", "Ripgrep", "SQLite"}


def _compile(tmp_path: Path, files: dict[str, str] | None = None):
    src = tmp_path / "kb" / "sources"
    if files is None:
        shutil.copytree(NOTES, src)
    else:
        src.mkdir(parents=True)
        for name, text in files.items():
            (src / name).write_text(text, encoding="utf-8")
    req = request(src, "job-notes")
    result = compile_pass(req, cache_dir=None)
    check_wiki(req.output_path, src)
    return src, req, result


def _claims(body: str) -> list:
    return [c for line in body.splitlines() if (c := parse_claim_line(line, {})) is not None]


@pytest.fixture(scope="module")
def notes_wiki(tmp_path_factory: pytest.TempPathFactory):
    return _compile(tmp_path_factory.mktemp("notes"))


def _entities(req) -> dict[str, tuple[dict, str]]:  # noqa: ANN001
    return {d["title"]: (d, body) for rel, (d, body) in pages(req.output_path).items() if rel.startswith("entities/")}


def test_every_named_person_tool_service_and_vendor_has_an_entity_page(notes_wiki) -> None:
    src, req, result = notes_wiki
    entities = _entities(req)
    assert PEOPLE | THINGS <= set(entities), sorted(set(entities))
    for person in PEOPLE:
        assert entities[person][0]["entity_type"] == "person", person
    assert entities["Datadog"][0]["entity_type"] == "company"  # the vendor column says so
    assert entities["billing-api"][0]["entity_type"] == "service"  # "the billing-api service"


def test_stated_facts_are_cited_claims_on_the_thing_they_are_about(notes_wiki) -> None:
    src, req, result = notes_wiki
    entities = _entities(req)

    def has(title: str, attribute: str, value: str, path: str) -> bool:
        return any(c.attribute == attribute and c.value == value and c.evidence.path == path
                   for c in _claims(entities[title][1]))

    assert has("Ripgrep", "release date", "2024-01-06", "tools.md")
    assert has("Ripgrep", "is", "a line-oriented search tool", "tools.md")
    assert has("SQLite", "is", "an embedded database engine", "tools.md")
    assert any("SQLite 3.46" in c.value for c in _claims(entities["SQLite"][1]))
    assert has("Datadog", "Price", "$2,750 / month", "vendors.md")
    assert has("Datadog", "renews on", "2026-09-30", "vendors.md")
    assert has("Datadog", "owned by", "Lena Vogel", "vendors.md")
    assert has("billing-api", "takes", "about 12 minutes", "runbook-billing-api.md")
    assert has("billing-api", "owned by", "Lena Vogel", "runbook-billing-api.md")
    assert has("billing-api", "on-call engineer", "Lena Vogel", "oncall.md")
    assert has("billing-api", "command", "kubectl rollout restart deployment/billing-api -n billing", "runbook-billing-api.md")
    assert has("Kafka", "is", "a distributed event streaming platform", "adr-0007-message-queue.md")
    # the first definitional sentence is the page's description
    assert entities["PagerDuty"][0]["description"].startswith("PagerDuty is an incident response platform")
    for title in PEOPLE | THINGS:  # a page says what its sources say, not only that they mention it
        body = entities[title][1]
        assert "Mentioned as" not in body and len(_claims(body)) >= 2, title


def test_every_todo_action_item_and_decision_is_a_cited_claim(notes_wiki) -> None:
    src, req, result = notes_wiki
    claims = [c for _, body in pages(req.output_path).values() for c in _claims(body)]
    wanted: list[tuple[str, int, str]] = []
    for path in sorted(src.rglob("*.md")):
        rel = path.relative_to(src).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            text = line.strip()
            if text.startswith(("- [ ]", "- [x]")):
                wanted.append((rel, number, "done" if "[x]" in text else "to do"))
            elif rel.startswith("meeting") and text.startswith("- ") and ":" in text and number > 15:
                wanted.append((rel, number, "action item"))
            elif "We chose" in text or text.startswith("- Decision:"):
                wanted.append((rel, number, "decision"))
    assert len(wanted) >= 9
    for rel, number, attribute in wanted:
        assert any(c.attribute == attribute and c.evidence.path == rel and c.evidence.start <= number <= c.evidence.end
                   for c in claims), (rel, number, attribute)
    # (an action item that names no owner is its note's: "Platform team", the title of team.md)
    owners = {c.subject for c in claims if c.attribute == "action item"} - {"Platform team"}
    assert owners == PEOPLE
    reason = [c for c in claims if c.attribute == "reason" and c.subject == "Kafka"]
    assert reason and all("replayable log" in c.value for c in reason)


def test_no_page_is_titled_by_a_common_word_or_a_section_name(notes_wiki) -> None:
    src, req, result = notes_wiki
    titles = [d["title"] for rel, (d, _) in pages(req.output_path).items() if not rel.startswith("sources/")]
    sections = {"Context", "Decision", "Decisions", "Consequences", "Action items", "Notes", "Restart"}
    assert not [t for t in titles if t in sections or common_phrase(t)], titles
    assert not [t for t in titles if t.casefold().endswith(" team")], titles


ONCALL_A = "# On-call\n\nThe on-call engineer for billing-api is Lena Vogel.\n"
ONCALL_B = "# Rota\n\nThe on-call engineer for billing-api is Tomás Okafor.\n"
ONCALL_SAME = "# Rota\n\nLena Vogel is the on-call engineer for billing-api.\n"


def test_a_prose_disagreement_opens_exactly_one_conflict(tmp_path: Path) -> None:
    src, req, result = _compile(tmp_path, {"a.md": ONCALL_A, "b.md": ONCALL_B})
    assert len(result.conflicts) == 1
    conflict = result.conflicts[0]
    assert conflict.title == "billing-api" and conflict.attribute == "on-call engineer"
    assert {(c.evidence.path, c.value) for c in conflict.claims} == {("a.md", "Lena Vogel"), ("b.md", "Tomás Okafor")}


def test_rephrasing_the_same_value_opens_no_conflict(tmp_path: Path) -> None:
    src, req, result = _compile(tmp_path, {"a.md": ONCALL_A, "b.md": ONCALL_SAME})
    assert result.conflicts == []
    page = _entities(req)["billing-api"][1]
    on_call = [c for c in _claims(page) if c.attribute == "on-call engineer"]
    assert {c.evidence.path for c in on_call} == {"a.md", "b.md"} and {c.value for c in on_call} == {"Lena Vogel"}
