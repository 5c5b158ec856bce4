"""A page cites the same words of a source once (kctui.compiler.steps.said): a statement already said is
not added again, and a whole list item replaces the notes of its own sentences. Names are our own."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.compiler.steps.said import not_within
from kctui.core.claims import Claim, Evidence

EV = Evidence("n.md", 8, 8, "sha256:x")
ITEM = "Tue 01:12 — `quark-api` p99 > 800 ms for 6 min. Cause: a bad deploy (v4.18.0), rolled back."


@pytest.mark.parametrize(("claim", "kept"), [
    (Claim("quark-api", "note", "Tue 01:12 — `quark-api` p99 > 800 ms for 6 min.", "", "fact", "statement", EV), False),
    (Claim("quark-api", "note", "Cause: a bad deploy (v4.18.0), rolled back.", "", "fact", "statement", EV), False),
    (Claim("quark-api", "version", "v4.18.0", "", "fact", "statement", EV), True),  # a fact it states stays
    (Claim("quark-api", "note", ITEM, "", "fact", "statement", EV), True),  # the same words: `said` decides
    (Claim("quark-api", "note", "p99 > 800 ms", "", "fact", "statement", Evidence("n.md", 3, 3, "sha256:x")), True),
    (Claim("quark-api", "note", "p99 > 800 ms", "", "fact", "statement", Evidence("m.md", 8, 8, "sha256:x")), True),
])
def test_a_whole_item_replaces_the_notes_of_its_own_sentences(claim: Claim, kept: bool) -> None:
    assert (not_within(ITEM, EV, [claim]) == [claim]) is kept


def test_a_page_cites_a_list_item_once_not_also_its_sentences(tmp_path: Path) -> None:
    from tests.helpers.passes import compile_into

    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "handover.md").write_text(
        "# On-call handover\n\n## Pages\n- Tue 01:12 — `quark-api` p99 > 800 ms for 6 min. Cause: a bad "
        "deploy (v4.18.0), rolled back to v4.17.2.\n- Thu 14:40 — disk 85 % on `pg-quark-02`. Vacuumed, now 61 %. "
        "Needs a bigger volume.\n", encoding="utf-8")
    wiki = compile_into(tmp_path, "job-1", None)
    pages = {page.stem: [line.rsplit("^[", 1)[1] for line in page.read_text().splitlines() if "— note:" in line]
             for page in (wiki / "entities").glob("*.md")}
    assert pages.get("quark-api"), pages
    assert all(len(cited) == len(set(cited)) for cited in pages.values()), pages  # a line once per page
