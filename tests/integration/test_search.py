"""Search and compiled-first context over the promoted wiki (issue 9).

- staged and failed output, a base without a successful compile and `sources/` text never come back
  as compiled hits; nothing in the live wiki is followed through a symlink;
- a contradicted page is flagged in the packet with both disputed claims and their citations; a page
  promoted as needs-review or past its stale_after is flagged too, without the promotion hook;
- packets never exceed their budget (hypothesis over budgets and queries), items are whole, and
  truncation says what budget would hold the next item; an empty result says what to do next;
- the endoflife wiki answers "python 3.12 end of life" with the Python page first and the cycle's
  end-of-life date, as written in python.md's frontmatter, with its citation.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kctui import paths
from kctui.core.page_status import set_page_status
from kctui.search.context import MAX_BUDGET, MIN_BUDGET
from kctui.search.packet_items import full_item, kind_of
from kctui.search.query import QueryError, parse_query, tokens
from kctui.services import jobs, results
from kctui.services import search as svc_search
from kctui.services.errors import InvalidInput
from kctui.services.local_transport import LocalTransport
from kctui.services.review_publish import publish_pages
from kctui.services.search_refresh import refresh_base_index
from kctui.services.worker import run_worker
from tests.helpers import make_base, write_staged_page
from tests.helpers.packets import claims, passages, statements

DEMO = Path(__file__).resolve().parents[2] / "kctui" / "demo_sources"
EOL_SLICE = ("aws-lambda.md", "django.md", "ansible-core.md", "amazon-glue.md")

# endoflife.date's products/python.md is not in the a–k corpus; when it is absent, this file, written in
# the corpus's format with Python's published release dates, stands in for it.
PYTHON_MD = """---
title: Python
addedAt: 2017-10-26
category: lang
tags: python-runtime
iconSlug: python
permalink: /python
versionCommand: python --version
releasePolicyLink: https://devguide.python.org/versions/
activeSupportColumn: true

releases:
  - releaseCycle: "3.14"
    releaseDate: 2025-10-07
    eoas: 2027-10-01
    eol: 2030-10-31

  - releaseCycle: "3.13"
    releaseDate: 2024-10-07
    eoas: 2026-10-01
    eol: 2029-10-31

  - releaseCycle: "3.12"
    releaseDate: 2023-10-02
    eoas: 2025-04-02
    eol: 2028-10-31

  - releaseCycle: "3.11"
    releaseDate: 2022-10-24
    eoas: 2024-04-01
    eol: 2027-10-31

---

