"""Where a word written in lower case stands as a name (issue 31): the places a note gives a person.

A note written in lower case names its people in lower case ("kim owns the generator script"), and a
base that does so says it itself: the roster, list of names or bold line that made the lower-case alias
("ppl: dana, raj, kim") is its own text. But a given name that is an ordinary English word ("kim", "tom",
"will", "mark", "bill") is also that word, so the mention step finds such an alias written in lower case
only where the statement uses the word as a name — by its place, never by the word (`name_position`):

- **alone in a slot**: between the separators of a list, a cell, a label's value or brackets
  ("deciders: dana, kim, gerald", "| kim |", "owner overall: kim.", "(kim, 9 oct)", "**kim**");
- **joined** to another name by "+", "&" or "/" ("kim + luis", "tom / tomasz");
- **after a preposition that takes a person** ("w/ kim", "@kim", "by rob", "cc tom"; not "with" or
  "from": "with max 3 retries");
- **possessive**, opening its clause ("tom's notes", "random: owen's dog"; not "a poor man's");
- **the subject of its clause**: opening a sentence, an item or a clause (after a time: "09:55 kim
  confirms …") and followed by a verb's inflected form that does not end the text or open a label
  ("rob notes:" leads a list) — a word ending in "s" or "ed" (not "ss", "us",
  "eed": "will pass", "will focus", "will need" are the modal), "to" + a word ("kim to raise …"), or an
  auxiliary ("kim has a script", "tom said yes").

"will check the logs", "the bill is due", "mark as done", "max 3 retries" are none of these.

A source written in lower case (`lower_case_source`: most of its sentences, items and rows open in lower
case, a chat turn's speaker aside) says nothing by a capital: there the mention step finds a capitalised
name of English words in lower case anywhere ("sentry quota at 81%", "in better stack by fri"), unless it
is one ordinary word ("linear", "piano") or follows "a"/"an" ("a discord").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kctui.compiler.builtin import words as wd

# what ends the slot before a name ("-" only when spaced: a list item's dash or an aside's)
_OPENS = re.compile(r"(?:^|[(\[|:;,.!?•*+&/=—–]|\s-|^-)\s*$")
_CLOSES = re.compile(r"^\s*(?:$|[)\]|,;.!?:*—–]|\s-\s|\(|\+|&|/)")  # what ends it after (a colon: "kim: load test")
_JOINED = re.compile(r"(?:^\s*[+&/]\s*[^\W\d_])|(?:[^\W\d_]\s*[+&/]\s*$)")
_AFTER = re.compile(r"(?:\bw/|@|\b(?:by|cc)\b)\s*$", re.IGNORECASE)  # ("with", "from": "with max 3 retries")
_POSSESSIVE = re.compile(r"^['’]s\b")
_CLAUSE = re.compile(r"(?:^|[(\[|:;,.!?•*—–]|\s-|^-|\d{1,2}[:.]\d{2}(?:\s*[ap]m)?)\s*$", re.IGNORECASE)
_NEXT = re.compile(r"^\s+([a-z][a-z'’]*)(?:\s+([a-z]\w*))?(?P<end>\s*(?::|$))?")
# closed-class verbs that follow a subject (an auxiliary or a modal) and say a person did or will do
_AUXILIARY = frozenset("is was has had does did will would can could should must might may said says "
                       "got gets".split())
_NOT_VERB_ENDINGS = ("ss", "us", "is", "eed", "ways", "times")  # pass, focus, analysis, need; always, sometimes


LOWER_CASE_SHARE = 0.5  # a source whose statements open in lower case this often (and at least
LOWER_CASE_MIN = 3  # this many) is written in lower case
# what opens a statement before its first word: markup, digits, a time, a chat turn's speaker in bold
_OPENING = re.compile(r"^(?:[^\w*]|\d|_)*(?:\*\*[^*]+\*\*)?[^\w]*(?:\d{1,2}[:.]\d{2}(?:\s*[ap]m)?)?[\W\d_]*", re.IGNORECASE)


def lower_case_source(texts: Iterable[str]) -> bool:
    """Is a source with these statements written in lower case: at least LOWER_CASE_SHARE of those that
    open with a letter (after markup, a time and a chat turn's speaker in bold) open with a small one, and
    at least LOWER_CASE_MIN?"""
    small = letters = 0
    for text in texts:
        at = _OPENING.match(text).end()  # (its opening always matches, maybe empty: the first letter after it)
        rest = text[at:at + 1]
        if rest.isalpha():
            letters += 1
            small += rest.islower()
    return small >= LOWER_CASE_MIN and small >= LOWER_CASE_SHARE * letters


def name_position(text: str, start: int, end: int) -> bool:
    """Does the word at text[start:end] stand where a note writes a person's name (the module's places)?"""
    before, after = text[:start], text[end:]
    if _AFTER.search(before) or _JOINED.search(after) or _JOINED.search(before):
        return True
    if _POSSESSIVE.match(after):  # (opening its clause: not "a poor man's …")
        return bool(_CLAUSE.search(before) or _OPENS.search(before))
    if _OPENS.search(before) and _CLOSES.match(after):
        return True
    return bool(_CLAUSE.search(before)) and _verb_follows(after)


def _verb_follows(after: str) -> bool:
    """Is the word after a clause's first word a verb's inflected form, "to" + a word, or an auxiliary?"""
    m = _NEXT.match(after)
    if m is None or (m.group(2) is None and m.group("end") is not None):
        return False  # (a lead line's label: "rob notes:")
    word = m.group(1)
    if word == "to":
        return m.group(2) is not None
    if word in _AUXILIARY:
        return True
    return len(word) > 3 and word.endswith(("s", "ed")) and not word.endswith(_NOT_VERB_ENDINGS) \
        and "'" not in word and "’" not in word and word not in wd.CALENDAR
