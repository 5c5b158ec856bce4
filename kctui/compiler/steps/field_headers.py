"""What a header of fields is about (issue 31): the mention step's rule for `Label: value` lines in a row.

A note opens a record or a pasted message with a header of fields, one a line, and only one of them
names what the header is about; the others state its facts without naming it:

- **a message's header** ("From: Jo Whitfield" / "To: …" / "Date: Mon, 2 Nov 2026 14:12" / "Subject:
  …", also quoted: "> From: Priya Nair" / "> Sent: 4 November 2026 09:30") is about its sender: when the
  message was sent, to whom and on what is the sender's (the first page its `From:` line names);
- **a record's header** ("**Incident:** INC0097431" / "**Severity:** Sev 2" / "**Status:** Final, circulated
  3 November 2026") is about the record whose identifier is the whole value of one of its fields (a name
  with a digit, "RC-1142"), when the note's title does not name it.

The header is the run of statements on consecutive lines that each open with a label of a few words and
a colon, two of them at least; it ends at the first line that is no field (a greeting, a blank line).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kctui.compiler.extraction import Statement

# a field: a label of up to four words (bold or not, after a quote mark) and a colon, then its value
_FIELD = re.compile(r"^(?:>\s*)?(?:\*\*)?(?P<label>[A-Za-z][\w'’-]*(?: [\w'’-]+){0,3})\s*:\s*(?:\*\*)?\s*(?P<value>\S.*)$")
_SENDER = frozenset({"from"})


def header_subjects(statements: Sequence[Statement], named: Callable[[str], set[str]],
                    first: Callable[[str], str]) -> dict[int, str]:
    """Index of a statement in a header of fields -> the page the header is about (the module's rules):
    `named(text)`: the pages one of whose names is the whole of `text`; `first(text)`: the page of the
    first name `text` holds, or ""."""
    out: dict[int, str] = {}
    run: list[int] = []
    for k, statement in enumerate([*statements, None]):
        field = _FIELD.match(statement.value) if statement is not None else None
        if field is not None and run and statement.start == statements[run[-1]].end + 1:
            run.append(k)
            continue
        if len(run) >= 2:
            subject = _subject([statements[i].value for i in run], named, first)
            if subject:
                out.update(dict.fromkeys(run, subject))
        run = [k] if field is not None else []
    return out


def _subject(fields: list[str], named: Callable[[str], set[str]], first: Callable[[str], str]) -> str:
    """The page a header of these fields is about: its sender's, else its record's, else ""."""
    matches = [m for f in fields if (m := _FIELD.match(f)) is not None]
    for m in matches:
        if m.group("label").casefold() in _SENDER:
            return first(m.group("value"))
    for m in matches:
        value = m.group("value").strip("* ")
        pages = named(value) if any(c.isdigit() for c in value) and " " not in value else set()
        if len(pages) == 1:
            return next(iter(pages))
    return ""
