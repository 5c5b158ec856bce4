"""Issue 31: a model's name written in the plural is found as the name (kctui.compiler.steps.plural_names,
in the mention step's `NameFinder`). Names of our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_finder import NameFinder
from kctui.compiler.steps.plural_names import same_words

FINDER = NameFinder({"ql-x40": ["Quillon QX-40"], "pebble-7": ["Pebble 7"], "grafly-cloud": ["Grafly Cloud"]})


@pytest.mark.parametrize("name, written, same", [
    (("quillon", "qx-40"), ["quillon", "qx-40"], True),
    (("quillon", "qx-40"), ["quillon", "qx-40s"], True),  # the plural after its digit
    (("pebble", "7"), ["pebble", "7s"], True),
    (("grafly", "cloud"), ["grafly", "clouds"], False),  # an English plural is another word
    (("qx-40",), ["qx-40s"], False),  # one word alone: not its opener, never looked up so
    (("quillon", "qx-40"), ["quillon", "qx-40ss"], False),
    (("quillon", "qx-40"), ["quillon"], False),
])
def test_same_words(name, written, same):
    assert same_words(name, written) is same


@pytest.mark.parametrize("text, pages", [
    ("both Quillon QX-40s backed up to USB, 2 copies", {"ql-x40"}),
    ("the Quillon QX-40 in the wheelhouse", {"ql-x40"}),
    ("Pebble 7s for the projection wall arrived (x3)", {"pebble-7"}),
    ("two Grafly Clouds", set()),
])
def test_found_in_the_plural(text, pages):
    assert FINDER.find(text) == pages
