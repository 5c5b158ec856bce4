"""Only a person's decision confirms a page: an agent's (MCP, API) is recorded as its author but adds no
`verified` entry and leaves the page `compiled`, not `confirmed`."""

from __future__ import annotations

import pytest

from kctui.core.page_status import split_page
from kctui.services.review_decide import _with_status

PAGE = "---\ntype: Entity\ntitle: Python\ncompile_status: needs-review\nstatus: draft\n---\n\n# Python\n\n## Description\n\n_None yet._\n"
SIGNED = PAGE.replace("status: draft\n", "status: draft\nverified:\n- by: human:ada\n  at: '2026-01-01T00:00:00Z'\n")


@pytest.mark.parametrize("text, actor, status, verified", [
    (PAGE, "human:ada", "confirmed", ["human:ada"]),
    (PAGE, "agent:mcp", "compiled", []),
    (SIGNED, "agent:mcp", "confirmed", ["human:ada"]),  # a person confirmed it before: it stays confirmed
    (PAGE, None, "confirmed", []),
])
def test_who_confirms(text: str, actor: str | None, status: str, verified: list[str]) -> None:
    fm, _ = split_page(_with_status(text, [], "confirmed", actor=actor, at="2026-12-01T00:00:00Z"))
    assert fm["compile_status"] == status
    assert [v["by"] for v in fm.get("verified") or []] == verified
