"""Ordinary English words told apart from marked tokens, by frequency and shape — never by a
hand-written stop list: a word's frequency in English (`wordfreq`'s zipf scale), an inner capital or a
digit (SQLite, k8s), an acronym, a lower-case identifier shaped like a name (crates.io, pkg-config).

Only the closed-class grammar of English appears here (pronouns, determiners, name particles, the
names of days and months English capitalises by convention).
"""

from __future__ import annotations

import re
from functools import lru_cache

COMMON_ZIPF = 4.0  # a word at least this frequent (per billion words, log10) is an ordinary word
RARE_ZIPF = 3.0  # a capitalised word rarer than this is name-like even alone
# An acronym this frequent in English (API 3.7, URL 3.9, UTC 3.7, CI 3.5) is generic vocabulary, not the
# name of one thing (AWS 3.2, GCP, GKE are rarer)
ACRONYM_COMMON_ZIPF = 3.5
# Closed-class words: never a name on their own, never the start of a defined term.
FUNCTION_WORDS = frozenset(
    "a an the this that these those it its they them their there here we our you your i my he she his her "
    "what which who whom whose when where why how each every any some all both either neither no none one "
    "such other another much many most more few several same so if then than as at by for from in into of "
    "on onto or and but nor not to with without via per about after before over under between since because "
    "although though while unless until once whether also only just even now then still yet however instead "
    "rather very".split()
)
PARTICLES = frozenset({"de", "van", "von", "der", "den", "da", "del", "di", "du", "la", "le", "bin", "al", "of"})
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,6}s$")  # PRs, APIs: generic plurals, not names
_DIGIT_SHAPE = re.compile(r"^[^\W\d_]+\d+[^\W\d_]+|^[^\W\d_]{3,}\d{1,2}$|^[a-z]{2}\d{2,4}$")  # k8s, e2e, OAuth2, db01
_HOST_SHAPE = re.compile(r"^[a-z]\d{3,4}$")  # a host's number: c147 (not p95, x86, v12: a letter and two digits)
WORD = re.compile(r"[^\W_](?:[\w'’.&+/-]*[^\W_])?")
VERSIONISH = re.compile(r"^v?\d+(?:\.\d+)*[a-z]?$")
IDENT = re.compile(r"^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+$")  # billing-api, crates.io


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    from wordfreq import zipf_frequency  # loaded on first use: a pass that needs no names never pays for it

    # The small list holds every word at least as frequent as RARE_ZIPF (rarer ones read 0), which is all
    # the thresholds here tell apart; it loads ten times faster than the large one in each worker process.
    return zipf_frequency(word.casefold(), "en", wordlist="small")


