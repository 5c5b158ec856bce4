"""Issue 31, entity precision: a page's title is how the text names the thing. Table tests with phrasings
of our own: a name column's cell with a remark in brackets, names joined inside brackets, a code name
in brackets, a model's generation after its name, a verb glued to an acronym ("OK'd"), a word English lacks in a sentence
of another language ("el lunes 08"), a label opening a roster's line ("- Fleet: 52 tablets …"), a model's number
with letters ("8568Y+")."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import coined, roster
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.name_tokens import junk_token
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(read_source(path, text.encode("utf-8"), DIGEST))


def extract_doc(text: str):  # noqa: ANN201
    return read_source("notes/n.md", text.encode("utf-8"), DIGEST)


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


# -- a model's generation, a verb glued to an acronym ------------------------------------------------------

@pytest.mark.parametrize("text, name, not_name", [
    ("# Kit\n\n- 38 x Skylap Z14 Gen 5, €1,140 each, from Quillhotel\n- [x] Laptop Skylap Z14 Gen 5 issued, asset ALC-0417\n",
     "Skylap Z14 Gen 5", "Skylap Z14 Gen"),
    ("# Rooms\n\nThree groups turned up for Study Room 4 at 10am. Study Room 4 holds 6 people.\n",
     "Study Room 4", "Study Room"),
])
def test_a_models_generation_is_part_of_its_name(text: str, name: str, not_name: str) -> None:
    names = entities(text)
    assert name in names and not_name not in names


@pytest.mark.parametrize("plain, kept", [
    ("Onboarding for Ana Quillby 2 Mar, ask Bo Zorbit about it.", "Ana Quillby"),  # a day of a month
    ("We ordered Skylap Pro 3 units from Zorbit Ltd.", "Skylap Pro"),  # a count of a plural noun
    ("The Brindle Linux 8.10 updates went out on Falvane Cloud.", "Brindle Linux"),  # a dotted release
])
def test_a_number_after_a_name_that_is_no_generation(plain: str, kept: str) -> None:
    spans = [sp.text for sp in nm.plain_spans(plain)]
    assert kept in spans
    assert all(not (s.startswith(kept) and s != kept) for s in
               (coined.with_edition(plain, sp)[0].text for sp in nm.plain_spans(plain)))


def test_a_verb_made_of_an_acronym_is_no_name() -> None:
    assert junk_token("OK'd") and junk_token("RMA’d") and junk_token("DM'ing")
    assert not junk_token("O'Brien")
    assert "OK'd" not in entities("# Standup\n\n- Mara OK'd the SSDs for Zorbit. Mara OK'd going to $30k for Feb.\n")


# -- a word English lacks, in a sentence of another language ----------------------------------------------

@pytest.mark.parametrize("plain, foreign", [
    ("Pablo una pregunta, el electricista dice que puede venir el lunes 08 a tirar cable para la sala nueva", True),
    ("perfecto. Y que me avise cuando acabe, el lunes tengo a Jordi que puede conectarse en remoto", True),
    ("GKE + postgres 14 on db-prod-01 via pgbouncer, owned by accounts", False),
    ("pgbouncer values live in the chart; receiptd 0.9.3 restarts nightly", False),
])
def test_a_sentence_in_another_language(plain: str, foreign: bool) -> None:
    assert coined.not_english(plain) is foreign


def test_a_word_of_another_language_before_a_number_is_no_name() -> None:
    text = ("# Chat\n\n[03/12/26, 12:40] Lucía: el electricista dice que puede venir el jueves 08 a tirar cable "
            "para la sala nueva, necesita algo\n\n[03/12/26, 12:50] Pablo: perfecto, el jueves tengo a Jordi "
            "que puede conectarse en remoto\n")
    assert "jueves" not in entities(text)
    assert "zorbitd" in entities("# Ops\n\nzorbitd 0.9.3 restarts nightly on the box. zorbitd logs go to /var.\n")


# -- a roster's line opening with an ordinary word its list of people leaves out ---------------------------

MINUTES = ("# Sync – 4 Nov\n\nAttendees: Aoife (admin), Capt. Zora Quill (ops), Priya, Dev\n\nNotes\n"
           "- Fleet: 52 tablets in service, 6 spares in the cage.\n- Zora: no issues reported by crew on the 6 units.\n"
           "- Aoife: can't downgrade once signing stops, checked on 4 Nov.\n- Dev: crew app fine on 27.\n")


def test_a_label_opening_a_roster_line_is_no_person() -> None:
    assert "fleet" not in {k.name.casefold() for k in roster.roster_names(extract_doc(MINUTES))}
    assert "Fleet" not in entities(MINUTES)


def test_a_roster_of_common_given_names_keeps_them() -> None:
    text = ("# Standup\n\nPresent: Grace, Marek, Zorvan\n\n- Grace: fixed the printer queue on ws-03\n"
            "- Marek: booked the van for Fri 12 Dec\n- Zorvan: chased the Quillsoft quote\n")
    names = {k.name.casefold() for k in roster.roster_names(extract_doc(text))}
    assert {"grace", "marek", "zorvan"} <= names


# -- a model's number with a letter, or after a shaped word ---------------------------------------------

@pytest.mark.parametrize("plain, name", [
    ("Each node has 2 × Zeron Platinum 8568Y+, 2 TB RAM and 8 GPUs.", "Zeron Platinum 8568Y+"),
    ("The rack runs on a Quill Smart-UPS 1500 (ps-app01).", "Quill Smart-UPS 1500"),
    ("Grade 3 has 360 Brindle 100e laptops left.", "Brindle 100e"),
])
def test_a_models_number_is_part_of_its_name(plain: str, name: str) -> None:
    assert name in {coined.with_edition(plain, sp)[0].text for sp in nm.plain_spans(plain)}


@pytest.mark.parametrize("plain, kept", [
    ("TestNav needs Zorbit OS 120+ on every device.", "Zorbit OS"),  # a least release
    ("Grade 3 is on Zorbit OS 131 since Monday.", "Zorbit OS"),  # a release after an acronym
])
def test_a_release_after_a_name_is_no_model(plain: str, kept: str) -> None:
    assert kept in {coined.with_edition(plain, sp)[0].text for sp in nm.plain_spans(plain)}
