"""Which facts of a page can disagree with another source's (QA session 31, problem 8). Two values dispute
only when they are values of the same thing of their subject; the line each is read from says what a value
is OF, and three shapes of line give a value that is no value of its subject's fact:

- **a twin**: a value named only by its form (`date`, `amount`, …: the reading knew what kind of value it
  is, not what it is of) that the same lines state again under a named fact of the same subject
  ("The Fastly price is $3,900 / month" is `price: $3,900 / month` and `amount: $3,900`; "Fastly cert
  renewed, expires 2027-11-03" is `expires on: 2027-11-03` and `date: 2027-11-03`): the fact is said once,
  so it disputes once, under its name (one price change is one conflict, not `price` and `amount`), and
  a bare date disputes no other date by its form alone ("expires 2027-11-03" against "notice by 1 Dec");
- **a difference**: a value followed by a comparative ("it is $1,000 a month cheaper", "3 days later") or
  after a word of change with "by" ("cut by $200"): an amount between two values, not a price;
- **a person's value named by its form** (`date`, `amount`, …): of their tasks and events, not of them;
- **a field's label**: a value the line writes as a label, with the subject as that field's value
  ("Owner: Jonas Weber" read as Jonas Weber's `role: Owner`): what the subject is to the record the line
  is in, not what the subject is (their role in the roster).

A rate per something other than time and a lump sum ("£0.28/parcel" and "£420", "$6/user/mo" and
"$1,200/mo") are values of two facts (`by_rate`).

Two attributes that name one fact are one key for disputes (`fact_key`): a table's "Renewal" column and a
sentence's "renews on" ("The Fastly contract renews on 2027-04-01, not March." against the vendor table's
`Renewal: 2027-03-01`), "Expiry" and "expires on".

The line's text is the `note` the same lines give (every statement of a source is one); a claim whose lines
give none disputes as before. Pure functions of a page's candidate claims."""

from __future__ import annotations

import re
from collections.abc import Iterable

from kctui.core.claims import Claim
from kctui.core.value_sense import rate_unit
from kctui.core.values import normalise_value

# attribute keys that name only the form of a value (kctui.compiler.builtin.stated_values `stated_value`)
KIND_ONLY = frozenset({"date", "amount", "value", "share", "duration"})

_COMPARATIVE = re.compile(
    r"\s*(?:more|less|fewer|cheaper|dearer|higher|lower|faster|slower|longer|shorter|bigger|smaller|larger|"
    r"earlier|later|sooner|off|saved|savings?)\b|\s*[a-z]+er\s+than\b", re.I)
_CHANGE_BY = re.compile(r"\b(?:up|down|rise[sn]?|rose|raised|increased?|decreased?|reduced|cut|dropped|fell|"
                        r"grew|saves?|saving|lowered|differs?|difference)\s+(?:of\s+|by\s+)$", re.I)


# attribute keys (kctui.core.values `attribute_key`) that name one fact: the first of each row stands for it
_SAME_FACT = (("renewal", "renewaldate", "renewson", "renews", "renewon", "renewsat"),
              ("expiry", "expirydate", "expiration", "expirationdate", "expireson", "expires"))
_FACT_KEY = {k: row[0] for row in _SAME_FACT for k in row}


def fact_key(attribute_key: str) -> str:
    """The key a dispute groups an attribute's values by: one for the attributes that name one fact."""
    return _FACT_KEY.get(attribute_key, attribute_key)


def by_rate(claims: Iterable[Claim]) -> list[list[Claim]]:
    """`claims` in groups of one rate each (`value_sense.rate_unit`: "£0.28/parcel" apart from "£420" and from
    "£1.72/order"), in order of the rate: only values of one rate can dispute."""
    groups: dict[str, list[Claim]] = {}
    for c in claims:
        groups.setdefault(rate_unit(c.value), []).append(c)
    return [groups[k] for k in sorted(groups)]


def disputable(claims: Iterable[Claim], person: bool = False) -> list[Claim]:
    """The atomic claims of `claims` that may dispute another source's (the module's rule), in order; of a
    `person`'s page, none named only by its form (a person's dates and amounts are their tasks' and
    events', not facts of the person: "purchase draft by Fri 28 Feb" and "pager to Lena at 17:00 Fri")."""
    claims = list(claims)
    by_lines: dict[tuple[str, int, int], list[Claim]] = {}
    for c in claims:
        ev = c.evidence
        by_lines.setdefault((ev.path, ev.start, ev.end), []).append(c)
    out = []
    for c in claims:
        if not c.is_atomic or (person and c.key[1] in KIND_ONLY):
            continue
        ev = c.evidence
        same = by_lines[(ev.path, ev.start, ev.end)]
        if not stands_aside(c, same, [o.value for o in same if o.key[1] == "note"]):
            out.append(c)
    return out


def stands_aside(c: Claim, same_lines: Iterable[Claim], texts: Iterable[str]) -> bool:
    """Is `c` no value of its subject's fact: a twin of a named fact on its lines, or a difference or a
    field's label in the text of its lines (`texts`)?"""
    return twin(c, same_lines) or any(difference(t, c.value) or field_label(t, c.value, c.subject) for t in texts)


def twin(c: Claim, same_lines: Iterable[Claim]) -> bool:
    """A value named only by its form that a named fact of the same subject on the same lines holds."""
    if c.key[1] not in KIND_ONLY:
        return False
    mine = normalise_value(c.value)
    return bool(mine) and any(
        o is not c and o.is_atomic and o.key[0] == c.key[0] and o.key[1] not in KIND_ONLY
        and mine in normalise_value(o.value) for o in same_lines)


def _at(text: str, value: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(value), text, re.I)] if value else []


def difference(text: str, value: str) -> bool:
    """Does `text` write `value` as a difference: a comparative right after it, or a word of change and
    "by"/"of" right before it?"""
    return any(_COMPARATIVE.match(text, a + len(value)) or _CHANGE_BY.search(text[:a]) for a in _at(text, value))


def field_label(text: str, value: str, subject: str) -> bool:
    """Does `text` write `value` as a field's label (before a colon) with `subject` the field's value?"""
    for a in _at(text, value):
        before, after = text[:a], text[a + len(value):]
        if before.strip(" *_-#>|") == "" and re.match(r"^[*_]*\s*:", after) and subject.casefold() in after.casefold():
            return True
    return False
