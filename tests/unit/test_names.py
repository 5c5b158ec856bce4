"""Named things from evidence: word frequency instead of stop lists, shapes, typing nouns, and the
optional per-base profile (parsed fail-closed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.builtin.name_types import role_phrase
from kctui.compiler.builtin.profile import EMPTY, ProfileError, load_profile, parse_profile
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "2" * 64


def extract(text: str, profile=None):  # noqa: ANN001
    return extract_document(read_source("n.md", text.encode("utf-8"), DIGEST), profile)


@pytest.mark.parametrize("word,common", [("Context", True), ("Decision", True), ("team", True), ("Accurate", True),
                                         ("SQLite", False), ("PagerDuty", False), ("k8s", False), ("Datadog", False),
                                         ("Okafor", False)])
def test_common_words_by_frequency_not_by_list(word: str, common: bool) -> None:
    assert nm.common_word(word) is common


def test_titles_that_are_no_names() -> None:
    for title in ("Among team", "If team", "For team", "Accurate team", "A", "foo", "Consequences", "x"):
        assert not clean_title(title), title
    for title in ("Priya Raman", "billing-api", "SQLite", "Cody team", "Batch Changes"):
        assert clean_title(title), title
    assert nm.common_phrase("Action items") and nm.common_phrase("Detailed design") and not nm.common_phrase("Kafka topics")


def test_spans_a_sentence_marks_as_names() -> None:
    spans = {s.text: s for s in nm.plain_spans("Ask Priya Raman whether Tomás Okafor moved SQLite to k8s.")}
    assert {"Priya Raman", "Tomás Okafor", "SQLite", "k8s"} <= set(spans)
    assert "Ask" not in spans  # a capitalised first word is just a sentence start
    assert all(not s.at_start for s in spans.values())
    assert [s.text for s in nm.plain_spans("The Sourcegraph's Cloudflare account")] == ["Sourcegraph", "Cloudflare"]
    assert [s.text for s in nm.plain_spans("Use cases: Deploying services")] == ["Deploying"]
    assert nm.plain_spans("Use cases: Deploying services")[0].at_start  # after a label, a capital says nothing


def test_after_a_function_word_opening_a_sentence_the_capitals_are_the_texts_own() -> None:
    # "Your" is capitalised by its place; "Sentry Business" by the writer ("sentry" is an English word)
    assert [s.text for s in nm.plain_spans("Your Sentry Business plan renews on 2027-01-15.")] == ["Sentry Business"]
    # a given name that is an English word opens a person's name: its surname is no name of its own
    assert "Wu" not in {s.text for s in nm.plain_spans("Hannah Wu said the rev C batteries drain.")}
    assert nm.plain_spans("Check Status Page first.") == []  # an ordinary word opens an imperative: no name


def test_a_once_mentioned_capitalised_word_is_no_entity_but_a_recurring_one_is() -> None:
    once = extract("# Notes\n\nWe met Zorblat yesterday.\n")
    assert not once.entities
    twice = extract("# Notes\n\nWe met Zorblat yesterday. Later Zorblat sent the agenda.\n")
    assert [e.name for e in twice.entities] == ["Zorblat"]
    lowercase = extract("# Notes\n\nThe Handbook says so. The Handbook is old. Read the handbook first.\n")
    assert not lowercase.entities  # the document writes it as an ordinary word too


def test_a_release_number_marks_a_name_where_it_opens_a_sentence() -> None:
    """"Unleash" is an English word and opens the sentence, so its capital says nothing; the dotted
    version after it does (the fact then lands on its page). Ordinary words before a number do not."""
    notes = extract("# Vendors\n\nUnleash 5.12 was released on 2024-05-02.\n")
    assert [e.name for e in notes.entities] == ["Unleash"]
    assert [(c.subject, c.attribute, c.value, c.scope) for c in notes.claims if c.attribute == "release date"] == [
        ("Unleash", "release date", "2024-05-02", "5.12")]
    plain = extract("# Layout\n\nSection 2.1 explains the layout. Figure 3.2 shows it. Version 2.0 adds more.\n")
    assert not plain.entities and not plain.passing
    # two ordinary words before a release number, the subject of the sentence's verb, are a name;
    # ordinary words before a number that no verb follows are not
    two = extract("# Logs\n\nFluent Bit 2.2 drops lines under load.\n\nSee Section 2.1 for more. Read Chapter 3.1 first.\n")
    assert [e.name for e in two.entities] == ["Fluent Bit"]
    assert ("Fluent Bit", "version", "2.2") in [(c.subject, c.attribute, c.value) for c in two.claims]


def test_typed_by_the_noun_the_text_uses() -> None:
    ex = extract("# Ops\n\nThe billing-api service restarts nightly. Page the billing-api service owner.\n"
                 "Datadog, a monitoring vendor, alerts us. Datadog renews on 2026-09-30.\n")
    types = {e.name: e.entity_type for e in ex.entities}
    assert types["billing-api"] == "service" and types["Datadog"] == "company"
    renew = next(c for c in ex.claims if c.attribute == "renews on")
    assert (renew.subject, renew.value) == ("Datadog", "2026-09-30")
    described = next(c for c in ex.claims if c.subject == "Datadog" and c.attribute == "is")
    assert described.value == "a monitoring vendor"


def test_people_from_what_they_do_and_action_items() -> None:
    ex = extract("# Sync\n\n- Priya Raman: write the consumer by Friday\n- [ ] @lena rotate the token\n\n"
                 "Tomás Okafor said the cluster is full. Tomás Okafor will resize it.\n")
    types = {e.name: e.entity_type for e in ex.entities}
    assert types["Priya Raman"] == "person" and types["Tomás Okafor"] == "person" and types["lena"] == "person"
    todo = next(c for c in ex.claims if c.attribute == "to do")
    assert todo.subject == "lena" and todo.value == "@lena rotate the token"
    action = next(c for c in ex.claims if c.attribute == "action item")
    assert action.subject == "Priya Raman" and action.value.endswith("write the consumer by Friday")


def test_profile_names_and_ignored_terms(tmp_path: Path) -> None:
    profile = parse_profile('[[names]]\nname = "Billing API"\ntype = "service"\naliases = ["billing"]\n\n'
                            '[headings]\nignore = ["Parking lot"]\n')
    ex = extract("# Notes\n\nWe deploy Billing API on Fridays.\n\nA parking lot is a list of postponed topics.\n", profile)
    assert [(e.name, e.entity_type) for e in ex.entities] == [("Billing API", "service")]
    assert not ex.concepts
    without = extract("# Notes\n\nWe deploy Billing API on Fridays.\n\nA parking lot is a list of postponed topics.\n")
    assert [c.name for c in without.concepts] == ["parking lot"] and not without.entities
    assert load_profile(tmp_path) == EMPTY  # no file: the empty profile
    (tmp_path / ".a3s").mkdir()
    (tmp_path / ".a3s" / "profile.toml").write_text('[[names]]\nname = "X1"\n', encoding="utf-8")
    assert load_profile(tmp_path).names[0].name == "X1"


@pytest.mark.parametrize("text,message", [
    ("names = [", "not valid TOML"),
    ('colour = "red"', "unknown key 'colour'"),
    ("[[names]]\ntype = 'tool'", "needs a non-empty string `name`"),
    ("[[names]]\nname = 'a'\naliases = 'b'", "must be a list of strings"),
    ("[headings]\nignore = [1]", "must be a list of strings"),
    ("x" * (300 * 1024), "larger than"),
])
def test_a_bad_profile_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(ProfileError) as err:
        parse_profile(text)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_profile_symlink_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / ".a3s").mkdir()
    target = tmp_path / "elsewhere.toml"
    target.write_text('[[names]]\nname = "X"\n', encoding="utf-8")
    (tmp_path / ".a3s" / "profile.toml").symlink_to(target)
    with pytest.raises(ProfileError, match="symbolic link"):
        load_profile(tmp_path)


# -- names from the document's own usage (recall rules) ----------------------------------------------


def _span(text: str, at_start: bool = False, kind: str = "caps") -> nm.Span:
    return nm.Span(text, 0, len(text), at_start, kind, tuple(text.split()))


@pytest.mark.parametrize("text,lower,at_start,need,reason", [
    ("Linear", "we use it", False, 2, "a frequent word capitalised mid-sentence: two sentences make it a name"),
    ("React", "react to it", False, 0, "the document writes it in lower case: an ordinary word there"),
    ("Linear", "", True, 0, "a sentence start says nothing"),
    ("Engineering", "", False, 0, "very frequent (>= USAGE_MAX_ZIPF): stays an ordinary word"),
    ("Friday", "", False, 0, "English capitalises days by convention"),
    ("GCP", "", False, 2, "a recurring acronym, not an English word"),
    ("YYYY", "", False, 0, "a placeholder: repeated letters"),
    ("AWS", "", False, 2, "an acronym rarer in English than ACRONYM_COMMON_ZIPF names one thing"),
    ("API", "", False, 0, "an acronym as frequent as API or URL is generic vocabulary"),
    ("URL", "", False, 0, "an acronym as frequent as API or URL is generic vocabulary"),
    ("PR", "", False, 0, "two letters: a generic abbreviation"),
    ("NOTE", "", False, 0, "an ordinary word in lower case"),
    ("Kustomize", "run kustomize build", False, 2, "a rare word in lower case too is a command there"),
])
def test_usage_need(text, lower, at_start, need, reason):  # noqa: ANN001
    assert ug.usage_need(_span(text, at_start), ug.lower_words([lower])) == need, reason


def test_acronym_used_as_a_label_is_not_a_name():
    assert ug.usage_need(_span("TODO"), ug.lower_words(["TODO: fix this.", "later"])) == 0
    assert ug.usage_need(_span("TODO"), ug.lower_words(["see the list"])) == 2


def test_domains_and_paths_are_not_lower_case_uses():
    lower = ug.lower_words(["open cloud.google.com/run or /react/ now"])
    assert "google" not in lower and "react" not in lower and "open" in lower


@pytest.mark.parametrize("name,ok", [
    ("Eric Fritz", True), ("Noah Santschi-Cooney", True), ("Google Cloud", False), ("Pull Request", False),
    ("High Memory Usage", False), ("Support Engineer", False), ("the Team", False), ("MyType Foo", False),
])
def test_person_like(name, ok):  # noqa: ANN001
    assert nm.person_like(name) is ok


def test_usage_rules_end_to_end():
    ex = extract("# Tools\n\nWe track work in Linear every week.\n\nThe roadmap lives in Linear too.\n\n"
                 "Costs run on GCP here.\n\nThe backups are on GCP as well.\n\nTODO: check the Overview.\n")
    names = {e.name for e in ex.entities}
    assert {"Linear", "GCP"} <= names and not names & {"TODO", "Overview", "The"}


def test_list_of_people_and_glossary_opening():
    ex = extract("# Thanks\n\nThanks to Coury Zelinski, Ravindra Okonkwo, Yusuf Brandvold and Quilla Marsh for help.\n\n"
                 "Later Yusuf Brandvold fixed it.\n")
    assert {"Yusuf Brandvold"} <= {e.name for e in ex.entities if e.entity_type == "person"}
    ex = extract("# Glossary\n\n## name resolution\n\nThe process of deriving information about definitions.\n\n"
                 "Name resolution runs after parsing, and name resolution is slow.\n")
    assert any(c.subject == "name resolution" and c.attribute == "definition" for c in ex.claims)


@pytest.mark.parametrize("tokens,role,reason", [
    (("Support", "Engineers"), True, "the role noun heads the phrase"),
    (("Head", "of", "Engineering"), True, "a role of something"),
    (("Developer", "Infrastructure"), False, "named after a role, not one"),
    (("Marine", "Superintendent"), True, "a post, however rare its noun"),
    (("Data", "Coordinator"), True, "a post"),
    (("Counseling", "Leads"), True, "words English has before a role: a group of posts"),
    (("Site", "Principals"), True, "a group an email goes to"),
    (("GoGuardian", "Admin"), False, "a product's edition: a word English lacks before the role noun"),
    (("Alaris", "Systems", "Manager"), False, "a product named after a role"),
])
def test_role_phrase_needs_the_role_as_its_head(tokens, role, reason):  # noqa: ANN001
    assert role_phrase(tokens) is role, reason


def test_a_multiword_name_before_team_is_a_team_and_counts_at_a_sentence_start():
    ex = extract("# Teams\n\nWe work with the Language Platform team on parsers.\n\n"
                 "Language Platform aims to serve two users.\n")
    assert ("Language Platform", "team") in {(e.name, e.entity_type) for e in ex.entities}
    ex = extract("# Notes\n\nAccurate team work matters.\n\nFor team events, ask first.\n")
    assert not ex.entities  # "<word> team" at a sentence start names nothing


@pytest.mark.parametrize("text,lower,reason", [
    ("API", "Most APIs are small.", "the document counts them (APIs): a common noun"),
    ("Destructors", "a destructor runs", "the singular is written in lower case"),
    ("Settings", "open the setting", "the singular is written in lower case"),
])
def test_usage_rejects_common_nouns_in_other_forms(text, lower, reason):  # noqa: ANN001
    assert ug.usage_need(_span(text), ug.lower_words([lower])) == 0, reason


def test_usage_word_opening_a_heading_or_link_text_is_no_name():
    ex = extract("# Flakes\n\nSee the [Spotted a flake](#spotted-a-flake) part.\n\nThen read [Spotted a flake](#s) again.\n\n"
                 "## Spotted a flake\n\nRetry the build.\n")
    assert "Spotted" not in {e.name for e in ex.entities}


@pytest.mark.parametrize(("text", "spans"), [
    ("Was Niamh there?", ["Niamh"]),  # the question's verb is no part of the name
    ("I'm crying laughing. Did Tomás call?", ["Tomás"]),
    ("Was Niamh Okafor there?", ["Niamh Okafor"]),
    ("Daniel Micay on June 24", ["Daniel Micay", "Micay"]),  # a person's name may open a sentence (a date: no span)
])
def test_an_auxiliary_opening_a_question_is_no_part_of_the_name_after_it(text: str, spans: list[str]) -> None:
    assert [s.text for s in nm.plain_spans(text)] == spans


@pytest.mark.parametrize("text,spans", [
    ("move BP clients to Defender for Business as their ESET term ends.", ["BP", "Defender for Business", "ESET"]),
    ("- Untappd for Business — £480/yr, Marta", ["Untappd for Business", "Marta"]),
    ("we pay Microsoft for Business Premium now", ["Microsoft", "Business Premium"]),  # two names: the run goes on
    ("ask Jira for Monday", ["Jira", "Monday"]),  # a day is no market
    ("ask Jira for Grafana", ["Jira", "Grafana"]),  # two names: no ordinary word closes the run
    ("donated by Harlan & Moss LLP. Ollie", ["Harlan & Moss LLP", "Ollie"]),  # a company suffix closes the firm
    ("so far: Bayview 11/11 ok, Grind & Co 6/8", ["Bayview", "Grind & Co"]),  # a company's mark
    ("1:1s with Tomasz & Ines on Thu", ["Tomasz", "Ines"]),  # two people: no firm's mark
    # two capitalised words English has around "&", in a run not all of ordinary words: a firm or a product
    ("a quote from Ardent Fire & Security for comparison", ["Ardent Fire & Security"]),
    ("- Consulted: Kite & Key (Ollie), Jo Kowalczyk", ["Consulted", "Kite & Key", "Ollie", "Jo Kowalczyk"]),
    ("Kite & Key have run Cantaloupe for 2 other clients", ["Kite & Key", "Cantaloupe"]),
    ("cabling by (Coastline Data & Electrical) last week", ["Coastline Data & Electrical"]),
    ("we back up with Veeam Backup & Replication nightly", ["Veeam Backup & Replication"]),
    ("The Kite & Key team", ["Kite & Key"]),  # a function word opening the sentence is no part of it
    ("## Platform & Infrastructure", ["Infrastructure"]),  # ordinary words only: a heading, not a firm
    ("ask Kofi & Priya first", ["Kofi", "Priya"]),  # given names English does not have: two people
])
def test_a_name_joined_inside_by_for_or_ampersand(text: str, spans: list[str]) -> None:
    assert [s.text for s in nm.plain_spans(text)] == spans


@pytest.mark.parametrize("text,spans", [
    ("Castlegate quote for Milestone Care Plus (XProtect Professional+, 96 channels)",
     ["Castlegate", "Milestone Care Plus", "XProtect Professional+"]),  # an edition's "+" ends the name
    ("we moved to Dagster+ in May", ["Dagster+", "May"]),
    ("SEV2+ pages go to Ravi", ["SEV2", "Ravi"]),  # after a digit, "+" says "or more"
    ("we still use C++ here", ["C++"]),
    ("the move to Dagster+. Then more", ["Dagster+"]),  # a full stop after it ends the sentence
])
def test_a_plus_glued_to_a_capitalised_word_is_part_of_the_name(text: str, spans: list[str]) -> None:
    assert [s.text for s in nm.plain_spans(text)] == spans


@pytest.mark.parametrize("name,person", [
    ("Site Principals", False), ("Counseling Leads", False), ("Site Registrars", False),  # groups of posts
    ("Tom Owens", True), ("Jen Alvarez", True), ("Grace Park", True),
])
def test_a_role_in_the_plural_in_an_email_header_is_no_person(name: str, person: bool) -> None:
    from kctui.compiler.builtin.name_types import person_like

    assert person_like(name, placed=True) is person
