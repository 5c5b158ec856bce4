"""A held change set's summary in the review item's head is cut after a few lines and says where the rest is
(a set of many pages filled the screen and hid the hunks)."""

from __future__ import annotations

from kctui.ui.screens.review_detail import SUMMARY_CHARS, short_summary


def test_a_short_summary_is_shown_whole() -> None:
    s = "Confluent: change what the page says; 0 claims added, 0 revised, 5 retracted"
    assert short_summary(s) == s


def test_a_long_summary_is_cut_at_a_word_and_says_where_the_rest_is() -> None:
    s = " | ".join(f"Page {n}: change what the page says; 1 claim added" for n in range(30))
    out = short_summary(s)
    assert out.endswith(" … (cut: the hunks below show each change)")
    head = out.removesuffix(" … (cut: the hunks below show each change)")
    assert len(head) <= SUMMARY_CHARS and s.startswith(head) and s[len(head)] == " "
