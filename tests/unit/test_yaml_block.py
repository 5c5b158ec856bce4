"""The fast block-YAML reader (kctui.core.yaml_block) gives the full loader's answer or none: on what
`dump_yaml` writes, on hand-written YAML near the subset's edges, and on generated documents."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from kctui.core import frontmatter as fm
from kctui.core.yaml_block import NOT_READ, read_block


def _full(text: str):  # noqa: ANN202 - the pure-Python guarded loader: the reference answer
    loader = fm._CappedSafeLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _loads(text: str) -> bool:
    """Whether the guarded loader reads the text to a value (an edit may leave text it refuses)."""
    try:
        return _full(text) is not None
    except yaml.YAMLError:
        return False


def _same(a, b) -> bool:  # noqa: ANN001 - equal and of the same types all the way down (True is not 1)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _agrees(text: str) -> object:
    """read_block's answer, checked against the full loader's; NOT_READ when it gave none."""
    got = read_block(text, fm.MAX_DEPTH)
    if got is NOT_READ:
        return got
    try:
        want = _full(text)
    except (yaml.YAMLError, fm.FrontmatterError) as exc:  # pragma: no cover - the failure this test is for
        raise AssertionError(f"read {got!r} from a text the loader refuses ({exc})") from None
    assert _same(got, want), (text, got, want)
    return got


PAGE = {
    "aliases": ["LTS", "Debian Long-Term Support"],
    "compile_status": "compiled",
    "description": "LTS: a release kept for years; it's \"long\" — 5 years, #1 in use",
    "generated": {"at": "2026-08-22T00:00:00Z", "by": "kctui/0.3.0 extract/6 builtin"},
    "sources": [{"digest": "sha256:" + "ab" * 32, "id": f"s{i}-md", "resource": f"dir/s {i}.md"} for i in range(40)],
    "tags": [], "verified": [], "extra": {}, "sources_omitted": 3, "stale": None, "flag": True,
    "version": "1.10", "number": 12, "ratio": 0.5, "no": "no", "date": "2026-08-22", "empty": "",
}


def test_a_page_frontmatter_as_dumped_is_read_and_is_the_loaders_answer() -> None:
    text = fm.dump_yaml(PAGE)
    got = _agrees(text)
    assert got is not NOT_READ  # the fast path does its job on what the compiler writes
    assert got == PAGE


@pytest.mark.parametrize("text, expected", [
    ("a: 1\nb: '1'\nc: 1.5\nd: ~\ne: yes\nf: 0x1F\ng: 1:30\nh: 017\ni: .inf\n",
     {"a": 1, "b": "1", "c": 1.5, "d": None, "e": True, "f": 31, "g": 90, "h": 15, "i": math.inf}),
    ("list:\n- a\n-\n- - x\n  - y\n- k: v\n  j: w\n", {"list": ["a", None, ["x", "y"], {"k": "v", "j": "w"}]}),
    ("a:\nb:\n  c: d\n", {"a": None, "b": {"c": "d"}}),
    ("q: 'it''s: #1'\nurl: http://x.y/z?a=b#c\n", {"q": "it's: #1", "url": "http://x.y/z?a=b#c"}),
    ("a: 1\na: 2\n", {"a": 2}),  # the last of duplicate keys, as the loader keeps it
    ("-x: -1\n:y: z\n", {"-x": -1, ":y": "z"}),
    ("'no': 'yes'\n'a: b': c\n", {"no": "yes", "a: b": "c"}),
])
def test_hand_written_yaml_in_the_subset(text: str, expected: dict) -> None:
    assert _same(_agrees(text), expected)


@pytest.mark.parametrize("text", [
    "a: 1 # comment\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", 'a: "double"\n', "a: |\n  block\n", "a: >\n  folded\n",
    "a: [1, 2]\n", "a: {b: 1}\n", "a:\n\t- tab\n", "a: 1\n\nb: 2\n", "a: 1\r\nb: 2\r\n",
    "--- \na: 1\n", "a: 1\n...\n", "a: 1\n--- b: 2\n", "a: plain\n  continued\n", "- a\n- b\n", "just text\n",
    "a: 2026-08-22\n", "<<: x\n", "1: one\n", "no: x\n", "a: 'open\n", "a: ''x'\n", "a:  two spaces\n",
    "a: b: c\n", "a: x:\n", "a:b\n", "a: -\n", "a: - b\n", "-\n- x\n", "a:\n  - x\n - y\n", "%YAML 1.1\na: 1\n",
    "a: \ufeffx\n", "a: 1 \n", "?\n", "a: '\x85  '\n", "a: x\x85y\n", "a: '\u2028x'\n", "a: x\u2029\n",
])
def test_what_lies_outside_the_subset_is_left_to_the_loader(text: str) -> None:
    assert read_block(text, fm.MAX_DEPTH) is NOT_READ


def test_nesting_past_the_cap_is_left_to_the_loader() -> None:
    deep = "".join(f"{'  ' * i}k{i}:\n" for i in range(70)) + f"{'  ' * 70}x: 1\n"
    assert read_block(deep, fm.MAX_DEPTH) is NOT_READ
    with pytest.raises(fm.FrontmatterError, match="nested deeper"):
        fm.safe_load_yaml(deep)


_scalars = st.one_of(
    st.text(max_size=12), st.text("abz -:#'.1é", max_size=10), st.text("abz", min_size=1, max_size=6), st.sampled_from(["yes", "No", "~", "null", "1.0", "0x1F", "1:30", "-", "- a", "a: b", "#",
                                           "' '", "it's", "2026-08-22", ".inf", "=", "<<", "", " x", "x "]),
    st.integers(-10**12, 10**12), st.floats(allow_nan=True), st.booleans(), st.none())
_keys = st.one_of(st.text(min_size=1, max_size=8), st.text("abz -:'1", min_size=1, max_size=6), st.sampled_from(["on", "1", "a b", "x:y", "-k", "title"]))
_data = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(_keys, inner, max_size=4)), max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_keys, _data, max_size=6))
def test_whatever_dump_yaml_writes_reads_back_as_the_loader_reads_it(data: dict) -> None:
    _agrees(fm.dump_yaml(data))


# documents near the subset: data dumped with other options (indents, narrow widths that fold lines,
# quoted styles), then a piece of YAML syntax put in at a random place or two
_pieces = st.sampled_from(["#", " #c", ": ", ":", "- ", "-", "'", "''", '"', "&a", "*a", "!t", "[", "{", "[]", "{}", "~",
                           "1", "yes", " ", "  ", "?", "%", "|", ">", "---", "...", "\u00e9", "0x1F", "1:30", "\n", "\n  ",
                           "\n- ", "a: b", "2026-01-02"])
_edits = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), _pieces), max_size=2)
_styles = st.fixed_dictionaries({"indent": st.sampled_from([2, 2, 3, 4]), "width": st.sampled_from([10_000, 10_000, 20, 40]),
                                 "default_style": st.sampled_from([None, None, None, "'"]),
                                 "allow_unicode": st.booleans(), "sort_keys": st.booleans()})


def _edited(data: dict, style: dict, edits: list) -> str:
    lines = yaml.safe_dump(data, default_flow_style=False, **style).split("\n")
    for at, column, piece in edits:
        i = at % len(lines)
        column %= len(lines[i]) + 1
        lines[i] = lines[i][:column] + piece + lines[i][column:]
    return "\n".join(lines)


@settings(max_examples=800, deadline=None)
@given(st.dictionaries(_keys, _data, min_size=1, max_size=5), _styles, _edits)
def test_generated_yaml_like_text_is_read_right_or_left_to_the_loader(data: dict, style: dict, edits: list) -> None:
    _agrees(_edited(data, style, edits))


def test_the_generated_documents_reach_the_reader_and_its_refusals() -> None:
    """The generator above reaches what the reader reads after an edit, and what it leaves to the loader."""
    from hypothesis import Phase, find

    # found, not shrunk: the first example that holds is proof enough (shrinking one took most of a minute)
    found = settings(phases=[Phase.generate], max_examples=5000, database=None, deadline=None)
    args = st.tuples(st.dictionaries(_keys, _data, min_size=3, max_size=5), _styles, _edits)
    find(args, lambda a: len(a[2]) == 2 and read_block(_edited(*a), fm.MAX_DEPTH) is not NOT_READ
         and read_block(_edited(a[0], a[1], []), fm.MAX_DEPTH) is not NOT_READ and _edited(*a) != _edited(a[0], a[1], []),
         settings=found)
    find(args, lambda a: read_block(_edited(*a), fm.MAX_DEPTH) is NOT_READ and _loads(_edited(*a)), settings=found)
