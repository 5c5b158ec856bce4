"""YAML frontmatter: split a Markdown document and load its header through a safe, capped loader.

The loader is `yaml.SafeLoader` with aliases refused (a 342-byte alias bomb expands to hundreds of
millions of nodes when walked), a size cap (64 KiB by default) and a nesting cap.

Speed: where PyYAML has its libyaml binding, the text is scanned and parsed in C (five times faster)
while composing stays the Python code with the same guards, so the node tree — values, tags, line
marks — is the pure-Python one; any text the C parser refuses, or that holds a character the Python
reader refuses, goes through the pure-Python loader, whose answer (or error) is the one given. Dumping
uses libyaml's emitter unless its output holds an escape, a character beyond the BMP (which libyaml
escapes and Python does not) or a very long line; then the Python emitter writes it, so the bytes
are the Python emitter's either way.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import yaml

from kctui.core.yaml_block import NOT_READ, read_block
from kctui.core.yaml_nodes import emit, node_of

MAX_FRONTMATTER_BYTES = 64 * 1024
MAX_DEPTH = 64


class FrontmatterError(ValueError):
    """The frontmatter is missing, unclosed, too large or not safe YAML."""


try:  # PyYAML built with libyaml
    from yaml import CSafeDumper as _CSafeDumper
    from yaml._yaml import CParser as _CParser  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - a PyYAML without its C extension
    _CParser = _CSafeDumper = None


class _Guards:
    """Alias refusal and the nesting cap, on the composer (shared by the Python and the C parser)."""

    _depth = 0

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise FrontmatterError(f"YAML aliases are not allowed (line {event.start_mark.line + 1})")
        if self.check_event(yaml.MappingStartEvent, yaml.SequenceStartEvent):
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise FrontmatterError(f"YAML nested deeper than {MAX_DEPTH} levels")
            try:
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1
        return super().compose_node(parent, index)

    def compose_document(self):  # type: ignore[override]
        # SafeLoader keeps anchors across documents; we refuse aliases anyway.
        node = super().compose_document()
        self.anchors = {}
        return node

    def compose_scalar_node(self, anchor):  # type: ignore[no-untyped-def]
        node = super().compose_scalar_node(anchor)
        if node.style == "":  # libyaml's plain style; the Python parser says None
            node.style = None
        return node


class _CappedSafeLoader(_Guards, yaml.SafeLoader):
    pass


if _CParser is not None:
    class _CappedCLoader(_Guards, yaml.composer.Composer, _CParser, yaml.constructor.SafeConstructor,
                         yaml.resolver.Resolver):
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)


# what the Python reader refuses, and the line breaks it counts that libyaml does not (NEL, LS, PS):
# such text goes through the Python loader alone, so every error and line mark stays its own
_PYTHON_ONLY = re.compile(yaml.reader.Reader.NON_PRINTABLE.pattern + "|[\x85\u2028\u2029]")


def _guarded(text: str, max_bytes: int, use):  # type: ignore[no-untyped-def]
    """Run `use(loader)` on a capped, alias-refusing loader, turning every YAML failure into
    FrontmatterError."""
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise FrontmatterError(f"YAML larger than {max_bytes} bytes")
    if _CParser is not None and isinstance(text, str) and not _PYTHON_ONLY.search(text):
        loader = _CappedCLoader(text)
        try:
            return use(loader)
        except FrontmatterError:
            raise
        except Exception:  # noqa: BLE001 - the Python loader gives the answer, or the error
            pass
        finally:
            loader.dispose()
    loader = None
    try:
        loader = _CappedSafeLoader(text)  # its reader refuses some characters right here
        return use(loader)
    except FrontmatterError:
        raise
    except RecursionError as exc:
        raise FrontmatterError("YAML nested too deeply") from exc
    except yaml.YAMLError as exc:
        raise FrontmatterError(f"invalid YAML: {str(exc).splitlines()[0]}") from exc
    finally:
        if loader is not None:
            loader.dispose()


def safe_load_yaml(text: str, max_bytes: int = MAX_FRONTMATTER_BYTES) -> Any:
    """Load one YAML document safely; raise FrontmatterError on anything suspicious. The block style
    `dump_yaml` writes is read by kctui.core.yaml_block first (the same answer, several times faster);
    whatever it does not read goes through the guarded loader."""
    if (isinstance(text, str) and len(text) <= max_bytes and not _PYTHON_ONLY.search(text)
            and len(text.encode("utf-8")) <= max_bytes):
        got = read_block(text, MAX_DEPTH)
        if got is not NOT_READ:
            return got
    return _guarded(text, max_bytes, lambda loader: loader.get_single_data())


def compose_yaml(text: str, max_bytes: int = MAX_FRONTMATTER_BYTES) -> yaml.Node | None:
    """Compose one YAML document into a node tree (with line positions) under the same guards as
    `safe_load_yaml`: size cap, aliases refused, nesting capped. Raises FrontmatterError."""
    return _guarded(text, max_bytes, _single_node)


def _single_node(loader: Any) -> yaml.Node | None:
    """`get_single_node`, in one loop over the C parser's events where it can be: the node tree the
    composer (with `_Guards`) builds — the same nodes, tags, marks and styles, the same errors — without
    its five Python calls per node (a header of release cycles has thousands of nodes)."""
    if _CParser is None or not isinstance(loader, _CappedCLoader) or loader.yaml_path_resolvers:
        return loader.get_single_node()
    loader.get_event()  # STREAM-START
    if loader.check_event(yaml.StreamEndEvent):
        loader.get_event()
        return None
    loader.get_event()  # DOCUMENT-START
    node = _compose_events(loader)
    loader.get_event()  # DOCUMENT-END
    if not loader.check_event(yaml.StreamEndEvent):  # (the Python loader then says what is wrong)
        raise yaml.composer.ComposerError("expected a single document in the stream")
    loader.get_event()
    return node


def _compose_events(loader: Any) -> yaml.Node:
    """One document's root node from the loader's events: `Composer.compose_node` unrolled, with the
    guards' checks in their order (an alias, then the nesting cap, then a duplicate anchor)."""
    get, resolve = loader.get_event, loader.resolve
    tags: dict[tuple, str] = {}  # a scalar's implicit tag by its text: values recur (`eol: false`)
    anchors: dict[str, yaml.Node] = {}
    open_: list[tuple[yaml.Node, list]] = []  # the collections being filled, each with its pending key
    root = None
    while True:
        event = get()
        kind = type(event)
        if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            open_.pop()[0].end_mark = event.end_mark
            if not open_:
                return root  # type: ignore[return-value]
            continue
        if kind is yaml.AliasEvent:
            raise FrontmatterError(f"YAML aliases are not allowed (line {event.start_mark.line + 1})")
        collection = kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent
        if collection and len(open_) + 1 > MAX_DEPTH:
            raise FrontmatterError(f"YAML nested deeper than {MAX_DEPTH} levels")
        anchor = event.anchor
        if anchor is not None and anchor in anchors:
            raise yaml.composer.ComposerError(f"found duplicate anchor {anchor!r}")
        node = _node(event, kind, resolve, tags)
        if anchor is not None:
            anchors[anchor] = node
        if not open_:
            root = node
        else:  # a sequence's next item, a mapping's key (held until its value comes) or its value
            parent, pending = open_[-1]
            if type(parent) is yaml.SequenceNode:
                parent.value.append(node)
            elif pending:
                parent.value.append((pending.pop(), node))
            else:
                pending.append(node)
        if collection:
            open_.append((node, []))
        elif not open_:
            return node


