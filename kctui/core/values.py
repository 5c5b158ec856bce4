"""Values as the compiler compares them: inline Markdown stripped, numbers/dates/versions/units
normalised, and the test that a cited line range really contains a claim's value (wiki.md §4)."""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

_LINK = re.compile(r"!?\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"\n]*\")?\)")
_REF_LINK = re.compile(r"!?\[([^\]\n]+)\]\[[^\]\n]*\]")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_QUOTE_MARK = re.compile(r"^\s*(?:>\s?)+", re.M)
_ITEM_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+", re.M)
_WS = re.compile(r"\s+")
_NON_ALNUM = re.compile(r"[\W_]+")
_URL = re.compile(r"(?:https?|ftp)://\S+|www\.\S+")

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
VERSION = re.compile(r"^v?\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.-]+)?$")
NUMBER = re.compile(r"^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^[-+]?\d+(?:\.\d+)?$")
_NUM_UNIT = re.compile(r"^([-+]?\d[\d,]*(?:\.\d+)?)\s*(%|[A-Za-z$€£]{1,7})$")
UNITS = frozenset(
    {
        "%", "b", "kb", "kib", "mb", "mib", "gb", "gib", "tb", "tib", "ms", "s", "sec", "secs", "seconds",
        "min", "mins", "minutes", "h", "hr", "hrs", "hours", "day", "days", "week", "weeks", "month",
        "months", "year", "years", "usd", "eur", "gbp", "$", "€", "£", "kg", "g", "km", "m", "cm", "mm",
        "hz", "khz", "mhz", "ghz", "x",
    }
)
_BOOLS = {"true": "true", "yes": "true", "on": "true", "false": "false", "no": "false", "off": "false"}

# Tokens the compile-loss guard looks for (wiki.md §4): dates, versions, numbers.
_FACT_TOKEN = re.compile(r"(?<![\w.])(\d{4}-\d{2}-\d{2}|v?\d+(?:\.\d+)+|\d+(?:,\d{3})*(?:\.\d+)?)(?![\w])")


def _first_group(m: re.Match) -> str:
    return m.group(1)


@lru_cache(maxsize=32768)
def strip_inline(text: str) -> str:
    """Inline Markdown links and images to their text, autolinks to their URL, whitespace collapsed.
    Remembered per text: an extraction asks it of the same sentence or value about twice.

    A pass calls this on every cited line and value, most of them without a link: each pattern runs only
    when the text holds the two characters it cannot match without (`](`, `][`, `<`), and whitespace is
    collapsed by `str.split` (the same Unicode whitespace as the regex `\\s`) — the same text, faster."""
    if "](" in text:
        text = _LINK.sub(_first_group, text)
    if "][" in text:
        text = _REF_LINK.sub(_first_group, text)
    if "<" in text:
        text = _AUTOLINK.sub(_first_group, text)
    return " ".join(text.split())


def plain_cited_text(lines: list[str]) -> str:
    """The comparable text of cited source lines: quote and list markers dropped, links to their text,
    entities decoded, whitespace collapsed."""
    text = "\n".join(lines)
    text = _QUOTE_MARK.sub("", text)
    text = _ITEM_MARK.sub("", text)
    text = html.unescape(text)
    return strip_inline(text)


def cited_lines_contain(lines: list[str], value: str) -> bool:
    if not value:
        return False
    haystack = _haystack(tuple(lines))
    needle = _needle(value)
    return needle in haystack or needle.strip("\"'`") in haystack


@lru_cache(maxsize=4096)
def _haystack(lines: tuple[str, ...]) -> str:
    """The cited lines' comparable text, case-folded: one line is cited by many claims (each value of a
    sentence, a table row's cells), so it is made once."""
    return plain_cited_text(list(lines)).casefold()


@lru_cache(maxsize=16384)
def _needle(value: str) -> str:
    return strip_inline(html.unescape(value)).casefold()


@lru_cache(maxsize=65536)
def split_unit(value: str) -> tuple[str, str]:
    """`50 MB` -> (`50`, `MB`) when the tail is a known unit; otherwise (value, "")."""
    m = _NUM_UNIT.match(value.strip())
    if m and m.group(2).casefold() in UNITS:
        return m.group(1), m.group(2)
    return value, ""


@lru_cache(maxsize=65536)
def normalise_value(value: str) -> str:
    """The comparable form of a value: booleans, numbers (thousands separators dropped, trailing zeros
    of decimals kept as written is *not* done: 1.10 and 1.1 are different versions), ISO dates, quotes
    and case folded."""
    text = strip_inline(value).strip().strip("\"'`").strip()
    text = unicodedata.normalize("NFC", text)
    low = text.casefold()
    if low in _BOOLS:
        return _BOOLS[low]
    number, unit = split_unit(text)
    if unit:
        return f"{_norm_number(number)} {unit.casefold()}"
    if NUMBER.match(text):
        return _norm_number(text)
    if VERSION.match(text):
        return text.lstrip("vV").casefold()
    return _WS.sub(" ", low)


def _norm_number(text: str) -> str:
    text = text.replace(",", "")
    if text.startswith("+"):
        text = text[1:]
    return text


@lru_cache(maxsize=65536)
def attribute_key(attribute: str) -> str:
    """`releaseDate`, `Release date`, `release_date` -> `releasedate`."""
    return _NON_ALNUM.sub("", unicodedata.normalize("NFC", attribute).casefold())


@lru_cache(maxsize=65536)
def scope_key(scope: str) -> str:
    return _WS.sub(" ", strip_inline(scope).casefold().strip("\"'` "))


def fact_tokens(text: str) -> set[str]:
    """Dates, versions and numbers in `text` (URLs ignored), as the loss guard counts them."""
    text = _URL.sub(" ", text)
    return {m.group(1) for m in _FACT_TOKEN.finditer(text)}
