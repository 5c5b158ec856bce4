"""Review messages say what a person types and reads (QA 19): the flags as typed, states in words."""

from __future__ import annotations

import pytest

from kctui.services.review_decide import wrong_action
from kctui.services.review_undo import Decision


def test_a_wrong_action_names_the_command_and_its_flags() -> None:
    text = wrong_action(3, "conflict")
    assert "--use-new, --keep or --dismiss" in text and "kctui review resolve 3" in text and "use_new" not in text
    assert "is a conflict item" in text
    assert "approve or reject" in wrong_action(4, "held")


@pytest.mark.parametrize(("state", "words"), [
    ("resolved_keep", "resolved item #1, keeping the page's value"),
    ("resolved_new", "resolved item #1, taking the new value"),
    ("approved", "approved item #1"),
    ("dismissed", "dismissed item #1"),
])
def test_a_decision_in_words(state: str, words: str) -> None:
    d = Decision(1, "/w", "kb", [(1, state)], [], [], {}, "human:ada", 0, None)
    assert d.words == words
