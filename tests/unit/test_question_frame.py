"""The words of a question's frame (kctui.search.asked_for.frame_words), left out of the bag of words the raw
passages are matched by (kctui.search.passage_index.passage_expression)."""

from __future__ import annotations

import pytest

from kctui.search.asked_for import frame_words
from kctui.search.passage_index import passage_expression
from kctui.search.query import parse_query


@pytest.mark.parametrize("question, expected", [
    ("How much did the roof cost?", {"much"}),
    ("How many physio sessions did Graham get?", {"many"}),
    ("How long is the lease?", {"long"}),
    ("How far is the walk to work?", {"far"}),
    ("What kind of dog is Biscuit?", {"kind"}),
    ("Which type of boiler did they fit?", {"type"}),
    ("What is the name of Lena's car?", {"name"}),
    ("What did Lena name the greyhound?", set()),  # a verb, not the frame
    ("Is it a long walk?", set()),
    ("Who was kind to Tom?", set()),
])
def test_frame_words(question, expected):
    assert frame_words(question) == expected


def test_the_frame_is_left_out_of_the_passage_expression():
    assert passage_expression(parse_query("How much did the roof cost?")) == '"roof" OR "cost"'
    assert passage_expression(parse_query("What kind of dog is Biscuit?")) == '"dog" OR "biscuit"'
    assert '"long"' in passage_expression(parse_query("Is it a long walk?"))
