"""Issue 15: pages a person or an agent writes, within the trust boundary. A statement appended to a
page survives later compiles (the compiler appends around it) and a source change that still supports
it (its citation follows moved lines); a change that disagrees opens exactly one conflict, kept open
across passes until a person decides. Direct edits are narrower than the compiler: no supersede, a
human-confirmed page takes appends only, an agent's edit is bounded by the base's autonomy."""

from __future__ import annotations

import threading

import pytest

from kctui import paths
from kctui.core.frontmatter import parse_document
from kctui.services import jobs, review, revisions
from kctui.services.errors import Conflict, InvalidInput, Refused
from kctui.services.local_transport import LocalTransport
from kctui.services.page_edit import edit_page
from kctui.services.policy import update_policy
from kctui.services.review_decide import resolve
from kctui.services.worker import run_worker
from tests.helpers import make_base

ONCALL = ("# Billing API\n\nThe billing-api service handles invoices.\n\n"
          "The on-call engineer for billing-api is {who}.\n")
PAGE = "entities/billing-api.md"
STATEMENT = "Lena Vogel carries the billing pager"


class Base:
    def __init__(self, svc, workspace) -> None:
        self.svc, self.ws = svc, workspace
        self.kb = make_base(svc, workspace, "Edits", files={"oncall.md": ONCALL.format(who="Lena Vogel"),
                                                            "team.md": "# Team\n\nThe team meets on Mondays.\n"})
        self.src = paths.sources_path(workspace, self.kb.id)
        self.wiki = paths.wiki_path(workspace, self.kb.id)

    def compile(self) -> None:
        jobs.request_compile(self.svc, self.ws, self.kb.id)
        [outcome] = run_worker(LocalTransport(self.svc), stop_event=threading.Event(), once=True)
        assert outcome.result == "succeeded", outcome

    def text(self, rel: str = PAGE) -> str:
        return (self.wiki / rel).read_text(encoding="utf-8")

    def front(self, rel: str = PAGE) -> dict:
        return parse_document(self.text(rel))[0]

    def edit(self, **kw):
        return edit_page(self.svc, self.ws, self.kb.id, kw.pop("slug", "billing-api"), **kw)

    def open_items(self) -> list[review.ReviewItem]:
        return review.list_items(self.svc, kb_id=self.kb.id)


@pytest.fixture
def base(svc, workspace) -> Base:
    b = Base(svc, workspace)
    update_policy(svc, workspace, b.kb.id, autonomy="auto")  # source revisions apply unattended here
    b.compile()
    return b


def statement_lines(text: str) -> list[str]:
    return [ln for ln in text.split("\n") if STATEMENT in ln and ln.startswith("* ")]


def test_an_appended_statement_survives_compiles_and_a_source_change(base: Base) -> None:
    rev0 = revisions.page_history(base.svc, base.ws, base.kb.id, PAGE)[-1].number
    done = base.edit(op="append", text=STATEMENT, citation="oncall.md:L5-L5", value="Lena Vogel",
                     author="human:lena")
    assert done["edit"]["citation"] == "oncall.md:L5-L5" and done["author"] == "human:lena"
    history = revisions.page_history(base.svc, base.ws, base.kb.id, PAGE)
    assert (history[-1].author, history[-1].number) == ("human:lena", done["revision"])
    assert done["revision"] == rev0 + 1
    assert statement_lines(base.text()) == [
        f"* Statement by a person (lena) on {done['edit']['at'][:10]}: {STATEMENT} ^[oncall.md:L5-L5]"]

    base.compile()  # nothing changed
    (base.src / "team.md").write_text("# Team\n\nThe team meets on Tuesdays.\n", encoding="utf-8")
    base.compile()  # another source changed
    assert len(statement_lines(base.text())) == 1
    # the source changes but still says it, two lines lower: the citation follows, nothing is raised
    (base.src / "oncall.md").write_text("# Billing API\n\nThe billing-api service handles invoices and refunds.\n\n"
                                        "It runs in two regions.\n\nThe on-call engineer for billing-api is "
                                        "Lena Vogel.\n", encoding="utf-8")
    base.compile()
    [line] = statement_lines(base.text())
    assert line.endswith("^[oncall.md:L7-L7]") and "disputed" not in line
    assert "refunds" in base.text()  # the compiler's own update of the page went in around it
    assert base.front()["compile_status"] != "contradicted"
    assert [i for i in base.open_items() if i.kind == "conflict"] == []


