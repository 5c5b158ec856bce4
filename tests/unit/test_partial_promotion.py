"""Page-level promotion (`kctui.publish.pages`): only the pages given are written, each validated;
SIGKILL at every step then recovery leaves every page exactly old or (all of them) new; bad input and
unsafe live trees change nothing; a generation promotion settles an interrupted page promotion first."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from kctui.publish.pages import (
    PAGE_STEPS,
    page_journal_path,
    page_staging_path,
    pages_pending,
    promote_pages,
    recover_pages,
)
from kctui.publish.promote import PromotionError, promote, promotion_pending, recover_promotion
from kctui.publish.validate import InvalidOutput, validate_staged_tree

OLD = {"index.md": "# Index\n", "concepts/a.md": "---\ntype: Concept\n---\nold a\n",
       "concepts/b.md": "---\ntype: Concept\n---\nold b\n", "entities/c.md": "---\ntype: Entity\n---\nold c\n"}
CHANGES = {"concepts/a.md": "---\ntype: Concept\n---\nnew a\n", "entities/c.md": None,
           "new/deep/d.md": "---\ntype: Note\n---\nnew d\n"}
ROLLED_BACK = {"pages_staged", "page_journal_temp_written", "page_journal_written"}


def make_kb(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    for rel, text in OLD.items():
        (kb / "wiki" / rel).parent.mkdir(parents=True, exist_ok=True)
        (kb / "wiki" / rel).write_text(text)
    return kb


def snapshot(wiki: Path) -> dict[str, str]:
    return {p.relative_to(wiki).as_posix(): p.read_text() for p in wiki.rglob("*") if p.is_file()}


def new_state() -> dict[str, str]:
    out = {k: v for k, v in OLD.items() if k != "entities/c.md"}
    out.update({k: v for k, v in CHANGES.items() if v is not None})
    return out


def test_writes_only_the_given_pages(tmp_path: Path) -> None:
    kb = make_kb(tmp_path)
    wiki = kb / "wiki"
    ino = {p: os.lstat(wiki / p).st_ino for p in ("concepts/b.md", "index.md")}
    wiki_ino = os.lstat(wiki).st_ino
    result = promote_pages(kb, CHANGES, "review-1")
    assert snapshot(wiki) == new_state()
    assert set(result.written) == {"concepts/a.md", "new/deep/d.md"} and result.removed == ("entities/c.md",)
    assert {p: os.lstat(wiki / p).st_ino for p in ino} == ino and os.lstat(wiki).st_ino == wiki_ino
    assert not pages_pending(kb) and not promotion_pending(kb)
    validate_staged_tree(wiki)
    again = promote_pages(kb, {"concepts/a.md": CHANGES["concepts/a.md"]}, "review-2")
    assert again.written == ()  # already so: nothing written


@pytest.mark.parametrize("bad", [{"concepts/a.md": "no frontmatter\n"}, {"../x.md": "---\ntype: A\n---\n"},
                                 {"concepts/a.MD": "---\ntype: A\n---\n"}, {"x/.hidden.md": "---\ntype: A\n---\n"},
                                 {"concepts/a.md": "---\ntitle: untyped\n---\n"}])
def test_an_invalid_page_changes_nothing(tmp_path: Path, bad) -> None:
    kb = make_kb(tmp_path)
    with pytest.raises(InvalidOutput):
        promote_pages(kb, {"concepts/b.md": "---\ntype: Concept\n---\nfine\n", **bad}, "review-1")
    assert snapshot(kb / "wiki") == OLD and not pages_pending(kb)


def test_refuses_a_symlinked_folder_and_an_empty_wiki(tmp_path: Path) -> None:
    kb = make_kb(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, kb / "wiki" / "linked")
    with pytest.raises(PromotionError, match="not a real folder"):
        promote_pages(kb, {"linked/x.md": "---\ntype: A\n---\n"}, "review-1")
    assert not list(outside.iterdir())
    (kb / "wiki" / "linked").unlink()
    with pytest.raises(PromotionError, match="without a page"):
        promote_pages(kb, {rel: None for rel in OLD}, "review-2")
    assert snapshot(kb / "wiki") == OLD


def kill_child_at(kb: Path, step: str) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            promote_pages(kb, CHANGES, "review-9", crash_at=step)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


@pytest.mark.parametrize("step", PAGE_STEPS)
def test_kill_at_every_step_then_recovery(tmp_path: Path, step: str) -> None:
    kb = make_kb(tmp_path)
    kill_child_at(kb, step)
    outcome = recover_promotion(kb)  # what the host runs at start-up
    want = OLD if step in ROLLED_BACK else new_state()
    assert snapshot(kb / "wiki") == want
    assert not pages_pending(kb)
    if step in ("pages_staged", "page_journal_temp_written"):
        assert outcome is None or outcome.action == "rolled_back"
    elif step == "page_journal_written":
        assert outcome is not None and outcome.action == "rolled_back"
    elif step != "page_journal_deleted":
        assert outcome is not None and outcome.finished and outcome.job_id == "review-9"
    promote_pages(kb, {"concepts/b.md": "---\ntype: Concept\n---\nnext b\n"}, "review-10")  # and it goes on
    assert "next b" in (kb / "wiki" / "concepts/b.md").read_text()


def test_a_generation_promotion_settles_an_interrupted_page_promotion_first(tmp_path: Path) -> None:
    kb = make_kb(tmp_path)
    kill_child_at(kb, "page_renamed")
    assert pages_pending(kb)
    staged = kb / ".a3s" / "compilation-output" / "job-1" / "wiki"
    staged.mkdir(parents=True)
    (staged / "p.md").write_text("---\ntype: Note\n---\np\n")
    promote(kb, staged, "job-1")
    assert not pages_pending(kb) and snapshot(kb / "wiki") == {"p.md": "---\ntype: Note\n---\np\n"}


def test_an_unreadable_journal_is_set_aside_and_the_wiki_left_alone(tmp_path: Path) -> None:
    kb = make_kb(tmp_path)
    page_journal_path(kb).parent.mkdir(parents=True, exist_ok=True)
    page_journal_path(kb).write_text(json.dumps({"version": 1, "promotion_id": "x", "pages": [
        {"path": "../../etc/passwd", "staged": "000000.md", "new": "sha256:0", "old": None}]}))
    outcome = recover_pages(kb)
    assert outcome is not None and outcome.action == "rolled_back" and "unsafe path" in outcome.detail
    assert snapshot(kb / "wiki") == OLD and not page_journal_path(kb).exists()
    assert list(page_journal_path(kb).parent.glob("page-promotion.json.corrupt-*"))
    assert not os.path.lexists(page_staging_path(kb))


def test_many_pages_at_once(tmp_path: Path) -> None:
    kb = make_kb(tmp_path)
    many = {f"bulk/p{n:03d}.md": f"---\ntype: Note\n---\npage {n}\n" for n in range(40)}
    result = promote_pages(kb, many, "review-many")
    assert len(result.written) == 40 and snapshot(kb / "wiki") == {**OLD, **many}
    assert not pages_pending(kb)
