"""Issue 16 point 2, the schema file, against a fake model server on loopback (real HTTP; the
`fake` fixture of test_llm_extractor): the base's SCHEMA.md (or CLAUDE.md, AGENTS.md) is in every
prompt in seed 004's order (instruction, date, schema, inventory, rules, content); editing a section
scoped to some sources re-sends only their chunks, editing the general part re-sends every chunk; an
unusable schema fails closed (the default, one line in the brief); the built-in extractor leaves out
the classes the schema does not list."""

from __future__ import annotations

import os

from kctui.compiler.llm import prompt as prompt_mod
from kctui.compiler.schema import DEFAULT_SCHEMA, MAX_SCHEMA_BYTES, load_schema
from kctui.compiler.steps.pipeline import compile_pass
from tests.helpers.model import WIDGET, FakeModel, llm_request, make_kb
from tests.helpers.wiki import pages, request

RUNBOOK = "# Restarting\n\nRestart Widget Server with the restart command.\n\nPort: 8443\n"
SCHEMA = """# Our wiki

GENERAL-RULE: prefer the product's own names.

## Entities
People, products and tools.
Sections: Description · Relevance · Sources

## For `runbooks/**`
RUNBOOK-RULE-1: a command is a claim of the service it operates.
"""


def order(text: str, *marks: str) -> list[int]:
    return [text.index(m) for m in marks]


def test_the_schema_is_in_every_prompt_in_seed_order_and_a_scoped_edit_resends_only_its_chunks(
        tmp_path, fake: FakeModel) -> None:
    src = make_kb(tmp_path, {"products/widget.md": WIDGET, "runbooks/restart.md": RUNBOOK})
    (src.parent / "SCHEMA.md").write_text(SCHEMA, encoding="utf-8")
    first = llm_request(src, "job-1")
    compile_pass(first)
    assert len(fake.requests) == 2
    for body in fake.requests:
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        assert system == prompt_mod.SYSTEM and "Reply with ONLY one JSON object" in system
        assert "GENERAL-RULE" in user and "Sections: Description · Relevance · Sources" in user
        assert order(user, "Today's date: 2026-08-22", "(SCHEMA.md)", "GENERAL-RULE", "Rules (non-negotiable",
                     "Source file: ", "Source text, every") == sorted(order(
                         user, "Today's date: 2026-08-22", "(SCHEMA.md)", "GENERAL-RULE", "Rules (non-negotiable",
                         "Source file: ", "Source text, every"))
    by_source = {("runbooks/" in p): p for p in fake.prompts()}
    assert "RUNBOOK-RULE-1" in by_source[True] and "RUNBOOK-RULE-1" not in by_source[False]

    # the scoped section changes: only the runbook's chunk is sent again (the widget's is cached) …
    (src.parent / "SCHEMA.md").write_text(SCHEMA.replace("RUNBOOK-RULE-1", "RUNBOOK-RULE-2"), encoding="utf-8")
    second = llm_request(src, "job-2", prev=first.output_path, at="2026-09-01T00:00:00Z")
    result = compile_pass(second)
    assert len(fake.requests) == 3, fake.prompts()
    sent = fake.prompts()[-1]
    assert "Source file: runbooks/restart.md" in sent and "RUNBOOK-RULE-2" in sent and "RUNBOOK-RULE-1" not in sent
    # … in seed 004's order, with the inventory (the Widget Server page the runbook mentions) in its place
    assert order(sent, "Today's date: 2026-09-01", "GENERAL-RULE", "RUNBOOK-RULE-2",
                 "Existing wiki pages this part mentions", "- [entity] widget-server: Widget Server",
                 "Rules (non-negotiable", "Source file: runbooks/restart.md", "L3| Restart Widget Server") == sorted(
        order(sent, "Today's date: 2026-09-01", "GENERAL-RULE", "RUNBOOK-RULE-2",
              "Existing wiki pages this part mentions", "- [entity] widget-server: Widget Server",
              "Rules (non-negotiable", "Source file: runbooks/restart.md", "L3| Restart Widget Server"))
    assert "1 requests (0 retries, 0 re-asks) for 2 chunks, 1 answered from the reply cache" in \
        result.report.brief_markdown

    # an unchanged schema costs nothing; the general part changes: every chunk is sent again
    third = llm_request(src, "job-3", prev=second.output_path, at="2026-09-02T00:00:00Z")
    compile_pass(third)
    assert len(fake.requests) == 3
    (src.parent / "SCHEMA.md").write_text(SCHEMA.replace("GENERAL-RULE", "GENERAL-RULE-B")
                                          .replace("RUNBOOK-RULE-1", "RUNBOOK-RULE-2"), encoding="utf-8")
    compile_pass(llm_request(src, "job-4", prev=third.output_path, at="2026-09-03T00:00:00Z"))
    assert len(fake.requests) == 5 and all("GENERAL-RULE-B" in p for p in fake.prompts()[3:])