def test_a_disagreeing_source_change_opens_one_conflict_until_a_person_decides(base: Base) -> None:
    base.edit(op="append", text=STATEMENT, citation="oncall.md:L5-L5", value="Lena Vogel", author="agent:bot")
    base.edit(op="append", kind="note", text="Ask before deploying on Fridays", author="agent:bot")
    (base.src / "oncall.md").write_text(ONCALL.format(who="Priya Raman"), encoding="utf-8")
    base.compile()
    conflicts = [i for i in base.open_items() if i.kind == "conflict"]
    assert len(conflicts) == 1
    [item] = conflicts
    assert item.page_path == PAGE and item.details["fingerprint"] == "edit:e1"
    assert item.details["incoming"]["value"] == "The on-call engineer for billing-api is Priya Raman."
    fm = base.front()
    assert fm["compile_status"] == "contradicted"
    [line] = statement_lines(base.text())
    assert "⚑ disputed: the cited source now says “The on-call engineer for billing-api is Priya Raman.”" in line
    assert "Ask before deploying on Fridays" in base.text()  # the note is not the source's business
    from kctui.services.briefs import find_brief
    assert "`oncall.md` no longer says what agent:bot wrote" in find_brief(base.svc, base.ws, base.kb.id)["markdown"]

    (base.src / "team.md").write_text("# Team\n\nThe team meets on Fridays.\n", encoding="utf-8")
    base.compile()  # still open, still one, same item
    assert [i.id for i in base.open_items() if i.kind == "conflict"] == [item.id]

    with pytest.raises(Conflict):
        resolve(base.svc, item.id, "use_new", expected_revision=item.expected_revision - 1)
    fresh = review.get_item(base.svc, item.id)
    resolve(base.svc, item.id, "use_new", expected_revision=fresh.expected_revision)
    text = base.text()
    assert statement_lines(text) == [] and "Ask before deploying on Fridays" in text
    assert base.front()["compile_status"] == "confirmed"
    base.compile()
    assert [i for i in base.open_items() if i.kind == "conflict"] == []


def test_keeping_a_disputed_statement_is_not_asked_again_for_the_same_lines(base: Base) -> None:
    base.edit(op="append", text=STATEMENT, citation="oncall.md:L5-L5", value="Lena Vogel", author="human:lena")
    (base.src / "oncall.md").write_text(ONCALL.format(who="Priya Raman"), encoding="utf-8")
    base.compile()
    [item] = [i for i in base.open_items() if i.kind == "conflict"]
    resolve(base.svc, item.id, "keep", expected_revision=item.expected_revision)
    assert "disputed" not in statement_lines(base.text())[0]
    (base.src / "oncall.md").write_text(ONCALL.format(who="Priya Raman") + "\nPages go to #billing.\n",
                                        encoding="utf-8")
    base.compile()  # the file changed, the cited lines did not: the person's decision stands
    assert [i for i in base.open_items() if i.kind == "conflict"] == []
    (base.src / "oncall.md").write_text(ONCALL.format(who="Sam Okafor"), encoding="utf-8")
    base.compile()  # the cited lines changed again: asked again
    assert len([i for i in base.open_items() if i.kind == "conflict"]) == 1


