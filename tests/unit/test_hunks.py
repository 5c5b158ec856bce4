"""Issue 35's pure hunk rules (`kctui.core.hunks`): the cut (one hunk per claim, even when claims are
adjacent), what each hunk is called, and merging — every subset of hunks gives a body made of whole
hunks from one side or the other; all gives the proposal exactly, none the current body exactly."""

from __future__ import annotations

import itertools

import pytest

from kctui.core.hunks import merge_hunks, page_hunks, parse_hunk_numbers, partial_words

CUR = "# T\n\n## Facts\n\n* **T** — eol: 2028 ^[t.md:L2-L2]\n* **T** — latest: 1.0 ^[t.md:L3-L3]\n* **T** — gone: x ^[t.md:L5-L5]\n\nSome prose.\n"
NEW = ("# T\n\n## Facts\n\n* **T** — eol: 2029 ^[t.md:L2-L2]\n* **T** — latest: 2.0 ^[t.md:L3-L3]\n"
       "* **T** — owner: Bob ^[t.md:L4-L4]\n\nOther prose.\n")


def test_the_cut_names_each_change() -> None:
    hunks = page_hunks(CUR, NEW)
    assert [(h.kind, h.words) for h in hunks] == [
        ("revised", "claim revised"), ("revised", "claim revised"), ("revised", "claim revised"),
        ("rewritten", "text rewritten")]
    assert hunks[0].section == "Facts" and hunks[0].citations == ["t.md:L2-L2"]
    assert hunks[2].old == ("* **T** — gone: x ^[t.md:L5-L5]",) and hunks[2].new == ("* **T** — owner: Bob ^[t.md:L4-L4]",)


@pytest.mark.parametrize("cur, new, kinds", [
    ("a\n", "a\n* **X** — k: v ^[x.md:L1-L1]\n", ["added"]),
    ("a\n* **X** — k: v ^[x.md:L1-L1]\n", "a\n", ["removed"]),
    ("## A\ntext\n", "## B\ntext\n", ["rewritten"]),
    ("same\n", "same\n", []),
])
def test_kinds(cur: str, new: str, kinds: list[str]) -> None:
    assert [h.kind for h in page_hunks(cur, new)] == kinds


def test_every_subset_merges_from_whole_hunks() -> None:
    hunks = page_hunks(CUR, NEW)
    assert merge_hunks(CUR, NEW, range(len(hunks))) == NEW and merge_hunks(CUR, NEW, []) == CUR
    for r in range(len(hunks) + 1):
        for taken in itertools.combinations(range(len(hunks)), r):
            body = merge_hunks(CUR, NEW, taken)
            for n, h in enumerate(hunks):
                side = h.new if n in taken else h.old
                assert all(line in body.split("\n") for line in side)
            # what remains to take is exactly the hunks not taken
            assert len(page_hunks(body, NEW)) == len(hunks) - len(taken)


@pytest.mark.parametrize("text, numbers", [("1,3", [1, 3]), ("2-4", [2, 3, 4]), (" 3, 1,3 ", [1, 3])])
def test_hunk_numbers(text: str, numbers: list[int]) -> None:
    assert parse_hunk_numbers(text) == numbers


@pytest.mark.parametrize("text", ["", "x", "0", "3-1", "1,,a"])
def test_bad_hunk_numbers(text: str) -> None:
    with pytest.raises(ValueError):
        parse_hunk_numbers(text)


@pytest.mark.parametrize(("action", "chosen", "total", "words"), [
    ("approve", [3], 17, "approved 1 of 17 hunks; 16 left as the current page"),
    ("approve", [1, 2], 2, "approved 2 of 2 hunks"),
    ("approve", [1], 1, "approved 1 of 1 hunk"),
    ("reject", [2, 4], 5, "rejected 2 of 5 hunks (left as the current page); 3 approved"),
    ("reject", [1, 1, 9], 3, "rejected 1 of 3 hunks (left as the current page); 2 approved"),
])
def test_a_partial_decision_says_what_it_did(action: str, chosen: list[int], total: int, words: str) -> None:
    assert partial_words(action, chosen, total) == words
