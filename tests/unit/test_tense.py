"""Which way a weekday named alone points from the day it was written (kctui.core.tense)."""

from __future__ import annotations

import pytest

from kctui.core.tense import weekday_direction


@pytest.mark.parametrize("text, day, direction", [
    ("Picked her up on Saturday", "Saturday", -1),  # a verb's -ed form
    ("I went on it on Sunday.", "Sunday", -1),  # an irregular past
    ("Monday was awful", "Monday", -1),
    ("Have you recovered from Saturday?", "Saturday", 0),  # after "from": either way
    ("He flies home on Sunday, he wants to go back first", "Sunday", 1),  # "wants to"
    ("I'll set off friday after work", "friday", 1),
    ("I'm coming on the train on Friday evening", "Friday", 1),  # a present progressive
    ("the vet's booked for Saturday", "Saturday", 1),  # "for" the day; "booked" is no past here
    ("Tuesday if nothing breaks.", "Tuesday", 1),
    ("He didn't tell me until Monday", "Monday", 0),  # "until", but in the past: cannot tell
    ("I am so excited about Monday", "Monday", 1),  # an adjective in -ed after "so" is no past
    ("Wednesdays are better for me, Tomasz does Wednesday bedtime", "Wednesday bedtime", 0),  # a habit
    ("She's on shift Easter Sunday.", "Sunday", 0),  # a day of the year
    ("Monday lol", "Monday", 0),  # no tense at all
    ("We went back with an offer on Monday, and they'll answer Tuesday", "Tuesday", 1),  # its own clause
])
def test_a_weekday_alone_points_back_or_ahead_as_its_clause_says(text, day, direction):
    start = text.index(day)
    assert weekday_direction(text, start, start + len(day.split()[0])) == direction