def test_direct_edits_are_narrower_than_the_compiler(base: Base) -> None:
    before = base.text()
    with pytest.raises(Refused) as exc:
        base.edit(op="supersede", text="all new", author="human:lena")
    assert exc.value.code == "supersede"
    with pytest.raises(InvalidInput):  # the cited lines must contain the value
        base.edit(op="append", text="Sam is on call", citation="oncall.md:L5-L5", value="Sam", author="human:lena")
    with pytest.raises(InvalidInput):
        base.edit(op="append", text="x", citation="../outside.md:L1-L1", author="human:lena")
    assert base.text() == before
    with pytest.raises(InvalidInput) as bad:  # a section the page does not have (QA s29 item 17)
        base.edit(op="revise", section="Runbook", text="Restart with systemctl.", author="human:lena")
    assert "no section 'Runbook'" in str(bad.value) and "Relevance" in str(bad.value)
    assert base.text() == before
    done = base.edit(op="revise", section="relevance", text="Restart with systemctl.", author="human:lena")
    again = base.edit(op="revise", section="Relevance", text="Restart with systemctl restart billing.",
                      author="human:lena")
    assert again["edit"]["id"] == done["edit"]["id"] and again["revision"] == done["revision"] + 1
    assert "Restart with systemctl restart billing." in base.text() and "Restart with systemctl. " not in base.text()
    relevance = base.text().split("## Relevance\n\n", 1)[1]  # set in the page's own section, not repeated
    assert relevance.startswith("Restart with systemctl restart billing. (written by a person (lena)")
    assert "### Relevance" not in base.text()

    # agents are bounded by the base's autonomy; people are not (they are the ones attending)
    update_policy(base.svc, base.ws, base.kb.id, autonomy="suggest")
    with pytest.raises(Refused) as exc:
        base.edit(op="append", kind="note", text="an agent's note", author="agent:bot")
    assert exc.value.code == "autonomy_ceiling"
    base.edit(op="append", kind="note", text="a person's note", author="human:lena")

    # a human-confirmed page takes appends only: a held revise approved by a person confirms the page
    update_policy(base.svc, base.ws, base.kb.id, autonomy="guarded")
    (base.src / "oncall.md").write_text(ONCALL.format(who="Lena Vogel").replace("invoices", "refunds"),
                                        encoding="utf-8")
    base.compile()
    [held] = [i for i in base.open_items() if i.kind == "held"]
    resolve(base.svc, held.id, "approve", expected_revision=held.expected_revision)
    assert base.front()["compile_status"] == "confirmed"
    confirmed = base.text()
    with pytest.raises(Refused) as exc:
        base.edit(op="revise", section="Relevance", text="rewritten", author="human:lena")
    assert exc.value.code == "human_confirmed"
    assert base.text() == confirmed
    base.edit(op="append", kind="note", text="checked after the approval", author="human:lena")
    assert base.front()["compile_status"] == "confirmed" and "checked after the approval" in base.text()


def test_an_edit_during_a_running_compile_is_refused(base: Base) -> None:
    jobs.request_compile(base.svc, base.ws, base.kb.id)
    (base.src / "team.md").write_text("# Team\n\nThe team meets daily.\n", encoding="utf-8")
    jobs.request_compile(base.svc, base.ws, base.kb.id)
    assert jobs.claim(base.svc) is not None  # the job runs: a promotion of its generation is coming
    with pytest.raises(Conflict):
        base.edit(op="append", kind="note", text="while it runs", author="human:lena")


def test_a_statement_citing_another_source_is_rechecked_when_that_source_changes(base: Base) -> None:
    base.edit(slug="lena-vogel", op="append", text="Lena chairs the team meeting", citation="team.md:L3-L3",
              value="Mondays", author="human:lena")
    base.compile()  # nothing changed: it stays, cited
    assert "Lena chairs the team meeting" in base.text("entities/lena-vogel.md")
    (base.src / "team.md").write_text("# Team\n\nThe team meets on Thursdays.\n", encoding="utf-8")
    base.compile()
    [item] = [i for i in base.open_items() if i.kind == "conflict"]
    assert item.page_path == "entities/lena-vogel.md" and item.details["fingerprint"] == "edit:e1"


