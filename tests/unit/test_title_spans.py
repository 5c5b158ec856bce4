"""Issue 31, entity precision: a page's title is how the text names the thing. Table tests with phrasings
of our own: a name column's cell with a remark in brackets, names joined inside brackets, a code name
in brackets."""

from __future__ import annotations

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(read_source(path, text.encode("utf-8"), DIGEST))


def entities(text: str) -> dict[str, tuple[str, ...]]:
    return {e.name: e.aliases for e in extract(text).entities}


# -- a name column's cell: the name, then a remark in brackets --------------------------------------------

VENDORS = ("# Vendors\n\n| what | vendor | cost | owner |\n|---|---|---|---|\n"
           "| hosting | Brindle Cloud eu-west-9 (VMs + DB) | ~$2.1k/mo | Ana |\n"
           "| contractors | Quillsoft sp. z o.o. (Gdańsk) | €61/h | Bo |\n"
           "| render | Zorbit render (zorbit_r) | £9,100 | Ana |\n"
           "| servers | Falvane CX9 (falvane-web-01) | €14/mo | Bo |\n")


def test_names_joined_inside_brackets_are_no_split() -> None:
    names = entities(VENDORS)
    assert not [n for n in names if n.count("(") != n.count(")")]
    assert "Brindle Cloud eu-west-9" in names


def test_a_remark_in_brackets_is_no_part_of_the_title() -> None:
    names = entities(VENDORS)
    assert "Quillsoft sp. z o.o." in names and "Quillsoft sp. z o.o. (Gdańsk)" not in names


def test_a_code_name_in_brackets_is_an_alias_and_a_host_is_not() -> None:
    names = entities(VENDORS)
    assert names.get("Zorbit render") == ("zorbit_r",)
    assert "falvane-web-01" not in names.get("Falvane CX9", ())


def test_a_phrase_of_names_keeps_its_brackets_out_of_any_title() -> None:
    text = ("# Options\n\n| option | vendor | cost |\n|---|---|---|\n"
            "| Quillbase 14 on EC2 (r6i.2xlarge ×3, Zorbit) | Brindle | ~$4,100 |\n"
            "| Falvane Cloud | Falvane | ~$3,000 |\n")
    assert not [n for n in entities(text) if "(" in n or ")" in n]
