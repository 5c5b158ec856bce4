"""The values a sentence states, read by their form (kctui.compiler.builtin.recall decides what they are
said of): where a sentence holds one (a token with a digit, a capitalised day or month as `dateutil`
reads them), whether one stands right after a name ("Postgres 16"), and the kind of the value stated
of a name (a date written in several words, "23 April 2026", is one value) — a date (what `dateutil` parses as one), an amount, a duration, a share, a version.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from http import HTTPStatus

from kctui.compiler.builtin import names as nm

_DIGIT_TOKEN = re.compile(r"(?<![\w@/#])(?:[vV](?=\d)|[~≈<>+]?[$€£¥]?)\d[\w.,:/%–+-]*")
# (a version written with its "v" is one token: "EMQX (v5.4)", "Unleash v5.7", not a "4" or a "7" after a dot)
# a run of letters that can be a calendar word: capitalised, three letters or more (`calendar_word`)
_ANY_DIGIT = re.compile(r"\d")  # (a digit token needs one: most sentences have none, and this scan is quick)
# (the capital first, then the look behind it: a pattern that opens with a class lets the scan skip
# to the next capital instead of trying the look-behind at every character; the same matches)
_CAPITALISED = re.compile(r"[A-Z](?<![A-Za-z][A-Z])[A-Za-z]{2,}")


@lru_cache(maxsize=1)
def _calendar() -> object:
    from dateutil.parser import parserinfo

    return parserinfo()


@lru_cache(maxsize=65536)
def calendar_word(word: str) -> bool:
    """A month (capitalised: "may" is a verb) or a weekday, as dateutil reads them."""
    info = _calendar()
    if len(word) < 3:
        return False
    if not word[0].isupper():
        return False  # "sun", "may", "march": ordinary words in lower case
    return info.weekday(word) is not None or info.month(word) is not None  # type: ignore[attr-defined]


@lru_cache(maxsize=16384)
def value_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where the sentence holds a value: digit tokens and calendar words. Remembered per text: the rules
    of one sentence ask it again and again (about 3.5 times each over the RFCs), and a tuple cannot be
    changed by one of them under another."""
    out = [(m.start(), m.end()) for m in _DIGIT_TOKEN.finditer(text)] if _ANY_DIGIT.search(text) else []
    out += [(m.start(), m.end()) for m in _CAPITALISED.finditer(text) if calendar_word(m.group(0))]
    return tuple(out)


# between a name and its value: punctuation, at most two words in lower case (a verb, a preposition:
# "renews on", "took"), "v"/"version": "Postgres 16", "Zuora renews 2027-01-15", "EMQX (v5.4)"
_NEXT_TO = re.compile(r"[\s(:,]{1,3}(?:[a-z]+\s+){0,2}(?:v(?:ersion)?\s?)?")
# a version with its "v" in the bracket that opens after the name: "Unleash (self-hosted, v5.7 on the tools cluster)"
_IN_BRACKET = re.compile(r"\s?\([^()]{0,36}[\s,]")


# what marks the value after it as one that held before ("€14,400/yr (was €12,900)", "up from 3", "previously
# 180"): no value its name has now. (A bare "was" does not: "downtime was 42 minutes" states one.)
_FORMER = re.compile(r"(?:\(\s*was|\b(?:up|down) from|\bpreviously|\bformerly|\bused to be)\s+(?:~|about\s+|around\s+)?$", re.I)


_ROLLBACK = re.compile(r"\b(?:roll(?:s|ed|ing)?[ -]?back|revert(?:s|ed|ing)?|downgrad(?:e|es|ed|ing)|fall(?:s|ing)? back)"
                       r"\b[^.;:!?]{0,40}$", re.I)


# a version or an amount before an arrow to another ("LX420 3.2.7 → 3.3.1", "$145 -> $155"): the one it changes
# from (not a date's: "14 Dec → 4 Jan" is a span)
_ARROW_FROM = re.compile(r"(?:v?\d+(?:\.\d+){1,3}[\w-]*|[$£€]\s?\d[\d,.]*k?)\s*(?:→|->|=>|⟶)\s*(?:v?\d+\.\d|[$£€]\s?\d)")


def former(plain: str, a: int) -> bool:
    """Is the value at `a` one the sentence says held before, not now ("(was €12,900)", "3.2.7 → 3.3.1")?"""
    return bool(_FORMER.search(plain, max(0, a - 24), a) or _ARROW_FROM.match(plain, a))


_SPEAKS = re.compile(r"\s+(?:says?|said|thinks?|thought|reckons?|reckoned|estimates?|estimated|asked|agreed|approved|"
                     r"ok'?d|okayed|signed off|negotiating|negotiated|pushing back|pushed back|wants?|wanted|"
                     r"suggested|proposed|budgeted|confirmed|mentioned|noted|is negotiating|is pushing)\b", re.I)