def test_the_api_route_edits_within_the_boundary(base: Base, clock) -> None:
    import anyio
    import httpx

    from kctui.api.server import PREFIX, create_app
    from kctui.config import Settings
    from kctui.services.context import ServiceContext

    token = "t" * 40
    app = create_app(lambda: ServiceContext.open(clock=clock, settings=Settings()), token)
    url = f"{PREFIX}/bases/{base.kb.id}/pages/billing-api/edits"

    async def go() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1",
                                     headers={"Authorization": f"Bearer {token}"}) as c:
            ws = str(base.ws)
            return [await c.post(url, json={"workspace": ws, "operation": "append", "text": STATEMENT,
                                            "citation": "oncall.md:L5-L5", "value": "Lena Vogel"}),
                    await c.post(url, json={"workspace": ws, "operation": "supersede", "text": "all new"}),
                    await c.post(url, json={"workspace": ws, "operation": "append", "text": "x",
                                            "citation": "oncall.md:L5-L5", "value": "Sam"}),
                    await c.post(url.replace("billing-api", "nope"), json={"workspace": ws, "operation": "append",
                                                                          "text": "x"}),
                    await c.post(url, json={"workspace": ws, "operation": "append", "text": "y",
                                            "expectedRevision": "2"})]

    added, superseded, uncited, missing, typed = anyio.run(go)
    assert added.status_code == 200, added.text
    data = added.json()["data"]
    assert data["author"] == "agent:api" and data["edit"]["citation"] == "oncall.md:L5-L5"
    assert revisions.page_history(base.svc, base.ws, base.kb.id, PAGE)[-1].author == "agent:api"
    assert superseded.status_code == 409 and "supersede" in superseded.json()["message"]
    assert uncited.status_code == 400 and missing.status_code == 404 and typed.status_code == 400
    assert len(statement_lines(base.text())) == 1


def test_approving_a_held_proposal_later_keeps_what_a_person_wrote(base: Base) -> None:
    update_policy(base.svc, base.ws, base.kb.id, autonomy="guarded")
    (base.src / "oncall.md").write_text(ONCALL.format(who="Lena Vogel").replace("invoices", "refunds"),
                                        encoding="utf-8")
    base.compile()
    [held] = [i for i in base.open_items() if i.kind == "held"]
    assert PAGE in [p.page_path for p in held.page_list]
    done = base.edit(op="append", kind="note", text="Refunds moved here in May", author="human:lena")
    fresh = review.get_item(base.svc, held.id)
    assert fresh.expected_revision == done["revision"] or any(
        p.expected_revision == done["revision"] for p in fresh.page_list if p.page_path == PAGE)
    resolve(base.svc, held.id, "approve", expected_revision=fresh.expected_revision)
    text = base.text()
    assert "refunds" in text and "Refunds moved here in May" in text  # the proposal and the person's note


def test_revising_an_earlier_statement_checks_it_again(base: Base) -> None:
    first = base.edit(op="append", text=STATEMENT, citation="oncall.md:L5-L5", value="Lena Vogel",
                      author="human:lena")
    with pytest.raises(InvalidInput):  # the cited lines must still contain the value
        base.edit(op="revise", edit_id="e1", text="Sam carries the pager", value="Sam", author="human:lena")
    done = base.edit(op="revise", edit_id="e1", text="Lena Vogel carries the billing pager this week",
                     author="human:lena")
    assert done["edit"]["id"] == "e1" and done["edit"]["citation"] == "oncall.md:L5-L5"
    assert done["revision"] == first["revision"] + 1
    lines = [ln for ln in base.text().split("\n") if ln.startswith("* Statement by")]
    assert lines == [f"* Statement by a person (lena) on {done['edit']['at'][:10]}: Lena Vogel carries the "
                     "billing pager this week ^[oncall.md:L5-L5]"]
    update_policy(base.svc, base.ws, base.kb.id, autonomy="guarded")
    with pytest.raises(Refused) as exc:  # under guarded autonomy an agent appends but does not revise
        base.edit(op="revise", edit_id="e1", text="Lena Vogel again", author="agent:bot")
    assert exc.value.code == "autonomy_ceiling"
    with pytest.raises(InvalidInput):
        base.edit(op="revise", edit_id="e1", kind="note", text="Lena Vogel again", author="human:lena")
