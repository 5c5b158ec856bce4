"""What a citation points at, read as the compiler reads it (kctui.compiler.trust.cited): a PDF page
citation is that page's text (the gate on an external result checks a page claim there: s31 G item 1),
and nothing is ever read through a symlink out of sources/ (the reviewer's cited text too: item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.compiler.trust.cited import cited_span
from kctui.compiler.trust.gate import cited_text
from kctui.compiler.trust.kept import says
from kctui.core.claims import read_claim_line
from kctui.core.trust import TrustPolicy
from kctui.services.result_gate import Change, decide, unsupported
from tests.helpers.pdf import make_pdf

HEAD = "---\ntype: Source\ntitle: Report\ncompile_status: compiled\nsources:\n- resource: report.pdf\n---\n\n# Report\n\n"


@pytest.fixture
def src(tmp_path: Path) -> Path:
    root = tmp_path / "sources"
    root.mkdir()
    (root / "report.pdf").write_bytes(make_pdf(["Budget owner: Marta", "Renewal date: 2026-03-01"]))
    (root / "notes.md").write_text("# Notes\n\nOwner: Marta\n")
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\nThe password is hunter2\n")
    (root / "linked.md").symlink_to(outside)
    (root / "dir").symlink_to(tmp_path)
    return root


def claim(line: str):
    got = read_claim_line(line, {})
    assert got is not None, line
    return got


@pytest.mark.parametrize(("line", "held"), [
    ("* **Report** — renewal date: 2026-03-01 ^[report.pdf:p2]", True),
    ("* **Report** — budget owner: Marta ^[report.pdf:p1]", True),
    ("* **Report** — renewal date: 2026-03-01 ^[report.pdf:p1]", False),  # another page's value
    ("* **Report** — renewal date: 2026-03-01 ^[report.pdf:p9]", False),  # no such page
    ("* **Report** — owner: Marta ^[notes.md:L3-L3]", True),
    ("* **Secret** — password: hunter2 ^[linked.md:L3-L3]", False),  # a symlink out of sources/
    ("* **Secret** — password: hunter2 ^[dir/secret.md:L3-L3]", False),
])
def test_says_reads_a_page_citation_as_the_compiler_does(src, line, held) -> None:
    assert says(src, claim(line)) is held


def test_cited_span_never_follows_a_symlink(src) -> None:
    assert cited_span(src, "linked.md", "line", 3, 3) is None
    assert cited_span(src, "dir/secret.md", "line", 3, 3) is None
    assert cited_span(src, "notes.md", "line", 3, 3) == ["Owner: Marta"]
    assert cited_span(src, "report.pdf", "page", 2, 2) == ["Renewal date: 2026-03-01"]


def test_the_gate_passes_a_page_claim_its_page_holds(src) -> None:
    live = HEAD + "* **Report** — budget owner: Marta ^[report.pdf:p1]\n"
    good = live + "* **Report** — renewal date: 2026-03-01 ^[report.pdf:p2]\n"
    bad = live + "* **Report** — renewal date: 2027-03-01 ^[report.pdf:p2]\n"
    assert unsupported(Change("sources/report.md", "append", live, good), src) is None
    assert "report.pdf:p2" in (unsupported(Change("sources/report.md", "append", live, bad), src) or "")
    assert decide(Change("sources/report.md", "create", None, good), TrustPolicy(), src)[0] is None


def test_a_reviewers_cited_text_shows_nothing_through_a_symlink(src) -> None:
    assert cited_text(src, claim("* **Secret** — password: hunter2 ^[linked.md:L3-L3]")) == ""
    assert cited_text(src, claim("* **Secret** — password: hunter2 ^[dir/secret.md:L3-L3]")) == ""
    assert cited_text(src, claim("* **Notes** — owner: Marta ^[notes.md:L3-L3]")) == "Owner: Marta"
    assert cited_text(src, claim("* **Notes** — owner: Marta ^[absent.md:L3-L3]")) == ""
