"""Issue 31: people by the place a note gives them (kctui.compiler.builtin.roster): a roster of lines
that open with a name ("ilse - …", "Quen: …"), a `Label: A, B, C` list of names, a bold line with a name.
Names and phrasings are our own, not the notes corpus's."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.roster import roster_names
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "7" * 64


def doc(text: str):  # noqa: ANN201
    return read_source("notes/n.md", text.encode("utf-8"), DIGEST)


def names(text: str) -> list[str]:
    return [n.name for n in roster_names(doc(text))]


@pytest.mark.parametrize("text, wanted", [
    # a roster in lower case: half its words are no English words
    ("standup 3/4\n\nilse - rebasing the invoice exporter\nbo - on leave\nquen - pairing with ilse\n",
     ["ilse", "bo", "quen"]),
    # action items that open with a name, one of them twice
    ("# Sync\n\nActions:\n- Quen — order the rack by Friday\n- Ilse — write it up\n- Quen — book the van\n",
     ["Quen", "Ilse"]),
    # a list of names after a label and the same name opening an action item
    ("# Weekly\n\nPresent: Ilse, Dev, Quen, Bo\n\nActions\n- Dev: book the patch slot by Wed\n", ["Dev"]),
    # a bold line that is a name and the same name in the list of attendees
    ("# Weekly\n\nPresent: Ilse, Dev, Quen, Bo\n\n**Quen**\n- wrote the parser\n", ["Quen"]),
])
def test_the_places_a_note_keeps_for_people_name_them(text, wanted):
    assert names(text) == wanted


@pytest.mark.parametrize("text", [
    # steps of a runbook open with ordinary words
    "# Runbook\n\n- check - the disk is mounted\n- restart - the daemon\n- verify - the logs are clean\n",
    # fields of a record: after a colon, a value in capitals
    "# DR-1\n\nStatus: Accepted\nDate: 2026-01-02\nOwner: Quen\n",
    # levels of a policy: ordinary words, one rare one
    "# Policy\n\n- Critical: data is lost\n- High: data may leak\n- Medium: an outage\n- Informational: nothing\n",
    # a glossary's terms in bold
    "# Hiring\n\n- **Grit** - do they finish\n- **Learnability** - do they learn\n",
    # a frequent word in a bold line and opening lines
    "# Playbook\n\n**Yes**\n\nYes: apply the fix.\n",
])
def test_steps_fields_levels_and_glossaries_name_nobody(text):
    assert names(text) == []


def test_a_roster_name_gets_a_page_with_its_line_however_common_its_word():
    text = "standup 3/4\n\nben - canning the pale ale tues, 40hl\nilse - on leave\nquen - pairing with ben\n"
    ex = extract_document(doc(text))
    assert "ben" in {e.name for e in ex.entities}
    assert any(c.subject == "ben" and c.value.startswith("ben - canning") for c in ex.claims)


def test_a_line_that_opens_with_a_word_and_a_dash_is_a_sentence_of_its_own():
    from kctui.compiler.builtin import sentences

    text = "standup 3/4\n\nben - canning the pale ale tues\nilse - on leave\n"
    assert [u.plain for u in sentences.units(doc(text))][-2:] == ["ben - canning the pale ale tues", "ilse - on leave"]


# -- session 12: names among names, columns of names, the people of an email's header ----------------


@pytest.mark.parametrize("text, wanted", [
    # a roster of given names, some of them frequent English words: mostly names, so all are
    ("# Team\n\n- Quen — billing\n- Rose — the web app\n- Fiona — data\n- Mark — infra\n- Ilse — support\n",
     ["Quen", "Rose", "Fiona", "Mark", "Ilse"]),
    # action items with a checkbox open with their owner's name
    ("# Sync\n\n- [ ] Quen — order the rack\n- [ ] Rose — book the van\n- [x] Ilse — write it up\n",
     ["Quen", "Rose", "Ilse"]),
    # a list of names mostly rare: its frequent given names, in a second place, are names too
    ("# Standup\n\nPresent: Quen, Rose, Ilse, Bo\n\n**Rose**\n- shipped the app\n\n**Quen**\n- on leave\n",
     ["Quen", "Rose"]),
    # a full name among a list's names does not spoil it, and is a person's
    ("# Weekly\n\nattendees: Quen (chair), Ilse, Bo, Dorotea Vasquez\n\n**Ilse**\n- fixed it\n",
     ["Ilse", "Dorotea Vasquez"]),
    # a lower-case word among a capitalised roster is no member
    ("# Notes\n\n- price: up to £9\n- Quen: the flag is in config\n- Ilse: an email to users\n", ["Quen", "Ilse"]),
])
def test_among_names_a_frequent_given_name_is_a_name(text, wanted):
    assert names(text) == wanted


@pytest.mark.parametrize("text", [
    # a roster of ordinary words, a few of them rarer
    "# Levels\n\n- Critical — data is lost\n- Major — data may leak\n- Minor — cosmetic\n- Trivial — nothing\n",
    # a list of ordinary capitalised words
    "# Stack\n\nTags: Kitchen, Garden, Mobile, Data\n\n**Mobile**\n- the app\n",
    # a roster only half of whose words are uncommon and none unknown to English
    "# Plan\n\n- Rose: water the beds\n- Grace: a late fee\n- Check: the pump\n- Hope: rain\n",
])
def test_ordinary_words_stay_ordinary_among_few_names(text):
    assert names(text) == []


@pytest.mark.parametrize("text, wanted", [
    # an owner column of given names, some frequent words
    ("# Vendors\n\n| vendor | cost | owner |\n|---|---|---|\n| Zorbo | £9 | Rose |\n| Quenta | £5 | Ilse |\n"
     "| Brisk | £1 | Quen |\n| Moxa | — | Rose |\n", ["Ilse", "Quen", "Rose"]),
    # full names and given names with an aside in one column
    ("# Vendors\n\n| vendor | contact |\n|---|---|\n| Zorbo | Steve (account mgr) |\n| Quenta | Dorotea Vasquez |\n"
     "| Brisk | Ilse |\n| Moxa | — |\n", ["Dorotea Vasquez", "Ilse", "Steve"]),
])
def test_a_column_of_names_names_its_people(text, wanted):
    assert sorted(names(text)) == wanted


@pytest.mark.parametrize("text", [
    # a column of plans, of statuses: ordinary words
    "# Vendors\n\n| vendor | plan |\n|---|---|\n| Zorbo | Enterprise |\n| Quenta | Standard |\n| Brisk | Growth |\n"
    "| Moxa | Business |\n",
    "# Tasks\n\n| task | status |\n|---|---|\n| a | Done |\n| b | Blocked |\n| c | Open |\n| d | Done |\n",
])
def test_a_column_of_ordinary_words_names_nobody(text):
    assert names(text) == []


def test_an_email_header_and_an_address_name_people_and_a_given_name_stands_for_its_person():
    text = ("From: Mark Quenby <mark.q@example.org>\nTo: Dorotea Vasquez\n**Cc:** Ilse Brandt (Finance), Bo Tran\n"
            "Subject: renewal\n\nHi Dorotea,\n\nthe quote is £9/mo, renews 1 Jan 2027.\n\nThanks,\nMark\n")
    found = roster_names(doc(text))
    assert [n.name for n in found] == ["Mark Quenby", "Dorotea Vasquez", "Ilse Brandt", "Bo Tran"]
    assert all(n.entity_type == "person" for n in found)
    assert found[0].aliases == ("Mark",)
    ex = extract_document(doc(text))
    assert {"Mark Quenby", "Dorotea Vasquez"} <= {e.name for e in ex.entities}


def test_a_frequent_given_name_is_found_only_as_the_note_capitalises_it():
    text = "# Team\n\n- Quen — billing\n- Grace — the web app\n- Ilse — data\n\nThe grace period ends Friday.\n"
    ex = extract_document(doc(text))
    grace = [c for c in ex.claims if c.subject == "Grace"]
    assert grace and not any("grace period" in c.value for c in grace)


def test_a_longer_name_opening_a_line_keeps_the_roster_going_without_joining_it():
    text = ("# Vendors\n\n- Zorbo — £9/mo, owner: Ilse\n- Quenta (billing) — £5/mo\n- Acme Forge Pro — £1/mo\n"
            "- Square — the till, cancel in June\n- Brisk — free plan\n")
    assert names(text) == ["Zorbo", "Quenta", "Square", "Brisk"]


def test_a_given_name_a_roster_declares_stands_for_the_one_full_name_of_the_note_it_begins():
    text = ("# Sync\n\nattendees: Quen (chair), Ilse, Rose Abernathy-Vail, Bo\n\n"
            "- [ ] Quen — order the rack\n- [ ] Rose — book the van\n- [ ] Ilse — write it up\n")
    found = roster_names(doc(text))
    assert [n.name for n in found] == ["Ilse", "Quen", "Rose Abernathy-Vail"]
    assert found[-1].aliases == ("Rose",) and found[-1].entity_type == "person"


def test_a_list_of_full_names_wrapped_onto_the_next_line_names_each_person():
    text = ("# Ops review\n\nAttendees: Quen Ashby, Ilse Brandt (site lead), Rose Vail (Dunmore site mgr),\n"
            "Bo Tran (finance). Apologies: Dev (on leave)\n\n- Bo: budget approved at £96k\n")
    found = roster_names(doc(text))
    assert [n.name for n in found] == ["Quen Ashby", "Ilse Brandt", "Rose Vail", "Bo Tran"]
    assert found[-1].aliases == ("Bo",)  # "Bo: budget approved" is Bo Tran's line
    ex = extract_document(doc(text))
    assert {"Quen Ashby", "Ilse Brandt", "Rose Vail", "Bo Tran"} <= {e.name for e in ex.entities}
    assert "Dev" not in {n.name for n in found}  # another label's name, after the list's sentence ends


def test_a_standup_written_in_lower_case_names_its_people_by_the_list_and_the_bold_lines():
    text = ("# standup mon 29/9\n\npresent: ilse, tom, quen, bo (late)\n\n**tom**\n- y: bumped the fleet\n\n"
            "**quen**\n- t: profiling the queue\n")
    assert sorted(names(text)) == ["quen", "tom"]  # in the list and over their own items
    assert names("# shopping\n\nbuy: milk, bread, eggs, tea\n\n**milk**\n- oat\n") == []  # English words: no list of names


def test_a_longer_label_before_a_list_of_full_names_types_them_as_people():
    text = "# Platform team\n\nAttendees of the quarterly: Quen Ashby (lead), Ilse Brandt (SRE), Rose Vail\n"
    ex = extract_document(doc(text))
    assert {e.name: e.entity_type for e in ex.entities} == {"Quen Ashby": "person", "Ilse Brandt": "person",
                                                           "Rose Vail": "person"}


def test_a_title_before_a_full_name_in_a_list_keeps_the_list_a_list_of_people():
    found = roster_names(doc("# Sync\n\nAttendees: Quen Ashby, Capt. Ilse Brandt, Rose Vail\n"))
    assert [n.name for n in found] == ["Quen Ashby", "Ilse Brandt", "Rose Vail"]


def test_two_full_names_after_a_label_are_a_list_of_people_but_two_other_things_are_not():
    text = "# ADR 4: queue\n\nStatus: accepted\nDeciders: Quen Ashby, Ilse Brandt\n\nWe chose the broker.\n"
    assert names(text) == ["Quen Ashby", "Ilse Brandt"]
    ex = extract_document(doc(text))
    assert {"Quen Ashby", "Ilse Brandt"} <= {e.name for e in ex.entities if e.entity_type == "person"}
    assert names("# Stack\n\nBrokers: Redis Streams, Apache Kafka\n") == []  # no person's shape
    assert names("# Sync\n\nSites: Quen Ashby\n") == []  # one name is no list (a role's field is: below)


def test_a_given_name_and_an_initial_among_full_names_keeps_the_list_of_names_one():
    text = "# Peak review\n\nAttendees: Quen Ashby (chair), Ilse Brandt, Rose V., Bo Tran\n\n- Ilse: book the van\n"
    found = roster_names(doc(text))
    assert [n.name for n in found] == ["Quen Ashby", "Ilse Brandt", "Bo Tran"]  # "Rose V." no further
    people = {e.name for e in extract_document(doc(text)).entities if e.entity_type == "person"}
    assert {"Quen Ashby", "Ilse Brandt", "Bo Tran"} <= people


@pytest.mark.parametrize("text, wanted", [
    ("# ADR 9\n\nOwner: Rafael Quenby (warehouse systems)\n\nWe chose the broker.\n", ["Rafael Quenby"]),
    ("# Vendors\n\n- **Account manager:** Ilse Brandt\n- renews 1 May\n", ["Ilse Brandt"]),
    ("# Runbook\n\nTech lead: Dorotea Vasquez.\n", ["Dorotea Vasquez"]),
    # not a role's label, not one full name, not a person's shape
    ("# Site\n\nSite: Kings Meadow\n", []),
    ("# Sync\n\nOwner: Payments Team\n", []),
    ("# Sync\n\nOwner: Rafael Quenby and Bo Tran\n", []),
    ("# Sync\n\nOwner: Data Platform\n", []),
])
def test_a_field_of_one_person_names_them(text, wanted):
    found = roster_names(doc(text))
    assert [n.name for n in found] == wanted
    assert all(n.entity_type == "person" for n in found)


def test_a_role_field_gives_its_person_a_page_with_the_role_on_one_mention():
    ex = extract_document(doc("# ADR 9: broker\n\nOwner: Rafael Costa (warehouse systems)\n\nWe chose the broker.\n"))
    assert {"Rafael Costa": "person"}.items() <= {e.name: e.entity_type for e in ex.entities}.items()
    assert any(c.subject == "Rafael Costa" and c.attribute == "role" and c.value == "Owner" for c in ex.claims)


def test_an_email_header_names_people_however_common_their_names_words():
    text = "From: Marcus Bell (Corporate IT)\nTo: Grace Park\nSubject: PCs\n\nHi Grace, the price is 5 GBP.\n"
    assert names(text) == ["Marcus Bell", "Grace Park"]
    ex = extract_document(doc(text))
    assert {"Marcus Bell", "Grace Park"} <= {e.name for e in ex.entities}
    # a greeting's name followed by a clause is no apposition: Grace is not "the price is 5 GBP"
    assert not any(c.subject == "Grace Park" and c.attribute == "is" for c in ex.claims)


@pytest.mark.parametrize("text, wanted", [
    # a bold line with an aside on that person's day still heads their part; a name ending in -s is a name
    ("# Standup\n\n**Ilse**\n- wrote the parser\n\n**Quen**\n- on the rota\n\n**Tobias** (out until Wed)\n",
     ["Ilse", "Quen", "Tobias"]),
    # a plural whose singular English knows heads a section, not a person
    ("# Standup\n\n**Ilse**\n- wrote the parser\n\n**Quen**\n- on the rota\n\n**Blockers**\n- none\n",
     ["Ilse", "Quen"]),
])
def test_bold_lines_head_a_persons_part(text, wanted):
    assert names(text) == wanted


@pytest.mark.parametrize("line, action", [
    ("- Quenby: book the van by Friday", True),
    ("- Quenby: to book the van", True),
    ("- Quenby: we're at 14 seats, contract allows 15", False),  # a statement of it, opening with a pronoun
    ("- Quenby: renews on 3 March, $79/month", False),  # a verb's third person: what it does
    ("- Quenby: it still pages twice", False),
])
def test_a_name_and_a_colon_open_an_action_item_only_before_a_task(line, action):
    text = f"# Sync\n\n{line}\n- Ilse: write it up\n- Bo: order the rack\n"
    ex = extract_document(doc(text))
    assert any(c.attribute == "action item" and c.subject == "Quenby" for c in ex.claims) is action