def speaks(plain: str, end: int) -> bool:
    """Does the name ending at `end` say, think, ask for or approve what follows ("Leah says the v3.2 pack
    …", "Priyanka negotiating, aiming for under $1,250", "Priya OK'd the £1,940")? The value in its words is
    of what they talk about, not theirs."""
    return bool(_SPEAKS.match(plain, end))


def rolled_back_to(plain: str, a: int) -> bool:
    """Is the value at `a` the one a rollback goes back to ("Roll back to ingest-gateway 2.2.9", "downgrade
    the agent to 7.1"): an earlier version, not what runs now."""
    return bool(_ROLLBACK.search(plain, max(0, a - 60), a))


def valued_outside(plain: str, spans: list[nm.Span]) -> bool:
    """Does the sentence hold a value outside its names (`spans`)?"""
    return any(not any(s.start <= v[0] < s.end for s in spans) for v in value_spans(plain))


def value_next_to(plain: str, span: nm.Span, values: list[tuple[int, int]]) -> bool:
    """Does a value follow the name at once ("Postgres 16", "EMQX 5.4", "Acme (2026-03-31)")?"""
    return any(0 < a - span.end <= 20 and _NEXT_TO.fullmatch(plain[span.end:a])
               or plain[a:a + 1] in ("v", "V") and 0 < a - span.end <= 40 and _IN_BRACKET.fullmatch(plain[span.end:a])
               for a, _ in values)



_CURRENCY = re.compile(r"[$€£¥]|\b[A-Z]{3}\s?\d")
_DURATION_UNIT = re.compile(r"(?:ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|"
                            r"months?|mo|y|yrs?|years?)\b", re.I)
_DOTTED = re.compile(r"v?\d+(?:\.\d+)+[a-z0-9.-]*$|v\d+$")
_OWNED = re.compile(r"\b[A-Z][\w.+-]*\s+v?$")
_IPV4 = re.compile(r"(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:/\d{1,2})?$")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}$")
_HOST = re.compile(r"\w\.[A-Za-z]")  # a host's name: a domain's dot


def stated_value(plain: str, span: nm.Span, names: list[tuple[int, int]] = (), first: bool = True) -> tuple[str, str] | None:  # type: ignore[assignment]
    """(kind, value) of the value stated of the name `span`: the value right after it ("Postgres 16",
    "renews 2026-09-30"), or the one value of a sentence whose subject (`first` name, before the value) it is; widened over
    the calendar words and numbers next to it ("Tue 17 Feb", "31 Jul 2026") and a unit of time; its
    kind by its form — "date" (what dateutil reads as one), "amount" (a currency), "duration", "share"
    (a percentage), "version" (a dotted number, or a number right after the name), else "value".
    `names`: the spans of the sentence's names, whose digits are no values."""
    found = [v for v in value_spans(plain) if not any(a <= v[0] < b for a, b in [(span.start, span.end), *names])
             and not former(plain, v[0])]
    if not found or speaks(plain, span.end):
        return None
    near = [v for v in found if value_next_to(plain, span, [v])]
    if near:
        a, b = _widen(plain, *near[0])
    elif first and len(whole := list(dict.fromkeys(_widen(plain, *v) for v in found))) == 1 \
            and span.end <= whole[0][0] and not _clause_between(plain, span, whole[0][0], names) \
            and not _field_between(plain, span.end, whole[0][0]):
        # (a name after the value is none of its subject: "… expires on 12 Dec, needs renewing by Jonas")
        a, b = whole[0]  # one value, perhaps written in several words ("on 23 April 2026", "until 3 Dec")
    else:
        return None
    text = plain[a:b].rstrip(".,;:)")
    if not text or len(text) > 40:
        return None
    unit = _DURATION_UNIT.match(plain, b + 1) if plain[b:b + 1] == " " else None
    if _CURRENCY.search(text):
        return "amount", text
    if text.endswith("%"):
        return "share", text
    if _is_date(text):
        return "date", text
    if unit and text[:1].isdigit():
        return "duration", f"{text} {unit.group(0)}"
    if _DURATION_UNIT.fullmatch(text.lstrip("~≈<>0123456789.,")) and text[:1] in "~≈<>0123456789" \
            and not (plain[a - 1:a] == "-" and plain[a - 2:a - 1].isalnum()) and not http_errors(text):
        return "duration", text  # (not a model's number in the plural: "all VR-220s" are no 220 seconds)
    if _IPV4.match(text):
        return "address", text  # ("relay01 on 10.20.4.15": four numbers to 255 joined by dots are an address, no version)
    if a == span.end + 1 and plain[span.end] == ":" and text.isdigit() and _HOST.search(span.text):
        return "port", text  # ("harbor.int:443": a domain's number after a colon is its port, no
        # version; an image's tag after a bare name is one: "postgres:16")
    if (_DOTTED.match(text) or (a - span.end <= 1 and text.isdigit())) and (near or not _OWNED.search(plain, 0, a)):
        return ("rollback target" if rolled_back_to(plain, a) else "version"), text  # (of the capitalised word right before it, if any: "sluice (Go 1.22)")
    return None  # a count or a time of day: the sentence says what it is, not its form


