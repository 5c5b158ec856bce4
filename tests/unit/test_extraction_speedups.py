"""Speed-ups of the extraction rules change no answer: each is checked against the rule as first written."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from kctui.compiler.builtin import sentences, stated_values
from kctui.compiler.readers.base import Block
from kctui.core.values import fact_tokens

TEXTS = [
    "Postgres 16 was released on Monday, 2026-03-02, and EOL is in May.",
    "the meeting moved from mon to Tue; Sept and SEPT and Sep. and June1 and 1June",
    "Ma Jun Jul July Decemberish Wednesdays",
    "ÉMay Über-May xMay May-June",
    "",
    "no digit at all, only Words and Mondays",
    "≈3 ms, ~$5, <10%, +2, a1 b_2 @3 /4 #5 v1.2 Arabic-Indic ٣٤ and superscript ²",
]


def _value_spans_as_written(text: str) -> list[tuple[int, int]]:
    out = [(m.start(), m.end()) for m in stated_values._DIGIT_TOKEN.finditer(text)]
    out += [(m.start(), m.end()) for m in re.finditer(r"[A-Za-z]+", text) if stated_values.calendar_word(m.group(0))]
    return out


@pytest.mark.parametrize("text", TEXTS)
def test_value_spans_looks_at_capitalised_words_only(text: str) -> None:
    assert list(stated_values.value_spans(text)) == _value_spans_as_written(text)


@pytest.mark.parametrize("text", TEXTS)
def test_value_spans_remembered_are_the_same_and_unchangeable(text: str) -> None:
    first = stated_values.value_spans(text)
    assert isinstance(first, tuple) and stated_values.value_spans(text) == first == tuple(_value_spans_as_written(text))


def _sentences_as_written(block: Block) -> list[tuple[str, int, int]]:
    """sentences() with each sentence's first line found by stripping the rest of the block."""
    flat = block.text
    starts, pos = [], 0
    for t in flat.split("\n"):
        starts.append(pos)
        pos += len(t) + 1

    def line_at(offset: int) -> int:
        idx = max(sum(1 for s in starts if s <= offset) - 1, 0)
        return block.lines[idx] if idx < len(block.lines) else block.end

    out, begin = [], 0
    for m in sentences._SENTENCE_END.finditer(flat):
        head = flat[begin:m.start()].rstrip()
        if head.endswith(sentences._ABBREVIATIONS):
            continue
        if head.strip():
            out.append((head.strip(), line_at(begin + len(flat[begin:]) - len(flat[begin:].lstrip())),
                        line_at(m.start() - 1)))
        begin = m.end()
    if flat[begin:].strip():
        out.append((flat[begin:].strip(), line_at(begin + len(flat[begin:]) - len(flat[begin:].lstrip())),
                    line_at(len(flat) - 1)))
    return out


BLOCKS = [
    Block("paragraph", 3, 5, "One sentence. Two\nsentences here.\n  Three on\u00a0the third line.", (3, 4, 5)),
    Block("paragraph", 1, 3, "Ends with e.g. A capital.   \n\n   \nNext: a label line", (1, 2, 3)),
    Block("item", 7, 7, "   ", (7,)),
    Block("quote", 9, 10, "Spaces\u2003after. Then\u3000more.", (9, 10)),
]


@pytest.mark.parametrize("block", BLOCKS)
def test_sentences_find_each_first_line_without_copying_the_rest(block: Block) -> None:
    assert list(sentences.sentences(block)) == _sentences_as_written(block)


LINES = [
    ["Released 2026-03-02, version 4.3.1", "see https://x.org/v1.2.3 and www.a.io/2024", "12,000 users; 3.5x"],
    ["ends with a dot 1.2.", "v2.0", ".5 and 5.", "1,23 and 1,234,567.89"],
    ["a\r", "2026-01-01\r", "x.1.2 y_1.2 1.2z"],
]


@pytest.mark.parametrize("lines", LINES)
def test_the_fact_tokens_of_lines_joined_are_those_of_each_line(lines: list[str]) -> None:
    """unreached_facts reads a document's lines in one call: no token spans a line break."""
    assert fact_tokens("\n".join(lines)) == set().union(*(fact_tokens(line) for line in lines))