SUFFIX_SHAPE = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,9}(?:\+\+|#)$")  # C++, C#, F#, Notepad++
_DASH_DIGITS = re.compile(r"^[A-Z]{2,}-\d{1,4}$")  # UTF-8, UCS-2, ISO-8601, SHA-256


@lru_cache(maxsize=4096)
def one_word(token: str) -> bool:
    """Is `token` one word as wordfreq reads it? A compound ("drop-check") is scored by its parts and "C++"
    as "c": their frequency says nothing about the name."""
    from wordfreq import tokenize

    return tokenize(token.casefold(), "en") == [token.casefold()]


@lru_cache(maxsize=65536)
def shaped(token: str) -> bool:
    """An inner capital or a digit inside letters: SQLite, PagerDuty, GitHub, k8s, S3, OAuth2; letters
    with a "++" or "#" suffix (C++, C#) or capitals, a hyphen and a number (UTF-8, SHA-256)."""
    if SUFFIX_SHAPE.match(token) or _DASH_DIGITS.match(token):
        return True
    letters = [c for c in token if c.isalpha()]
    if len(letters) < 2:
        return bool(_HOST_SHAPE.match(token))  # Q3, H1, v2: a letter and a number; c147 a host's
    inner_cap = any(c.isupper() for c in token[1:]) and any(c.islower() for c in token) and not _PLURAL_ACRONYM.match(token)
    digit = bool(_DIGIT_SHAPE.search(token))
    return inner_cap or digit


def acronym(token: str) -> bool:
    return len(token) >= 2 and token.isalpha() and token.isupper()


@lru_cache(maxsize=65536)
def common_word(token: str) -> bool:
    """An ordinary English word (by frequency), not a name on its own."""
    t = token.strip("`'’").removesuffix("'s").removesuffix("’s")
    if not t or t.casefold() in FUNCTION_WORDS:
        return True
    if t.startswith(("/", "#")):
        return False  # a root path ("/scratch") or a chat channel ("#incidents") is no word of English
    if shaped(t):
        return False
    return zipf(t) >= COMMON_ZIPF


def common_phrase(text: str) -> bool:
    """A heading or title made only of ordinary words ("Action items", "Detailed design", "Context")."""
    words = WORD.findall(text)
    return bool(words) and all(common_word(w) or w.isdigit() for w in words)


@lru_cache(maxsize=65536)
def placeholder(text: str) -> bool:
    """Single letters and throwaway words: too short, or no letters. (Asked of each name span and title
    again and again: answered once per text.)"""
    t = text.strip("`")
    if len(t) < 2 or not any(c.isalpha() for c in t) or (len(t) <= 3 and t.islower() and not shaped(t)):
        return True
    if len(t) == 2 and t[0].isupper() and t[1] == "s":
        return True  # a letter in the plural: "3 unanswered Qs", "the Ps and Ts"
    return all(len(part) == 1 for part in re.split(r"[-_.]", t))  # x.y.z, a-b


_DOMAIN = re.compile(r"^[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.[a-z]{2,6}$")  # crates.io, docs.example.org
# English prefixes written with a hyphen ("non-lexical", "re-export", "self-describing"): a word, not a name
PREFIXES = frozenset("non pre re un sub multi co anti semi de self post over under inter intra out mid cross "
                     "auto bi tri pseudo quasi ultra micro macro".split())
WORD_SUFFIX = ("ing", "ed", "ly", "able", "ible", "less", "ful", "like", "wise", "ish")


@lru_cache(maxsize=4096)
def ident_name(token: str) -> bool:
    """A lower-case identifier whose shape marks it as a name when it recurs: a domain (crates.io), or a
    hyphenated compound none of whose parts is an ordinary English word or a prefix (pkg-config,
    rust-dev, billing-api), unlike "drop-flag", "built-in", "non-lexical", "zero-cost"."""
    if not IDENT.match(token) or VERSIONISH.match(token) or placeholder(token):
        return False
    if "." in token:
        return bool(_DOMAIN.match(token)) and not any(len(p) == 1 for p in token.split("."))
    parts = [p for p in re.split(r"[-_]", token) if p]
    if len(parts) < 2 or "_" in token:
        return False
    return not any(p in FUNCTION_WORDS or p in PREFIXES or p.endswith(WORD_SUFFIX) or common_word(p) for p in parts)


def is_title_token(token: str) -> bool:
    return token[:1].isupper() and not token.startswith("`")


ACRONYM = re.compile(r"^[A-Z]{2,6}s?$")
# English capitalises these by convention: their capital says nothing (closed class, like FUNCTION_WORDS)
# the short forms English writes the days and months in: "Sep", "Wed", "Thurs"
CALENDAR_SHORT = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed weds thu thur thurs fri "
                           "sat sun".split())
CALENDAR = frozenset("monday tuesday wednesday thursday friday saturday sunday january february march april may "
                     "june july august september october november december".split()) | CALENDAR_SHORT
# a record's identifier: letters, a hyphen and a number ("ADR-0011", "INC-204", "FRZ-04")
RECORD_ID = re.compile(r"^[A-Z]{2,12}-\d{1,6}$")
TICKET_NUMBER = re.compile(r"^#\d{3,9}$")  # a ticket's or an issue's number alone: "#4471", "#48291"
# a period of the year by the calendar's or the books' convention (a fiscal or calendar year, a quarter, a
# half: "FY27", "FY2026", "Q3", "H1"): a date, like the days and months, not a thing (closed class)
# a financial or calendar year, a quarter, a half, a week of the year ("FY27", "Q3", "H2", "wk47", "Wk 3"'s "Wk3")
_PERIOD = re.compile(r"^(?:(?:FY|CY)(?:\d{2}|\d{4})|[QH][1-4]|[Ww][Kk]\d{1,2})$")


