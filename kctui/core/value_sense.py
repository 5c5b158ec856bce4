"""Whether two values of one fact state the same thing (QA session 29, item 6): a dispute needs values
that say different things, not the same thing written two ways.

`normalise_value` already folds case, thousands separators, a version's leading `v` and a number's unit.
What it leaves, and what is still the same value:

- a period after an amount ("$18,400" and "$18,400 per year", "$18,400/yr", "$18,400 annually"): one
  side not naming the period says the same amount; two different periods ("per month" vs "per year")
  are different values;
- a bare version number with a leading `v` ("16" and "v16");
- a date written in words ("30 Sep 2026", "September 30, 2026") and as ISO ("2026-09-30");
- an amount written with and without its currency, its thousands separators or a "k" ("$18,400", "18,400",
  "18,400 USD", "$18.4k"): one side not naming the currency says the same amount; two different
  currencies ("$18,400" vs "£18,400") are different values;
- a version with trailing zero parts ("1.8" and "1.8.0").

A rate per something other than time ("£0.28/parcel") and a lump sum ("£420") are values of two facts:
`rate_unit` tells them apart, and a dispute is only between values of one rate (steps.page_update).

Pure: `same_value(a, b)` on two values (raw or normalised), `all_same(values)` on a group (every pair).
"""

from __future__ import annotations

import re
from functools import lru_cache

from kctui.core.values import normalise_value

_PERIODS = {
    "year": "year", "yr": "year", "annum": "year", "month": "month", "mo": "month", "week": "week",
    "wk": "week", "day": "day", "hour": "hour", "hr": "hour",
}
_PERIOD_ADVERBS = {"annually": "year", "yearly": "year", "monthly": "month", "weekly": "week", "daily": "day",
                   "hourly": "hour"}
_PER = re.compile(r"^(?P<amount>.*\d.*?)\s*(?:(?:/|\bper\s+|\ba\s+|\ban\s+|\beach\s+|\bevery\s+)\s*"
                  r"(?P<period>years?|yrs?|annum|months?|mos?|weeks?|wks?|days?|hours?|hrs?)"
                  r"|\s+(?P<adverb>annually|yearly|monthly|weekly|daily|hourly))\.?$")
_BARE_V = re.compile(r"^v(\d+)$")
_DOTTED = re.compile(r"^v?\d+(?:\.\d+){0,3}$")
_TRAILING_ZEROS = re.compile(r"(?:\.0+)+$")
_CURRENCY_WORDS = {"$": "usd", "dollars": "usd", "usd": "usd", "£": "gbp", "pounds": "gbp", "gbp": "gbp",
                   "€": "eur", "euros": "eur", "eur": "eur", "¥": "jpy", "yen": "jpy", "jpy": "jpy", "₹": "inr",
                   "inr": "inr", "cad": "cad", "aud": "aud", "chf": "chf", "nzd": "nzd"}
_CUR = r"[$£€¥₹]|usd|gbp|eur|jpy|inr|cad|aud|chf|nzd"
_AMOUNT = re.compile(rf"^(?:(?P<pre>{_CUR})\s?)?(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                     rf"\s?(?P<mult>k|m|bn)?(?:\s?(?P<post>{_CUR}|dollars|pounds|euros|yen))?$")
_MULT = {"k": 1_000, "m": 1_000_000, "bn": 1_000_000_000}
_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}
_MONTH = r"(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DAY_FIRST = re.compile(rf"^(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})$")
_MONTH_FIRST = re.compile(rf"^{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})$")


@lru_cache(maxsize=65536)
def stated(value: str) -> tuple[str, str]:
    """What a value states: (its amount or text in a comparable form, the period it is given per, or "")."""
    text = normalise_value(value)
    period = ""
    m = _PER.match(text)
    if m:
        word = m.group("period") or ""
        period = _PERIOD_ADVERBS.get(m.group("adverb") or "", "") or _PERIODS.get(word.rstrip("s"), "") or \
            _PERIODS.get(word, "")
        if period:
            text = normalise_value(m.group("amount"))
    v = _BARE_V.match(text)
    if v:
        text = v.group(1)
    return _date(text), period


def _date(text: str) -> str:
    m = _DAY_FIRST.match(text) or _MONTH_FIRST.match(text)
    if not m:
        return text
    day, month = int(m.group("day")), _MONTHS[m.group("month")[:3]]
    if not 1 <= day <= 31:
        return text
    return f"{m.group('year')}-{month:02d}-{day:02d}"


def amount(text: str) -> tuple[str, float] | None:
    """An amount's (currency or "", number) from a normalised value ("$18,400" → ("usd", 18400.0)), or None."""
    m = _AMOUNT.match(text)
    if not m or (m.group("pre") and m.group("post")):
        return None
    number = round(float(m.group("num").replace(",", "")) * _MULT.get(m.group("mult") or "", 1), 6)
    return _CURRENCY_WORDS.get(m.group("pre") or m.group("post") or "", ""), number


def same_value(a: str, b: str) -> bool:
    """The two values state the same thing (a period or a currency named on one side only is the same
    amount)."""
    if a == b:
        return True
    (x, p), (y, q) = stated(a), stated(b)
    if not (p == q or not p or not q):
        return False
    if x == y:
        return True
    if (x.count(".") > 1 or y.count(".") > 1) and _DOTTED.match(x) and _DOTTED.match(y):  # versions ("1.8", "1.8.0")
        return _TRAILING_ZEROS.sub("", x.lstrip("v")) == _TRAILING_ZEROS.sub("", y.lstrip("v"))
    ax, ay = amount(x), amount(y)
    if ax is None or ay is None or ax[1] != ay[1]:
        return False
    return ax[0] == ay[0] or not ax[0] or not ay[0]


_RATE = re.compile(r"(?:/|\bper\s+|\beach\s+)\s*([a-z][a-z-]*)")


@lru_cache(maxsize=65536)
def rate_unit(value: str) -> str:
    """What an amount is given per other than a period of time ("£0.28/parcel" → "parcel", "$6/user/mo" →
    "user", "$45/TB/yr" → "tb"; "" for "$15/mo" and "£420"): a rate per parcel and a lump sum are values of
    two facts, not one fact's values that disagree."""
    text = normalise_value(value)
    if not any(ch.isdigit() for ch in text):  # (a rate is an amount: "ops/dev" is no rate per "dev")
        return ""
    for word in _RATE.findall(text):
        unit = word.rstrip("s") if len(word) > 3 else word
        if unit not in _PERIODS and word not in _PERIODS:
            return unit
    return ""


def all_same(values: list[str] | set[str]) -> bool:
    """Every pair of `values` states the same thing (so the group is no disagreement)."""
    vs = list(dict.fromkeys(values))
    return all(same_value(a, b) for i, a in enumerate(vs) for b in vs[i + 1:])


__all__ = ["all_same", "amount", "rate_unit", "same_value", "stated"]
