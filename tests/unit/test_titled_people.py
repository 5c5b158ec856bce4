"""A person named with a title before their full name is the person of that full name: one page, titled by
the name, the titled form an alias (a held-out note wrote "Dr. Amir Sadeghi" in a roster and "Amir Sadeghi"
in a table: two pages). Names are our own."""

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.titled_people import full_name
from kctui.compiler.readers.source import read_source


@pytest.mark.parametrize(("name", "expected"), [
    ("Dr. Amir Sadeghi", "Amir Sadeghi"),
    ("Prof Hana Ito", "Hana Ito"),
    ("Capt. Fiona Grant", "Fiona Grant"),
    ("Ms. Adeyemi", None),  # a surname alone names no one for sure
    ("Dr. Okafor", None),
    ("Amir Sadeghi", None),  # no title
    ("Drive Sync", None),  # a word that opens with the letters of a title is none
    ("Dr. amir sadeghi", None),  # not written as a name
])
def test_the_full_name_after_a_title(name: str, expected: str | None) -> None:
    assert full_name(name) == expected


def test_a_titled_person_is_the_page_of_their_full_name() -> None:
    text = ("# Allocation committee\n\nAttendees: Dana Reyes (chair), Dr. Amir Sadeghi (faculty rep), "
                    "Prof. Hana Ito\n\n- Dr. Amir Sadeghi asked for 2,000 GPU hours by 31 March.\n")
    ex = extract_document(read_source("committee.md", text.encode(), "sha256:x"))
    names = {e.name: e for e in ex.entities + ex.passing}
    assert "Dr. Amir Sadeghi" not in names and "Prof. Hana Ito" not in names
    assert "Dr. Amir Sadeghi" in names["Amir Sadeghi"].aliases
    assert not [c for c in ex.claims if c.subject.startswith(("Dr.", "Prof."))]
