"""A list item's lead names what the item states a fact of (issue 31 points 1-2, session 28 F).

Notes written as lists put the thing first and what is said of it after a colon or a dash: "- code freeze:
moved from Mon 2 Nov to Fri 6 Nov", "- **Stanton weighbridge**: Trutrak verification Tue 3 Mar", "- BT NTM
line — moved again, now **26 Feb**". The lead is the item's subject by its place, whatever its case.

A lead here (`lead`): the first sentence of a list item that is no checklist item (a task's lead is the
task), two to four words before a colon or a dash (in bold or not), none of them a function word, a
pronoun or an auxiliary ("next up", "we agreed", "Hidden bits are bad"), none a value, a weekday, a month
or a period ("Mon 12/10:", "Q3 plan:"); not a state or a verb's past at its end ("Lustre down", "TMS canary
group created": what became of something), not an attribute's noun at its end ("Annual fee: £38,400", "new
cutover date: Sat 14 Nov", "Interview length: 45 minutes": the note's subject's attribute), not a
possessive ("Tom's hours"), not a check's noun at its end ("Disk age check": a task), nor a single
letter ("Option B": a variant), nor a plural noun in lower case ("PA creds", "set points", "aggbridge logs":
things of the item's subject, its name's page keeps the line; kctui.compiler.steps.head_nouns); the rest
of the item holds a value (`stated_values.value_spans`) and says more than one word (a field holds one value: "RFC PR: #1234", "Deployment profile: WL-Std-2026"). Not one word:
a one-word lead is a field's label as often ("Status:", "Owner:"), and a name of one word has the other
rules (named_once, lone_names).

Such a lead gets a page where the note writes it again in another sentence (in any case: "the code freeze
moved"), else it is a passing mention, a page where another source writes it too, in lower case as well
(`lead_shaped`, kctui.compiler.steps.written_names). Read on the 56 writers' notes (session 28), a page on
its one mention labelled 60 of 188 new pages (32 %), and 22 of 40 read were real things (10 partial, 8
junk: "Check OPERA-DB01 disk", "expected install", "AK-SM itself unreachable"); written twice, 27 of 52
(52 %), 38 of 52 read real things, 12 partial ("set points", "PA creds"), 2 junk ("Option B", "normal
night"). Session 29 (F), with the check's noun, the letter and the plural left out: 40 new pages on the 58
writers, 35 real things, 4 partial ("Zabbix disk alert", "password rotation", "asset tag", "schema drift"), 1 junk
("normal night").
"""

from __future__ import annotations

import re

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.name_evidence import Candidate, vouched
from kctui.compiler.builtin.stated_values import value_spans

MIN_WORDS, MAX_WORDS = 2, 4
_LEAD = re.compile(r"^(\*\*|__)?([^\W\d_][\w'’&+./-]*(?: [\w'’&+./-]+){0,5}?)(\*\*|__)?(?::(\*\*|__)?\s+| [—–]\s+)(?=\S)")
_WORD = re.compile(r"^[\w][\w'’&+./-]*$")
_CHECKBOX = re.compile(r"^\s*\[[ xX]\]")
# a pronoun or an auxiliary makes the lead a clause, no name: "we agreed", "Hidden bits are bad"
_CLAUSE_WORDS = frozenset("i we you he she they it me us them my our your his her their its this that these those "
                          "is are was were be been being am has have had will would can could should must may might "
                          "do does did not no".split())
# a lead that ends on a state says what became of something, no name: "Lustre down", "root cause found", "SmileText off"
_STATES = frozenset("down off up out done live offline online next again late ok".split())
# a lead whose head is one of these names an attribute of the note's subject, not a thing: "Annual fee: £38,400",
# "new cutover date: Sat 14 Nov", "lead time: 3 weeks", "Running cost: ~$40/mo" (a closed class of English)
_ATTRIBUTES = frozenset("date dates time times target targets fee fees charge charges cost costs price prices term terms "
                        "window estimate deadline turnaround ref reference total totals options due share monthly "
                        "count number rate budget eta status owner type size level version length duration validity "
                        "period limit".split())