def test_claude_md_and_agents_md_are_read_too_and_the_first_found_wins(tmp_path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    (src.parent / "AGENTS.md").write_text("AGENTS-TEXT\n", encoding="utf-8")
    compile_pass(llm_request(src, "job-1"), cache_dir=None)
    assert "(AGENTS.md)" in fake.prompts()[-1] and "AGENTS-TEXT" in fake.prompts()[-1]
    (src.parent / "CLAUDE.md").write_text("CLAUDE-TEXT\n", encoding="utf-8")
    compile_pass(llm_request(src, "job-2"), cache_dir=None)
    assert "CLAUDE-TEXT" in fake.prompts()[-1] and "AGENTS-TEXT" not in fake.prompts()[-1]
    assert load_schema(src.parent).name == "CLAUDE.md"


def test_without_a_schema_file_the_embedded_default_is_sent(tmp_path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    compile_pass(llm_request(src, "job-1"), cache_dir=None)
    sent = fake.prompts()[-1]
    assert "(kctui's default)" in sent and DEFAULT_SCHEMA.strip().split("\n")[-1] in sent


def test_an_unusable_schema_fails_closed_with_one_line_in_the_brief(tmp_path, fake: FakeModel) -> None:
    src = make_kb(tmp_path)
    secret = tmp_path / "elsewhere.md"
    secret.write_text("OUTSIDE-TEXT\n", encoding="utf-8")
    os.symlink(secret, src.parent / "SCHEMA.md")
    result = compile_pass(llm_request(src, "job-1"), cache_dir=None)
    assert "OUTSIDE-TEXT" not in fake.prompts()[-1] and "(kctui's default)" in fake.prompts()[-1]
    assert "SCHEMA.md: is a symbolic link; it is not read; the embedded default schema is used" in result.report.warnings
    os.unlink(src.parent / "SCHEMA.md")
    (src.parent / "SCHEMA.md").write_bytes(b"x" * (MAX_SCHEMA_BYTES + 1))
    result = compile_pass(llm_request(src, "job-2"), cache_dir=None)
    assert [w for w in result.report.warnings if "SCHEMA.md" in w] == [
        f"SCHEMA.md: larger than {MAX_SCHEMA_BYTES} bytes; the embedded default schema is used"]
    (src.parent / "SCHEMA.md").write_bytes(b"## Entities\n\xff\n")
    assert load_schema(src.parent).problem == "SCHEMA.md: not UTF-8"


def test_the_builtin_extractor_writes_only_the_classes_the_schema_lists(tmp_path) -> None:
    src = make_kb(tmp_path, {"notes/tools.md": "# Tools\n\nRipgrep is a search tool. Ripgrep 14.1 was released "
                                               "on 2024-01-06.\n\nA *write-ahead log* is a log of changes written "
                                               "before they are applied.\n"})
    plain = request(src, "job-1")
    compile_pass(plain, cache_dir=None)
    kinds = {k.split("/")[0] for k in pages(plain.output_path)}
    (src.parent / "SCHEMA.md").write_text("## Sources\n## Concepts\n", encoding="utf-8")
    only = request(src, "job-2", out="only-concepts")
    compile_pass(only, cache_dir=None)
    got = {k.split("/")[0] for k in pages(only.output_path)}
    assert "entities" in kinds and "entities" not in got and "sources" in got
    assert got - {"entities"} == kinds - {"entities"}


def test_a_dry_run_of_a_model_backed_base_pays_once_and_says_what_the_real_pass_does(
        svc, workspace, fake: FakeModel) -> None:
    """The reply cache is keyed by source bytes and the schema alone, so the real pass after a dry run
    sends nothing; the dry run's brief is the real pass's."""
    from kctui.services import dry_run as dr
    from kctui.services.policy import update_policy
    from tests.helpers import make_base
    from tests.helpers.dry_run import comparable, real_pass

    base = make_base(svc, workspace, files={"products/widget.md": WIDGET, "runbooks/restart.md": RUNBOOK})
    (workspace / ".a3s" / "kb" / "bases" / base.id / "SCHEMA.md").write_text(SCHEMA, encoding="utf-8")
    update_policy(svc, workspace, base.id, extractor="llm")
    run = dr.run_dry_run(svc, workspace, base.id)
    assert run.phase == "succeeded", run.error
    assert len(fake.requests) == 2 and all("GENERAL-RULE" in p for p in fake.prompts())
    markdown, _ = real_pass(svc, base)
    assert len(fake.requests) == 2  # every chunk answered from the reply cache the dry run filled
    assert "schema-" in run.brief["compiler"]
    dry = [ln for ln in comparable(run.brief["markdown"]) if "tokens in" not in ln]
    assert dry == [ln for ln in comparable(markdown) if "tokens in" not in ln]
