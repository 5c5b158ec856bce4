"""Issue 31, stub pages (EXTRACTOR_VERSION 50-C): names a sentence gives only as examples of a kind or only
points to are bare passing mentions (kctui.compiler.builtin.examples), and a sentence that only says what
else its section's term is called gives that term an alias, not a concept of its own
(kctui.compiler.builtin.other_names). Tables with phrasings of our own."""

from __future__ import annotations

import pytest

from kctui.compiler.builtin import examples, other_names
from kctui.compiler.builtin import names as nm
from kctui.compiler.builtin.document import extract_document
from kctui.compiler.readers import read_source

DIGEST = "sha256:" + "5" * 64


def extraction(text: str):
    return extract_document(read_source("docs/d.md", text.encode("utf-8"), DIGEST))


def _spans(plain: str, words: list[str]) -> list[tuple[nm.Span, str]]:
    out = []
    for w in words:
        start = plain.index(w)
        out.append((nm.Span(w, start, start + len(w), start == 0, "caps", (w,)), w.casefold()))
    return out


@pytest.mark.parametrize("plain, words, expected", [
    ("pick a queue you know, for example Brindlemq or Quorvex.", ["Brindlemq", "Quorvex"], {"brindlemq", "quorvex"}),
    ("hosted stores (i.e. Zendrix, RDS, Quorvex, etc)", ["Zendrix", "Quorvex"], {"zendrix", "quorvex"}),
    ("chat tools like Zendrix and Quorvex are popular", ["Zendrix", "Quorvex"], {"zendrix", "quorvex"}),
    ("For more details, see #48817.", ["#48817"], {"#48817"}),
    ("flaky alerts, outlined in #4410 and more broadly in #4471.", ["#4410", "#4471"], {"#4410", "#4471"}),
    ("include Closes #12345 in the description", ["#12345"], {"#12345"}),
    # the subject of its own clause after "e.g.", a verb's "like", a name with no marker: no example
    ("refs go in the channel, e.g. CS-0098812 was the one", ["CS-0098812"], set()),
    ("we really like Quorvex for this", ["Quorvex"], set()),
    ("Quorvex replaced Zendrix in May", ["Quorvex", "Zendrix"], set()),
    ("the fix landed in #48817 on Tuesday", ["#48817"], set()),             # where it landed: a fact of it
    ("see Quorvex for access", ["Quorvex"], set()),                          # a pointer to a name with no number
    ("down 3 times in Oct, see OPS-1398, OPS-1415", ["OPS-1398", "OPS-1415"], set()),  # the value's records
])
def test_example_keys(plain, words, expected):
    assert examples.example_keys(plain, _spans(plain, words)) == expected


def test_a_name_inside_an_address_is_no_fact_of_the_sentence():
    plain = '<video src="https://cdn.example.org/a/Team%20Intro%20Video.mp4"></video> Quorvex 2.1 ships'
    spans = _spans(plain, ["Video.mp4", "Quorvex"])
    assert [k for _, k in examples.without(plain, spans)] == ["quorvex"]


def test_examples_get_no_page_on_one_mention_but_a_stated_name_does():
    text = "# Tools\n\n- Work to move customers to hosted stores (i.e. Zendrix, Brindlemq, etc)\n" \
           "- Quorvex 2.1 ships on 3 May\n"
    names = {e.name for e in extraction(text).entities}
    assert "Quorvex" in names and "Zendrix" not in names and "Brindlemq" not in names


@pytest.mark.parametrize("text, expected", [
    ('Also sometimes referred to as "code facts."', True),
    ('Shorthand for documentation comment, sometimes called a "docnote."', True),
    ('This action is also referred to as "bouncing pods"', True),
    ('The index is called "the ledger"', False),                    # a subject of its own
    ('Informally this is known as an "if-let statement"', False),   # an adverb before the demonstrative
])
def test_other_name(text, expected):
    assert other_names.other_name(text) is expected


def test_another_name_is_an_alias_of_its_sections_term():
    text = ("# Glossary\n\n### code facts\n\nData that describes the parts of source code, such as symbols.\n\n"
            'Also sometimes referred to as "symbol data."\n')
    ex = extraction(text)
    concepts = {c.name: c.aliases for c in ex.concepts}
    assert "symbol data" not in concepts and "symbol data" in concepts["code facts"]
    cited = {(c.subject, c.evidence.start) for c in ex.claims}
    assert ("code facts", 7) in cited  # the other name's sentence is cited on the term's page


def test_another_name_in_a_list_item_of_its_own_keeps_its_page():
    text = ("# Trees\n\n### syntax tree\n\nA tree-like structure made by parsing.\n\n"
            '- Full tree (FT): a tree that keeps all whitespace. Sometimes called a "lossless tree."\n')
    assert "lossless tree" in {c.name for c in extraction(text).concepts}


@pytest.mark.parametrize("sentence, term", [
    ("_Shippable_ means that the build can go to customers.", "Shippable"),
    ("Support different means of reaching the environment, as methods do.", None),  # "means" the noun
    ("Monitoring generally means looking at a sample of failures each day.", None),  # the adverb is the verb's
    ("Auto-merge is a good tool to use in this scenario.", None),                   # an opinion of it
    ("Code reviews are a great way to measure this.", None),
    ("Escalating means sharing the thread with the person's direct manager.", "Escalating"),
    ("A lockfile is a file that pins every dependency's version.", "lockfile"),
])
def test_what_defines(sentence, term):
    names = {c.name for c in extraction(f"# Notes\n\n{sentence}\n").concepts} | \
        {e.name for e in extraction(f"# Notes\n\n{sentence}\n").entities}
    if term is None:
        assert not names & {sentence.split(" means")[0].split(" is ")[0].split(" are ")[0]}
    else:
        assert term in names