def _opens_definition_as_written(text: str, term: str) -> bool:
    from kctui.compiler.builtin import glossary

    if text.casefold().startswith(term.casefold() + " "):
        return False
    lead = re.match(rf"^[^,]{{1,30}},\s+(?:the\s+)?{re.escape(term)}\s+(?:is|are|means)\s", text, re.I)
    return bool((glossary._INDEFINITE.match(text) or glossary._GLOSS_OPEN.match(text) or lead) and not text.endswith(":")
                and 20 <= len(text) <= glossary.MAX_STATEMENT_CHARS and not glossary._GLOSS_OPEN.match(term + " "))


OPENINGS = [
    ("In short, the build system is what compiles the code.", "build system"),
    ("In short, THE Build System means the tool that compiles.", "build system"),
    ("A tool that is used to transform code into other code.", "transpiler"),
    ("The process of turning source code into a program.", "compilation"),
    ("Build system is what compiles the code, and more.", "build system"),
    ("Somewhat longer than thirty characters, the term is defined here.", "term"),
    (", the term is defined here with a comma first.", "term"),
    ("A tool that ends with a colon for a list:", "tool"),
    ("Short.", "x"),
    ("In short, the c++ toolchain is what builds it.", "c++ toolchain"),
    ("Shorthand for the thing, the thing is here.", "Shorthand for"),
]


@pytest.mark.parametrize(("text", "term"), OPENINGS)
def test_a_heading_definition_makes_the_terms_pattern_only_when_it_can_match(text: str, term: str) -> None:
    from kctui.compiler.builtin import glossary

    assert glossary._opens_definition(text, term) == _opens_definition_as_written(text, term)


def test_the_new_variant_of_a_page_is_the_deep_copy_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """use_new_variant shares the page's frozen claims and mentions instead of copying them: the same page."""
    import copy

    from kctui.compiler.trust import disputes
    from kctui.core.claims import Claim, Evidence, Question
    from kctui.core.pages import Mention, Page, SourceRef

    ev = Evidence("a.md", 3, 3, "sha256:aa")
    old = Claim("Widget", "price", "$10", "", "fact", "table", ev)
    new = Claim("Widget", "price", "$12", "", "fact", "table", Evidence("b.md", 5, 5, "sha256:bb"))
    page = Page("entity", "widget", "Widget", sources=[SourceRef("a.md", "sha256:aa", "a")], claims=[old],
                mentions=[Mention("Widget", ev)], questions=[Question("Why?", ev)], conflicts=[[old, new]],
                disputed=[new], extra={"tags": ["x"]}, history=["* created"])
    dispute = disputes.Dispute(disputes.key3(old), old, new)
    digests, slugs = {"a.md": "sha256:aa", "b.md": "sha256:bb"}, {"a.md": "a", "b.md": "b"}
    got = disputes.use_new_variant(page, dispute, "2026-09-01T00:00:00Z", digests, slugs)
    # the copy as first written: everything copied
    monkeypatch.setattr(disputes, "copy", SimpleNamespace(deepcopy=lambda x, memo=None: copy.deepcopy(x)))
    expected = disputes.use_new_variant(page, dispute, "2026-09-01T00:00:00Z", digests, slugs)
    assert got == expected
    assert got.extra is not page.extra and page.extra == {"tags": ["x"]} and page.claims == [old]


def test_the_cache_form_is_what_asdict_wrote() -> None:
    """Extraction.to_json writes its dataclass fields as `dataclasses.asdict` did, as JSON reads them."""
    import json
    from dataclasses import asdict, is_dataclass

    from kctui.compiler import extraction
    from kctui.compiler.builtin.document import extract_document
    from kctui.compiler.readers import read_source

    def as_written(value):  # noqa: ANN001, ANN202
        if is_dataclass(value):
            return asdict(value)
        return [as_written(v) for v in value] if isinstance(value, (list, tuple)) else value

    text = (b"# Widget Server\n\nWidget Server is a web server. Ada Lovelace owns Widget Server.\n\n"
            b"## Build system\n\nA tool that is used to compile the code.\n\nWhy is it slow?\n")
    ex = extract_document(read_source("widget.md", text, "sha256:" + "0" * 64))
    assert ex.entities or ex.concepts or ex.subject
    got = json.dumps(ex.to_json(), sort_keys=True)
    fast, extraction._plain = extraction._plain, as_written
    try:
        assert got == json.dumps(ex.to_json(), sort_keys=True)
    finally:
        extraction._plain = fast


