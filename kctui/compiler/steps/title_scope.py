"""Which lines of a note reach the page of what its title names (issue 31, trust: `wrong_page`).

A note's title names what the note is about ("Runbook: paywall-api", an email's "Sectra PACS support
renewal 2027"), and a line of it that names nothing else says something of that thing ("canary was only
5% for 10 min", "owner: Shiv Reilly"). A line that names other things and not the title's is about those
things: "check `paywall-cache` CPU in CloudWatch" in the paywall-api runbook, "- Toner for the Brother
HL-L8360 — ordered, TN-423BK" in the note on a site. It reaches their pages and no longer the title's
(kctui.compiler.steps.statement_pages `reaches`; it stays on the note's own page, and on its section's page where
a heading names one). Kept on the title's page:

- **a field of the note** ("owner: Shiv Reilly", "**Applies to:** rhap-prd-01 (active) …",
  "Deciders: …"): a label and a colon opening the line say what the note's thing has;
- **the title's thing written another way**: a word that opens one of its names stands in the line
  ("So we're moving ledger-svc to Amazon Aurora PostgreSQL 15 …" in a note on Aurora; "Sectra UniView
  licences" in the email on Sectra PACS);
- **a person's page** where the title names them first ("Onboarding — Ravi Menon", "Hannah's December
  to-do"): what the note lists is theirs to do or to know ("shadow on-call from wk49, with Tom primary");
- **a record's page** ("ADR-007: Move EZproxy to OCLC Hosted", "Postmortem: … — INC-2291", a note opening
  with a record's header): a record's write-up is the record's, all of it ("Option 2, logical replication to
  pg-settle-03 then cutover." is ADR-007's decision); the thing its decision names leaves such lines.

A heading's thing and a section headed by a name keep all their lines (tried: their lines naming other
things leaving too cost 124 labelled facts on the 50 writers for 185 lines on a wrong page)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from kctui.compiler.builtin import words as wd

_FIELD = re.compile(r"[^\w]*\w[\w /()'-]{0,40}[*_]*:[*_]*\s")  # "owner: …", "**Applies to:** …", "- date: …"


def record_pages(title: str, subject: str, record: str, people: Collection[str] = ()) -> set[str]:
    """The pages whose note this is, all of it: the record its header or its title names apart (`record`),
    what its title names first (`subject`) where the title opens with a record's identifier (letters, a
    hyphen and a digit: "ADR-007: …", "INC-4471 — …") or where it is one of `people` (a person's own
    note: their onboarding, their to-do list, their handover)."""
    own = _RECORD_TITLE.match(title) or subject in people
    return {page for page in (record, subject if own else "") if page}


_RECORD_TITLE = re.compile(r"[^\w]*[A-Za-z]+-\d")


def leaving(text: str, places: Sequence[tuple[int, int, str]], titled: Collection[str],
            heads: Mapping[str, Collection[str]]) -> set[str]:
    """The pages of `titled` a statement leaves: all of them where it `leaves_title`, else none."""
    return set(titled) if leaves_title(text, places, titled, heads) else set()


def leaves_title(text: str, places: Sequence[tuple[int, int, str]], titled: Collection[str],
                 heads: Mapping[str, Collection[str]]) -> bool:
    """Does a statement that reaches `titled` (the pages of what its note's title, its record or its
    sender names) by its place leave them (the module's rule)? `places`: the names `text` holds
    (`NameFinder.ordered`); `heads`: page -> the case-folded words that open its names (`NameFinder.heads`)."""
    if not titled or not places or any(slug in titled for _, _, slug in places) or _FIELD.match(text):
        return False
    written = {w.casefold() for w in wd.WORD.findall(text)}
    return not any(written.intersection(heads.get(slug, ())) for slug in titled)