> [Python](https://www.python.org/) is an interpreted, high-level, general-purpose programming language.

Feature releases get about two years of bugfix support, then security fixes until five years after
their first release.
"""


def compile_now(svc, ws: Path, kb_id: str) -> None:
    jobs.request_compile(svc, ws, kb_id)
    outcomes = run_worker(LocalTransport(svc), stop_event=threading.Event(), once=True)
    assert [o.result for o in outcomes] == ["succeeded"], outcomes


def compiled_base(svc, ws: Path, files: dict[str, str], name: str = "Notes") -> str:
    base = make_base(svc, ws, name, files)
    compile_now(svc, ws, base.id)
    return base.id


def demo_files() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(DEMO.iterdir()) if p.is_file()}


def packet(svc, ws, kb, query, budget=16_384):
    return json.loads(svc_search.context(svc, ws, kb, query, budget=budget, fmt="json"))


def wiki_text(ws: Path, kb: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(paths.wiki_path(ws, kb).rglob("*.md")))


# -- what is never indexed --------------------------------------------------------------------------


def test_staged_and_failed_output_never_appear(svc, workspace):
    kb = compiled_base(svc, workspace, {"a.md": "# Alpha\n\nAlpha is the first letter.\n"})
    # A staged tree left by a job that never reported (e.g. killed before promotion).
    write_staged_page(workspace, kb, "job-1-1", name="staged.md", body="stagedquokka was never promoted")
    # A job whose output was rejected at validation (a page with no `type`): it fails, its tree stays.
    (paths.sources_path(workspace, kb) / "b.md").write_text("# Beta\n\nBeta is the second letter.\n")
    jobs.request_compile(svc, workspace, kb)
    _base, job = jobs.claim(svc)
    bad = paths.staged_wiki(workspace, kb, job.id) / "bad.md"
    bad.write_text("---\ntitle: Bad\n---\n\nfailedwombat output\n", encoding="utf-8")
    _, _, failed = results.report_result(svc, workspace, kb, job.id, "succeeded")
    assert failed.phase == "failed" and failed.error_code == "invalid_output"
    assert bad.is_file()  # the failed tree is still on disk, beside the live wiki

    for word in ("stagedquokka", "failedwombat", "stagedquok*", "failedwom*"):
        assert svc_search.search(svc, workspace, kb, word)["items"] == []
        assert [i for i in packet(svc, workspace, kb, word)["items"] if kind_of(i) == "page"] == []
    assert svc_search.search(svc, workspace, kb, "alpha letter")["items"][0]["title"] == "Alpha"


def test_base_without_a_successful_compile_is_not_indexed(svc, workspace):
    base = make_base(svc, workspace, "Raw", {"n.md": "# N\n\nThe numbat eats termites.\n"})
    hand_made = paths.wiki_path(workspace, base.id) / "entities"
    hand_made.mkdir(parents=True)
    (hand_made / "numbat.md").write_text("---\ntype: Entity\ntitle: Numbat\n---\n\n# Numbat\n\nnumbat\n")
    result = svc_search.search(svc, workspace, base.id, "numbat")
    assert result["items"] == [] and "compile it first" in result["nextActions"][0]
    pkt = packet(svc, workspace, base.id, "numbat termites")
    assert pkt["knowledgeBase"]["compiled"] is False
    assert [kind_of(i) for i in pkt["items"]] == ["evidence"]  # the raw passage is all there is
    assert pkt["items"][0]["source"] == "n.md"
    assert [p["lines"] for p in passages(pkt["items"][0]) if "numbat" in p["text"]] == [[3, 3]]


def test_a_source_line_is_packed_once_and_never_read_through_a_symlink(svc, workspace, tmp_path):
    line = "When asked, Bartholomew whistled a quokkaship tune near the pier."
    kb = compiled_base(svc, workspace, {"notes.md": f"# Notes\n\nSQLite is a database.\n\n{line}\n"})
    outside = tmp_path / "outside.md"
    outside.write_text("wallabyzone lives outside sources\n")
    os.symlink(outside, paths.sources_path(workspace, kb) / "link.md")
    pkt = packet(svc, workspace, kb, "quokkaship")
    quoted = [(kind_of(i), x.get("citation") or x["lines"]) for i in pkt["items"]
              for x in statements(i) if "quokkaship" in x["text"]]
    assert len(quoted) == 1, quoted  # the line once: as the claim its source page compiled, or as evidence
    kind, where = quoted[0]
    assert where in ("^[notes.md:L5-L5]", [5, 5]) and kind in ("page", "evidence")
    text = svc_search.context(svc, workspace, kb, "quokkaship", fmt="text")
    assert text.count("quokkaship tune") == 1
    assert packet(svc, workspace, kb, "wallabyzone")["items"] == []  # a symlink in sources/ is never read
    # A symlink planted in the live wiki is never followed either.
    os.symlink(outside, paths.wiki_path(workspace, kb) / "evil.md")
    assert svc_search.search(svc, workspace, kb, "wallabyzone")["items"] == []


# -- trust flags ---------------------------------------------------------------------------------------


def test_contradicted_page_is_flagged_in_the_packet(svc, workspace):
    kb = compiled_base(svc, workspace, demo_files(), name="Demo")
    pkt = packet(svc, workspace, kb, "python 3.12 end of life")
    first = pkt["items"][0]
    assert kind_of(first) == "page" and first["page"] == "entities/python.md"
    assert first["status"] == "contradicted" and first["flag"]["status"] == "contradicted"
    assert "disagree" in first["flag"]["why"]
    disputed = {c["citation"]: c["text"] for c in claims({"claims": first["flag"]["conflicts"]})}  # as the text lists them
    assert disputed.keys() == {"^[python-release-cycle.md:L13-L13]", "^[team-upgrade-notes.md:L8-L8]"}
    assert "2028-10-31" in disputed["^[python-release-cycle.md:L13-L13]"]
    assert "2028-10-02" in disputed["^[team-upgrade-notes.md:L8-L8]"]
    assert set(first["flag"]) <= {"status", "why", "conflicts", "review"}  # nothing the text packet leaves out
    text = svc_search.context(svc, workspace, kb, "python 3.12 end of life", fmt="text")
    block = text.split("## Python — entities/python.md (contradicted)\n")[1].split("\n## ")[0]
    assert "⚠ CONTRADICTED" in block and "do not assert" in block and "^[team-upgrade-notes.md:L8-L8]" in block


def test_review_and_stale_pages_are_flagged_after_a_promotion_without_the_hook(svc, workspace):
    kb = compiled_base(svc, workspace, demo_files(), name="Demo")
    entity = "entities/sqlite-write-ahead-logging.md"
    hit = next(h for h in svc_search.search(svc, workspace, kb, "sqlite wal")["items"] if h["page"] == entity)
    assert hit["flag"] is None
    live = paths.wiki_path(workspace, kb)
    sqlite = (live / hit["page"]).read_text(encoding="utf-8")
    gen = (live / "concepts/generation.md").read_text(encoding="utf-8")
    with svc.store.write() as conn:  # a review decision's promotion; nobody calls the hook
        publish_pages(conn, str(workspace), kb, {
            hit["page"]: set_page_status(sqlite, "needs-review"),
            "concepts/generation.md": set_page_status(gen, "compiled", stale_after="2020-01-01T00:00:00Z"),
        }, author="test", reason="test", now_us=svc.now())
    flagged = next(h for h in svc_search.search(svc, workspace, kb, "sqlite wal")["items"] if h["page"] == entity)
    assert flagged["status"] == "needs-review" and flagged["flag"]["why"]
    stale = packet(svc, workspace, kb, "generation")["items"][0]
    assert stale["page"] == "concepts/generation.md" and stale["flag"]["status"] == "stale"
    assert "2020-01-01" in stale["flag"]["why"]
    view = svc_search.page_view(svc, workspace, kb, "sqlite-write-ahead-logging")
    assert view["statusLine"].startswith("⚠ needs-review") and view["claims"]
    assert [r["revision"] for r in view["history"]] == [1, 2] and "Status: needs-review" in view["body"]
    stats = refresh_base_index(str(workspace), kb, ctx=svc)  # the hook: already fresh, nothing to do
    assert stats is not None and not stats.refreshed


# -- queries, budgets, truncation and empty results ------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=120) | st.lists(st.sampled_from(['"', "*", "(", ")", "AND", "OR", "NOT", "NEAR", ":",
                                                              "^", "-", "+", "{a b}", "x", "é", "3.12"]),
                                              max_size=12).map(" ".join),
       as_you_type=st.booleans())
def test_no_query_text_breaks_the_match(text, as_you_type):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO t VALUES ('Python', 'end of life 3.12 AND OR NOT')")
    try:
        parsed = parse_query(text, as_you_type=as_you_type)
    except QueryError as exc:
        assert not tokens(text) or "at most" in str(exc)
        return
    for mode in ("all", "all-prefix", "any"):
        conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (parsed.expression(mode),)).fetchone()


WORDS = st.sampled_from(["python", "3.12", "end", "of", "life", "eol", "sqlite", "wal", "rename", "promotion",
                         "generation", "team", "zzz", "AND", "OR", "NOT", "NEAR", "(", ")", "\"", "*", "py*",
                         "title:python", "^", "{body}", "-", "ünïcödé", "日本語", "a" * 60])


@pytest.fixture
def demo_kb(svc, workspace):
    return compiled_base(svc, workspace, demo_files(), name="Demo")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(MIN_BUDGET, MAX_BUDGET) | st.integers(MIN_BUDGET, 4096),
       words=st.lists(WORDS | st.text(min_size=1, max_size=12), min_size=1, max_size=8),
       fmt=st.sampled_from(["json", "text"]))
def test_packet_never_exceeds_its_budget(svc, workspace, demo_kb, budget, words, fmt):
    query = " ".join(words)
    try:
        out = svc_search.context(svc, workspace, demo_kb, query, budget=budget, fmt=fmt)
    except InvalidInput:  # only a query with no letters or digits may be refused here
        assert not tokens(query)
        return
    assert len(out.encode("utf-8")) <= budget
    if fmt == "json":
        data = json.loads(out)  # items are whole JSON objects
        assert data.get("bytes", len(out.encode("utf-8"))) == len(out.encode("utf-8"))  # (none in the tersest envelope)
        held = sum(len(statements(i)) + bool(i.get("description")) for i in map(full_item, data["items"]))
        assert data["statementsIncluded"] == held and data["truncated"] == (held < data["statementsAvailable"])
        if data["truncated"]:
            assert "raise the budget" in data["nextActions"][0]
        if not data["items"]:
            assert data["nextActions"]
    else:
        assert re.search(r"— \d+/\d+ statements(, [\d,]+/[\d,]+ bytes|;|\n)", out)


def test_truncation_is_reported_with_the_budget_that_holds_the_next_item(svc, workspace, demo_kb):
    small = packet(svc, workspace, demo_kb, "python", budget=MIN_BUDGET)
    full = packet(svc, workspace, demo_kb, "python", budget=MAX_BUDGET)
    assert not full["truncated"] and full["statementsIncluded"] == full["statementsAvailable"] >= 3
    assert small["truncated"] and small["statementsIncluded"] < small["statementsAvailable"]
    need = int(re.search(r"to ([\d,]+) bytes", small["nextActions"][0]).group(1).replace(",", ""))
    more = packet(svc, workspace, demo_kb, "python", budget=need)
    assert more["statementsIncluded"] >= small["statementsIncluded"] + 1  # the named budget holds the next one

    def held(pkt: dict) -> set:
        return {(i.get("page") or i.get("source"), x["text"], str(x.get("lines") or x.get("citation")))
                for i in map(full_item, pkt["items"]) for x in statements(i)}  # the statements (a small packet's name no compiling pages)

    assert held(small) <= held(more) <= held(full)  # a larger budget holds what a smaller one held
    text = svc_search.context(svc, workspace, demo_kb, "python", budget=MIN_BUDGET, fmt="text")
    assert re.search(r"— \d+/\d+ statements; next: raise the budget", text)  # (the count says it is truncated)


def test_empty_result_says_what_to_do_next(svc, workspace, demo_kb):
    result = svc_search.search(svc, workspace, demo_kb, "xylophonic marsupials")
    assert result["items"] == [] and result["match"] == "none"
    assert any("broaden the query" in a for a in result["nextActions"])
    pkt = packet(svc, workspace, demo_kb, "xylophonic")
    assert pkt["items"] == [] and pkt["nextActions"] and not pkt["truncated"]
    runner = CliRunner()
    from kctui.cli import main

    out = runner.invoke(main, ["search", str(workspace), demo_kb, "xylophonic"])
    assert out.exit_code == 0 and "no compiled page matches" in out.output and "next: " in out.output


def test_bounds_are_one_clear_line(svc, workspace, demo_kb):
    with pytest.raises(InvalidInput, match="at most 1,024"):
        svc_search.search(svc, workspace, demo_kb, "x" * 1025)
    with pytest.raises(InvalidInput, match="33 terms; at most 32"):
        svc_search.search(svc, workspace, demo_kb, " ".join(["w"] * 33))
    with pytest.raises(InvalidInput, match="budget must be from 1,024 to 131,072"):
        svc_search.context(svc, workspace, demo_kb, "python", budget=1023)
    from kctui.cli import main

    runner = CliRunner()
    bad = runner.invoke(main, ["context", str(workspace), demo_kb, "python", "--budget", "200000"])
    assert bad.exit_code == 1 and bad.output.strip().startswith("kctui: error: budget must be from")
    assert len(bad.output.strip().splitlines()) == 1
    ok = runner.invoke(main, ["context", str(workspace), demo_kb, "python 3.12", "--budget", "3000", "--json"])
    assert ok.exit_code == 0 and len(ok.output.encode()) <= 3000 and json.loads(ok.output)["items"]
    hits = runner.invoke(main, ["search", str(workspace), demo_kb, "python 3.12 eol", "--json", "--limit", "2"])
    assert hits.exit_code == 0 and len(json.loads(hits.output)["items"]) == 2


# -- the endoflife wiki --------------------------------------------------------------------------------


def _python_source(products: Path) -> str:
    real = products / "python.md"
    return real.read_text(encoding="utf-8") if real.is_file() else PYTHON_MD


def _cycle_eol(text: str, cycle: str) -> tuple[str, int, int]:
    """The eol of `cycle` as written in the frontmatter, its line number and that of its record's first line."""
    head = text.split("\n---", 1)[0]
    releases = yaml.safe_load(head.lstrip("-\n"))["releases"]
    eol = str(next(r for r in releases if str(r["releaseCycle"]) == cycle)["eol"])
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if re.search(rf"releaseCycle:\s*[\"']?{re.escape(cycle)}[\"']?\s*$", ln))
    n = next(i for i in range(start + 1, len(lines)) if re.match(r"\s*eol:", lines[i]))
    assert eol in lines[n]
    return eol, n + 1, start + 1