NAME_SENTENCES = [
    "SQLite and PagerDuty run on k8s; see `rg` and @priya-r in #ops-platform.",
    "the billing-api service calls crates.io and pkg-config, then v1.2.3 and C++. and C#, F# or x86_64",
    "abcdefghijklmnopqrstuvwxyz0 abc-def a.b a_b aB aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa. Über Émile ñandú",
    "#fff and #a-b-c, x@y.z and @ab, O'Brien’s and Sourcegraph's 'Quoted' -Dashed- (Paren)",
    "",
]


@pytest.mark.parametrize("text", NAME_SENTENCES)
def test_a_sentences_name_tokens_are_those_of_the_pattern_as_first_written(text: str) -> None:
    """`_INTERESTING` with possessive runs of lower-case letters finds the same tokens."""
    from kctui.compiler.builtin import name_tokens

    as_written = re.compile(
        r"`[^`\n]{1,60}`|(?<![\w.@/])@[A-Za-z][\w-]{1,38}(?![\w/.@-])|"
        r"(?<![\w&/#])#[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w#-])|(?<![\w'’.&+/@-])"
        r"(?:[^\W\d_a-z]|[a-z]+[A-Z0-9]|[a-z][a-z0-9]*[-_.][a-z0-9])[\w'’.+-]*"
    )
    assert [m.span() for m in name_tokens._INTERESTING.finditer(text)] == [m.span() for m in as_written.finditer(text)]


def _called_term_as_written(plain: str) -> str | None:
    from kctui.compiler.builtin import definitions, terms

    c = definitions._CALLED.search(plain)
    term = c and terms.good_term(c.group("term") or c.group("quoted"))
    if term:
        return term
    c = definitions._CALLED_BARE.search(plain)
    term = c and terms.good_term(c.group("term"))
    if term and any(w.endswith(("ly", "ed", "ing")) for w in term.split()):
        return None
    return term


CALLED = [
    "This pattern is called *the builder*.",
    "We call this \"late binding\" in the text.",
    "These are known as view items.",
    "The pass, termed **lowering**, runs later.",
    "A value referred to as \"the witness\" is kept.",
    "It was dubbed _Ferris_ by the community.",
    "The process (called monomorphization) copies code.",
    "It is called often.",
    "Nothing is named here at all.",
    "He recalled the *old* name; the callback is Called *Upper*.",
    "",
]


@pytest.mark.parametrize("plain", CALLED)
def test_the_called_term_is_looked_for_only_where_its_words_stand(plain: str) -> None:
    from kctui.compiler.builtin import definitions

    assert definitions._called_term(plain) == _called_term_as_written(plain)


def _places_as_written(finder, text: str) -> list[tuple[int, int, str]]:  # noqa: ANN001
    from kctui.compiler.steps import name_finder

    written = name_finder.written_words(text)
    folded = "\x00".join(written).casefold().split("\x00")
    found: list[tuple[int, int, str]] = []
    if finder._first.keys().isdisjoint(folded):
        return found
    spans: list[tuple[int, int]] = []
    for i, word in enumerate(folded):
        for name in finder._first.get(word, ()):
            n = len(name.words)
            if (n > 1 and tuple(folded[i:i + n]) != name.words) or (name.exact and written[i] != name.exact):
                continue
            if name.capitalised and not written[i][:1].isupper():
                spans = spans or name_finder.word_spans(text)
                if not (name.placed and name_finder.name_position(text, *spans[i])):
                    continue
            found.append((i, n, name.slug))
    return found


PLACES_TEXTS = [
    "Primo VE replaced Primo; primo ve is the same thing, and Ada met ada at the Widget Server.",
    "Nothing here names a page.",
    "Ada's server: the widget server and Widget Server and WIDGET SERVER; Primo.",
    "",
]