def _node(event: Any, kind: type, resolve: Any, tags: dict[tuple, str]) -> yaml.Node:
    """The node a scalar or a collection's start event opens, its tag resolved as the composer does (a
    collection's items come later)."""
    tag = event.tag
    if kind is yaml.ScalarEvent:
        if tag is None or tag == "!":
            tag = tags.get((event.value, event.implicit))
            if tag is None:
                tag = tags[event.value, event.implicit] = resolve(yaml.ScalarNode, event.value, event.implicit)
        return yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark,
                               style=None if event.style == "" else event.style)  # libyaml's plain style is ""
    node_class = yaml.SequenceNode if kind is yaml.SequenceStartEvent else yaml.MappingNode
    if tag is None or tag == "!":
        tag = resolve(node_class, None, event.implicit)
    return node_class(tag, [], event.start_mark, None, flow_style=event.flow_style)


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """Return (frontmatter text or None when absent, body, number of lines the header used).

    Raises FrontmatterError when the document opens a frontmatter block that never closes.
    """
    if not (text.startswith("---\n") or text.startswith("---\r\n") or text.rstrip("\r\n") == "---"):
        return None, text, 0
    lines = text.splitlines(keepends=True)
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") in ("---", "..."):
            header = "".join(lines[1:i])
            body = "".join(lines[i + 1 :])
            return header, body, i + 1
    raise FrontmatterError("frontmatter opened with '---' is never closed")


