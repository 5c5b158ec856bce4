"""The raw layer's index (kctui.search.passage_index): an answer that does not repeat the question's words
is found through the passage before it, and a table an older version wrote is built again."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.search.index import SearchIndex
from kctui.search.passage_index import _table, neighbours, rank_passages, refresh_passages, source_words

KEY = "b0123456789abcdef01234567"
CHAT = """# Session 1 — 3 March 2024

Ann: What cake are you baking for the party?

Bo: Lemon drizzle, three layers.

Ann: Lovely. The weather was grim today.

Bo: Rain all week here too, and the roof leaks.
"""


def _index(tmp_path: Path) -> SearchIndex:
    return SearchIndex.open(tmp_path / "index.db")


def test_an_answer_is_ranked_by_the_question_it_answers(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "chat.md").write_text(CHAT, encoding="utf-8")
    index = _index(tmp_path)
    assert refresh_passages(index, KEY, sources) == 1
    got = rank_passages(index, KEY, '"cake" OR "party"', 10)
    assert [p.start for p in got if p.start != 1][:2] == [3, 5]  # the question, then its answer (which names neither word)
    assert [p.start for p in got].index(9) > 2  # three turns on: found through its further turns, below the answer


def test_an_answer_turns_after_the_question_is_found_by_its_words_below_the_next_turn(tmp_path: Path) -> None:
    """A chat answers a question turns later ("Any news from the letting agent?" — "Yes!" — "Go on…" — the
    answer): the turns up to TURN_REACH_BEFORE places after it are found by its words (FURTHER_WEIGHT), below
    the turn right after it, and a turn further away is not."""
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "chat.md").write_text(
        "# Session 2\n\nAnn: Any news from the letting agent?\n\nBo: Yes! Finally.\n\nAnn: Go on then.\n\n"
        "Bo: We settled on 1,095 from September.\n\nAnn: Brilliant.\n\nBo: Anyway, how was the gig?\n\n"
        "Ann: Loud.\n\nBo: Ha.\n", encoding="utf-8")
    index = _index(tmp_path)
    refresh_passages(index, KEY, sources)
    got = [p.start for p in rank_passages(index, KEY, '"letting" OR "agent"', 10)]
    assert got[:2] == [3, 5] and {7, 9, 11, 13} <= set(got) and 15 not in got and 17 not in got


def test_the_passages_further_after_the_first_hits_are_read_only_when_asked(tmp_path: Path) -> None:
    """A question asking for a value reads the `reach` passages after its `first` best hits (where the talk a
    hit opens comes to the value: kctui.search.passage_scores.VALUE_REACH); otherwise only the passage before each
    hit and the two after it (the second: its speaker going on, kctui.search.passage_scores.GOES_ON)."""
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "chat.md").write_text(CHAT, encoding="utf-8")
    index = _index(tmp_path)
    refresh_passages(index, KEY, sources)
    hit = next(p for p in rank_passages(index, KEY, '"cake"', 10) if p.start == 3)
    assert sorted(p.start for p in neighbours(index, KEY, [hit]).values()) == [1, 5, 7]
    assert sorted(p.start for p in neighbours(index, KEY, [hit], reach=3, first=1).values()) == [1, 5, 7, 9]
    assert sorted(p.start for p in neighbours(index, KEY, [hit], reach=3, first=0).values()) == [1, 5, 7]
    late = next(p for p in rank_passages(index, KEY, '"roof"', 10) if p.start == 9)
    assert sorted(p.start for p in neighbours(index, KEY, [late], before=3).values()) == [3, 5, 7]  # who named it
    assert sorted(p.start for p in neighbours(index, KEY, [hit], span=(1, 2)).values()) == [1, 5, 7]  # its section
    assert sorted(p.start for p in neighbours(index, KEY, [hit], span=(1, 3)).values()) == [1, 5, 7, 9]


def test_a_table_without_todays_columns_is_built_again(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "chat.md").write_text(CHAT, encoding="utf-8")
    index = _index(tmp_path)
    with index.write() as conn:  # what an older version left: no context column
        conn.execute("CREATE TABLE passage_sources (key TEXT NOT NULL, path TEXT NOT NULL, sig TEXT NOT NULL, "
                     "title TEXT NOT NULL, PRIMARY KEY (key, path))")
        conn.execute(f"CREATE VIRTUAL TABLE {_table(KEY)} USING fts5(text, heading, path UNINDEXED, "
                     "start UNINDEXED, end UNINDEXED)")
        conn.execute("INSERT INTO passage_sources VALUES (?, 'chat.md', 'stale', '')", (KEY,))
    assert refresh_passages(index, KEY, sources) == 1
    # its neighbours by their context, then the turn two places away by its further turns
    got = [p.start for p in rank_passages(index, KEY, '"lemon"', 10)]
    assert got[0] == 5 and set(got[1:3]) == {3, 7} and got[3:] == [9]
    assert refresh_passages(index, KEY, sources) == 0  # and kept from then on


def test_a_statement_that_gives_its_relative_time_already_is_not_given_it_twice():
    import datetime as dt

    from kctui.search.packet_items import _dates_of

    anchor = dt.date(2024, 3, 5)
    assert _dates_of("Ann: I got back yesterday.", anchor) == ("yesterday = Monday 4 March 2024",)
    assert _dates_of("Ann (2024-03-05; yesterday = Monday 4 March 2024) — said: I got back yesterday.", anchor) == ()


def test_the_other_names_of_what_a_query_names_join_its_words():
    from kctui.search.passage_index import passage_expression
    from kctui.search.query import parse_query

    assert passage_expression(parse_query("Lena's car")) == '"lena" OR "car"'
    assert passage_expression(parse_query("Lena's car"), ["lena", "len", "x", "and"]) == '"lena" OR "car" OR "len"'


def test_the_function_words_of_a_question_are_not_matched_against_the_passages(tmp_path):
    """In a small knowledge base "our" or "should" can be rarer than the words that answer: a short line
    holding only them would lead."""
    from kctui.search.index import SearchIndex
    from kctui.search.passage_index import passage_expression, rank_passages, refresh_passages
    from kctui.search.query import parse_query

    question = parse_query("Who should I talk to about our Okta contract?")
    assert passage_expression(question) == '"talk" OR "okta" OR "contract"'
    assert passage_expression(parse_query("what is it")) == '"what" OR "is" OR "it"'  # nothing else to match
    assert passage_expression(parse_query("Huaxin's latest price")) == '"huaxin" OR "latest" OR "price"'  # as typed

    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "vendors.md").write_text(
        "# Vendors\n\nWe should all read our notes about this.\n\n"
        "| Vendor | Owner | Renewal |\n|---|---|---|\n| Okta | Jonas Berg | 2026-08-14 |\n", encoding="utf-8")
    index = SearchIndex.open(tmp_path / "index.db")
    refresh_passages(index, "b1", sources)
    best = rank_passages(index, "b1", passage_expression(question), 5)
    assert best[0].text == "| Okta | Jonas Berg | 2026-08-14 |"
    assert not any("should" in p.text for p in best)  # matched by function words alone


def test_a_terms_label_is_the_word_without_the_sentences_punctuation():
    """What a packet echoes (`terms`, `uncoveredTerms`) names the word typed, not "kit?"."""
    from kctui.search.query import parse_query

    assert parse_query("When did Dee buy his drum kit?").labels == ["Dee", "buy", "his", "drum", "kit"]
    assert parse_query('(Marcus, node.js) "an exact phrase?"').labels == ["Marcus", "node.js", "an exact phrase?"]


EMAIL = """From: Wendy Lin <wendy@example.cn>
To: Priya

