"""What a header of fields is about (issue 31): the mention step's rule for `Label: value` lines in a row.

A note opens a record or a pasted message with a header of fields, one a line, and only one of them
names what the header is about; the others state its facts without naming it:

- **a message's header** ("From: Jo Whitfield" / "To: …" / "Date: Mon, 2 Nov 2026 14:12" / "Subject:
  …", also quoted: "> From: Priya Nair" / "> Sent: 4 November 2026 09:30") is about its sender: when the
  message was sent, to whom and on what is the sender's (the first page its `From:` line names);
- **a record's header** ("**Incident:** INC0097431" / "**Severity:** Sev 2" / "**Status:** Final, circulated
  3 November 2026") is about the record whose identifier is the whole value of one of its fields (a name
  with a digit, "RC-1142"); a note that opens with such a header (in its first HEADER_LINES lines) is
  the record's write-up, and all it says is about the record too (`opening_record`: a postmortem titled
  by what failed, "Delayed Laboratory Results to Millennium", whose header names its incident).

A message from an address at a domain that names a page is about that page too (a supplier's offer:
"From: Kasia Nowak <kasia.n@bunny.net>" over the prices of Bunny.net; "wendy.lin@huaxin-ems.cn" over
Huaxin EMS's quote): every statement of the message after its `From:` line, up to the next message's,
reaches it (`sender_domains`: the domain, or its first label, with its hyphens as spaces, is the whole
of a page's name).

The header is the run of statements on consecutive lines that each open with a label of a few words and
a colon, two of them at least, or the rows of a table of two cells, a label and its value ("| Incident |
INC-4588 |" / "| Duration | 09:00 – 11:42 (2h 42m) |": its rows are the record's, but the note that opens
with it is no write-up of the record for that; measured on the notes, the postmortem's other lines are
mostly facts of what failed); it ends at the first line that is no field (a greeting, a blank line).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kctui.compiler.extraction import Statement
from kctui.compiler.readers.base import HEADER_LINES

# a field: a label of up to four words (bold or not, after a quote mark) and a colon, then its value
_FIELD = re.compile(r"^(?:>\s*)?(?:\*\*)?(?P<label>[A-Za-z][\w'’-]*(?: [\w'’-]+){0,3})\s*:\s*(?:\*\*)?\s*(?P<value>\S.*)$")
_SENDER = frozenset({"from"})
# a field as a table's row of two cells, its label and its value ("| Incident | INC-4588 |" under an empty header)
_ROW = re.compile(r"^(?:\*\*)?(?P<label>[A-Za-z][\w'’-]*(?: [\w'’-]+){0,3})(?:\*\*)? \| (?P<value>[^|]*\S[^|]*)$")


def _field(text: str, line: int = 0) -> re.Match[str] | None:
    """A `Label: value` line, or a table's row of a label and a value in the note's opening lines (a record's
    header as a table; not a table of settings further down: "| CA | CCLC-Issuing-CA-01 |" in a host's runbook)."""
    return _FIELD.match(text) or (_ROW.match(text) if line <= HEADER_LINES else None)


def header_subjects(statements: Sequence[Statement], named: Callable[[str], set[str]],
                    first: Callable[[str], str]) -> dict[int, str]:
    """Index of a statement in a header of fields -> the page the header is about (the module's rules):
    `named(text)`: the pages one of whose names is the whole of `text`; `first(text)`: the page of the
    first name `text` holds, or ""."""
    out: dict[int, str] = {}
    for run in _headers(statements):
        subject = _subject([statements[i].value for i in run], named, first)
        if subject:
            out.update(dict.fromkeys(run, subject))
    return out


def opening_record(statements: Sequence[Statement], named: Callable[[str], set[str]]) -> str:
    """The record a note's opening header of fields names by its identifier, or "" (the module's rule)."""
    for run in _headers(statements):
        if statements[run[0]].start > HEADER_LINES:
            break
        record = _record([m for i in run if (m := _FIELD.match(statements[i].value)) is not None], named)
        if record:
            return record
    return ""


def _headers(statements: Sequence[Statement]) -> list[list[int]]:
    """The runs of two fields or more on consecutive lines, as indices of `statements`."""
    out: list[list[int]] = []
    run: list[int] = []
    for k, statement in enumerate([*statements, None]):
        field = _field(statement.value, statement.start) if statement is not None else None
        if field is not None and run and statement.start == statements[run[-1]].end + 1:
            run.append(k)
            continue
        if len(run) >= 2:
            out.append(run)
        run = [k] if field is not None else []
    return out


def _subject(fields: list[str], named: Callable[[str], set[str]], first: Callable[[str], str]) -> str:
    """The page a header of these fields is about: its sender's, else its record's, else ""."""
    matches = [m for f in fields if (m := _field(f)) is not None]
    for m in matches:
        if m.group("label").casefold() in _SENDER:
            return first(m.group("value"))
    return _record(matches, named)


def _record(matches: list[re.Match[str]], named: Callable[[str], set[str]]) -> str:
    """The page of the record whose identifier is the whole value of one of these fields, or ""."""
    for m in matches:
        value = m.group("value").strip("* ")
        pages = named(value) if any(c.isdigit() for c in value) and " " not in value else set()
        if len(pages) == 1:
            return next(iter(pages))
    return ""


_ADDRESS = re.compile(r"@([a-z0-9][a-z0-9.-]*\.[a-z]{2,})", re.IGNORECASE)


def sender_domains(statements: Sequence[Statement], named: Callable[[str], set[str]]) -> dict[int, str]:
    """Index of a statement of a message -> the page its sender's address domain names (the module's
    rule); a message runs from its `From:` line to the next."""
    out: dict[int, str] = {}
    current = ""
    for k, statement in enumerate(statements):
        field = _FIELD.match(statement.value)
        if field is not None and field.group("label").casefold() in _SENDER:
            address = _ADDRESS.search(field.group("value"))
            current = _domain_page(address.group(1), named) if address else ""
        if current:
            out[k] = current
    return out


def _domain_page(domain: str, named: Callable[[str], set[str]]) -> str:
    label = domain.split(".")[0]
    for form in (domain, label, label.replace("-", " ")):
        pages = named(form)
        if len(pages) == 1:
            return next(iter(pages))
    return ""
