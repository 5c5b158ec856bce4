"""Speed-ups of the readers change nothing. libyaml in kctui.core.frontmatter: the node trees (values, tags, line
marks), the loaded data, the errors and the dumped bytes are the pure-Python loader's and emitter's."""

from __future__ import annotations

import pytest
import yaml

from kctui.core import frontmatter as fm

pytestmark = pytest.mark.skipif(fm._CParser is None, reason="PyYAML has no libyaml binding here")

HEADERS = [
    'title: Widget Server\ncategory: server-app\nreleases:\n  - releaseCycle: "2.1"\n    releaseDate: 2025-03-18\n'
    '    eol: false\n    latest: "2.1.4"\n  - releaseCycle: "1.10"\n    eol: 2024-11-06\n',
    "key:\n- a\n- b\nnested:\n  deeper:\n    - {x: 1, y: [2, 3]}\n",
    "quoted: 'it''s'\ndouble: \"tab\\there\"\nfolded: >\n  one\n  two\nliteral: |\n  line 1\n  line 2\n",
    "emoji: Architecture decision records 📰\nnbsp: a\u00a0b\nline_sep: \"a\u2028b\"\nbom: \ufeffa\n",
    "number: 0o17\nhex: 0x1F\nfloat: 1e3\nnull_: ~\nyes: yes\ndate: 2026-08-22T10:00:00Z\n",
    "# only a comment\n",
    "empty:\nlist: []\nmap: {}\n",
    "crlf: one\r\nnext: two\r\n",
]
BAD = [
    "a: [unclosed\n",
    "a: &x 1\nb: *x\n",  # aliases are refused
    "a: b: c\n",
    "a:\n\t- tab\n",
    "bell: \x07\n",  # a character the Python reader refuses (an error, not a crash)
    "line_sep: a\u2028b\n",
    "next_line: a\u0085b\n",
    "[" * 70 + "]" * 70 + "\n",  # nested too deeply
]


def _tree(node):  # noqa: ANN001, ANN202
    if node is None:
        return None
    marks = (node.tag, node.start_mark.line, node.start_mark.column, node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.value, node.style, *marks)
    if isinstance(node, yaml.SequenceNode):
        return ("seq", *marks, [_tree(x) for x in node.value])
    return ("map", *marks, [(_tree(k), _tree(v)) for k, v in node.value])


def _python(text: str, use):  # noqa: ANN001, ANN202
    loader = fm._CappedSafeLoader(text)
    try:
        return use(loader)
    finally:
        loader.dispose()


@pytest.mark.parametrize("text", HEADERS)
def test_the_c_parser_composes_the_python_tree_and_loads_the_python_data(text: str) -> None:
    assert _tree(fm.compose_yaml(text)) == _tree(_python(text, lambda loader: loader.get_single_node()))
    assert fm.safe_load_yaml(text) == _python(text, lambda loader: loader.get_single_data())


@pytest.mark.parametrize("text", BAD)
def test_what_the_python_loader_refuses_is_refused_with_its_words(text: str) -> None:
    with pytest.raises(fm.FrontmatterError) as fast:
        fm.safe_load_yaml(text)
    monkey = fm._CParser
    try:
        fm._CParser = None  # the pure-Python path alone
        with pytest.raises(fm.FrontmatterError) as slow:
            fm.safe_load_yaml(text)
    finally:
        fm._CParser = monkey
    assert str(fast.value) == str(slow.value)


VALUES = [
    {"title": "Widget Server", "aliases": [], "sources": [{"resource": "a b.md", "digest": "sha256:00"}]},
    {"title": "Architecture decision records 📰", "description": "👩 emoji: a term"},
    {"title": "colon: inside", "description": "- leading dash", "x": "'quotes' and \"more\""},
    {"title": "multi\nline\n", "t": "trailing space ", "n": "123", "b": "yes", "d": "2026-08-22"},
    {"title": "a\u2028b", "e": "", "nbsp": "a\u00a0b", "bom": "\ufeffx", "tab": "a\tb"},
    {"long": "word " * 3000},
    {"nested": {"k": [1, 2.5, None, True, {"deep": ["x"]}]}},
]


