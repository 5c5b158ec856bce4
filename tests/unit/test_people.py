"""The people rule (kctui.compiler.steps.people): which one-word name stands for which one person of a
base, table-tested as a pure function of the base's people."""

from __future__ import annotations

import pytest

from kctui.compiler.extraction import Entity
from kctui.compiler.steps.people import counted, fold_map, foldable, mention_forms, stands_for
from kctui.core.claims import Evidence

PEOPLE = ["Tomasz Wójcik", "Adeola Bankole", "Ingrid Solberg", "Mo Rahman"]


@pytest.mark.parametrize(("word", "people", "person"), [
    ("Tomasz", PEOPLE, "Tomasz Wójcik"),  # the given name
    ("Tom", PEOPLE, "Tomasz Wójcik"),  # a short form of it: a prefix of three letters or more
    ("tom", PEOPLE, "Tomasz Wójcik"),  # in any case: notes write "tom"
    ("TOMASZ", PEOPLE, "Tomasz Wójcik"),
    ("Ade", PEOPLE, "Adeola Bankole"),
    ("Solberg", PEOPLE, "Ingrid Solberg"),  # the surname
    ("wójcik", PEOPLE, "Tomasz Wójcik"),
    ("Mo", PEOPLE, "Mo Rahman"),  # a short given name is a given name
    ("To", PEOPLE, None),  # two letters are no short form
    ("Sol", PEOPLE, None),  # a surname has no short forms
    ("Tomaszek", PEOPLE, None),  # longer than the given name
    ("Ravi", PEOPLE, None),  # nobody's
    ("Tom", [*PEOPLE, "Tom Ashby"], None),  # two Toms: no one
    ("Tom", [*PEOPLE, "Tomasz Nowak"], None),
    ("Solberg", [*PEOPLE, "Kari Solberg"], None),
    ("Bankole", [*PEOPLE, "Bankole Ali"], None),  # one's surname, another's given name
    ("Rahman", PEOPLE, None),  # a surname English knows as a word stands for no one alone
    ("Slack", [*PEOPLE, "Quinn Slack"], None),  # the chat tool, not Quinn Slack
    ("Quinn", [*PEOPLE, "Quinn Slack"], "Quinn Slack"),
    ("Tomasz", ["Tomasz Wójcik", "tomasz wójcik"], "Tomasz Wójcik"),  # one person, however spelled
    ("Tom", ["Tomasz"], None),  # a full name has two or three words
    ("Tom", ["Tomasz Maria de Wójcik"], None),
    ("Tom Ashby", PEOPLE, None),  # one word only
])
def test_a_one_word_name_stands_for_the_one_person_it_names(word: str, people: list[str], person: str | None) -> None:
    assert stands_for(word, people) == person


@pytest.mark.parametrize("word", ["Tomasz", "tom", "Toma", "ade", "Solberg", "Mo", "Ingr", "Sol", "Ravi", "To", "Rahman"])
@pytest.mark.parametrize("people", [PEOPLE, [*PEOPLE, "Tom Ashby", "Rahman Ali"]])
def test_the_fold_map_is_stands_for_for_every_word_at_once(word: str, people: list[str]) -> None:
    assert fold_map(people).get(word.casefold()) == stands_for(word, people)


def _entity(name: str, etype: str = "") -> Entity:
    return Entity(name, etype, name, (), Evidence("a.md", 1, 1, "sha256:1"))


@pytest.mark.parametrize(("name", "etype", "defined", "ok"), [
    ("Tom", "", set(), True),
    ("tom", "person", set(), True),
    ("Kafka", "tool", set(), False),  # its source types it as a thing: its own page
    ("Trakline", "company", set(), False),
    ("Kafka", "", {"kafka"}, False),  # a term its source defines
    ("Tom Ashby", "person", set(), False),  # a full name is no short form
    ("etl-01", "", set(), False),  # an identifier
    ("O'Brien", "", set(), True),
])
def test_a_one_word_entity_may_stand_for_a_person_unless_its_source_makes_it_a_thing(
        name: str, etype: str, defined: set[str], ok: bool) -> None:
    assert foldable(_entity(name, etype), defined) is ok


