"""Issue 31: names ordinary notes write in lower case or as models, read by their form and the sentence
they stand in, never by a list of a corpus's words: a word English does not use with a fact stated of
it ("quorvex 2 GB"), an identifier with underscores one of whose words is no English word
("vexmor_svc"), a chat channel ("#zeta-ops"), an edition or revision after a name ("Quarrel Server
2024", "Quokka rev D"); and an acronym in the plural heads no name ("zone B APs"). Names and phrasings
are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import words as wd
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(read_source(path, text.encode("utf-8"), DIGEST))


def entity_names(text: str) -> set[str]:
    return {e.name for e in extract(text).entities}


def spans(plain: str) -> list[tuple[str, str]]:
    return [(s.text, s.kind) for s in nm.plain_spans(plain)]


# -- a chat channel ---------------------------------------------------------------------------------


@pytest.mark.parametrize("plain, found", [
    ("ping #zeta-ops for anything, nobody minds", [("#zeta-ops", "channel")]),
    ("Lena (fwd to #team-quill-alerts): ok", [("Lena", "caps"), ("#team-quill-alerts", "channel")]),
    # one word after "#" is no channel name by its shape (a tag, a word): only a hyphenated one is
    ("post in #incidents now", []),
    # a colour, an issue number, a URL's anchor, C#: no channel
    ("the colour #fff and #abcdef", []),
    ("see PR #412 and page.html#top-level", []),
])
def test_a_hyphenated_channel_keeps_its_hash(plain, found):
    assert [s for s in spans(plain) if s[1] == "channel"] == [s for s in found if s[1] == "channel"]
    assert all(s in spans(plain) for s in found)


def test_a_channel_with_facts_gets_a_page_titled_as_written():
    text = ("# Handover\n\n- 11:20 Brightwell calls Ana, Ana pings #zeta-ops\n"
            "- 11:40 #zeta-ops agrees to roll back by 12:00\n")
    assert "#zeta-ops" in entity_names(text)


# -- a word English does not use ----------------------------------------------------------------------


@pytest.mark.parametrize("word, unknown", [
    ("quorvex", True), ("flumbrix", True),
    # English words, an English word with an "s", a day's short form, two English words run together
    ("lantern", False), ("renews", False), ("thurs", False), ("stormpanel", False), ("boatlight", False),
    ("hotfix", False), ("standup", False), ("failover", False),
])
def test_an_unknown_word_is_no_english_word_nor_two_run_together(word, unknown):
    assert wd.unknown_word(word) is unknown


@pytest.mark.parametrize("text, name, page", [
    # right before a value
    ("# Standup\n\n- y: quorvex 0.9 is stable, RSS flat at 310MB\n", "quorvex", True),
    ("# Standup\n\n- the leak is fixed in quorvex 14, per Ana\n", "quorvex", True),
    # opening sentences of the document, one with a value
    ("# Notes\n\nquorvex restarts nightly at 02:00 on prod.\n\nquorvex logs go to the shared bucket.\n",
     "quorvex", True),
    # opening one sentence only, no value next to it: a bare mention
    ("# Notes\n\nquorvex logs go to the shared bucket on 2026-01-02.\n", "quorvex", False),
    # the document writes it as a common noun ("the quorvex.", plural): a word of its own, no name
    ("# Notes\n\nquorvex restarts nightly at 02:00.\n\nquorvex runs twice.\n\nWe read the quorvex.\n",
     "quorvex", False),
    ("# Notes\n\nquorvex restarts nightly at 02:00.\n\nquorvex runs twice; all quorvexes do.\n", "quorvex", False),
    # before a dotted release: a product in lower case, unless two English words run together
    ("# Notes\n\n- moved the cluster to quorvex 23.11 last week\n", "quorvex", True),
    ("# Notes\n\n- they want hotfix 9.4.0 in first\n", "hotfix", False),
    # a call is code, not a name
    ("# Notes\n\nquorvex(x) is 2 at 02:00.\n\nquorvex(y) is 3 at 03:00.\n", "quorvex", False),
    # an English word in lower case is no name, nor one with an English ending
    ("# Notes\n\nlantern 2 went dark at 02:00.\n\nlantern 2 is back.\n", "lantern", False),
    ("# Notes\n\nfrobnication 2 went slow at 02:00.\n\nfrobnication 2 is back.\n", "frobnication", False),
])
def test_a_word_english_does_not_use_with_a_fact_gets_a_page(text, name, page):
    assert (name in entity_names(text)) is page


# -- an identifier with underscores ---------------------------------------------------------------------


@pytest.mark.parametrize("token, named", [
    ("vexmor_svc", True), ("quorvex_sync", True), ("GLINT_QRVX", True), ("QUEUE_FULL", False),
    # ordinary words, short words, two English words run together: a variable, not a name
    ("pool_size", False), ("max_client_version", False), ("wal_keep_size", False), ("stormpanel_admin", False),
])
def test_an_identifier_with_underscores_names_a_thing_by_a_word_of_its_own(token, named):
    assert wd.snake_name(token) is named


@pytest.mark.parametrize("text, name, page", [
    ("# Access\n\n- vexmor_svc expires 2026-11-30, ask Ana\n", "vexmor_svc", True),
    ("# Access\n\n- pool_size went 40 on 2026-01-02\n", "pool_size", False),
    # in a code span it is code, read by the code-span rules
    ("# Access\n\n- `vexmor_svc` expires 2026-11-30, ask Ana\n", "vexmor_svc", False),
])
def test_an_identifier_with_underscores_and_a_fact_gets_a_page(text, name, page):
    assert (name in entity_names(text)) is page


# -- an edition or a revision ---------------------------------------------------------------------------


@pytest.mark.parametrize("plain, name", [
    ("needs Quarrel Server 2024 minimum before the upgrade", "Quarrel Server 2024"),
    ("finished the duty-cycle patch for Quokka rev D, PR up", "Quokka rev D"),
    ("the spare is a Quokka revision 2 on the bench", "Quokka revision 2"),
])
def test_an_edition_or_revision_after_a_name_is_part_of_it(plain, name):
    ex = extract(f"# Notes\n\n- {plain}, due 2026-02-03\n")
    assert name in {e.name for e in ex.entities} | {e.name for e in ex.passing}


@pytest.mark.parametrize("text, name", [
    ("# Notes\n\nIn 2024 we moved the racks.\n", "In 2024"),
    ("# Notes\n\nWe moved Quarrel to May 2024 after the audit.\n", "May 2024"),
    # a year after one word dates it
    ("# Notes\n\n- contract for the Quarrel 2024 crop, 300kg, due 2026-02-03\n", "Quarrel 2024"),
    # a dotted release is a version of the name, not part of it
    ("# Notes\n\nThe batch hosts run Quarrel 16.2 since the upgrade on 2026-03-01.\n", "Quarrel 16.2"),
])
def test_a_year_after_a_sentence_start_or_a_month_is_no_edition(text, name):
    ex = extract(text)
    assert name not in {e.name for e in ex.entities} | {e.name for e in ex.passing}


def test_a_revision_alone_is_an_alias_of_the_name():
    ex = extract("# Notes\n\n- finished the patch for Quokka rev D on 2026-02-03, PR up\n")
    found = [e for e in [*ex.entities, *ex.passing] if e.name == "Quokka rev D"]
    assert found and "rev D" in found[0].aliases


# -- an acronym in the plural -----------------------------------------------------------------------------


def test_an_acronym_in_the_plural_heads_no_name():
    assert nm.name_like(nm.Span("B APs", 10, 15, False, "caps", ("B", "APs")), frozenset()) == (False, False)
    ex = extract("# Slack\n\nall zone B APs back on 6.6.65 at 15:16, walk the aisles please\n")
    assert "B APs" not in {e.name for e in ex.entities} | {e.name for e in ex.passing}
