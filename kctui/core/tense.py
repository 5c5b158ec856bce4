"""Which way a weekday named alone points from the day it was written: "Picked her up on Saturday" is the
Saturday before, "He flies home on Sunday" the Sunday after, "I'm off Thursday" the Thursday after.

`weekday_direction(text, start, end)` reads the clause around the weekday at text[start:end] and answers -1
(the one before), +1 (the one after) or 0 (it cannot tell). Its signals are English's closed classes, never a
corpus's words:

- **a preposition before the day**: "by", "until", "till", "for", "before" point ahead ("the vet's booked
  for Saturday", "by Friday") unless the clause is in the past ("he didn't tell me until Monday"); after "from", "since" or "after" it can be either ("still recovering from
  Saturday"), after a capitalised word it is a day of the year ("Easter Sunday"): 0;
- **a habit**: a weekday in the plural, "every Friday", "Thursday evenings" in the text: 0;
- **the clause's tense**: a modal or a marker of the future ("will", "'ll", "going to", "gonna", "shall",
  "can", "let's", "if"), or a present progressive ("I'm flying", "we're meeting") points ahead; a past form
  (was, were, did, had, an irregular past such as went, got, met, sold, or a verb's "-ed" form that is not an
  adjective after "be" or "so") points back.

Both kinds of signal in the clause, or neither, is 0: the day stays as written, unresolved, rather than
resolved the wrong way. Pure: a function of its inputs (tests/unit/test_tense.py).
"""

from __future__ import annotations

import re

_AHEAD_BEFORE = re.compile(r"\b(?:by|until|till|til|for|before)\s+(?:on\s+)?$", re.I)
_EITHER_BEFORE = re.compile(r"\b(?:from|since|after)\s+(?:on\s+)?$|[a-z]\s+[A-Z][a-z]+\s+$")  # "recovering from
# Saturday" (the one just gone), "Easter Sunday" (a day of the year, not of the week)
_HABIT = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|\b(?:every|each)\s+\w+day\b"
                    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:mornings|afternoons|evenings|nights)\b", re.I)
_FUTURE = re.compile(
    r"\b(?:will|won['’]t|shall|gonna|going to|can|let['’]s|if|hopefully|hoping|plan(?:ning)?|see you"
    r"|(?:want|wants|need|needs|have|has|got|about|supposed) to|gotta)\b"
    r"|['’]ll\b"
    r"|\b(?:am|are|is|['’]m|['’]re)\s+(?:\w+\s+)?\w{2,}ing\b"  # "I'm flying", "we're probably meeting"
    r"|\b(?:am|are|is)\b|\w['’](?:m|re|s)\b",  # "I'm off Thursday", "the party's Saturday": a day planned
    re.I)
_IRREGULAR_PAST = frozenset("""
was were did didn't wasn't weren't had hadn't went got came saw took made said told found gave left felt
bought brought thought ran sat met paid sent spent lost won ate drove flew fell broke wrote spoke heard kept held
began knew rode swam sold sang slept stood taught threw wore woke caught fought forgot hung hid led lent meant
rang rose shook shot stuck struck swore tore understood wept built burnt dealt dug drew drank fed fled froze grew
lay lit overslept became chose bit blew bent forgave sank slid spun split spread stole stung swept swung
""".replace("'", "'").split())
# "-ed" words that are no past form of a verb
_NOT_PAST = frozenset("need needed indeed speed seed feed bleed breed weed bed red shed sled wed hundred sacred "
                      "naked wicked kindred ragged rugged crooked beloved aged bored tired excited scared "
                      "interested worried married engaged booked supposed used".split())
_ADJECTIVE_AFTER = frozenset("am is are be been being so very really too quite 'm 're 's m re get getting "
                             "got feel feeling".split())
_WORD = re.compile(r"[A-Za-z’']+")
_CLAUSE_END = re.compile(r"[.!?;:]+(?:\s|$)|\s[—–-]\s|\n|,\s+(?:but|and|so|though|then)\s", re.I)


def _clause(text: str, start: int, end: int) -> str:
    """The clause that holds text[start:end]: from the last clause end before it to the first after it."""
    opens = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    after = _CLAUSE_END.search(text, end)
    return text[opens:after.start() if after else len(text)]


def _past(words: list[str]) -> bool:
    for k, w in enumerate(words):
        low = w.lower().replace("’", "'")
        if low in _IRREGULAR_PAST:
            return True
        if len(low) >= 5 and low.endswith("ed") and low not in _NOT_PAST:
            before = words[k - 1].lower().replace("’", "'") if k else ""
            if before not in _ADJECTIVE_AFTER and not before.endswith(("'m", "'re", "'s")):
                return True
    return False


def weekday_direction(text: str, start: int, end: int) -> int:
    """-1 (the weekday before the day written), +1 (the one after) or 0 for the weekday at text[start:end]."""
    lead = text[:start]
    if _EITHER_BEFORE.search(lead):
        return 0
    if _HABIT.search(text):
        return 0  # "Wednesdays are better for me", "Thursday evenings": a day of every week
    clause = _clause(text, start, end)
    ahead = bool(_AHEAD_BEFORE.search(lead) or _FUTURE.search(clause))
    back = _past(_WORD.findall(clause))
    if ahead == back:
        return 0
    return 1 if ahead else -1
