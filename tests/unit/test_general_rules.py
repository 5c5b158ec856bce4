"""Rules that must hold on documents nobody tuned the extractor for: no page is titled by one ordinary
word the text merely quotes or lists, acronyms the text counts ("an RFC", "this PR") are kinds of thing
and not names, and names the text marks by their shape (crates.io, pkg-config, C++, UTF-8) get a page
when they recur. Each rule has a positive and a negative table."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin import usage as ug
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.builtin.name_checks import name_like
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "3" * 64


def extract(text: str, path: str = "notes/n.md"):  # noqa: ANN201
    return extract_document(read_source(path, text.encode("utf-8"), DIGEST))


def titles(text: str) -> tuple[set[str], set[str]]:
    ex = extract(text)
    return {c.name for c in ex.concepts}, {e.name for e in ex.entities}


# -- one ordinary word is no term unless the text defines it in so many words --------------------------


@pytest.mark.parametrize("text, term", [
    # a code span or quotes around one ordinary word mark a literal of code, a field, an option value
    ("Each span has attributes.\n\n- `name` denotes an identifying string for the span.\n"
     "- `environment` denotes the deploy environment the span is related to.\n", "name"),
    ("Each span has attributes.\n\n- `name` denotes an identifying string for the span.\n"
     "- `environment` denotes the deploy environment the span is related to.\n", "environment"),
    # a code-span glossary of ordinary words: the values of a setting, not terms
    ("Scopes:\n\n- `read`: allowed to read resources from the service\n"
     "- `write`: allowed to create or make updates to the resources of the service\n\n"
     "A token with both read and write scopes can change any resource.\n", "read"),
    ("Scopes:\n\n- `read`: allowed to read resources from the service\n"
     "- `write`: allowed to create or make updates to the resources of the service\n\n"
     "A token with both read and write scopes can change any resource.\n", "write"),
    ("- `language`: a context-free language over the tokens.\n- `token`: an atomic element of a matcher.\n\n"
     "Each language here is small.\n", "language"),
    # a marked common word before "means"
    ("Here, the notation `'static` means all borrowed content outlives the program.\n", "static"),
    ('In this file, "standard" refers to the default agents that run every build.\n', "standard"),
    # a comparison is no definition
    ("`peek` is a more clear name than `top`, and is already used elsewhere.\n", "peek"),
    ("The `swap` verb is a better name than `exchange` for this.\n", "swap"),
])
def test_no_concept_for_one_common_word_or_a_comparison(text: str, term: str) -> None:
    concepts, entities = titles(text)
    assert term not in {c.strip("`'") for c in concepts | entities}, (concepts, entities)


@pytest.mark.parametrize("text, term", [
    # the generic definition "A/An X is …" defines even an ordinary word
    ("An incident is any unplanned event that causes a service disruption.\n", "incident"),
    ("A stream is a smaller set of members from within the wider team.\n", "stream"),
    # a code-span glossary of two or more items defines its terms (rare words)
    ("## Terms\n\n- `matcher`: the left-hand side of a rule in a grammar.\n- `token`: an atomic element of a matcher.\n",
     "matcher"),
    # a marked term that is not an ordinary word still counts after "means" / "refers to"
    ('In this document, the "syntax environment" refers to the set of names a macro can see.\n', "syntax environment"),
])
def test_definitions_that_still_define(text: str, term: str) -> None:
    concepts, entities = titles(text)
    assert term in concepts | entities, (concepts, entities)


@pytest.mark.parametrize("item", [
    "- **Priya**: scratch purge announcement went out this morning, finally",
    "- **Felix**: on call this week, quiet so far",
    "- **Deepa**: parser canary since yesterday on 2 pods, full rollout tomorrow",
    # a status opening on a participle or a word of state
    "- **Rui**: still on the Keycloak migration, blocked on the LDAP bind account",
    "- **CKF**: nothing live yet",
    "- **PRTG**: added Visionline sensors on all 7 servers",
    "- **bin-day-lookup**: moving from lvs-web03 to ECS, cutover 27 Nov",
])
def test_a_bold_lead_holding_the_days_news_defines_nothing(item: str) -> None:
    # a standup item "**Name**: what happened today" is a status report, not a glossary entry
    ex = extract(f"# Standup\n\n{item}\n")
    assert not [c for c in ex.claims if c.attribute == "definition"]
    assert any(item[2:] in c.value or c.value in item for c in ex.claims)  # the line is still a statement


def test_a_bold_lead_defining_a_role_still_defines() -> None:
    ex = extract("# Who is who\n\n- **Priya Raman**: research facilitator, training and allocations\n")
    assert ("Priya Raman", "definition") in {(c.subject, c.attribute) for c in ex.claims}


def test_a_lone_code_span_item_is_a_label_not_a_glossary() -> None:
    # one "- `x`: …" item among prose is an option or a label; two in a row are a glossary
    lone = "Run the tool.\n\n- `matcher`: the left-hand side of a rule in a grammar.\n\nThen stop.\n"
    run = "- `matcher`: the left-hand side of a rule in a grammar.\n- `fragment`: the class of syntax a matcher takes.\n"
    assert "matcher" not in titles(lone)[0]
    assert "matcher" in titles(run)[0]


# -- acronyms the text counts are kinds of thing ---------------------------------------------------------


@pytest.mark.parametrize("sentence, kind", [
    ("This is an ADR to make fields private.", "ADR"),
    ("A separate ADR.", "ADR"),
    ("This ADR proposes a new syntax.", "ADR"),
    ("The ADR is accepted once merged.", "ADR"),
    ("Each SLA, once signed, holds.", "SLA"),
    ("The previous ADR, in short.", "ADR"),
])
def test_counted_acronyms_are_common_nouns(sentence: str, kind: str) -> None:
    assert kind in ug.lower_words([sentence]).kinds


@pytest.mark.parametrize("sentence, name", [
    ("We open an AWS account.", "AWS"),  # the acronym modifies a noun
    ("The NHS and the FBI agreed.", "NHS"),  # "the" goes with names
    ("These GCP projects run daily.", "GCP"),  # a plural noun after it: it is a modifier
    ("This GKE cluster hosts it.", "GKE"),
])
def test_acronyms_in_names_are_not_counted(sentence: str, name: str) -> None:
    assert name not in ug.lower_words([sentence]).kinds


def test_a_counted_acronym_gets_no_entity_page_however_often_it_recurs() -> None:
    text = ("- ADR PR: [org/adrs#1](https://example.com/adrs/pull/1)\n\n## Summary\n\n"
            "This is an ADR to make all fields private by default.\n\n"
            "This ADR is a proposal to unify the privacy of fields.\n\n"
            "With this ADR, most code changes. The ADR was discussed on the ADR PR thread.\n"
            "Later the ADR was merged by Priya Raman.\n\nPriya Raman wrote the migration.\n")
    entities = titles(text)[1]
    assert "ADR" not in entities and "ADR PR" not in entities, entities
    assert "Priya Raman" in entities  # a person in the same text still is one


def test_an_acronym_used_as_a_name_still_recurs_into_a_page() -> None:
    text = ("We moved the cluster to GKE last year.\n\nOur GKE nodes run in two zones.\n\n"
            "Costs on GKE went down after the move.\n")
    assert "GKE" in titles(text)[1]


@pytest.mark.parametrize("tokens, name", [
    (("RFC", "PR"), False),  # a generic acronym heads it: a PR of some kind
    (("AWS", "API"), False),
    (("Priya", "Raman"), True),
])
def test_a_run_of_acronyms_headed_by_a_generic_one_is_no_name(tokens: tuple[str, ...], name: bool) -> None:
    span = nm.Span(" ".join(tokens), 5, 5 + len(" ".join(tokens)), False, "caps", tokens)
    assert name_like(span, ug.lower_words(["some text"]))[0] is name


# -- names marked by their shape --------------------------------------------------------------------------


@pytest.mark.parametrize("token, shaped", [
    ("C++", True), ("C#", True), ("F#", True), ("UTF-8", True), ("SHA-256", True), ("WTF-8", True),
    ("Q3", False), ("A-1", False), ("Day-5", False), ("C", False),
])
def test_suffix_and_dash_digit_shapes(token: str, shaped: bool) -> None:
    assert nm.shaped(token) is shaped


def test_cpp_and_csharp_are_read_whole() -> None:
    spans = {s.text for s in nm.plain_spans("Other languages such as Java and C++ have it, and so does C#.")}
    assert {"Java", "C++", "C#"} <= spans
    spans = {s.text for s in nm.plain_spans("We compared it with C++.")}
    assert "C++" in spans  # the sentence's full stop is not part of the name


@pytest.mark.parametrize("token, name", [
    ("crates.io", True), ("docs.example.org", True), ("pkg-config", True), ("rust-dev", True),
    ("rustc-serialize", True),
    ("drop-flag", False), ("built-in", False), ("non-lexical", False), ("zero-cost", False),
    ("object-safe", False), ("self-describing", False), ("opt-in", False), ("e.g", False), ("x.y", False),
    ("1.2.3", False), ("snake_case", False),
])
def test_identifiers_shaped_as_names(token: str, name: bool) -> None:
    assert nm.ident_name(token) is name


def test_a_recurring_domain_or_tool_identifier_gets_a_page_a_compound_word_does_not() -> None:
    text = ("Packages are published on crates.io by their owners.\n\n"
            "Right now, crates.io compares package names case-insensitively.\n\n"
            "The build script runs pkg-config to find the library.\n\nThen pkg-config reports its flags.\n\n"
            "We keep a drop-flag in every value, and the drop-flag is cleared on move.\n")
    entities = titles(text)[1]
    assert {"crates.io", "pkg-config"} <= entities, entities
    assert "drop-flag" not in entities


def test_a_once_seen_identifier_gets_no_page() -> None:
    assert "crates.io" not in titles("Packages are published on crates.io by their owners.\n")[1]


def test_a_shaped_language_name_recurs_into_a_page() -> None:
    text = "Java and C++ have a hashing API.\n\nThe C++ standard says the value may change.\n"
    assert "C++" in titles(text)[1]


@pytest.mark.parametrize("token, whole", [("windows", True), ("Cargo", True), ("C++", False), ("drop-check", False),
                                          ("WTF-8", False)])
def test_one_word_as_word_frequency_reads_it(token: str, whole: bool) -> None:
    # a title's frequency is only checked when wordfreq scores that word itself, not its parts
    assert nm.one_word(token) is whole


def test_a_code_name_typed_once_counts_wherever_the_code_span_recurs() -> None:
    text = ("Searching moves to the `grepkit` library.\n\nWe pin `grepkit` in production.\n\n"
            "Later `grepkit` gained a faster matcher.\n")
    ex = extract(text)
    found = {e.name: e.entity_type for e in ex.entities}
    assert found.get("grepkit") == "library"
    assert sum(1 for c in ex.claims if c.subject == "grepkit") >= 2  # what each sentence says, cited


def test_an_untyped_code_span_stays_code_however_often_it_recurs() -> None:
    text = "Call `grepkit` first.\n\nThen `grepkit` returns a list.\n\nAnd `grepkit` is cheap to call.\n"
    assert "grepkit" not in titles(text)[1]


def test_a_name_after_the_and_a_modifier_is_not_counted() -> None:
    assert "GHE" not in ug.lower_words(["Errors talking to the destination GHE as a remote."]).kinds
    assert "GHE" in ug.lower_words(["Feeds repositories into the destination GHE."]).kinds  # ends its phrase


def test_a_person_who_only_opens_list_items_is_still_a_person() -> None:
    text = ("Discussion:\n\n* [Daniel Okonkwo on June 24](https://example.com/a)\n"
            "* [Daniel Okonkwo on June 23](https://example.com/b)\n* [Daniel Okonkwo on June 25](https://example.com/c)\n")
    assert "Daniel Okonkwo" in titles(text)[1]


def test_an_imperative_over_a_rare_name_is_no_person() -> None:
    # "Install" is written in lower case too: at an item start it is just a capitalised verb
    text = ("Steps:\n\n1. Install Velero on the cluster:\n\n2. Install Velero on the second cluster:\n\n"
            "3. Install Velero on the third cluster:\n\nYou can install it with one command.\n")
    assert "Install Velero" not in titles(text)[1]


def test_a_code_file_name_is_no_name() -> None:
    text = "Copy the `state.tar.gz` archive first.\n\nThen unpack `state.tar.gz` on the host.\n"
    assert "state.tar.gz" not in titles(text)[1]
