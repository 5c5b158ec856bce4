"""QA session 30 #5: a person's keep / use-new covers every claim of the page stating that fact with the
rejected value (a `note:` sentence of the same source line), at the decision and on later passes."""

from __future__ import annotations

import pytest

from kctui.compiler.trust.disputes import decide_dispute, fingerprint, key3, restates, settle
from kctui.core.claims import Claim, Evidence
from kctui.core.page_status import split_page
from kctui.core.pages import Page

D_R, D_O = "sha256:" + "a" * 64, "sha256:" + "b" * 64


def fact(value: str, path: str, line: int) -> Claim:
    return Claim("ledger-writer", "service owner", value, "", "fact", "fact", Evidence(path, line, line, ""))


def note(text: str, path: str, line: int, attr: str = "note") -> Claim:
    return Claim("ledger-writer", attr, text, "", "fact", "fact", Evidence(path, line, line, ""))


AISHA, TOMASZ = fact("Aisha Bello", "runbook.md", 4), fact("Tomasz Nowak", "owner.md", 3)


@pytest.mark.parametrize("c, rejected, kept, expected", [
    (note("The service owner of ledger-writer is Tomasz Nowak.", "owner.md", 3), TOMASZ, AISHA, True),
    (note("The service owner of ledger-writer is Aisha Bello.", "runbook.md", 4, "context"), AISHA, TOMASZ, True),
    # another line of the same source, or another source: not the rejected claim's statement
    (note("Tomasz Nowak joined in May.", "owner.md", 5), TOMASZ, AISHA, False),
    (note("The service owner of ledger-writer is Tomasz Nowak.", "other.md", 3), TOMASZ, AISHA, False),
    # the line also gives the chosen value (a move from one to the other): left as it is
    (note("Ownership moves from Aisha Bello to Tomasz Nowak.", "owner.md", 3), TOMASZ, AISHA, False),
    # a line that does not hold the rejected value, and the rejected claim itself
    (note("The on-call rotation moves to the platform team.", "owner.md", 3), TOMASZ, AISHA, False),
    (TOMASZ, TOMASZ, AISHA, False),
])
def test_restates(c, rejected, kept, expected) -> None:
    assert restates(c, rejected, kept) is expected


PAGE = f"""---
compile_status: contradicted
sources:
- digest: {D_O}
  id: owner-md
  resource: owner.md
- digest: {D_R}
  id: runbook-md
  resource: runbook.md
status: draft
title: ledger-writer
type: Entity
---

> **Status: contradicted** — the sources disagree on 1 fact; a person decides.
>
> * **ledger-writer** — service owner: Aisha Bello ^[runbook.md:L4-L4]
> * **ledger-writer** — service owner: Tomasz Nowak ^[owner.md:L3-L3]

# ledger-writer

## Key Positions/Products/Claims

* **ledger-writer** — context: The service owner of ledger-writer is Aisha Bello. ^[runbook.md:L4-L4]
* **ledger-writer** — note: The on-call rotation moves to the platform team. ^[owner.md:L4-L4]
* **ledger-writer** — note: The service owner of ledger-writer is Tomasz Nowak. ^[owner.md:L3-L3]
* **ledger-writer** — service owner: Aisha Bello ^[runbook.md:L4-L4]
"""

FP = fingerprint(key3(AISHA), AISHA.norm_value, TOMASZ.norm_value)


@pytest.mark.parametrize("action, gone, stays", [
    ("keep", "is Tomasz Nowak.", ["service owner: Aisha Bello", "is Aisha Bello."]),
    ("use_new", "is Aisha Bello.", ["service owner: Tomasz Nowak", "is Tomasz Nowak."]),
    ("dismiss", None, ["is Tomasz Nowak.", "is Aisha Bello.", "service owner: Aisha Bello"]),
])
def test_decision_leaves_out_restatements_of_the_rejected_value(action, gone, stays) -> None:
    out, left = decide_dispute(PAGE, FP, action)
    body = split_page(out)[1].split("# ledger-writer", 1)[1]
    assert left == 0
    if gone:
        assert gone not in body
    assert all(s in body for s in stays) and "platform team" in body


@pytest.mark.parametrize("head, rejected_value", [(AISHA, "Tomasz Nowak"), (TOMASZ, "Aisha Bello")])
def test_later_pass_keeps_restatements_out(head, rejected_value) -> None:
    """The next pass re-reads both sources: the decided dispute is not raised again and the sentence of
    the rejected claim's line stays off the page."""
    old = Page("entity", "ledger-writer", "ledger-writer", claims=[head], extra={"resolved_conflicts": [FP]})
    claims = [AISHA, TOMASZ, note("The service owner of ledger-writer is Tomasz Nowak.", "owner.md", 3),
              note("The service owner of ledger-writer is Aisha Bello.", "runbook.md", 4, "context"),
              note("The on-call rotation moves to the platform team.", "owner.md", 4)]
    out = settle(old, claims, {key3(AISHA): [AISHA, TOMASZ]})
    texts = [c.value for c in out.accepted]
    assert not out.disputes and head in out.accepted
    assert not any(rejected_value in t for t in texts)
    assert "The on-call rotation moves to the platform team." in texts