Updated price for 2,000 pcs: USD 18.15/unit (was 18.40).

Best regards, Wendy
"""
OTHER = """The board price for the pilot run is a question for the steering group.
"""


def test_a_passage_is_found_by_its_files_name_where_its_lines_do_not_say_it(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "email-huaxin-dfm-review.md").write_text(EMAIL, encoding="utf-8")
    (sources / "pilot.md").write_text(OTHER, encoding="utf-8")
    index = _index(tmp_path)
    refresh_passages(index, KEY, sources)
    got = rank_passages(index, KEY, '"huaxin" OR "price"', 10)
    assert (got[0].path, got[0].start) == ("email-huaxin-dfm-review.md", 4)  # the name and the word, over the word alone
    assert {p.path for p in rank_passages(index, KEY, '"huaxin"', 10)} == {"email-huaxin-dfm-review.md"}


@pytest.mark.parametrize(("rel", "title", "words"), [
    ("email-huaxin-dfm-review.md", "", "email huaxin dfm review"),
    ("notes/2026_01_22.hardware-sync.md", "Hardware sync", "2026 01 22 hardware sync Hardware sync"),
    ("chat-1/session-03.md", "", "session 03"),
    ("README", "Project", "README Project"),
])
def test_the_words_that_name_a_source(rel: str, title: str, words: str) -> None:
    assert source_words(rel, title) == words


def test_a_file_split_by_an_older_layout_is_split_again_once(tmp_path: Path) -> None:
    """The file's signature holds LAYOUT: a table filled by a version that made the columns otherwise (the
    further turns of fewer places) is filled again, without a change of its columns or of the file."""
    from kctui.search.passage_index import LAYOUT

    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "chat.md").write_text(CHAT, encoding="utf-8")
    index = _index(tmp_path)
    assert refresh_passages(index, KEY, sources) == 1
    with index.write() as conn:  # what the version before LAYOUT 2 stored: size, mtime and inode alone
        conn.execute("UPDATE passage_sources SET sig = substr(sig, ?)", (len(f"{LAYOUT}:") + 1,))
    assert refresh_passages(index, KEY, sources) == 1
    assert refresh_passages(index, KEY, sources) == 0
