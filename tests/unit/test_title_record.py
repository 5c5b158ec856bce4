"""Issue 31, the record a note's title names apart, in brackets or as its last part, is a subject of the
note beside the title's first name (kctui.compiler.steps.title_record, hooked into the mention step).
Titles of our own (not the notes corpus's)."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_finder import NameFinder, written_words
from kctui.compiler.steps.title_record import title_record

PAGES = {"inc-4471": ["INC-4471"], "brk-fs02": ["brk-fs02"], "sev3": ["SEV3"], "adr-004": ["ADR-004"],
         "quillpool": ["QuillPool"], "po-2291": ["PO-2291"], "kraków": ["Kraków"]}
FINDER = NameFinder(PAGES)


@pytest.mark.parametrize("title, subject, record", [
    ("Postmortem: QuillPool queue stuck — INC-4471", "quillpool", "inc-4471"),  # the last part after a dash
    ("Postmortem — Bristol file server down (brk-fs02), Tue 3 Mar", "", "brk-fs02"),  # in brackets
    ("Email thread - printer quote (PO-2291)", "", "po-2291"),
    # not the record's: a level, a record it supersedes, a remark of words, a name with words around it
    ("Postmortem: QuillPool queue stuck (SEV3)", "quillpool", ""),
    ("ADR-005: Move backups to tape (supersedes ADR-004)", "", ""),
    ("Onboarding — Ana (Kraków office)", "", ""),
    ("QuillPool upgrade — INC-4471 follow-up", "quillpool", ""),
    # the title's first name already
    ("INC-4471 — QuillPool queue stuck", "inc-4471", ""),
])
def test_title_record(title, subject, record):
    assert title_record(title, FINDER.places, written_words, subject) == record
