"""A host's name gets a page on one mention (kctui.compiler.builtin.host_names), table-tested."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.host_names import host_name, page_on_one_mention
from kctui.compiler.builtin.name_evidence import Candidate
from kctui.compiler.readers import read_source


@pytest.mark.parametrize(("name", "expected"), [
    # lower-case parts joined by hyphens, a zero-padded number at the end
    ("pacs-tst-01", True), ("rgy-fs01", True), ("planbus-app01", True), ("kelpie-mgmt01", True),
    ("cron-01", True), ("mkx-cloud-01/02", True), ("vlc1-fw01", True),
    # the same in capitals: one of a fleet or a register
    ("BOS-DC01", True), ("STN-SALTO01", True),
    # no hyphen, no zero-padding, a placeholder, or one English word before the number
    ("dc01", False), ("login02", False), ("etl-1", False), ("db-2", False), ("SRE-882", False),
    ("SEV-2", False), ("xxx-salto01", False), ("week-01", False), ("F-07", False),
    # a file's name, a model, a version
    ("todo-brimnes-drydock-2027", False), ("x4-2210", False), ("v1.2.01", False),
])
def test_host_name(name: str, expected: bool) -> None:
    assert host_name(name) is expected


def _cand(name: str, kinds: set[str], vouched: bool = True) -> Candidate:
    c = Candidate(name, name.casefold())
    c.kinds, c.vouched = kinds, vouched
    return c


@pytest.mark.parametrize(("cand", "expected"), [
    (_cand("pacs-tst-01", {"ident"}), True),
    (_cand("BOS-DC01", {"caps"}), True),
    # in a code span of its own too; not a path's part, nor a name only the document's usage vouches for
    (_cand("pacs-tst-01", {"ident", "code"}), True),
    (_cand("pacs-tst-01", {"ident", "path"}), False),
    (_cand("pacs-tst-01", {"ident"}, vouched=False), False),
    (_cand("pacs-tst-01", {"caps"}), False),
])
def test_page_on_one_mention(cand: Candidate, expected: bool) -> None:
    assert page_on_one_mention(cand) is expected


def _entities(text: str) -> set[str]:
    doc = read_source("notes/n.md", text.encode("utf-8"), "sha256:" + "5" * 64)
    return {e.name for e in extract_document(doc).entities}


@pytest.mark.parametrize(("text", "name", "expected"), [
    # named once, no value in its sentence: a page all the same
    ("# Onboarding\n\n- ask Priya for an account on tessel-build01 before you start\n", "tessel-build01", True),
    ("# Salto\n\nChecked the lock boxes too (QRV-LOCK01), both fine.\n", "QRV-LOCK01", True),
    ("# Handover\n\n* Ask the desk about QR3-0112 when you start.\n", "QR3-0112", True),
    # not zero-padded, or a placeholder: a passing mention still
    ("# Onboarding\n\n- ask Priya for an account on tessel-build-3 before you start\n", "tessel-build-3", False),
    ("# Runbook\n\n- log in to each hotel's `xxx-lock01` and restart the service\n", "xxx-lock01", False),
])
def test_a_host_named_once_gets_a_page(text: str, name: str, expected: bool) -> None:
    assert (name in _entities(text)) is expected
