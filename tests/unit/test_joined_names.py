"""Issue 31, names written inside one word of a statement: joined by a slash, a host's full domain name,
a range of numbered names (kctui.compiler.steps.joined_names, hooked into the mention step's
NameFinder). Phrasings of our own (not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.joined_names import parts
from kctui.compiler.steps.name_finder import NameFinder


@pytest.mark.parametrize("word, expected", [
    ("Bristol/Cardiff/Exeter", ["Bristol", "Cardiff", "Exeter"]),
    ("kv-prd-01/02", ["kv-prd-01"]),  # a numbered name with its sibling's number
    ("kv-prd-01.corp.example.org", ["kv-prd-01"]),  # a host's full domain name: its first label
    ("nd-201..208", ["nd-201"]),  # a range: its first
    ("settings.ini", []),  # a file: no digit in its first label
    ("Quillbase.io", []),  # a domain named as a brand: the page's own forms find it
    ("https://kv-prd-01.corp.example.org", []),  # (a URL's scheme is no name)
    ("QuillPool", []),
])
def test_parts(word, expected):
    assert parts(word) == expected


FINDER = NameFinder({"bristol": ["Bristol"], "cardiff": ["Cardiff"], "kv-prd-01": ["kv-prd-01"],
                     "nd-201": ["nd-201"], "vexlar": ["Vexlar"], "grace": ["Grace"]})


@pytest.mark.parametrize("text, pages", [
    ("auto-update off at Bristol/Cardiff since Tuesday", {"bristol", "cardiff"}),
    ("auto-update off at Bristol/Cardiff/Exeter since Tuesday", set()),  # every part a page's name, or none
    ("repo at acme/vexlar/bristol/cardiff", set()),  # more than three: a path
    ("console at https://kv-prd-01.corp.example.org:8443 with your account", {"kv-prd-01"}),
    ("nd-201..208 drained for the firmware push", {"nd-201"}),
    ("the Vexlar/Cardiff quotes are in", {"vexlar", "cardiff"}),
    # one name among the parts: a path or a label joins words, not names
    ("the Vexlar/Quorra quotes are in", set()),
    ("config in deploy/vexlar/values.yaml", set()),
    ("see bristol/cardiff for the layout", set()),  # in lower case: a path (but in a lower-case source)
    # a part is found as a whole name is: an English word only where written with a capital
    ("saved under grace/notes for now", set()),
    ("kv-prd-01/02 disks at 80%", {"kv-prd-01"}),
])
def test_a_name_inside_a_word_is_found(text, pages):
    assert FINDER.find(text) == pages