def test_endoflife_wiki_answers_python_312_end_of_life(svc, workspace, shared_dir, tmp_path):
    products = shared_dir / "corpus" / "endoflife" / "2026-08-22" / "products"
    if not products.is_dir():
        pytest.skip(f"the endoflife corpus is not at {products}")
    slice_dir = tmp_path / "slice"
    slice_dir.mkdir()
    for name in EOL_SLICE:
        shutil.copy2(products / name, slice_dir / name)
    python_md = _python_source(products)
    (slice_dir / "python.md").write_text(python_md, encoding="utf-8")
    eol, line, record = _cycle_eol(python_md, "3.12")
    from kctui.services import bases

    _, base = bases.create_base(svc, workspace, "EOL", from_paths=[str(slice_dir)])
    compile_now(svc, workspace, base.id)

    result = svc_search.search(svc, workspace, base.id, "python 3.12 end of life")
    first = result["items"][0]
    assert first["title"] == "Python", [h["page"] for h in result["items"]]
    best = first["claims"][0]
    assert (best["scope"], best["value"]) == ("3.12", eol)
    cited = re.fullmatch(r"\^\[python\.md:L(\d+)-L(\d+)\]", best["citation"])  # the row: its record's lines
    assert cited and int(cited.group(1)) == record and record < line <= int(cited.group(2))
    pkt = packet(svc, workspace, base.id, "python 3.12 end of life", budget=4096)
    first = pkt["items"][0]
    assert first["title"] == "Python" and eol in claims(first)[0]["text"]
    assert claims(first)[0]["citation"] == best["citation"]  # the compiled record leads
    assert pkt["uncoveredTerms"] == []  # compiled pages cover every term
    cited = [re.fullmatch(r"\^\[(.+):L(\d+)-L(\d+)\]", c["citation"]).groups()
             for i in pkt["items"] for c in claims(i)]
    for i in pkt["items"]:  # a claim and the passage it was lifted from are never both packed
        for q in passages(i):
            assert not any(path == i["source"] and int(a) <= q["lines"][1] and q["lines"][0] <= int(b)
                           for path, a, b in cited), (i["source"], q)

    # Incremental: after a recompile where one source changed, only that source's pages are touched.
    before = svc_search.refresh(svc, workspace, base.id)
    assert not before.refreshed
    django = paths.sources_path(workspace, base.id) / "django.md"
    django.write_text(django.read_text(encoding="utf-8") + "\nDjango loves ponies.\n", encoding="utf-8")
    compile_now(svc, workspace, base.id)
    after = svc_search.refresh(svc, workspace, base.id)
    assert after.refreshed and after.added + after.removed == 0
    assert 1 <= after.updated <= 4 and after.unchanged >= before.pages - 4
    assert svc_search.search(svc, workspace, base.id, "python 3.12 eol")["items"][0]["title"] == "Python"
