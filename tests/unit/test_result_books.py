"""The host's `index.md` and `log.md` for an external result (kctui.services.result_books, wiki.md §5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.services.result_books import appended_log, host_index, host_log

LOG = "# Knowledge Base Log\n\n## 2026-12-06\n\n* **Update**: first pass.\n"


@pytest.mark.parametrize(("staged", "kept"), [
    ("# Knowledge Base Log\n\n## 2026-12-07\n\n* **Update**: second pass.\n\n## 2026-12-06\n\n* **Update**: first pass.\n",
     True),
    ("# Knowledge Base Log\n\n## 2026-12-06\n\n* **Update**: second pass.\n* **Update**: first pass.\n", True),
    ("# Knowledge Base Log\n\n## 2026-12-06\n\n* **Update**: rewritten.\n", False),  # an entry rewritten
    ("# Knowledge Base Log\n\n## 2026-12-07\n\n* **Update**: see [x](/entities/ghost.md).\n\n## 2026-12-06\n\n"
     "* **Update**: first pass.\n", False),  # a link added
    ("# Knowledge Base Log\n\nSome prose.\n\n## 2026-12-06\n\n* **Update**: first pass.\n", False),
    (None, False),
])
def test_a_compilers_log_is_kept_only_when_it_adds_entries(staged, kept) -> None:
    assert appended_log(LOG, staged) is kept
    out = host_log(LOG, staged, at="2026-12-07T10:00:00Z", job_id="job-1-1", trigger="manual",
                   source_digest="sha256:ab", counts={"create": 1, "held": 2})
    assert (out == staged) is kept
    if not kept:
        assert out.endswith(LOG.split("\n\n", 1)[1]) and "job `job-1-1`" in out and "held 2" in out


def test_the_index_lists_the_pages_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "entities").mkdir()
    (tmp_path / "notes").mkdir()
    (tmp_path / "entities/datadog.md").write_text("---\ntype: Entity\ntitle: Datadog\ndescription: A vendor.\n---\n")
    (tmp_path / "notes/odd.md").write_text("---\ntype: Note\ntitle: Odd [one]\n---\n")
    (tmp_path / "index.md").write_text("* [Ghost](/entities/ghost.md)\n")
    index = host_index(tmp_path)
    assert "* [Datadog](/entities/datadog.md) - A vendor." in index
    assert "* [Odd \\[one\\]](/notes/odd.md) - No description." in index
    assert "2 pages (1 other): 0 sources, 0 concepts, 1 entities." in index and "ghost" not in index
