"""The promotion crash matrix (host.md §7): SIGKILL at every step, then recovery.

For the exchange path and the two-rename path, for a first generation and for a replacement, a forked
child runs `promote(..., crash_at=step)` and dies by SIGKILL at that step; the parent runs
`recover_promotion` and checks that `wiki/` is exactly the old or exactly the new tree (file set and
bytes), that no journal is left, that the outcome says which, and that a next promotion works.
"""

from __future__ import annotations

import errno
import json
import os
import signal
from pathlib import Path

import pytest

from kctui.publish import promote as promote_module
from kctui.publish.promote import (
    CRASH_ENV,
    PromotionError,
    backup_path,
    cleanup_after_promotion,
    exchange_available,
    journal_path,
    promote,
    recover_promotion,
)

OLD = {"index.md": b"# Old index\n", "concepts/a.md": b"---\ntype: Concept\n---\nold a\n", "gone.md": b"old only"}
NEW = {"index.md": b"# New index\n", "concepts/a.md": b"---\ntype: Concept\n---\nnew a\n", "sources/s.md": b"new"}
NEXT = {"index.md": b"# Third generation\n", "x.md": b"---\ntype: Note\n---\nx\n"}
JOB, NEXT_JOB = "job-1780000000000000-1", "job-1780000000000001-2"

needs_exchange = pytest.mark.skipif(not exchange_available(), reason="renameat2 is not available here")

# Steps each path passes through, and where `wiki/` must be after a kill there plus recovery:
# (generation after recovery, recovery outcome or None when no journal was left behind).
BEFORE = {"fsync_staged": ("old", None), "journal_temp_written": ("old", None),
          "journal_written": ("old", "rolled_back")}
AFTER = {"parent_fsynced": ("new", "finished"), "old_deleted": ("new", "finished"), "journal_deleted": ("new", None)}
EXPECTED = {
    ("exchange", "replace"): {**BEFORE, "swapped": ("new", "finished"), **AFTER},
    ("rename", "replace"): {**BEFORE, "renamed_live_to_backup": ("new", "finished"),
                            "renamed_staged_to_live": ("new", "finished"), **AFTER},
    ("exchange", "first"): {**BEFORE, "renamed_staged_to_live": ("new", "finished"), **AFTER},
    ("rename", "first"): {**BEFORE, "renamed_staged_to_live": ("new", "finished"), **AFTER},
}
MATRIX = [
    pytest.param(path, generation, step, state, outcome, id=f"{path}-{generation}-{step}",
                 marks=[needs_exchange] if path == "exchange" else [])
    for (path, generation), steps in EXPECTED.items()
    for step, (state, outcome) in steps.items()
]


def write_tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


def snapshot(root: Path) -> dict[str, bytes] | None:
    """Relative path -> bytes of every file under `root`; None when `root` does not exist."""
    if not os.path.lexists(root):
        return None
    assert root.is_dir() and not root.is_symlink()
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def make_kb(tmp_path: Path, generation: str) -> tuple[Path, Path]:
    kb = tmp_path / "kb"
    (kb / "sources").mkdir(parents=True)
    if generation == "replace":
        write_tree(kb / "wiki", OLD)
    staged = write_tree(kb / ".a3s" / "compilation-output" / JOB / "wiki", NEW)
    return kb, staged


def run_killed(fn, *args, **kwargs) -> None:
    """Run `fn` in a forked child; assert the child died by SIGKILL (the step was reached)."""
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 0
        try:
            fn(*args, **kwargs)
        except BaseException:
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"child ended with status {status}"


def assert_no_journal(kb: Path) -> None:
    assert not journal_path(kb).exists()
    assert not journal_path(kb).with_name("promotion.json.tmp").exists()


@pytest.mark.parametrize(("path", "generation", "step", "state", "outcome"), MATRIX)
def test_kill_at_every_step_then_recover(tmp_path: Path, path: str, generation: str, step: str,
                                         state: str, outcome: str | None) -> None:
    kb, staged = make_kb(tmp_path, generation)
    run_killed(promote, kb, staged, JOB, crash_at=step, use_exchange=(path == "exchange"))

    result = recover_promotion(kb)

    old_tree = OLD if generation == "replace" else None
    assert snapshot(kb / "wiki") == (NEW if state == "new" else old_tree)
    assert (result.action if result else None) == outcome
    if result is not None:
        assert result.job_id == JOB
    assert_no_journal(kb)
    if state == "new":  # the old generation is gone from wherever it was parked
        assert not staged.exists() and not backup_path(kb, JOB).exists()
    else:  # rolled back: the staged tree is intact for a retry
        assert snapshot(staged) == NEW
    assert recover_promotion(kb) is None  # recovery is idempotent

    # The next promotion works on whatever recovery left.
    next_staged = write_tree(kb / ".a3s" / "compilation-output" / NEXT_JOB / "wiki", NEXT)
    second = promote(kb, next_staged, NEXT_JOB, use_exchange=(path == "exchange"))
    assert snapshot(kb / "wiki") == NEXT
    assert second.cleaned and not next_staged.exists()
    assert_no_journal(kb)


