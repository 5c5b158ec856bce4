"""What a question asks for, read from its words alone (no model), and whether a statement states such a
thing: the answer type of classic question answering, for ranking (kctui.search.ranking).

`asked_for(question)` is one of:

- "time": a date or a time (kctui.search.time_words.asks_when: "when …", "what date …"; "dates" anywhere:
  "what are the final dates");
- "weight": how heavy ("how heavy …", "what does it weigh");
- "distance": how far ("how far …", "the total distance", "how many miles …"; not "how far under her target":
  a difference, not a distance);
- "age": how old ("how old …", "what age …");
- "duration": how long something lasts or took ("how long …", "how many days …"), not "how long ago";
- "count": how many of something ("how many …", "the number of …", "the final guest count");
- "job": what a person does for work ("what does Jess do for a living", "what is Maddie's job", "what did Mags
  do before she retired");
- "amount": a sum of money ("how much …", or a question about a cost, price, bill, fee, salary, rent,
  budget or what is paid or spent);
- None: anything else (who, what, where, why…: a name or a phrase, which the words of a statement do
  not show apart from any other).

`states(kind, text)`: the text holds a value of that kind: a time (time_words.mentions_time, or a clock's or a
race's time "3:55", "1:29:51"), a weight, a distance or an age (a number with its unit: "7lb 2oz", "32kg",
"336 miles", "a 10k" but not "£10k", "3 months old", "he's eleven", "turned 70"), a job (a person said to be
a noun of a trade, "I'm a paramedic", "she's a marine biologist", "a retired plumber"), a number
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

_WEIGHT_Q = re.compile(r"\bhow\s+heavy\b|\bweigh(?:s|ed|t|ing)?\b|\bhow\s+many\s+(?:kilos|kg|pounds|lbs|stone)\b", re.I)
_DISTANCE_Q = re.compile(r"\bhow\s+far\b(?!\s+(?:under|inside|over|off|ahead|behind|below|above)\b)|\bdistance\b"
                         r"|\bhow\s+many\s+(?:miles|km|kilometres|kilometers|metres|meters)\b", re.I)
_AGE_Q = re.compile(r"\bhow\s+old\b|\bwhat\s+age\b", re.I)
_DURATION_Q = re.compile(r"\bhow\s+long\b(?!\s+ago)|\bhow\s+many\s+(?:more\s+)?(?:seconds|minutes|hours|days|nights|weeks|"
                         r"months|years)\b", re.I)
_COUNT_Q = re.compile(r"\bhow\s+many\b|\b(?:number\s+of|(?:guest|head|final)\s+(?:count|numbers?))\b", re.I)
_AMOUNT_Q = re.compile(r"\bhow\s+much\b|\b(?:cost|costs|costing|price|prices|priced|pay|pays|paying|paid|spend|spends|"
                       r"spending|spent|bill|bills|billed|fee|fees|charge|charges|charged|salary|wage|wages|rent|"
                       r"budget|quote|quoted)\b", re.I)

_JOB_Q = re.compile(r"\bfor\s+a\s+living\b|\bdo\s+for\s+(?:work|a\s+job)\b|\bused\s+to\s+do\b|\bdo\s+before\s+(?:s?he|they|\w+)\s+"
                    r"retired\b|\b(?:job|profession|occupation|line\s+of\s+work)(?:\s+title)?(?:\s+(?:now|these\s+days))?\s*\?", re.I)
_DURATION = re.compile(rf"\b(?:\d+(?:[.,]\d+)?|an?|{_NUMBER_WORDS})(?:\s*-\s*|\s*)(?:{_UNITS})\b"
                       r"|\b\d+\s*h\s*\d+\s*m(?:in)?\b|\bfortnight\b", re.I)
_NUMBER = rf"(?:\d+(?:[.,]\d+)?|an?|{_NUMBER_WORDS})"
_WEIGHT = re.compile(rf"\b{_NUMBER}\s*-?\s*(?:kg|kgs|kilos?|kilograms?|g|grams?|lbs?|pounds?|oz|ounces?|st|stone)\b", re.I)
_DISTANCE = re.compile(rf"(?<![$£€¥₹\d])\b{_NUMBER}\s*-?\s*(?:miles?|mi|km|kms|kilomet(?:re|er)s?|k|metres?|meters?|m|yards?|"
                       r"yds?|feet|foot|ft)\b", re.I)
_AGE = re.compile(rf"\b{_NUMBER}\s*-?\s*(?:years?|yrs?|months?|weeks?)\s*-?\s*old\b|\baged?\s+\d+\b|\bturn(?:s|ed|ing)?\s+"
                  rf"(?:\d+|{_NUMBER_WORDS})\b|\b(?:he|she|they|i|you|we)(?:['’]s|['’]re|['’]m| is| was| are)\s+(?:only\s+)?"
                  rf"(?:\d+|{_NUMBER_WORDS})\b(?!\s*(?:[$£€%]|minutes|mins|hours|k\b))|\b\d+(?:st|nd|rd|th)\s+birthday\b", re.I)
_JOB = re.compile(r"\b(?:i['’]?m|i\s+am|i\s+was|(?:s?he|they)(?:['’]s|['’]re|\s+is|\s+was|\s+are|\s+were)|works?\s+as|worked\s+as|"
                  r"trained\s+as|job\s+as)\s+(?:a|an)\s+(?:[a-z-]+\s+){0,2}?[a-z-]*(?:ist|ian|er|or|ant|nurse|medic|tect|smith)\b"
                  r"|\bretired\s+[a-z-]*(?:er|or|ist|ian)\b", re.I)  # "She's a marine biologist", "a retired plumber"
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b")  # a time of day or a race's time ("1:29:51", "3:55")
_COUNT = re.compile(rf"\d|\b(?:{_NUMBER_WORDS})\b", re.I)
_AMOUNT = re.compile(r"[$£€¥₹]\s?\d|\b\d[\d,.]*\s?(?:k|m|bn)?\s?(?:usd|eur|gbp|cad|aud|dollars?|pounds?|euros?|"
                     r"quid|grand|bucks)\b|\b(?:usd|eur|gbp|cad|aud)\s?\d", re.I)


# (kind, what a question asking for it says, what a statement holding it says), in the order asked
_KINDS = (("weight", _WEIGHT_Q, _WEIGHT), ("distance", _DISTANCE_Q, _DISTANCE), ("age", _AGE_Q, _AGE),
          ("duration", _DURATION_Q, _DURATION), ("job", _JOB_Q, _JOB), ("count", _COUNT_Q, _COUNT), ("amount", _AMOUNT_Q, _AMOUNT))
_HOLDS = {kind: holds for kind, _asks, holds in _KINDS}


_DATES_Q = re.compile(r"\b(?:dates|date|what\s+day|which\s+day|what\s+year)\b", re.I)  # "what are the final dates"


def asked_for(question: str) -> str | None:
    """"time", "weight", "distance", "age", "duration", "count", "amount" or None (see the module's text)."""
    if asks_when(question):
        return "time"
    kind = next((kind for kind, asks, _holds in _KINDS if asks.search(question)), None)
    return kind or ("time" if _DATES_Q.search(question) else None)


@lru_cache(maxsize=16384)
def states(kind: str | None, text: str) -> bool:
    """Whether `text` holds a value of `kind` (False for None)."""
    if kind == "time":
        return mentions_time(text) or bool(_CLOCK.search(text))
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

