"""Session 28 (S), speed with the same answers: the gates before the patterns of decided, commitments and
given_names, the frontmatter's YAML nodes made without the representer, the extraction cache's claim rows."""

from __future__ import annotations

import datetime
import json

import pytest
import yaml

from kctui.compiler.builtin import commitments, decided, given_names, usage
from kctui.compiler.extraction import Extraction
from kctui.core import frontmatter
from kctui.core.claims import Claim, Evidence
from kctui.core.yaml_nodes import emit, node_of

# sentences each marker, pledge, task under way, group or given-name pattern reads (the modules' own examples),
# and sentences that hold a gate's first words but not the pattern
SENTENCES = [
    "Vendor B — not chosen, too slow.", "Renewal: not renewing.", "Sinead overruled it.", "don't renew the Zoom plan",
    "that is a no", "Wasabi no for now", "parked for now", "scratch that, go Acer", "won't fix", "stays parked",
    "we are NOT upgrading to 7.4+", "MA3 upgrade NOT happening today", "not now, maybe Q3", "Park till FY27.",
    "Sinead ok with that", "fine by me", "Marcus said yes Fri", "happy to go ahead", "signed w/ Acme",
    "next standup wed, not tues", "launch 10/21 instead of 10/20", "PO going out **11/6** not 11/13",
    "go Enercon.", "ok, go Acer", "fine, do the 100.", "do 2.", "go for it", "Leave it.", "Hold!",
    "not doing it because the budget is not approved", "go ahead and click it", "we do 3 things", "not the point",
    "İt is not chosen", "IT IS NOT CHOSEN.", "ıt's parked for now",
    "I'll email their lab lead", "ill draft something", "I'm going to reorder", "not happy, will push back",
    "Will update the questionnaire answers", "swapping it tmrw", "Swapping for the spare Optiplex today.",
    "enrolling in SOTI this week", "we'll bill as a flat line", "let's stay", "we're sticking with Tableau",
    "no. not launching a new store into BF", "this will be slow", "the building is still open", "Willow Street",
    "Carla (FOH manager) rings Gareth", "Priya (EE)", "our integration engineer (Owen)", "had a call with Steve from Chipside",
    "went back to Tom at CDW-G", "chase Rob @ Kelvin", "Support (tier 2) is fine", "meet at Noon",
]


def test_the_decision_markers_gated_find_what_they_found() -> None:
    gated = [decided.marker(s) for s in SENTENCES]
    saved = decided._FOLDED_GATES, decided._ORDER_GATE
    try:
        decided._FOLDED_GATES, decided._ORDER_GATE = {}, decided.re.compile("")
        plain = [decided.marker(s) for s in SENTENCES]
    finally:
        decided._FOLDED_GATES, decided._ORDER_GATE = saved
    assert [(k, m.span()) if m else None for k, m in (g or (None, None) for g in gated)] == \
        [(k, m.span()) if m else None for k, m in (p or (None, None) for p in plain)]
    assert sum(g is not None for g in gated) >= 25


@pytest.mark.parametrize("text", SENTENCES)
def test_each_gate_is_implied_by_its_pattern(text: str) -> None:
    folded = text.casefold()
    if "ı" not in folded and "i̇" not in folded:
        for pattern, gate in decided._FOLDED_GATES.items():
            assert gate.search(folded) or not pattern.search(text), (pattern.pattern[:30], text)
    assert decided._ORDER_GATE.search(text) or not decided._ORDER.search(text)
    gated, plain = commitments._pledge(text), commitments._PLEDGE.search(text)
    assert (gated and gated.span()) == (plain and plain.span())
    under_way = bool(commitments._UNDER_WAY.search(text))
    assert not under_way or bool(commitments._UNDER_WAY_OPENS.match(text) or commitments._UNDER_WAY_GATE.search(text))
    assert not commitments._GROUP.search(text) or commitments._GROUP_NEEDS.search(text)


