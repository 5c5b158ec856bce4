"""The other forms of a question's irregular verbs and nouns (kctui.search.word_forms), asked for in the raw
passages at a lower weight where the question's word is rare in the knowledge base."""

from __future__ import annotations

import pytest

from kctui.search.passage_index import RankedPassage
from kctui.search.word_forms import FORMS_WEIGHT, RARE, other_forms, query_forms, with_forms
from tests.helpers.chat_index import chat_index, index_chat


@pytest.mark.parametrize(("word", "forms"), [
    ("meet", {"met"}),
    ("met", {"meet"}),
    ("buy", {"bought"}),
    ("buying", {"bought"}),  # a question's -ing form finds its verb's line
    ("sells", {"sold"}),
    ("take", {"took", "taken"}),
    ("pay", {"paid"}),
    ("make", {"made"}),
    ("running", {"ran"}),  # "run" the stemmer joins already
    ("children", {"child"}),
    ("arrive", set()),  # a regular verb: the stemmer's
    ("campervan", set()),
    ("left", set()),  # "left" (not right) is not read as a form of "leave"
    ("leave", {"left"}),
])
def test_the_other_forms_of_an_irregular_word(word, forms):
    assert other_forms(word) == forms


def test_the_query_asks_for_the_forms_of_its_rare_content_words_only():
    assert query_forms({"rafa", "meet", "eilidh"}) == ["met"]
    assert query_forms({"did", "have"}) == []  # function words: no "done", no "has"
    common = {"meet": RARE * 2}
    assert query_forms({"meet", "buy"}, lambda w: common.get(w, 0.0)) == ["bought"]  # "meet" is said often enough


def p(rowid: int, score: float, text: str = "x") -> RankedPassage:
    return RankedPassage(rowid, "chat.md", rowid, rowid, text, "Session 1", "Chat", score)


def test_a_passage_holding_another_form_gains_a_share_of_its_bm25_and_one_only_it_finds_joins():
    asked = []

    def rank(expression: str, limit: int) -> list[RankedPassage]:
        asked.append(expression)
        if expression == '"met"':
            return [p(3, -4.0), p(1, -2.0)]
        return [p(1, -5.0), p(2, -4.5)]

    out = with_forms(rank, lambda w: 0.0, '"rafa" OR "meet"', {"rafa", "meet"}, 10)
    assert asked == ['"rafa" OR "meet"', '"met"']
    assert [(q.rowid, q.score) for q in out] == [(1, -5.0 - FORMS_WEIGHT * 2.0), (2, -4.5), (3, -FORMS_WEIGHT * 4.0)]
    assert with_forms(rank, lambda w: 0.0, '"rafa"', {"rafa"}, 10) == [p(1, -5.0), p(2, -4.5)]  # nothing to add
    assert len(with_forms(rank, lambda w: 0.0, '"meet"', {"meet"}, 2)) == 2


def test_a_words_share_of_the_passages_counts_their_own_text_by_its_stem(tmp_path):
    from kctui.search.passage_counts import passage_share

    index, sources = chat_index(tmp_path, "# Session 1 — 3 March 2024\n\nAnn: Where did you meet him?\n\nBo: We met at a party."
                                          "\n\nAnn: A meeting of minds.\n\nBo: Ha.\n")
    assert passage_share(index, "b1", "meet") == 0.0  # no passages yet
    index_chat(index, sources)
    assert passage_share(index, "b1", "meet") == pytest.approx(2 / 5)  # "meet", "meeting" (the heading is a passage)
    assert passage_share(index, "b1", "met") == pytest.approx(1 / 5)
    assert passage_share(index, "b1", "x-y") == 0.0