_CLAUSE_MARK = re.compile(r"(?:[,;]|\s(?:says?|said|thinks?|thought|reckons?|estimates?|estimated|reports?|reported|"
                          r"believes?|believed|expects?|expected|hears?|heard|mentioned|confirmed|noted)(?:\s+that)?)"
                          r"\s*(?:(?:the|our|their|its|a|an)\s+)?$", re.I)
# (a clause's start: a comma or a semicolon, or a verb of saying or thinking whose clause follows: "Kwame
# estimates the Redis box costs ~$210/month" states the box's cost, not Kwame's)
_CLAUSE_END = re.compile(r"[.,;:!?](?:\s|$)")


def _clause_between(plain: str, span: nm.Span, end: int, names: list[tuple[int, int]]) -> bool:
    """Whether another name opens a clause of its own between the subject and the value, the clause
    running on to the value: the value is that clause's ("the Grafana OnCall migration is done, PagerDuty
    contract ends 31 Dec 2026" states PagerDuty's end, not Grafana OnCall's). A name inside the subject's
    own clause does not ("Quokkabase, which Zuora bought, renews on 1 May"), nor one whose clause ends
    before the value ("TeamViewer licences, SSO. ~£9k/yr"), nor the subject named again; a dash after a
    topic heads its statement ("Vestas licence – Gaz got them down to £17,450/yr"). A verb of saying or thinking
    opens a clause too ("Kwame estimates the Redis box costs ~$210/month")."""
    own = plain[span.start:span.end].casefold()
    return any(span.end <= a and b <= end and plain[a:b].casefold() != own
               and _CLAUSE_MARK.search(plain, span.end, a) and not _CLAUSE_END.search(plain, b, end)
               for a, b in names)


_FIELD_LABEL = re.compile(r"(?:^|(?<=[\s*_]))[A-Za-z][\w()/-]*(?::[*_]*|[*_]+:)\s")  # (a label's last word, before its colon)


def _field_between(plain: str, start: int, end: int) -> bool:
    """Whether a line of fields gives the value a label of its own after the subject: "Severity: SEV2
    Duration: 47 min" states the duration of what the line is about, not of SEV2."""
    labels = [m.start() for m in _FIELD_LABEL.finditer(plain)]
    return len(labels) >= 2 and any(start <= a < end for a in labels)


def http_errors(text: str) -> bool:
    """An HTTP error status in the plural ("502s", "returns 500s", "Samsara 429s"): responses counted,
    no seconds. The codes are the standard library's (`http.HTTPStatus`), client and server errors only."""
    if len(text) != 4 or text[3] != "s" or not text[:3].isdigit() or text[0] not in "45":
        return False
    return int(text[:3]) in _HTTP_ERRORS


_HTTP_ERRORS = frozenset(int(code) for code in HTTPStatus if code >= 400)


def _widen(plain: str, a: int, b: int) -> tuple[int, int]:
    """The value's span widened over the calendar words and numbers right next to it."""
    words = list(_TOKEN.finditer(plain))
    idx = next((k for k, m in enumerate(words) if m.start() <= a < m.end()), None)
    if idx is None:
        return a, b
    lo = hi = idx
    while lo > 0 and words[lo].start() - words[lo - 1].end() <= 1 and _dateish(words[lo - 1].group(0)):
        lo -= 1
    while hi + 1 < len(words) and words[hi + 1].start() - words[hi].end() <= 1 and _dateish(words[hi + 1].group(0)) \
            and not _YEAR_CLOSES.fullmatch(words[hi].group(0)):
        hi += 1
    if lo == hi == idx or not any(calendar_word(words[k].group(0).strip(",.")) for k in range(lo, hi + 1)):
        return a, b
    return min(a, words[lo].start()), max(b, words[hi].end())


_TOKEN = re.compile(r"\S+")
_YEAR_CLOSES = re.compile(r"\d{4},")  # a year and a comma end a date: "renews 31 Jan 2027, 12 seats at …"


def _dateish(word: str) -> bool:
    w = word.strip(",.")
    return bool(w) and (calendar_word(w) or (w.isdigit() and len(w) <= 4))


@lru_cache(maxsize=4096)
def _is_date(text: str) -> bool:
    """A date as dateutil reads one: an ISO date, or a day or month with a number ("17 Feb", "Tue 17 Feb")."""
    if _ISO_DATE.match(text):
        return True
    words = text.replace(",", " ").split()
    if len(words) < 2 or not any(calendar_word(w) for w in words):
        return False
    from dateutil.parser import ParserError, parse

    try:
        parse(text, default=_DEFAULT_DAY)
    except (ParserError, ValueError, OverflowError):
        return False
    return True


_DEFAULT_DAY = datetime(2000, 1, 1)