def period(token: str) -> bool:
    """A period of the year written short ("FY27", "Q3", "wk47"): when, not a thing (closed class)."""
    return bool(_PERIOD.match(token))


def closed_up(token: str) -> bool:
    """A hyphenated word English writes closed up as an ordinary word ("Wi-Fi": "wifi", "E-mail"): one
    word of the language written with a hyphen, not a name (wordfreq reads "Wi-Fi" as two words, "wi" and
    "fi", and so does not know it; "Snipe-IT", "Hyper-V" closed up are no English words)."""
    return "-" in token and token.replace("-", "").isalpha() and zipf(token.replace("-", "")) >= RARE_ZIPF


_CAMEL = re.compile(r"^[a-z]{2,}(?:[A-Z][a-z]+)+$")  # ownerRepos, webApp (but not macOS, gRPC, iPhone)


def code_identifier(text: str) -> bool:
    """`ownerRepos`, `app_version`: a variable of code, not a name of a thing (an account or a key
    named by a word of its own is one: `snake_name`)."""
    return ("_" in text and not snake_name(text)) or bool(_CAMEL.match(text))


_SNAKE = re.compile(r"^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$")


@lru_cache(maxsize=4096)
def snake_name(token: str) -> bool:
    """An identifier written with underscores, one of whose words English does not have ("telvane_sup",
    "pg_partman"): the name of one account, job or setting, not a variable of ordinary words
    ("pool_mode", "default_pool_size")."""
    return bool(_SNAKE.match(token)) and any(len(p) >= 4 and p.isalpha() and unknown_word(p)
                                             for p in token.casefold().split("_"))


# adverb particles English runs into compounds ("standup", "failover", "outbound"): closed class
COMPOUND_PARTICLES = frozenset("up down out off on in over back away".split())
_PART_ZIPF = 4.5  # a word of three letters this frequent may be part of a compound ("hotfix", "webhook")


@lru_cache(maxsize=65536)
def unknown_word(word: str) -> bool:
    """A word English does not have (not in `wordfreq`'s list, which holds every word at least
    RARE_ZIPF frequent), nor makes by its grammar: not a day's or month's short form, not an English word
    with an "s" ("renews"), not two English words run together ("walltime", "hotfix", "standup"): a
    coined name ("pgbouncer", "telvane", "redis"). (wordfreq's large list tells rarer English words
    apart too, "repr", "expiry", but loads in 0.18 s and 36 MB in each worker process: left out.)"""
    w = word.casefold()
    if zipf(w) >= RARE_ZIPF or w in CALENDAR or (w.endswith("s") and (zipf(w[:-1]) >= RARE_ZIPF or (
            w.endswith("es") and zipf(w[:-2]) >= RARE_ZIPF))):
        return False
    return not (any(_compound_part(w[:k]) and _compound_part(w[k:]) for k in range(2, len(w) - 1)) or _derived(w))


# endings English derives words with from a verb or a noun ("deferral", "yanked", "seller"): closed class
_DERIVING = ("al", "er", "ers", "ed", "ing")


def _derived(w: str) -> bool:
    """A word English derives from one it has: an English prefix before a word ("reseller", "unmount"),
    or a deriving ending after one, its last consonant doubled or its "e" dropped ("deferral", "seller",
    "baking")."""
    if any(w.startswith(p) and len(w) - len(p) >= 4 and zipf(w[len(p):]) >= RARE_ZIPF for p in PREFIXES):
        return True
    for ending in _DERIVING:
        stem = w[: -len(ending)]
        if w.endswith(ending) and len(stem) >= 3 and any(zipf(s) >= RARE_ZIPF for s in (
                stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else "")):
            return True
    return False


