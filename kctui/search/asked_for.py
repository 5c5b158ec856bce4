"""What a question asks for, read from its words alone (no model), and whether a statement states such a
thing: the answer type of classic question answering, for ranking (kctui.search.ranking).

`asked_for(question)` is one of:

- "time": a date or a time (kctui.search.time_words.asks_when: "when …", "what date …");
- "duration": how long something lasts or took ("how long …", "how many days …"), not "how long ago";
- "count": how many of something ("how many …");
- "amount": a sum of money ("how much …", or a question about a cost, price, bill, fee, salary, rent,
  budget or what is paid or spent);
- None: anything else (who, what, where, why…: a name or a phrase, which the words of a statement do
  not show apart from any other).

`states(kind, text)`: the text holds a value of that kind: a time (time_words.mentions_time), a number
with a unit of time ("3h 37m", "five weeks", "a fortnight"), a number (digits or a number word), or an
amount of money (a currency sign or code next to a number, "£38k", "1,200 euros"). Pure
(tests/unit/test_asked_for.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

from kctui.search.time_words import asks_when, mentions_time

_NUMBER_WORDS = (r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
                 r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
                 r"|hundred|thousand|million|dozen|half|couple|few|several")
_UNITS = r"s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|nights?|weeks?|wks?|fortnights?|months?|mos?|years?|yrs?"

_DURATION_Q = re.compile(r"\bhow\s+long\b(?!\s+ago)|\bhow\s+many\s+(?:more\s+)?(?:seconds|minutes|hours|days|nights|weeks|"
                         r"months|years)\b", re.I)
_COUNT_Q = re.compile(r"\bhow\s+many\b", re.I)
_AMOUNT_Q = re.compile(r"\bhow\s+much\b|\b(?:cost|costs|costing|price|prices|priced|pay|pays|paying|paid|spend|spends|"
                       r"spending|spent|bill|bills|billed|fee|fees|charge|charges|charged|salary|wage|wages|rent|"
                       r"budget|quote|quoted)\b", re.I)

_DURATION = re.compile(rf"\b(?:\d+(?:[.,]\d+)?|an?|{_NUMBER_WORDS})(?:\s*-\s*|\s*)(?:{_UNITS})\b"
                       r"|\b\d+\s*h\s*\d+\s*m(?:in)?\b|\bfortnight\b", re.I)
_COUNT = re.compile(rf"\d|\b(?:{_NUMBER_WORDS})\b", re.I)
_AMOUNT = re.compile(r"[$£€¥₹]\s?\d|\b\d[\d,.]*\s?(?:k|m|bn)?\s?(?:usd|eur|gbp|cad|aud|dollars?|pounds?|euros?|"
                     r"quid|grand|bucks)\b|\b(?:usd|eur|gbp|cad|aud)\s?\d", re.I)


# (kind, what a question asking for it says, what a statement holding it says), in the order asked
_KINDS = (("duration", _DURATION_Q, _DURATION), ("count", _COUNT_Q, _COUNT), ("amount", _AMOUNT_Q, _AMOUNT))
_HOLDS = {kind: holds for kind, _asks, holds in _KINDS}


def asked_for(question: str) -> str | None:
    """"time", "duration", "count", "amount" or None (see the module's text)."""
    if asks_when(question):
        return "time"
    return next((kind for kind, asks, _holds in _KINDS if asks.search(question)), None)


@lru_cache(maxsize=16384)
def states(kind: str | None, text: str) -> bool:
    """Whether `text` holds a value of `kind` (False for None)."""
    if kind == "time":
        return mentions_time(text)
    holds = _HOLDS.get(kind or "")
    return bool(holds and holds.search(text))


_FRAME = re.compile(r"\bhow\s+(much|many|long|far|often)\b|\b(?:what|which)\s+(kind|type|sort)s?\s+of\b"
                    r"|\bthe\s+(name)\s+of\b", re.I)


def frame_words(question: str) -> frozenset[str]:
    """The words of the question's frame, which say what form the answer takes, not what it is about: "how
    much / many / long / far / often", "what kind / type / sort of", "the name of" (casefolded). The talk that
    answers seldom repeats them ("£40 a year" for "how much are the subs"), and where it does they are
    filler ("thanks so much", "that kind of thing")."""
    return frozenset(w.casefold() for m in _FRAME.finditer(question) for w in m.groups() if w)

