"""Issue 31, entity precision (EXTRACTOR_VERSION 51-X): a name the document only ever writes after one same
word, where the two are a name of it too, is that longer name's (kctui.compiler.builtin.written_after);
a table's name cell that holds a remark gives the name it stresses, or none (kctui.compiler.builtin.
table_facts). Phrasings of our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.name_evidence import key_of
from kctui.compiler.builtin.written_after import written_after
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


def entities(text: str) -> dict[str, tuple[str, ...]]:
    ex = extract_document(read_source("notes/n.md", text.encode("utf-8"), DIGEST))
    return {e.name: tuple(e.aliases) for e in ex.entities}


@pytest.mark.parametrize("names, texts, expected", [
    # written only after "Brisk": the longer name's
    ({"quillcare": "QuillCare", "brisk quillcare": "Brisk QuillCare"},
     ["Brisk QuillCare (handhelds) renews in May", "Brisk QuillCare quote came in"],
     {"quillcare": ("Brisk QuillCare", "brisk quillcare")}),
    # a model's number always after its maker's word, which the document never names with it as a name:
    # titled so ("Helix" opening its sentences was read as the sentence's capital)
    ({"tx-40": "TX-40"}, ["Tarvo TX-40 jammed again at 9", "Tarvo TX-40 belt replaced"],
     {"tx-40": ("Tarvo TX-40", "tarvo tx-40")}),
    # not after a verb, an acronym or a word the document writes in lower case too
    ({"tx-40": "TX-40"}, ["Logged TX-40 fault", "Logged TX-40 again"], {}),
    ({"tx-40": "TX-40"}, ["MV TX-40 sailed", "MV TX-40 back"], {}),
    ({"tx-40": "TX-40"}, ["Invoice TX-40 paid", "the invoice is late"], {}),
    # no number in it: no title the document does not write as a name
    ({"quillcare": "QuillCare"}, ["Brisk QuillCare renews", "Brisk QuillCare quote"], {}),
    # written alone once: a name of its own
    ({"quillcare": "QuillCare", "brisk quillcare": "Brisk QuillCare"},
     ["Brisk QuillCare renews in May", "QuillCare covers the scanners"], {}),
    # after two different words: which one it is stays unsaid
    ({"nc7": "NC7", "vantor nc7": "Vantor NC7", "hollin nc7": "Hollin NC7"},
     ["Vantor NC7 at the north site", "Hollin NC7 at the south site"], {}),
    # after a word in lower case: nothing to fold into
    ({"quillcare": "QuillCare"}, ["our QuillCare plan", "the QuillCare plan"], {}),
    # a name the document defines or knows keeps its page
    ({"quillcare": "QuillCare", "brisk quillcare": "Brisk QuillCare"}, ["Brisk QuillCare renews"], {}),
])
def test_written_after(names, texts, expected):
    fixed = frozenset({"quillcare"}) if texts == ["Brisk QuillCare renews"] else frozenset()
    assert written_after(names, texts, key_of, fixed) == expected


def test_a_tail_written_only_after_its_maker_is_one_page():
    found = entities("# Vendors\n\n| Product | Reseller | Cost |\n| --- | --- | --- |\n"
                     "| Brisk QuillCare (handhelds) | Tarn Ltd | £19/device |\n"
                     "| Norvell Grid | Tarn Ltd | £40/month |\n\n"
                     "Brisk QuillCare renewal is due in May, Ingrid has the quote.\n")
    assert "QuillCare" not in found
    assert "Brisk QuillCare" in found


@pytest.mark.parametrize("cell, expected, absent", [
    ("Ambrel? no — **Tarn Stage Supply**", "Tarn Stage Supply", "Ambrel? no — **Tarn Stage Supply"),
    ("Ambrel? maybe Tarn", None, "Ambrel? maybe Tarn"),
])
def test_a_name_cell_with_a_remark(cell, expected, absent):
    found = entities("# Suppliers\n\n| Supplier | Contact | Phone |\n| --- | --- | --- |\n"
                     f"| {cell} | Leona | 01632 960333 |\n"
                     "| Brightwell Hire | Omar | 01632 960111 |\n"
                     "| Corvane Rigging | Pat | 01632 960222 |\n")
    assert absent not in found
    assert not any("?" in name for name in found)
    if expected:
        assert expected in found


def test_a_model_number_written_only_after_its_maker_is_titled_so():
    found = entities("# Sorter runbook\n\n- Tarvo TX-40 jams: stop the belt, clear the chute, restart from the panel.\n"
                     "- Tarvo TX-40 spares are in cage 3, 2 belts and 4 rollers.\n")
    assert "TX-40" not in found
    assert found["Tarvo TX-40"] == ("TX-40",)
