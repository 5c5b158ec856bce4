"""Issue 31: a name written in lower case right after "via", "from" or "at" in a statement of fact is a
passing mention (kctui.compiler.builtin.lower_names): a page once another source writes it too. Names and
phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.lower_names import placed_words
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def placed(plain: str, kind: str = "item", valued: bool = True) -> list[str]:
    return [s.text for s in placed_words(plain, kind, valued, ug.lower_words([plain]))]


@pytest.mark.parametrize("plain, kind, valued, wanted", [
    ("pull drop logs per robot from quolctl for the last 30 days", "item", True, ["quolctl"]),
    ("lead time now 38 wks at brindex, none in stock", "item", True, ["brindex"]),
    ("the PO goes via varnholt", "item", False, ["varnholt"]),  # a list item: a statement of fact
    ("the PO goes via varnholt", "paragraph", False, []),  # plain prose with no value: nothing
    ("the PO goes via varnholt by 3 May", "paragraph", True, ["varnholt"]),
    ("usage per group from acct by Wednesday", "item", True, []),  # an English word written short
    ("they run from walltime limits at scaling time, 3 boxes", "item", True, []),  # two English words, an English ending
    ("left at home, 3 of them", "item", True, []),  # an English word
    ("synced w/ quolctl at 10:00", "item", True, []),  # "w/" is no such preposition
    ("el lunes 08 viene desde pablo via quolctl a tirar cable", "item", True, []),  # not English
])
def test_a_word_english_lacks_after_via_from_at_is_placed(plain, kind, valued, wanted):
    assert placed(plain, kind, valued) == wanted


def test_a_placed_word_is_a_passing_mention_not_a_page():
    text = "# Standup\n\n- 38 wks at brindex now, none in stock\n- chased the boards again\n"
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    assert "brindex" not in {e.name for e in ex.entities}  # (a value next to it: still one place only)
    assert "brindex" in {e.name for e in ex.passing}


def test_the_document_writing_it_as_a_common_noun_is_no_name():
    text = "# Notes\n\n- the brindex is full again\n- 38 wks at brindex now\n"
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    assert "brindex" not in {e.name for e in ex.entities} | {e.name for e in ex.passing}
