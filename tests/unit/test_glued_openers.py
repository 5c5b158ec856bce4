"""Issue 31 point 4: a sentence's opening word glued to the name after it ("Need Quorvix 2.1 on …") is
the name's mention, not a page of its own; a real full name is kept (kctui.compiler.builtin.glued_openers,
EXTRACTOR_VERSION 56-P). Phrasings of our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.glued_openers import glued_openers
from kctui.compiler.readers import read_source
from kctui.core.slugs import identity_key

DIGEST = "sha256:" + "5" * 64


def _names(*names: str) -> dict[str, str]:
    return {identity_key(n): n for n in names}


@pytest.mark.parametrize(("names", "texts", "expected"), [
    # an English opener at a sentence's start, the name written alone elsewhere
    (("Need Quorvix", "Quorvix"), ["Need Quorvix 2.1 on every kiosk by May.", "Ask Dan @ Quorvix for notes"],
     {"need quorvix": "quorvix"}),
    # an opener after a checkbox, a list's number or a table's bar
    (("Renew Drellio", "Drellio"), ["[ ] Renew Drellio before 30 Apr", "Drellio lapses in April"],
     {"renew drellio": "drellio"}),
    (("Today Brevonix", "Brevonix"), ["a | Today Brevonix is the default", "route to Brevonix on 5xx"],
     {"today brevonix": "brevonix"}),
])
def test_glued(names: tuple[str, ...], texts: list[str], expected: dict[str, str]) -> None:
    assert glued_openers(_names(*names), texts, identity_key) == expected


@pytest.mark.parametrize(("names", "texts", "fixed"), [
    # written mid-sentence too: its capital is the name's own
    (("Open Quorvix", "Quorvix"), ["Open Quorvix runs the portal", "we moved to Open Quorvix", "Quorvix is slow"], ()),
    # the second word alone never written: nothing says the first is no part of it
    (("Need Quorvix", "Quorvix"), ["Need Quorvix 2.1 on every kiosk"], ()),
    # an ordinary word after a capitalised one: the second half of a name
    (("Project Harbour", "Harbour"), ["Project Harbour ships in May", "Harbour is late"], ()),
    # the first word English lacks: a maker's or a place's name, not an opener
    (("Zentrix Quorvix", "Quorvix"), ["Zentrix Quorvix is the appliance", "Quorvix needs a reboot"], ()),
    # the first word written with its capital mid-sentence: a name in its own right
    (("Falcon Quorvix", "Quorvix"), ["Falcon Quorvix is the appliance", "Quorvix needs a reboot", "bought from Falcon"], ()),
    # the first word opens another name of the document
    (("Falcon Quorvix", "Quorvix", "Falcon Drellio"), ["Falcon Quorvix is the appliance", "Quorvix needs a reboot"], ()),
    # a table's name column names it so
    (("Need Quorvix", "Quorvix"), ["Need Quorvix 2.1 on every kiosk", "Ask Quorvix"], ("need quorvix",)),
])
def test_kept(names: tuple[str, ...], texts: list[str], fixed: tuple[str, ...]) -> None:
    assert glued_openers(_names(*names), texts, identity_key, fixed) == {}


def test_document() -> None:
    text = ("# Kiosk plan\n\n- [ ] board wants 1 June. Need Quorvix 3.3.0 on all 248 kiosks by mid-May. Sian to plan\n"
            "- Hannah @ Quorvix: release notes due 3 May\n")
    names = {e.name for e in extract_document(read_source("notes/k.md", text.encode("utf-8"), DIGEST)).entities}
    assert "Need Quorvix" not in names
