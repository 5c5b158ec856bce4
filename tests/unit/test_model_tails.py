"""A model's designation written alone where the same document names it with the word before it is one
thing, one page (kctui.compiler.builtin.candidates._model_tails)."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source


def _entities(body: str) -> dict[str, tuple[str, ...]]:
    ex = extract_document(read_source("note.md", ("# Lab sync\n\n" + body).encode(), "sha256:" + "0" * 64))
    return {e.name: e.aliases for e in ex.entities}


def test_a_designation_alone_is_the_model_the_document_names_with_its_maker() -> None:
    found = _entities("- the -80 in room 2.14 (Thermo TSX600) alarmed twice, door seal. Bea swapped the gasket Mon.\n"
                      "- decision: keep the TSX600 in service until the replacement lands\n")
    assert "TSX600" not in found
    assert "TSX600" in found["Thermo TSX600"]


@pytest.mark.parametrize("body", [
    # two longer names end with it: which one the lone designation is stays unsaid
    "- Nordex NC2 at site A was reset on 3 Mar.\n- WHR NC2 was reset on 4 Mar.\n- NC2 firmware is 2.1 everywhere.\n",
])
def test_a_designation_two_names_end_with_stays_its_own(body: str) -> None:
    found = _entities(body)
    assert "NC2" in found
    assert all("NC2" not in aliases for name, aliases in found.items() if name != "NC2")

