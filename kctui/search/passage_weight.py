"""What a raw passage's score is multiplied by for its form, in the one ranking of a context packet
(kctui.search.ranking.fuse): a heading, a passage found only by the words around it, a turn of a conversation.

- A heading counts HEADING: what the passages under it say comes first (a meeting's "## 1. StockPilot 9.4.0
  at Doncaster" is answered by the item under it, which the ranking reaches as the heading's next passage).
- A passage of a document whose own text names no content word of the query (`content_word`) and holds no
  number counts OWN_WORDS: it was found by its heading's, neighbours' or file's words (the FTS5 columns weighed
  below its text, kctui.search.passage_index), which those show better ("Nothing else burning. Have a good
  week, Felix." after the line on the Slurm upgrade). A number keeps it whole: a date, an amount or a version
  under the query's words is what a line answers with ("- went live Sun 22 Nov, done by 09:20"); on the notes
  the weight on every such passage cited more evidence lines but quoted fewer answers.
- A turn of a conversation (`speaker_of`) keeps its score without the query's words (a reply is found by
  the turn it answers: "Still 1:55."); it counts SPEAKER when a person the question names speaks it, and
  SETTLED when the question asks how things stand in the end and the turn tells of a change (tells_change).
- A passage that says only that a value goes on as it was ("cutover still 14 Nov": only_continues) counts
  SUPERSEDED, and not SETTLED, when the question asks how things stand in the end and for a value of a kind
  (kctui.search.asked_for: a time, an amount …), the passage states one, and another passage or claim found
  for it states one too and tells that a thing both name was changed ("we moved the cutover to 21 Nov":
  tells_news, `moved_words`): it said how things stood then, the change is what replaced it (QA session
  32 #5). A "still" that states no such value ("the route still maps OBR-18 into 12 characters", what was
  wrong) is no old value: it keeps its weight.

Pure (tests/unit/test_ranking.py, test_speakers.py, test_time_words.py).
"""

from __future__ import annotations

import re
from typing import Any

from kctui.search.asked_for import states
from kctui.search.query import FUNCTION_WORDS
from kctui.search.time_words import only_continues, tells_change, tells_news
from kctui.search.turns_read import is_heading, speaker_of
from kctui.search.word_sets import names_word

HEADING = 0.4  # a heading passage, against the score of its rank (what the passages under it say comes first)
OWN_WORDS = 0.4  # a passage (not a turn, not a heading) that neither names a word of the query nor holds a
# number, found only by its heading's, neighbours' or file's words ("Nothing else burning. Have a good week.")
SPEAKER = 2.0  # a turn spoken by a person the question names ("What is Marcus's job now?": what Marcus said)
SETTLED = 2.5  # a question about how things stand in the end ("What is Marcus's job now?"): a turn that says
# something changed or settled ("We're going to Porto instead!", "Still 1:55."), against one that does not
SUPERSEDED = 0.4  # such a question: a passage that says only that a thing goes on as it was, when another
# passage tells a change of it (the old state, said before the change: below the change, as OWN_WORDS)

_VALUE = re.compile(r"\d")  # a number, a date, a version: what a line under the query's words can answer with


def content_word(word: str) -> bool:
    """A word of the query that says what it asks about: not a function word of English, nor one letter or
    digit (the bag of words the raw passages are matched by leaves out the same)."""
    return len(word) > 1 and word not in FUNCTION_WORDS


def passage_weight(p: Any, content: set[str], speakers: frozenset[str], latest: bool,
                   moved: frozenset[str] = frozenset(), wants: str | None = None) -> float:
    """The factor of passage `p` (its `text` and `heading`) for its form (see the module's text); `content`:
    the query's content words; `speakers`: the people the question names; `latest`: whether it asks how
    things stand in the end; `moved`: the content words a passage found tells a change of the value asked
    for of (`moved_words`); `wants`: the kind of value the question asks for (asked_for)."""
    if is_heading(p.text, p.heading):
        return HEADING
    named = not content or names_any(p.text, content)
    speaker = speaker_of(p.text) if speakers or latest or not named else ""  # (a regex: only when it counts)
    weight = OWN_WORDS if not named and not speaker and not _VALUE.search(p.text) else 1.0
    if speakers and speaker in speakers:
        weight *= SPEAKER
    if latest and moved and wants and only_continues(p.text) and states(wants, p.text) \
            and names_any(p.text, set(moved)):
        return weight * SUPERSEDED
    if latest and speaker and tells_change(p.text):
        weight *= SETTLED
    return weight


def moved_words(passages: Any, content: set[str], wants: str) -> frozenset[str]:
    """The query's content words that a passage (`text`) tells a change of the value asked for of: it names
    them, states a value of the kind `wants` and says a thing was changed (tells_news: "moved", "instead",
    "no longer" …)."""
    out: set[str] = set()
    for p in passages:
        if tells_news(p.text) and states(wants, p.text):
            out.update(w for w in content if w not in out and names_any(p.text, {w}))
    return frozenset(out)


def names_any(text: str, words: set[str]) -> bool:
    """Whether the text names one of the words (or a word sharing its stem, `typed_word`)."""
    return any(names_word(t, text) for t in words)