@pytest.mark.parametrize("data", VALUES)
def test_dumping_writes_the_python_emitters_bytes(data: dict) -> None:
    assert fm.dump_yaml(data) == yaml.safe_dump(data, sort_keys=True, allow_unicode=True, default_flow_style=False,
                                                width=10_000)


@pytest.mark.parametrize("value", ["x\x85y", "é\x85", "\x85  ", "a\u2028b\x85"])
def test_a_next_line_character_reads_back_as_written(value: str) -> None:
    """NEL (U+0085) is a line break to YAML: left raw in a scalar it would read back as a space."""
    data = {"title": value, "list": [value], "n": 1}
    assert fm.safe_load_yaml(fm.dump_yaml(data)) == data


def test_markdown_blocks_do_not_need_the_inline_parse() -> None:
    """The reader parses block structure only; its blocks are those of a full CommonMark parse."""
    from markdown_it import MarkdownIt

    from kctui.compiler.readers import markdown

    text = ("# Title *with* `code`\n\nA [link](x) and **bold** text\nover two lines.\n\n> quote `a|b`\n\n"
            "- item one\n- item [two]\n\n| a | b |\n| --- | --- |\n| `x|y` | *z* |\n\n```\ncode\n```\n"
            "Setext\n======\n\n1. first\n   lazy\n2. second\n")
    lean = markdown._blocks(text, 2)
    full = MarkdownIt("commonmark", {"maxNesting": 40}).enable("table")
    old, markdown._MD = markdown._MD, full
    try:
        assert markdown._blocks(text, 2) == lean
    finally:
        markdown._MD = old
    assert [b.kind for b in lean] == ["heading", "paragraph", "quote", "item", "item", "table", "code", "heading",
                                      "item", "item"]


COMPOSED = [*HEADERS, *BAD,
            "a: &x 1\nb: &y [1, 2]\n",  # anchors without aliases compose
            "a: &x 1\nb: &x 2\n",  # a duplicate anchor (the Python loader's error)
            "a: &x [1, &x 2]\n",
            "? [a, b]\n: c\n",  # a key that is a collection
            "!!str 1", "a: !custom 1\nb: ! 2\n", "plain scalar", "", "a: 1\n---\nb: 2\n", "%YAML 1.1\n---\na: 1\n",
            "- - - x\n", "[" * 64 + "]" * 64, "[" * 65 + "]" * 65, "- " * 70 + "x\n", "a: [1, 2\n"]


def _full_tree(node):  # noqa: ANN001, ANN202
    """Everything a node holds: class, tag, value, both marks in full, style or flow style."""
    if node is None:
        return None
    marks = tuple((m.name, m.index, m.line, m.column, m.buffer, m.pointer) for m in (node.start_mark, node.end_mark))
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, node.style, marks)
    items = [_full_tree(x) for x in node.value] if isinstance(node, yaml.SequenceNode) else \
        [(_full_tree(k), _full_tree(v)) for k, v in node.value]
    return (type(node).__name__, node.tag, node.flow_style, marks, items)


def _composed(text: str, compose):  # noqa: ANN001, ANN202
    try:
        return _full_tree(compose(text))
    except fm.FrontmatterError as exc:
        return ("refused", str(exc))


@pytest.mark.parametrize("text", COMPOSED)
def test_composing_from_the_c_parsers_events_builds_the_composers_tree(text: str) -> None:
    """compose_yaml's loop over the events (kctui.core.frontmatter._single_node) gives the tree, or the
    refusal, of the composer with the guards (`get_single_node`), node for node and mark for mark."""
    def composer(t: str):  # noqa: ANN202
        return fm._guarded(t, fm.MAX_FRONTMATTER_BYTES, lambda loader: loader.get_single_node())

    assert _composed(text, fm.compose_yaml) == _composed(text, composer)