def lead(kind: str, index: int, raw: str, plain: str) -> nm.Span | None:
    """The lead of a list item's first sentence that names what the item states a value of, else None."""
    if kind != "item" or index != 0 or _CHECKBOX.match(raw):
        return None
    m = _LEAD.match(plain)
    if not m or bool(m.group(1)) != bool(m.group(3) or m.group(4)) or (m.group(3) and m.group(4)):
        return None
    text = m.group(2)
    words = text.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS or not all(_WORD.match(w) for w in words):
        return None
    folded = [w.casefold() for w in words]
    if any(w in wd.FUNCTION_WORDS or w in _CLAUSE_WORDS for w in folded) or value_spans(text) \
            or any(any(ch.isdigit() for ch in w) and not any(ch.isalpha() for ch in w) for w in words) \
            or any(_calendar(w) for w in words):
        return None
    rest = plain[m.end():]
    if not value_spans(rest) or len(rest.split()) < 2 or _state_or_attribute(words):
        return None
    start = m.start(2)
    return nm.Span(text, start, start + len(text), True, "lead", tuple(words))


def lead_shaped(name: str) -> bool:
    """Is a passing name one in lower case of a lead's length ("code freeze", "iad fleet")? Such a name recurs
    where another source writes it too, as a capitalised one does (kctui.compiler.steps.written_names)."""
    return MIN_WORDS <= len(name.split()) <= MAX_WORDS and name.islower() and all(_WORD.match(w) for w in name.split())


def _state_or_attribute(words: list[str]) -> bool:
    """A lead that ends on a state or a verb's past ("TMS canary group created"), on an attribute's noun, on a
    check's noun ("Disk age check": a task), on a single letter ("Option B": a variant's label) or on a plural noun
    in lower case ("PA creds", "aggbridge logs", "set points": things of the item's subject, none of their own),
    or holds a possessive ("Tom's hours": a person's, said of the person)."""
    last = words[-1].casefold()
    past = words[-1].islower() and last.endswith("ed") and not last.endswith("eed")  # ("found", not "seed")
    plural = words[-1].islower() and last.endswith("s") and not last.endswith(("ss", "us", "is"))
    return last in _STATES or last in _ATTRIBUTES or past or any(w.casefold().endswith(("'s", "’s")) for w in words) \
        or last in _TASKS or _option(words[-1]) or plural


# a lead that ends on a check to make names a task, no thing: "Disk age check", "service acct audit"
_TASKS = frozenset("check checks audit audits cleanup clean-up".split())


def _option(word: str) -> bool:
    """A single letter as the last word: an option's or a variant's label ("Option B", "Plan A"), no thing."""
    return len(word) == 1 and word.isalpha()


def _calendar(word: str) -> bool:
    """A weekday's or a month's name, whole or short, in any case ("mon", "Sept", "thursday"), or a period ("Q3")."""
    folded = word.casefold()
    return folded in wd.CALENDAR_SHORT or folded in wd.CALENDAR or wd.period(word)


def lead_keys(us: list, i: int, cands: dict[str, Candidate], keys: list[str], once: set[str],
              spans: list[tuple[nm.Span, str]]) -> list[str]:
    """The key of the candidate the lead of sentence `i` of `us` names (`lead`), made a name a fact vouches for,
    when `keys` does not hold it yet; a page on this one mention (added to `once`) where another sentence of the
    document writes it too (any case: "- code freeze: 6 Nov" and "the code freeze moved"), else a passing
    mention: a page where another source writes it too (kctui.compiler.steps.written_names). Not a lead set
    off by a dash that opens with a name of `spans`: the name is what the line states a fact of ("Moxa switches –
    via RS Components": Moxa's, kctui.compiler.builtin.recall's rule of a name opening its line)."""
    u = us[i]
    span = lead(u.kind, u.index, u.raw, u.plain)
    if span is None or (u.plain[span.end:].lstrip("*_ ").startswith(("—", "–"))
                        and any(s.start <= span.start < s.end for s, _ in spans)):
        return []
    c = vouched(cands, span.text, span.kind, i, u.first, u.last)
    if c.key in keys:
        return []
    written = re.compile(r"(?<![\w&-])" + re.escape(span.text.casefold()) + r"(?![\w&-])")
    if any(j != i and written.search(v.plain.casefold()) for j, v in enumerate(us)):
        once.add(c.key)
    return [c.key]