def _compound_part(part: str) -> bool:
    if part in COMPOUND_PARTICLES:
        return True
    z = zipf(part)
    return z >= RARE_ZIPF and (len(part) >= 4 or (len(part) == 3 and z >= _PART_ZIPF))


def generic_acronym(token: str) -> bool:
    """A two-letter or a frequent acronym (PR, API, URL): vocabulary, not the name of one thing."""
    return bool(ACRONYM.match(token)) and (len(token.rstrip("s")) <= 2 or zipf(token) >= ACRONYM_COMMON_ZIPF)


_HYPHENATED = re.compile(r"^[a-z]+(?:-[a-z]+)+$")


# a last part English adds to any word to say "somewhat", "in the manner of" ("ricoh-ish", "vendor-like")
_SUFFIX_PARTS = frozenset("ish like wise esque".split())


@lru_cache(maxsize=4096)
def english_compound(token: str) -> bool:
    """A lower-case hyphenated word English makes by its grammar, not a name: its first part is an English
    prefix ("re-auth") or an adverb particle ("on-prem", "in-house"), its last part a particle ("dial-up",
    "opt-out", "stripped-down") or a suffix written apart ("ricoh-ish"). (A name made of ordinary words,
    "order-router", "security-logging", "ops-it", is none of these: only closed classes tell.)"""
    if not _HYPHENATED.match(token):
        return False
    parts = token.split("-")
    return parts[0] in PREFIXES or parts[0] in COMPOUND_PARTICLES or parts[-1] in COMPOUND_PARTICLES \
        or parts[-1] in _SUFFIX_PARTS


_VOWELS = frozenset("aeiouy")


@lru_cache(maxsize=1)
def _common_by_opening() -> dict[str, tuple[str, ...]]:
    """The ordinary English words (at least COMMON_ZIPF frequent), by their first two letters."""
    from wordfreq import get_frequency_dict

    floor = 10 ** (COMMON_ZIPF - 9)  # (zipf is log10 of the frequency per billion words)
    out: dict[str, list[str]] = {}
    for w, f in get_frequency_dict("en", wordlist="small").items():
        if f >= floor and len(w) >= 4 and w.isalpha():
            out.setdefault(w[:2], []).append(w)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=4096)
def shorthand(word: str) -> bool:
    """An English word written short with its vowels dropped ("recvd", "Bldg", "acct"): a word English
    does not have, in lower case or capitalised, with no vowel after its first two letters and no "s" at
    its end, whose letters spell, in order, an ordinary English word three letters longer or more that
    opens with its first two letters and ends with its last, leaving out its vowels and at most one
    consonant ("received", "building", "account"; not "Perl" of "pearl", "Clang", "const")."""
    w = word.casefold()
    if not (3 <= len(w) <= 8 and w.isalpha() and word[1:].islower()) or any(ch in _VOWELS for ch in w[2:]) \
            or w.endswith("s") or zipf(w) >= RARE_ZIPF:
        return False  # (an acronym, "PRTG", a word in the plural, "Bacs", or with a vowel after its opening is none)
    return any(len(e) >= len(w) + 3 and e[-1] == w[-1] and _consonants_left_out(w, e) <= 1
               for e in _common_by_opening().get(w[:2], ()))


def _consonants_left_out(short: str, word: str) -> int:
    """The fewest consonants of `word` left out where its letters spell `short` in order, first letter
    on first and last on last (len(word) + 1 when they do not)."""
    inf = len(word) + 1
    # best[j]: the fewest consonants left out of word[:j] spelling short[:i], word[j - 1] the i-th letter
    best = [0 if j == 1 and word[0] == short[0] else inf for j in range(len(word) + 1)]
    for ch in short[1:]:
        nxt = [inf] * (len(word) + 1)
        run = inf  # the best of best[k] plus the consonants of word[k:j - 1], over k < j
        for j in range(1, len(word) + 1):
            if j >= 2:
                run = min(run + (word[j - 2] not in _VOWELS), best[j - 1])
            if word[j - 1] == ch:
                nxt[j] = run
        best = nxt
    return best[len(word)]
