"""The second hop of a context packet's raw passages (kctui.search.second_hop): the best hits' rare words the
question does not hold, asked for in a second query whose hits join the ranking at a share of their score."""

from __future__ import annotations

from kctui.search.passage_index import RankedPassage
from kctui.search.second_hop import HOP, HOP_RARE, HOP_WORDS, hop_words, second_hop, with_hops
from tests.helpers.chat_index import chat_index, index_chat


def p(rowid: int, score: float, text: str = "x") -> RankedPassage:
    return RankedPassage(rowid, "chat.md", rowid, rowid, text, "Session 1", "Chat", score)


RARE = {"gdansk": 0.004, "hotel": 0.008, "wedding": 0.009, "date": 0.03, "september": 0.02}


def share(word: str) -> float:
    return RARE.get(word, 0.05)


def test_the_words_asked_for_are_the_seeds_rare_words_the_question_does_not_hold():
    seed = "Marta: Oh, and Kuba's wedding has a date. 16 September, in Gdansk."
    # "kuba" is the question's, "marta" the speaker's label; "date" and "september" are common; rarest first
    assert hop_words([seed], {"kuba", "married"}, lambda w: 0.001 if w in ("kuba", "marta") else share(w)) == [
        "gdansk", "wedding"]
    assert hop_words([seed], {"kuba", "weddings"}, share) == ["gdansk"]  # a form of a question's word is its own
    assert hop_words(["Marta: ok then"], set(), share) == []


def test_a_word_no_passage_holds_or_one_too_common_is_not_asked_for():
    assert hop_words(["Tom: the zzyzx is here"], set(), lambda w: 0.0) == []
    assert hop_words(["Tom: the zzyzx is here"], set(), lambda w: HOP_RARE * 1.5) == []


def test_at_most_so_many_words_rarest_first():
    words = [f"w{i:02d}x" for i in range(HOP_WORDS + 5)]
    got = hop_words([" ".join(words)], set(), lambda w: 0.001 * (1 + words.index(w) % 7))
    assert len(got) == HOP_WORDS and got[0] == "w00x"


def test_the_second_query_is_of_the_rare_words_in_the_turns_own_text():
    asked = []

    def rank(expr: str, n: int) -> list[RankedPassage]:
        asked.append(expr)
        return [p(9, -4.0, "Marta: the hotel in Gdansk double-booked them, so it's now 14 October"), p(3, -1.0)]

    got = second_hop(rank, share, [p(1, -8.0, "Marta: Kuba's wedding has a date. 16 September, in Gdansk.")], {"kuba"})
    assert asked == ['text : ("gdansk" OR "wedding")']
    assert [hit.rowid for _s, hit in got] == [9, 3]
    assert abs(got[0][0] - HOP) < 1e-9 and got[1][0] < got[0][0] / 2  # the first at HOP; the next by BM25 and place
    assert second_hop(rank, lambda w: 0.5, [p(1, -8.0, "Marta: nothing rare here")], set()) == []


def test_a_passage_found_by_both_keeps_its_better_score():
    a, b, c = p(1, -5.0), p(2, -4.0), p(3, -3.0)
    got = with_hops([(1.0, a), (0.1, b)], [(0.3, b), (0.2, c), (0.05, a)])
    assert [(s, x.rowid) for s, x in got] == [(1.0, 1), (0.3, 2), (0.2, 3)]
    assert with_hops([(1.0, a)], []) == [(1.0, a)]


def test_the_shares_of_many_words_read_the_passages_count_once(tmp_path):
    from kctui.search.passage_counts import passage_shares

    index, sources = chat_index(tmp_path, "# Session 1 — 3 March 2024\n\nAnn: Kuba's wedding is in Gdansk.\n\nBo: Gdansk!"
                                          "\n\nAnn: The hotel double-booked.\n\nBo: Ha.\n")
    assert passage_shares(index, "b1")("gdansk") == 0.0  # no passages yet
    index_chat(index, sources)
    share = passage_shares(index, "b1")
    assert share("gdansk") == 2 / 5 and share("hotel") == 1 / 5 and share("x-y") == 0.0 and share("zzz") == 0.0