@pytest.mark.parametrize("text", PLACES_TEXTS)
def test_a_finder_looks_only_at_the_words_that_open_a_name(text: str) -> None:
    from kctui.compiler.steps.name_finder import NameFinder

    finder = NameFinder({"primo-ve": ["Primo VE"], "primo": ["Primo"], "widget-server": ["Widget Server", "widget"]},
                        {"ada-lovelace": ["Ada"]})
    assert finder.places(text) == _places_as_written(finder, text)
    assert finder.places(text) or not text.startswith(("Primo", "Ada"))


# the patterns of kctui.compiler.builtin.usage as first written (a look-behind or a word boundary first)
_PLURAL_CAPS_AS_WRITTEN = re.compile(r"\b([A-Z]{2,6})s\b")
_COUNTED_CAPS_AS_WRITTEN = re.compile(
    r"(?<![\w'’])(?P<det>[Aa]n?|[Tt]his|[Tt]hese|[Tt]hat|[Ee]ach|[Ee]very|[Aa]nother|[Aa]ny|[Tt]he) (?:(?P<adj>[a-z]{3,}) )?"
    r"(?P<acr>[A-Z]{2,6})(?=[.,;:!?)]|$| (?P<next>[a-z]+)\b)")
USAGE_TEXTS = [
    "an RFC to fix it, An API. this PR is open, these AWS regions, that SLA, the NHS is, Each PR.",
    "Every DB is, each SSD drives, Another VM a, any KPI; a separate RFC. the GKE cluster",
    "Tn X, En ABC x, tHe AB ee AB, Thes AB, xan RFC, 'an RFC to, ’a PR is, Ea PR is, Anny PR is, Th PR is",
    "APIs, xAPIs, éAPIs, _APIs, 1APIs, APIss, ABCDEFGs ABCDEFs PRs. URLs",
    "",
]


@pytest.mark.parametrize("text", USAGE_TEXTS)
def test_usage_patterns_start_with_their_first_letter(text: str) -> None:
    from kctui.compiler.builtin import usage

    def groups(pattern: re.Pattern, text: str) -> list:
        return [(m.span(), m.groups(), m.groupdict()) for m in pattern.finditer(text)]

    assert usage._PLURAL_CAPS.findall(text) == _PLURAL_CAPS_AS_WRITTEN.findall(text)
    assert groups(usage._COUNTED_CAPS, text) == groups(_COUNTED_CAPS_AS_WRITTEN, text)


@pytest.mark.parametrize("text", ["", "no digits here", "version 3.4.0", "superscript ² only", "Arabic-Indic ٣",
                                  "fullwidth ３", "é and 7", "é and no digit", "①"])
def test_has_digit_is_any_isdigit(text: str) -> None:
    from kctui.compiler.steps.name_extents import has_digit

    assert has_digit(text) == any(c.isdigit() for c in text)


@pytest.mark.parametrize("words", [("Leeds/Doncaster",), ("no", "joined", "names"), ("gcs01.rcs.ac.uk",), ("end.",),
                                   ("a", "b/c"), ()])
def test_joined_places_asks_the_statement_once_then_each_word(words: tuple[str, ...]) -> None:
    from kctui.compiler.steps.joined_names import joined_places
    from kctui.compiler.steps.name_finder import NameFinder

    finder = NameFinder({"leeds": ["Leeds"], "doncaster": ["Doncaster"], "gcs01": ["gcs01"]})
    found = joined_places(words, finder._first, set())
    if not any("/" in w or "." in w[:-1] for w in words):
        assert found == []
    assert joined_places(list(words), finder._first, set()) == found


@pytest.mark.parametrize("text", ["Piano's status page", "a b  c", "", "rn-141..148 and Leeds/Doncaster"])
def test_mention_words_are_remembered_unchanged(text: str) -> None:
    from kctui.compiler.builtin import words as wd
    from kctui.compiler.steps import name_finder

    first = name_finder.written_words(text)
    assert isinstance(first, tuple) and name_finder.written_words(text) == first
    assert list(first) == wd.WORD.findall(name_finder._POSSESSIVE.sub("", text))


