"""A base with one held item of three hunks on one page (issue 35): `lang.md` says three things, the
page cites each on its own line, and a second pass holds a revise of all three (one hunk per claim)."""

from __future__ import annotations

import hashlib

from kctui import paths
from kctui.core.page_status import set_page_status
from tests.helpers import make_base
from tests.helpers.review import compile_pass

PAGE = "entities/lang.md"
FACTS = ("eol", "latest", "owner")


def source_text(values: tuple[str, str, str]) -> str:
    return "# Lang\n" + "".join(f"{k}: {v}\n" for k, v in zip(FACTS, values))


def digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def page_text(values: tuple[str, str, str]) -> str:
    return ("---\ntype: Entity\ntitle: Lang\ncompile_status: compiled\nstatus: stable\nentity_type: thing\n"
            f"sources:\n- id: lang-md\n  resource: lang.md\n  digest: {digest(source_text(values))}\n---\n\n"
            "# Lang\n\n## Key Positions/Products/Claims\n\n"
            + "".join(f"* **Lang** — {k}: {v} ^[lang.md:L{n}-L{n}]\n" for n, (k, v) in enumerate(zip(FACTS, values), 2))
            + "\n## Sources\n\n* [[lang-md|Lang]]\n")


OLD = ("2028", "1.0", "Ada")
NEW = ("2029", "2.0", "Bob")


def make_three_hunks(svc, workspace, name: str = "Hunks", old=OLD, new=NEW):
    """(base, item id): the page says `old`, the source now says `new`, one held item proposes it."""
    b = make_base(svc, workspace, name, files={"lang.md": source_text(old)})
    compile_pass(svc, workspace, b.id, {PAGE: page_text(old)})
    hold(svc, workspace, b, old, new)
    return b


def hold(svc, workspace, b, shown_values, new) -> None:
    """A pass that finds `lang.md` saying `new` and holds the page's revise for review."""
    (paths.sources_path(workspace, b.id) / "lang.md").write_text(source_text(new))
    live = (paths.wiki_path(workspace, b.id) / PAGE).read_text(encoding="utf-8")
    compile_pass(svc, workspace, b.id, {PAGE: set_page_status(live, "needs-review")}, [
        {"kind": "held", "page": PAGE, "title": "Lang", "updateKind": "revise", "reason": "autonomy_ceiling",
         "summary": "lang.md revised", "proposedBody": page_text(new)}])
