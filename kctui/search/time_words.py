"""Time in a question and in a passage, read from the words alone (no model).

`asks_latest(question)`: the question asks how things stand in the end ("now", "these days", "end up",
"finally", "in the end", "still", "so far", "actually"); `tells_change(text)`: the text says that something
changed or settled ("instead", "now", "moved", "no longer", "after all", "in the end", "still"): what
answers such a question is most often said so (kctui.search.ranking.SETTLED). Of those, `tells_news(text)`
says in so many words that it was changed for another ("moved", "switched", "instead", "no longer"), and `only_continues(text)` says only that it goes on as it was ("still", "stays",
"remains", "unchanged"): how things stood when said, which a change told elsewhere replaces
(kctui.search.passage_weight.SUPERSEDED; QA session 32 #5: "cutover still 14 Nov" led the answer to "when
is the cutover now?" above "we moved the cutover to 21 Nov").

`asks_when(question)`: the question asks for a time: "when …", or "what / which / on what …" followed by
a word for a time ("what date", "which day", "on what evening", "what year"). `mentions_time(text)`: the
text states one: a relative time kctui.core.relative_time resolves ("yesterday", "last week", "two years
ago"), a weekday or a month by name (their names from the `calendar` module), a day of the month ("the
22nd"), a written date ("2024-03-05", "5/3"), a time of day ("at 7", "9 am", "half seven") or a part of a
day or week spoken of as past or coming ("last night", "at the weekend"). A question about time prefers
the passages that state one (kctui.search.ranking). Pure (tests/unit/test_time_words.py).
"""

from __future__ import annotations

import calendar
import re
from functools import lru_cache

from kctui.core.relative_time import _PATTERNS as _RELATIVE

_TIME_NOUNS = r"(date|dates|day|days|time|year|month|week|weekend|morning|afternoon|evening|night|season)"
_ASKS = re.compile(rf"^\s*(?:\w+\s+){{0,2}}?when\b|\b(?:what|which)\s+(?:\w+\s+)?{_TIME_NOUNS}\b|\bhow\s+long\s+ago\b",
                   re.I)
_NAMES = sorted({n.casefold() for n in (*calendar.day_name, *calendar.month_name, *calendar.month_abbr[1:]) if n}
                - {"may"}, key=len, reverse=True)  # "may" is far more often the verb
_NAMED = re.compile(r"\b(" + "|".join(_NAMES) + r")\b|\bMay\b(?=\s+\d|\s+\w+\s+\d{4})|\b\d{1,2}\s+May\b", re.I)
_STATED = re.compile(
    r"\b(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b"  # the 22nd
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"  # written dates
    r"|\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b(?:at|by|from|until)\s+(?:half\s+)?\d{1,2}(?::\d{2})?\b"  # times of day
    r"|\b(?:last|next|this|on|at\s+the)\s+(?:night|weekend|morning|afternoon|evening)\b"
    r"|\b(?:19|20)\d\d\b", re.I)


_LATEST = re.compile(r"\b(?:now|currently|current|these\s+days|at\s+the\s+moment|at\s+present|end(?:s|ed)?\s+up|in\s+the\s+end|"
                     r"finally|final|still|so\s+far|as\s+of|latest|eventually|ultimately|actually)\b", re.I)


def asks_latest(question: str) -> bool:
    """Whether a question asks how things stand in the end (see the module's text)."""
    return bool(_LATEST.search(question))


_NEWS = re.compile(r"\b(?:instead|now|changed?|moved?|switch(?:ed)?|swap(?:ped)?|anymore|no\s+longer|after\s+all|"
                   r"in\s+the\s+end|final(?:ly)?|actually)\b", re.I)
_CONTINUED = re.compile(r"\b(?:still|stay(?:s|ed)?|remain(?:s|ed)?|unchanged)\b", re.I)
_STILL = re.compile(r"\bstill\b", re.I)  # (of those, the one a settled answer is said with: "Still 1:55.")


@lru_cache(maxsize=8192)
def tells_change(text: str) -> bool:
    """Whether a text says that something changed or settled (see the module's text)."""
    return bool(_NEWS.search(text) or _STILL.search(text))


_MOVED = re.compile(r"\b(?:instead|changed?|moved?|switch(?:ed)?|swap(?:ped)?|anymore|no\s+longer)\b", re.I)


@lru_cache(maxsize=8192)
def tells_news(text: str) -> bool:
    """Whether a text says in so many words that something was changed for another ("moved", "changed",
    "switched", "instead", "no longer"), not only how it stands ("now", "actually", "in the end": those
    also describe a state, "the mapping is now 16 characters", which need not replace another)."""
    return bool(_MOVED.search(text))


@lru_cache(maxsize=8192)
def only_continues(text: str) -> bool:
    """Whether a text says only that something goes on as it was ("still 14 Nov", "stays", "remains",
    "unchanged") and tells no change: how it stood when said, which a later change replaces."""
    return bool(_CONTINUED.search(text)) and not _NEWS.search(text)


def asks_when(question: str) -> bool:
    return bool(_ASKS.search(question))


@lru_cache(maxsize=8192)
def mentions_time(text: str) -> bool:
    return bool(_NAMED.search(text) or _STATED.search(text) or any(p.search(text) for _name, p in _RELATIVE))