def test_the_mention_step_finds_a_persons_page_by_the_names_that_stand_for_them() -> None:
    fold = fold_map(["Tomasz Wójcik", "Marco Junger"])
    forms = mention_forms(fold, {"tomasz-wójcik": "Tomasz Wójcik", "kafka": "Kafka"},
                          {"tomasz-wójcik": ["Tomasz Wójcik", "tom"], "wojcik-gmbh": ["Wójcik"]})
    assert forms == {"tomasz-wójcik": ["Tom", "Toma", "Tomas", "Tomasz"]}  # "Wójcik" is another page's name
    # a page not standing gets none; a word of the calendar is no one's name ("Mar", "Jun" of Marco Junger)
    assert mention_forms(fold, {"marco-junger": "Marco Junger"}, {}) == {
        "marco-junger": ["Junger", "Marc", "Marco"]}


@pytest.mark.parametrize(("records", "names", "people"), [
    # people in company count as they did
    ([["Ngozi Eze", "Priya Raman"]], [], {"Ngozi Eze", "Priya Raman"}),
    # one full name alone: a person when its given name is a name of the base alone
    ([["Ngozi Eze"], []], ["Ngozi Eze", "Ngozi", "Lars"], {"Ngozi Eze"}),
    ([["Ngozi Eze"]], ["Ngozi Eze", "Lars"], set()),  # no "Ngozi" alone: maybe a product's name
    ([["Debian LTS"]], ["Debian LTS", "Debian"], set()),  # not shaped as a person's word by word
    # a brand's word opens several names of the base: "Cloudflare" is no given name
    ([["Cloudflare Analytics"]], ["Cloudflare Analytics", "Cloudflare WAF", "Cloudflare"], set()),
    ([["Kofi Mensah"], ["Kofi Annan"]], ["Kofi Mensah", "Kofi Annan", "Kofi"], set()),  # (two Kofis: no one's)
])
def test_a_full_name_alone_is_a_persons_when_the_base_calls_them_by_their_given_name(
        records: list[list[str]], names: list[str], people: set[str]) -> None:
    assert counted(records, names) == people


@pytest.mark.parametrize("name,entity_type,person", [
    ("Marcus Bell", "person", True),  # ordinary words, typed a person by its source (a chat's speaker)
    ("Grace Park", "person", True),
    ("Priya Raman", "person", True),
    ("Marcus Bell", "", False),  # untyped: ordinary words say nothing
    ("Megan Fitch", "", True),  # untyped, a given name English knows and a surname, among typed people
    ("Confluent Cloud", "", False),  # a brand's word English does not know opens a product's name
    ("Oracle Simphony Cloud", "", False),  # untyped, three words: a product's more often than a person's
    ("Megan Fitch", "tool", False),  # typed as something else by its source
    ("Support Team", "person", False),  # a type word
])
def test_the_people_a_source_names_are_those_it_types_so(name: str, entity_type: str, person: bool) -> None:
    from kctui.compiler.extraction import Extraction
    from kctui.compiler.steps.people import people_of

    def entity(n: str, t: str) -> Entity:
        return Entity(n, t, n, (), Evidence("n.md", 1, 1, "sha256:1"))
    typed = [entity("Tomás Reyes", "person"), entity("Jen Okafor", "person")]
    ex = Extraction("n.md", "sha256:x", "markdown", "n", "note", "general", entities=[*typed, entity(name, entity_type)])
    assert (name in people_of(ex)) is person
    alone = Extraction("n.md", "sha256:x", "markdown", "n", "note", "general", entities=[entity(name, entity_type)])
    assert (name in people_of(alone)) is (person and entity_type == "person")  # (untyped: only in a source of people)