@pytest.mark.parametrize("text", ["[Piano](https://p.io) status", "<https://x.org>  and  [a][b]", "Priya Raman",
                                  "the `Searcher<'a>` type", "Skyfold CDN", "", "  spaced\u00a0out  "])
def test_remembered_rules_answer_as_they_did(text: str) -> None:
    from kctui.compiler.builtin import name_types, terms
    from kctui.core import values

    for rule, args in ((values.strip_inline, (text,)), (terms.good_term, (text,)), (name_types.person_shape, (text,)),
                       (terms.marked_as_name, (text.strip() or "x", True)), (terms.marked_as_name, (text.strip() or "x", False))):
        assert rule(*args) == rule(*args) == rule.__wrapped__(*args)


@pytest.mark.parametrize("texts", [["fixed it", "**Dev Patel** 10:07 restart the box", "- [ ] check", "Done."],
                                   ["10:02 am ok", "_x_ y", "...", "", "12 servers"], ["A", "b", "c", "d"]])
def test_lower_case_source_reads_each_opening_without_copying_the_statement(texts: list[str]) -> None:
    from kctui.compiler.steps import name_position

    def as_written(texts: list[str]) -> bool:
        small = letters = 0
        for text in texts:
            rest = name_position._OPENING.sub("", text, count=1)[:1]
            if rest.isalpha():
                letters += 1
                small += rest.islower()
        return small >= name_position.LOWER_CASE_MIN and small >= name_position.LOWER_CASE_SHARE * letters

    assert name_position.lower_case_source(texts) == as_written(texts)


_FULL_NAME_AS_WRITTEN = re.compile(r"(?<![\w@.'’-])[A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+){1,2}(?![\w@'’-])")


@pytest.mark.parametrize("text", ["sales: Jo Park", "Marcus Dole (support eng)", "x-Jo Park, @Jo Park, .Jo Park",
                                  "'Jo Park, ’Jo Park, éJo Park, Jo Park-, Jo Park's", "Ann Lee Vo Ng", ""])
def test_full_names_are_found_capital_first(text: str) -> None:
    from kctui.compiler.builtin import people_signals

    assert [m.span() for m in people_signals._FULL_NAME.finditer(text)] == \
        [m.span() for m in _FULL_NAME_AS_WRITTEN.finditer(text)]


# patterns of the name rules as first written (a look-behind first), against theirs (the character after it first)
_AS_WRITTEN = {
    "name_mentions._INNER_CAPITAL": r"(?<=[a-z0-9,] )[A-Z][a-z]+\b",
    "named_once._BRACKETED": r"(?<=[\w.!?*] )\(([A-Z][a-z]{1,24})\)",
    "identifiers._NUMBERED": r"(?<![\w#/-])[A-Z]{2,5} #\d{2,7}(?![\w-])",
    "roster._ADDRESSED": r"(?<![\w'’-])(?P<name>[A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+){1,2}),?\s*<[^<>\s@]+@[^<>\s]+>",
}
PATTERN_TEXTS = ["a Jo, 1 Ann b, x (Abc) y. (Def) * (Ghi) ((Jkl) ,Mo", "PR #817, xPR #817, #CR #22, ABCDEF #12",
                 "AB #1234567, CR #2231x, -AB #12", "Jo Park <jo@x.io>, x-Jo Park <a@b>, ’Ann Lee <c@d>, Ann Lee Vo <z@y>", ""]


@pytest.mark.parametrize("name", sorted(_AS_WRITTEN))
@pytest.mark.parametrize("text", PATTERN_TEXTS)
def test_name_patterns_match_as_first_written(name: str, text: str) -> None:
    import importlib

    module, attr = name.split(".")
    pattern = getattr(importlib.import_module(f"kctui.compiler.builtin.{module}"), attr)
    written = re.compile(_AS_WRITTEN[name])
    assert [(m.span(), m.groups()) for m in pattern.finditer(text)] == [(m.span(), m.groups()) for m in written.finditer(text)]
    assert [bool(pattern.match(text, i)) for i in range(len(text))] == [bool(written.match(text, i)) for i in range(len(text))]