def parse_document(text: str, max_bytes: int = MAX_FRONTMATTER_BYTES) -> tuple[dict[str, Any] | None, str, int]:
    """Split and load. Returns (mapping or None when there is no frontmatter, body, header line count)."""
    header, body, used = split_frontmatter(text)
    if header is None:
        return None, body, 0
    data = safe_load_yaml(header, max_bytes=max_bytes) if header.strip() else {}
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontmatterError("frontmatter is not a YAML mapping")
    return data, body, used


_DUMP = {"sort_keys": True, "allow_unicode": True, "default_flow_style": False, "width": 10_000}
_LONG_LINE = 4_000
_RESOLVER = yaml.resolver.Resolver()


@lru_cache(maxsize=16384)
def _scalar_tag(value: str, implicit: tuple[bool, bool]) -> str:
    """The tag the resolver gives a scalar's text (a pure function of it while no resolver is a path's and the
    implicit ones are `_RESOLVER`'s: `dump_yaml` checks)."""
    return yaml.resolver.BaseResolver.resolve(_RESOLVER, yaml.ScalarNode, value, implicit)


if _CSafeDumper is not None:
    class _Dumper(_CSafeDumper):  # type: ignore[misc,valid-type]
        """`CSafeDumper`, a scalar's implicit tags remembered by its text: the emitter resolves each scalar twice,
        trying the resolvers' patterns in Python, and a pass writes the same keys and values page after page."""

        def resolve(self, kind, value, implicit):  # type: ignore[no-untyped-def]
            if kind is _SCALAR_NODE:
                return _scalar_tag(value, implicit)
            return _RESOLVE(self, kind, value, implicit)


_SCALAR_NODE, _RESOLVE = yaml.ScalarNode, yaml.resolver.BaseResolver.resolve


def _tags_cached() -> bool:
    """Are `_Dumper`'s resolvers those `_tag` answers for (none of a path, the implicit ones `_RESOLVER`'s)?"""
    return not _Dumper.yaml_path_resolvers and _Dumper.yaml_implicit_resolvers is _RESOLVER.yaml_implicit_resolvers


def dump_yaml(data: Any) -> str:
    """Deterministic YAML for frontmatter we write (sorted keys, block style, UTF-8): the Python
    emitter's bytes, through libyaml where that writes the same."""
    if _CSafeDumper is not None:
        node = node_of(data)  # (the representer's nodes, made without its Python calls per value)
        dumper = _Dumper if _tags_cached() else _CSafeDumper
        text = emit(node, dumper, **_DUMP) if node is not None else yaml.dump(data, Dumper=dumper, **_DUMP)
        # libyaml escapes what Python writes as is (characters beyond the BMP): any escape, or a line
        # long enough to fold, and the Python emitter writes the text instead
        if "\\" not in text and not any(len(x) > _LONG_LINE for x in text.split("\n")) and "\x85" not in text:
            return text
    text = yaml.safe_dump(data, **_DUMP)
    if "\x85" in text:  # a NEL the emitter left raw in a scalar reads back as a line break: every scalar escaped
        return yaml.safe_dump(data, **_DUMP, default_style='"')
    return text

