"""Where a word written in lower case stands as a name (kctui.compiler.steps.name_position): by its
place in the statement, never by the word."""

from __future__ import annotations

import pytest

from kctui.compiler.steps.name_position import lower_case_source, name_position


@pytest.mark.parametrize(("text", "word", "placed"), [
    # alone in a slot: a list, a cell, a label's value, brackets, a bold line
    ("deciders: dana, kim, gerald fenn (clerk)", "kim", True),
    ("2 | get new escalation contact | kim | 9 oct", "kim", True),
    ("owner overall: kim. gerald fenn = clerk", "kim", True),
    ("status: final (kim, 9 oct). blameless", "kim", True),
    ("load test, 20k VUs (kim) — 21 oct", "kim", True),
    ("**kim**", "kim", True),
    ("kim", "kim", True),
    ("kim: load test results page wed", "kim", True),
    ("- rob (me) — PM/ops, harvest, rotas", "rob", True),
    # joined to another name
    ("dana: approve OT for kim + luis for 3 nov", "kim", True),
    ("tom / tomasz (infra, gs fleet, CDN)", "tom", True),
    # after a preposition that takes a person
    ("kim to raise w/ tom", "tom", True),
    ("last edited by tom, oct 2026", "tom", True),
    ("ping @kim when it lands", "kim", True),
    # possessive
    ("tom's notes (internal, not sent):", "tom", True),
    # the subject of its clause, followed by a verb's inflected form, "to" + a word, or an auxiliary
    ("go with option 3. kim owns the generator script.", "kim", True),
    ("09:55 kim confirms 502 from outside", "kim", True),
    ("PermitTrack acct only for planning. kim creates, needs Lena's ok", "kim", True),
    ("kim to raise w/ tom", "kim", True),
    ("static page from the CSV. kim has a script.", "kim", True),
    ("tom pushed for gamelift, we said no", "tom", True),
    # the word in its other sense
    ("will check the logs tomorrow", "will", False),
    ("we will pass the audit", "will", False),
    ("it will focus on the API", "will", False),
    ("will need a new cert", "will", False),
    ("- will always page the on-call", "will", False),
    ("the bill is due friday", "bill", False),
    ("mark as done when merged", "mark", False),
    ("max 3 retries per job", "max", False),
    ("set max connections to 100", "max", False),
    ("the ben nevis trip", "ben", False),
    ("rob notes:", "rob", False),  # a lead line's label, not a clause
    ("hope that's ok", "hope", False),  # a contraction is no verb
    ("chase thurs 29th", "chase", False),  # a day is no verb
    ("kim on the night, raj backup", "kim", False),  # (no verb: missed)
])
def test_a_lower_case_word_stands_as_a_name_by_its_place(text: str, word: str, placed: bool) -> None:
    start = text.index(word) if not text.startswith("kim to raise w/ tom") or word == "kim" else text.rindex(word)
    assert name_position(text, start, start + len(word)) is placed


@pytest.mark.parametrize(("text", "word", "placed"), [
    ("confirmed w/ tom", "tom", True),
    ("retry with max 3 attempts", "max", False),
    ("raise it from max 10 to 20", "max", False),
])
def test_a_preposition_that_takes_a_person_places_a_name(text: str, word: str, placed: bool) -> None:
    start = text.index(word)
    assert name_position(text, start, start + len(word)) is placed


@pytest.mark.parametrize(("text", "word", "placed"), [
    ("random: owen's dog got into the bin", "owen", True),
    ("tom's notes (internal, not sent):", "tom", True),
    ("a poor man's implementation", "man", False),  # ("man" of a roster's "Manish": an adjective before it)
])
def test_a_possessive_opening_its_clause_places_a_name(text: str, word: str, placed: bool) -> None:
    start = text.index(word)
    assert name_position(text, start, start + len(word)) is placed


@pytest.mark.parametrize(("texts", "lowered"), [
    (["ceph on the cluster upgraded", "- restore test still running", "Fine otherwise", "**tom** 09:20 yeah it's bad"], True),
    (["Ceph on the cluster upgraded.", "Restore test still running.", "fine otherwise"], False),
    (["**Alan Pryce** 09:12 morning all", "**Tom** 09:20 yeah it's bad", "**Alan Pryce** 09:25 ok thanks"], True),
    (["ok", "done"], False),  # too few to say
])
def test_a_source_is_written_in_lower_case_when_most_of_its_statements_open_so(texts: list[str], lowered: bool) -> None:
    assert lower_case_source(texts) is lowered


def test_a_one_word_name_of_a_person_is_found_in_lower_case_in_a_source_written_so() -> None:
    from kctui.compiler.steps.name_finder import NameFinder
    finder = NameFinder({"marcus-bell": ["Marcus Bell", "Marcus"]}, {"marcus-bell": ["Marcus"]})
    assert finder.find("marcus out fri 1/16 afternoon (dentist)", lowered=True) == {"marcus-bell"}
    assert finder.find("send the serial to marcus, he logs it", lowered=True) == {"marcus-bell"}
    assert finder.find("marcus out fri 1/16 afternoon (dentist)") == set()  # a note that capitalises names
    chase = NameFinder({"chase-lee": ["Chase Lee", "Chase"]}, {"chase-lee": ["Chase"]})
    assert chase.find("chase the quote from cdw", lowered=True) == set()  # a verb before a determiner
    assert chase.find("chase is off fri", lowered=True) == {"chase-lee"}
