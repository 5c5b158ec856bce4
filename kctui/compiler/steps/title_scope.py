"""Which lines of a note reach the page of what its title names (issue 31, trust: `wrong_page`).

A note's title names what the note is about ("Runbook: paywall-api", "ADR-007: Move EZproxy to OCLC
Hosted", an email's "Sectra PACS support renewal 2027"), and a line of it that names nothing else says
something of that thing ("canary was only 5% for 10 min", "owner: Shiv Reilly"). A line that names
other things and not the title's is about those things: "check Redis: `paywall-cache` CPU in
CloudWatch" in the paywall-api runbook, "2. Amazon MSK, provisioned, three brokers in eu-west-1." in
the decision record on the event bus, "- Toner for the Brother HL-L8360 — ordered, TN-423BK" in a site
note. It reaches their pages and no longer the title's (kctui.compiler.steps.mentions `reaches`; it
stays on the note's own page, and on its section's page where a heading names one). Kept on the
title's page:

- **a field of the note** ("owner: Shiv Reilly", "**Applies to:** rhap-prd-01 (active) …",
  "Deciders: …"): a label and a colon opening the line say what the note's thing has;
- **the title's thing written another way**: a word that opens one of its names stands in the line
  ("So we're moving ledger-svc to Amazon Aurora PostgreSQL 15 …" under "ADR-016: ledger on Aurora",
  "On 6.0 – …" is not, "Sectra UniView licences" in the email on Sectra PACS is).

Tried and left out: keeping lines whose other names are all people's ("shadow on-call from wk49, with
Tom primary" in Ravi's onboarding): on the 50 writers it kept 16 facts for 184 lines on a wrong page."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from kctui.compiler.builtin import words as wd

_FIELD = re.compile(r"[^\w]*\w[\w /()'-]{0,40}[*_]*:[*_]*\s")  # "owner: …", "**Applies to:** …", "- date: …"


def leaves_title(text: str, places: Sequence[tuple[int, int, str]], titled: Collection[str],
                 heads: Mapping[str, Collection[str]]) -> bool:
    """Does a statement that reaches `titled` (the pages of what its note's title, its record or its
    sender names) by its place leave them (the module's rule)? `places`: the names `text` holds
    (`NameFinder.ordered`); `heads`: page -> the case-folded words that open its names (`NameFinder.heads`)."""
    if not titled or not places or any(slug in titled for _, _, slug in places) or _FIELD.match(text):
        return False
    written = {w.casefold() for w in wd.WORD.findall(text)}
    return not any(written.intersection(heads.get(slug, ())) for slug in titled)
