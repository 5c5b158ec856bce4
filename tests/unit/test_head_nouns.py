"""Issue 31, a name and a lower-case head noun is its own thing and the name alone keeps its page
(kctui.compiler.steps.head_nouns, the first-word rule of kctui.compiler.steps.recurrence). Names of our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import Entity, Evidence, Extraction
from kctui.compiler.steps.head_nouns import surname_cased, surnamed
from kctui.compiler.steps.recurrence import recurring


@pytest.mark.parametrize("name, expected", [
    ("Valery Bugakov", True), ("Priya Nand-Okafor", True),      # a given name and a surname
    ("tillbridge logs", False), ("Harwick substation", False),  # a name and a head noun in lower case
    ("kiln rebuild", False), ("Harwick", False),                # (one word: no longer name)
])
def test_surname_cased(name: str, expected: bool) -> None:
    assert surname_cased(name) is expected


def test_surnamed_keys() -> None:
    assert surnamed(["Valery Bugakov", "tillbridge logs", "Harwick"]) == {"valery bugakov"}


def _ex(path: str, own: list[str] = (), once: list[str] = ()) -> Extraction:  # type: ignore[assignment]
    ev = Evidence(path, 1, 1, "sha256:" + "0" * 64)
    ex = Extraction(path, "sha256:" + "0" * 64, "markdown", path, "note", "general")
    ex.entities = [Entity(n, "", n, (), ev) for n in own]
    ex.passing = [Entity(n, "", n, (), ev) for n in once]
    return ex


@pytest.mark.parametrize("sources, expected", [
    ({"a": ([], ["tillbridge"]), "b": (["tillbridge logs"], ["tillbridge"])}, {"tillbridge"}),  # a head noun
    ({"a": ([], ["Harwick"]), "b": (["Harwick substation"], ["Harwick"])}, {"harwick"}),
    ({"a": ([], ["Valery"]), "b": (["Valery Bugakov"], ["Valery"])}, set()),  # a given name before a surname
])
def test_a_name_before_a_head_noun_keeps_its_page(sources: dict, expected: set[str]) -> None:
    live = {p: _ex(p, own, once) for p, (own, once) in sources.items()}
    assert recurring(live, {}, cased=set()) == expected


def test_the_previous_wikis_longer_names_count_by_how_they_are_written() -> None:
    live = {"a": _ex("a", once=["Valery"]), "b": _ex("b", once=["Valery"])}
    assert recurring(live, {}, named={"valery bugakov"}, cased={"valery bugakov"}) == set()
    assert recurring(live, {}, named={"valery bugakov"}, cased=set()) == {"valery"}
