"""One word written as a name, not as code: a page on one mention, or once another source writes it (issue 31).

"A name with a stated fact gets a page even when named once." kctui.compiler.builtin.named_once gives a
page on one mention to names whose form says so (an inner capital, two capitalised words, a model's
number); one capitalised word alone it leaves a passing mention, since a capital alone says little at a
sentence start or in a heading. Away from those places it says more, by how the word is written and how
rare it is in English (`wordfreq`):

- **a rare capitalised word mid-sentence** (`rare_capital`): one word with one capital, rarer in English
  than `RARE_CAPITAL_ZIPF`, after a lower-case word or a comma and before no other capitalised word
  ("Redpanda (standing in for Kafka)", "replaced Jira in Sept 2025", "ticket via Freshservice", "enroll in
  Jamf", "look at Huntress", "reseller Labelpoint"): the writer's own capital on a word English does not
  capitalise or barely has; not a word with an English ending or an English plural ("Expired",
  "Revs"), not a part of a run of capitals ("Device Enroller", "Halvorsen & Reid"). In a sentence with a
  value, a list item or a table row (a note's terse statement of fact) it names what the line states a
  fact of (kctui.compiler.builtin.recall); in a paragraph with no value it stays a passing mention ("we
  met Zorblat yesterday"), a page once another source names it too.
- **a word of two capitalised parts mid-sentence** (also `rare_capital`): "enroll in Jamf, FileVault on",
  "FlagClient already used in most places", "Replace with OpenAthens", by the same place and sentence,
  where no value asks it (kctui.compiler.builtin.named_once gives it a page where one does); not a word
  English has ("iPad", "GitHub": `named_once.shaped_end`), not three parts ("CrashLoopBackOff").
- **two or three such words** (also `rare_capital`): "SSO for WordPress VIP via Google Workspace",
  "(Datix checked by Clinical Safety, Dr Raj Menon)", in a list item or a row with no value (with a value
  named_once has the rule), none an acronym ("Okta SSO", "AWS IAM": an acronym glues a name to a word).
- **a coined word in lower case another source writes too** (`coined_word`, for
  kctui.compiler.steps.written_names): a passing mention in lower case that English does not have
  (`wd.unknown_word`: "tokend", "slurmdbd", "pagerduty"; not "runbook", two English words), letters only (an
  identifier's or a host's shape is the code-shaped names' rule), recurs where another source writes it,
  as a capitalised passing mention does.

Notes a-ad, the rules: things with a page citing their facts 61.0 -> 62.0 % (+28), facts 71.3 -> 71.9 %
(+58), no labelled page lost; of the 23 new pages no label names, 19 are places, brands and products
the labels leave out ("Kraków", "Intune", "OneDrive", "pagerduty"), 2 names in code
("BashOperator", "DigitalDeveloper", a role), 2 a part of a longer name ("Entra" of Entra ID,
"Workspace" of Google Workspace). Two to three words with acronyms too: +5 things more, 35 junk pages
("Go SDK", "Okta SSO", "EOW Kenji"). Without the list items and rows (a value only): +14 things, +33
facts. With no value asked anywhere: +23 things, and every bare mention in prose is a page. Handbook and
RFCs: the same precision and recall (their goldens gain "Zapier", "Todoist", "Gradle", "Tomcat",
"MutableMap", "Deques").

Never a list of a corpus's words: English is `wordfreq`'s small list (kctui.compiler.builtin.words).
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import named_once
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd

# a capitalised word rarer than this in English is the writer's name for something where it stands
# mid-sentence: one wordfreq's small list lacks ("Jira", "Kraków"). At 3.5 notes a-ad gain one thing
# ("Olga") and three unlabelled pages, the handbook and the RFCs "Compute", "Comma", "Str", "Unix"
RARE_CAPITAL_ZIPF = wd.RARE_ZIPF


def stated_of(kind: str, plain: str, spans: list[tuple[nm.Span, str]], valued: bool) -> list[str]:
    """The keys of the spans a sentence with a value (`valued`: a value outside its names, as
    kctui.compiler.builtin.recall reads it), a list item or a table row (`kind`) writes as a name set
    apart mid-sentence (`rare_capital`): what it states a fact of, with a page on this one mention
    (kctui.compiler.builtin.recall); in a paragraph with no value, none ("Someone mentioned Quokkabase
    while we talked about lunch": a passing mention)."""
    if kind not in ("item", "row") and not valued:
        return []
    return [k for s, k in spans if rare_capital(plain, s)]


def rare_capital(plain: str, span: nm.Span) -> bool:
    """Is the span one rare capitalised word the sentence `plain` capitalises mid-sentence (see the
    module's docstring)?"""
    if span.at_start or span.kind not in ("caps", "shaped"):
        return False
    if len(span.tokens) > 1:
        return _words(span.tokens) and _mid(plain, span)
    word = span.tokens[0]
    if span.kind == "shaped":
        if not (_TWO_PARTS.fullmatch(word) and named_once.shaped_end(word)):
            return False
    elif not (word.isalpha() and len(word) >= 3 and word[:1].isupper() and word[1:].islower()) \
            or wd.zipf(word) >= RARE_CAPITAL_ZIPF or _english_form(word):
        return False
    return _mid(plain, span)


def _mid(plain: str, span: nm.Span) -> bool:
    """Does the span stand mid-sentence, set apart by the writer's own capital: after a lower-case word or
    a comma, before no capitalised word, "&" or "+", outside a code span and not called?"""
    before = plain[:span.start].split()
    prev = before[-1].lstrip("(\"'") if before else ""
    after = plain[span.end:].lstrip()[:1]
    if plain.count("`", 0, span.start) % 2 or plain[span.end:span.end + 1] == "(":
        return False  # inside a code span, or called ("TyCtor(`T`)"): code, not a name
    return (prev.endswith(",") or (prev.isalpha() and prev.islower())) and not after.isupper() and after not in ("&", "+")


# two capitalised parts, or a capitalised word and a short acronym, glued ("FileVault", "OpenAthens",
# "MySQL"); not three parts or more ("CrashLoopBackOff", "NullPointerException": a state's or an error's
# name in code), not capitals first ("OOMKilled"), not a lower-case first letter ("vNIC")
_TWO_PARTS = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+|[A-Z]{2,3})")


def _words(tokens: tuple[str, ...]) -> bool:
    """Two or three words written as a name's: each capitalised (or of two parts), not all ordinary
    words, one of them rare or of two parts, none with an English ending or a day's or month's name
    ("Google Workspace", "Anyware Connection Manager"; not "Oct Primo", "Shared Drives")."""
    if len(tokens) > 3 or not all(t.isalpha() and t[:1].isupper() and (t[1:].islower() or _TWO_PARTS.fullmatch(t)) for t in tokens):
        return False
    if all(wd.common_word(t) for t in tokens) or any(nm.english_ending(t) or t.casefold() in wd.CALENDAR for t in tokens):
        return False
    return any((wd.zipf(t) < RARE_CAPITAL_ZIPF and not _english_form(t)) or named_once.shaped_end(t) for t in tokens)


def _english_form(word: str) -> bool:
    """An English ending ("Expired") or an English plural ("Revs": "rev" is a word)."""
    low = word.casefold()
    return low.endswith(wd.WORD_SUFFIX) or (low.endswith("s") and wd.zipf(low[:-1]) >= wd.RARE_ZIPF)


def coined_word(name: str) -> bool:
    """A name in lower case letters only that English does not have ("tokend", "slurmdbd", "pagerduty")."""
    return name.isalpha() and name.islower() and wd.unknown_word(name)