@pytest.mark.parametrize(("first_kill", "use_exchange"), [
    pytest.param("swapped", True, marks=needs_exchange),
    ("renamed_live_to_backup", False),  # recovery itself makes the second rename, then is killed
])
def test_kill_during_recovery_then_recover_again(tmp_path: Path, first_kill: str, use_exchange: bool) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    run_killed(promote, kb, staged, JOB, crash_at=first_kill, use_exchange=use_exchange)
    run_killed(recover_promotion, kb, crash_at="old_deleted")
    assert snapshot(kb / "wiki") == NEW
    outcome = recover_promotion(kb)
    assert outcome is not None and outcome.finished and outcome.job_id == JOB
    assert snapshot(kb / "wiki") == NEW
    assert_no_journal(kb)


def test_environment_variable_kills_at_the_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    monkeypatch.setenv(CRASH_ENV, "journal_written")
    run_killed(promote, kb, staged, JOB)
    monkeypatch.delenv(CRASH_ENV)
    outcome = recover_promotion(kb)
    assert outcome is not None and outcome.action == "rolled_back"
    assert snapshot(kb / "wiki") == OLD


def test_unknown_step_is_refused(tmp_path: Path) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    with pytest.raises(ValueError, match="unknown promotion step"):
        promote(kb, staged, JOB, crash_at="swaped")
    assert snapshot(kb / "wiki") == OLD


@needs_exchange
def test_exchange_is_used_by_default_here(tmp_path: Path) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    result = promote(kb, staged, JOB)
    assert result.mode == "exchange" and result.old_path == staged and result.cleaned
    assert snapshot(kb / "wiki") == NEW and not staged.exists()


def test_two_renames_when_forced(tmp_path: Path) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    result = promote(kb, staged, JOB, use_exchange=False)
    assert result.mode == "rename" and result.old_path == backup_path(kb, JOB)
    assert snapshot(kb / "wiki") == NEW and not backup_path(kb, JOB).exists()


def test_fallback_when_exchange_is_unsupported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src, dst, flags):
        raise OSError(errno.EINVAL, "Invalid argument")
    monkeypatch.setattr(promote_module, "_rename2", refuse)
    kb, staged = make_kb(tmp_path, "replace")
    assert promote(kb, staged, JOB).mode == "rename"
    assert snapshot(kb / "wiki") == NEW


def test_deferred_cleanup(tmp_path: Path) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    result = promote(kb, staged, JOB, cleanup=False)
    assert not result.cleaned and journal_path(kb).exists()
    assert snapshot(kb / "wiki") == NEW and snapshot(result.old_path) == OLD
    journal = json.loads(journal_path(kb).read_text())
    assert journal["job_id"] == JOB and journal["staged_path"] == str(staged)
    assert journal["live_inode"] is not None and journal["staged_inode"] == (kb / "wiki").stat().st_ino
    outcome = cleanup_after_promotion(kb)
    assert outcome is not None and outcome.finished
    assert not result.old_path.exists() and snapshot(kb / "wiki") == NEW
    assert_no_journal(kb)


def test_failed_second_rename_keeps_the_old_wiki(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    real_rename = os.rename

    def failing_rename(src, dst):
        if Path(src) == staged:
            raise OSError(errno.EIO, "Input/output error", str(src))
        return real_rename(src, dst)
    monkeypatch.setattr(os, "rename", failing_rename)
    with pytest.raises(PromotionError, match="cannot swap"):
        promote(kb, staged, JOB, use_exchange=False)
    monkeypatch.undo()
    assert snapshot(kb / "wiki") == OLD and snapshot(staged) == NEW
    assert_no_journal(kb) and not backup_path(kb, JOB).exists()


def test_failed_parent_fsync_puts_the_old_wiki_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    real_fsync_dir = promote_module._fsync_dir
    calls = {"after_swap": False}

    def flaky_fsync_dir(path):
        if not calls["after_swap"] and (kb / "wiki").stat().st_ino != OLD_INODE:
            calls["after_swap"] = True
            raise OSError(errno.EIO, "Input/output error", str(path))
        return real_fsync_dir(path)
    OLD_INODE = (kb / "wiki").stat().st_ino
    monkeypatch.setattr(promote_module, "_fsync_dir", flaky_fsync_dir)
    with pytest.raises(PromotionError):
        promote(kb, staged, JOB)
    assert calls["after_swap"]
    assert snapshot(kb / "wiki") == OLD and snapshot(staged) == NEW
    assert_no_journal(kb)


def test_missing_staged_tree_is_a_promotion_error(tmp_path: Path) -> None:
    kb, staged = make_kb(tmp_path, "replace")
    with pytest.raises(PromotionError, match="cannot be read"):
        promote(kb, staged.parent / "nope", JOB)
    assert snapshot(kb / "wiki") == OLD and not journal_path(kb).exists()


def test_corrupt_journal_leaves_the_live_wiki_alone(tmp_path: Path) -> None:
    kb, _staged = make_kb(tmp_path, "replace")
    journal_path(kb).write_text('{"version": 1, "job_id": "job-1')
    outcome = recover_promotion(kb)
    assert outcome is not None and outcome.action == "rolled_back" and outcome.job_id is None
    assert snapshot(kb / "wiki") == OLD
    assert_no_journal(kb)
    assert list(journal_path(kb).parent.glob("promotion.json.corrupt-*"))


def test_half_written_temp_journal_is_ignored(tmp_path: Path) -> None:
    kb, _staged = make_kb(tmp_path, "replace")
    journal_path(kb).with_name("promotion.json.tmp").write_bytes(b'{"version": 1, "jo')
    assert recover_promotion(kb) is None
    assert snapshot(kb / "wiki") == OLD
    assert_no_journal(kb)