def test_the_pledges_and_given_names_are_those_of_the_patterns() -> None:
    found = [commitments.said_commitment(s, {}, set()) for s in SENTENCES]
    assert ("action", None) in found[SENTENCES.index("I'll email their lab lead")]
    assert ("decision", None) in found[SENTENCES.index("let's stay")]
    assert found[SENTENCES.index("this will be slow")] == []
    lower = usage.lower_words(SENTENCES)
    names = {s: [span.text for span in given_names.given_spans(s, lower)] for s in SENTENCES}
    assert names["Carla (FOH manager) rings Gareth"] == ["Carla"] and names["our integration engineer (Owen)"] == ["Owen"]
    assert names["had a call with Steve from Chipside"] == ["Steve"] and names["meet at Noon"] == []


SHARED = ["a", "b"]
DATA = [
    {"title": "x", "a": ["1", "true", "", "null", "2026-01-01", "a: b", "~", "yes", 1, True, None, -3, False], "b": {"c": ["d"]}},
    {"x": SHARED, "y": SHARED, "z": (), "w": (), "t": ("q", 1)},  # a list met twice: an anchor and an alias
    {1: "a", "b": 2},  # keys that do not sort: in their order
    {"f": 1.5}, {"d": datetime.date(2026, 1, 1)}, {"e": {}},  # a float, a date: the representer's own
    {"s": "line\nbreak", "u": "é—’", "long": "x" * 5000, "tab": "a\tb", "quote": "'x' \"y\""},
    {"nested": [{"a": 1, "b": [1, [2, {}]]}, []], "sources": [{"path": "a.md", "digest": "sha256:0"}] * 2},
]


@pytest.mark.parametrize("data", DATA)
def test_the_nodes_are_the_representers(data: dict) -> None:
    expected = yaml.dump(data, Dumper=yaml.CSafeDumper, **frontmatter._DUMP)
    node = node_of(data)
    if any(isinstance(v, (float, datetime.date)) for v in data.values()):
        assert node is None
    else:
        assert emit(node, yaml.CSafeDumper, **frontmatter._DUMP) == expected
    if "\\" not in expected:  # (what libyaml escapes the Python emitter writes: `dump_yaml` takes that one)
        assert frontmatter.dump_yaml(data) == expected


def test_a_scalars_tag_is_the_resolvers() -> None:
    resolver = yaml.resolver.Resolver()
    for value in ["1", "1.5", "true", "yes", "null", "~", "", "2026-01-01", "x", "0x1f", ".inf", "=", "<<"]:
        for implicit in [(True, False), (False, True), (True, True)]:
            assert frontmatter._scalar_tag(value, implicit) == resolver.resolve(yaml.ScalarNode, value, implicit)


def _extraction() -> Extraction:
    ev = Evidence("notes/a.md", 3, 4, "sha256:aa")
    return Extraction("notes/a.md", "sha256:aa", "markdown", "A", "note", "general", claims=[
        Claim("A", "owner", "Ada", "", "fact", "fact", ev),
        Claim("A", "version", "1.2", "api", "fact", "table", Evidence("notes/b.md", 1, 1, "sha256:bb", "page"))],
        passing_claims=[Claim("B", "is", "a tool", "", "statement", "statement", ev)])


def test_the_cache_writes_a_claim_as_a_row_and_reads_both_forms() -> None:
    ex = _extraction()
    form = json.loads(json.dumps(ex.to_json()))
    assert form["claims"][0] == ["A", "owner", "Ada", "", "fact", "fact", 3, 4, "line"]
    assert form["claims"][1][-2:] == ["notes/b.md", "sha256:bb"]  # (not the extraction's own: written out)
    assert Extraction.from_json(form) == ex
    earlier = dict(form, claims=[c.to_json() for c in ex.claims], passing_claims=[c.to_json() for c in ex.passing_claims])
    back = Extraction.from_json(json.loads(json.dumps(earlier)))
    assert back == ex and [c.claim_id for c in back.claims] == [c.claim_id for c in ex.claims]
