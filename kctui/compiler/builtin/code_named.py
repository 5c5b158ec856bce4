"""Names written as code get a page on one mention where their sentence states a fact of them (issue 31).

A writer names hosts, buckets, queues, rotations, repositories and service accounts in the shape code
gives them: one token of letters and digits joined by hyphens or dots ("copperline-dev", "fw-field",
"pg-settle-04", "AF-Win11-2026.09"). recall reads such a token as a name and what the sentence says of it
(kctui.compiler.builtin.recall.about: a value in it, or the name its subject); named once, it was a
passing mention (a page once another source names it). It gets a page on that one mention where the text
sets it apart as one thing, by how it is written, not by its words:

- **in a code span or quotes of its own** (`marked`): "paging the `payouts-critical` service", "the
  opsgenie rotation "fw-field"", "bucket `sfc-pl-veeam`";
- **in lower case, ending in a host's or a unit's number** (`host_number`), in a sentence that holds a
  value: zero-padded ("pg-settle-04", "kestrel-login01", "kc001-kc312"), or after a part English does
  not have ("cache-prod-1", "rms-idf2-sw1"); not a machine size or a region after an English word
  ("e2-standard-2", "us-east4"). (Without a value, notes a-ad: 7 things more, 8 pages more; but a host
  only listed after a label, "- Ledger: the app lives on tallyx-app-01", stays a passing mention.)

Tried and left out too: a code span of one identifier, underscores too, between a determiner and a
noun as the one thing of that kind ("run the `reconcile_txns` job", "the `permit_issue_retry` queue"):
notes a-ad 4 things more and 2 pages unlabelled, but the RFCs' feature gates and lints ("the
`debug_assertions` flag", "the `struct_variant` feature") 13 pages more.

Never a shape English or a measure makes (`code_shaped`): a version ("v1.2.3"), a size ("16GB"), a
compound English makes ("re-auth", "long-running", "end-to-end"), a placeholder ("ws-rem-xx", "v3.x.y"),
a domain or a file name (no entity from a bare domain name). Tried and left out (notes a-ad): a token of
capitals joined by a hyphen unmarked ("G-TRNH", "TERN-MX" but also "SEV-2", "EAP-TLS", "SG-Leeds"): half
the new pages unlabelled; any such token a fact is stated of, marked or not: 42 % of the new pages labelled.
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_tokens import junk_token

_TOKEN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+$|^(?=[A-Za-z0-9]*[A-Za-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{2,}$")
_MEMBER = re.compile(r"[^\W\d]\.|\.[^\W\d]")  # a dot beside a letter: code's member ("log.NamedError"), a domain
_MEASURE = re.compile(r"^\d+(?:[.,]\d+)*[A-Za-z]{0,3}$|^v?\d+(?:[.-]\d+)*[a-z]?\d*$")
_DOMAIN = re.compile(r"\.(?:[a-z]{2,6})$")


def code_shaped(text: str) -> bool:
    """Is `text` one token written as code names a thing (see the module's docstring)?"""
    if " " in text or not _TOKEN.match(text) or _MEASURE.match(text) or wd.placeholder(text):
        return False
    if "." in text and _DOMAIN.search(text.casefold()):
        return False  # a domain or a file name: "stg.example.co.uk", "runbook.md"
    if junk_token(text) or wd.english_compound(text.casefold()):
        return False
    parts = [p for p in re.split(r"[-_.]", text.casefold()) if p]
    if parts[0] in wd.PREFIXES or parts[-1].endswith(wd.WORD_SUFFIX) or any(p in wd.FUNCTION_WORDS for p in parts):
        return False  # an English compound modifier: "long-running", "data-driven", "end-to-end"
    return len(parts) >= 2 or any(c.isdigit() for c in text)


_TRAILING_NUMBER = re.compile(r"([a-z]*)-?(\d{1,4})$")


def host_number(text: str) -> bool:
    """A lower-case identifier ending in a host's or a unit's number: zero-padded ("pg-settle-04",
    "kestrel-login01"), or after a part that is no English word ("cache-prod-1", "rms-idf2-sw1"); not a
    size or a region after an English word ("e2-standard-2", "us-east4")."""
    m = _TRAILING_NUMBER.search(text)
    if not m or m.start() == 0:
        return False
    return m.group(2).startswith("0") or len(m.group(2)) >= 2 or (bool(m.group(1)) and not wd.common_word(m.group(1))) \
        or (not m.group(1) and not wd.common_word(re.split(r"[-_.]", text[:m.start()])[-1]))


_MARKS = "`\"“”'‘’"


def marked(plain: str, span: nm.Span) -> bool:
    """Is the span written in a code span or in quotes of its own (`payouts-critical`, "fw-field")?"""
    if plain[span.start:span.start + 1] == "`":
        return True
    return span.start > 0 and plain[span.start - 1] in _MARKS and plain[span.end:span.end + 1] in _MARKS


_PLACEHOLDER_PART = re.compile(r"(?:^|[-_.])x+(?:$|[-_.])")  # "ws-rem-xx", "v3.x.y": a pattern, not a name


def stated_once(plain: str, spans: list[tuple[nm.Span, str]], keys: list[str], valued: bool) -> list[str]:
    """The keys of the names of a sentence joined by hyphens as code joins them (a dot only inside a number:
    a dot beside a letter is code's member, "log.NamedError", or a domain) that the sentence states a fact of (`keys`, kctui.compiler.builtin.recall.about) and that the text
    sets apart as one: in a code span or quotes of its own (`marked`), or, in lower case, ending in a
    host's or a unit's number (`host_number`) where the sentence holds a value (`valued`)."""
    return [k for s, k in spans if k in keys and "-" in s.text and not _MEMBER.search(s.text) and code_shaped(s.text)
            and not _PLACEHOLDER_PART.search(s.text.casefold())
            and (marked(plain, s) or (valued and s.text.islower() and host_number(s.text)))]

