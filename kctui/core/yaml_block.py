"""A fast reader for the block-style YAML that `dump_yaml` writes (kctui.core.frontmatter), used before the
full loader: a page's frontmatter is read back on every pass that touches the page, and a hub page's
list of sources (a hundred mappings) costs milliseconds through PyYAML's composer and constructor.

It reads a strict subset, line by line: mappings of plain or single-quoted keys, sequences (indentless under a key, as
the dumper writes them), `[]` and `{}`, plain scalars and one-line single-quoted scalars. A plain
scalar's type is what PyYAML's own resolver says, and its value is what PyYAML's own constructor
makes (null, bool, int, float; a timestamp or anything rarer is not read here). Anything outside the
subset — a comment, a tag, an anchor or alias, a double-quoted or block scalar, a flow
collection, a tab, a blank line, a line it cannot place, nesting past the cap — gives `NOT_READ`, and
the caller uses the full, guarded loader, whose answer (or error) stands. So the result, when there is
one, is the one the full loader gives; the tests check that against PyYAML on generated documents.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

NOT_READ = object()  # not in the subset: the full loader reads it

_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_BUILD = {
    "tag:yaml.org,2002:null": lambda v: None,
    "tag:yaml.org,2002:bool": lambda v: _CONSTRUCTOR.bool_values[v.lower()],
    "tag:yaml.org,2002:int": lambda v: _CONSTRUCTOR.construct_yaml_int(yaml.ScalarNode("tag:yaml.org,2002:int", v)),
    "tag:yaml.org,2002:float": lambda v: _CONSTRUCTOR.construct_yaml_float(yaml.ScalarNode("tag:yaml.org,2002:float", v)),
}
_STR = "tag:yaml.org,2002:str"
_RESOLVED_FIRST = frozenset(k for k in yaml.resolver.Resolver.yaml_implicit_resolvers if k)  # else a plain scalar is a str
assert None not in yaml.resolver.Resolver.yaml_implicit_resolvers  # no resolver applies to every first character
_INDICATORS = frozenset("?:,[]{}#&*!|>'\"%@`-")
_PLAIN_FIRST_OK = frozenset("-?:")  # indicators that may open a plain scalar when a non-space follows


class _NotRead(Exception):
    pass


def read_block(text: str, max_depth: int) -> Any:
    """The document `text` as the safe loader reads it, or NOT_READ. `text` is assumed to have passed
    the size cap and the check for characters the Python reader refuses."""
    lines = _block_lines(text)
    if lines is None:
        return NOT_READ
    reader = _Reader(lines, max_depth)
    try:
        value = reader.mapping(0, 1)
    except (_NotRead, RecursionError, ValueError, KeyError, TypeError):
        return NOT_READ
    if reader.i != len(lines):
        return NOT_READ
    return value


def _block_lines(text: str) -> list[str] | None:
    """The lines of a block mapping this reader takes on, else None (tabs, other line breaks, a root that
    is no mapping, document markers)."""
    if "\t" in text or "\r" in text or "\ufeff" in text or not text:
        return None
    if "\x85" in text or "\u2028" in text or "\u2029" in text:  # YAML's other line breaks (NEL, LS, PS)
        return None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines or lines[0][:1] == " " or lines[0][:2] == "- " or lines[0] == "-":  # a root that is no mapping
        return None
    if any(line.startswith(("---", "...")) for line in lines):  # document markers
        return None
    return lines


class _Reader:
    def __init__(self, lines: list[str], max_depth: int) -> None:
        self.lines = lines
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        self.i = 0
        self.max_depth = max_depth

    def _node(self, indent: int, depth: int) -> Any:
        line = self.lines[self.i]
        if line[indent:indent + 2] == "- " or line[indent:] == "-":
            return self.sequence(indent, depth)
        return self.mapping(indent, depth)

    def _after_key(self, indent: int, depth: int, *, same_column: bool = True) -> Any:
        """The value of a key (or "-") that ends its line: a block below it, or null. Under a key, a
        sequence may stand at the key's own column (the dumper writes it so); under "-" it may not."""
        if self.i < len(self.lines):
            line = self.lines[self.i]
            at = self.indents[self.i]
            if at > indent or (same_column and at == indent and (line[at:at + 2] == "- " or line[at:] == "-")):
                return self._node(at, depth + 1)
        return None

    def mapping(self, indent: int, depth: int) -> dict:
        if depth > self.max_depth:
            raise _NotRead
        out: dict = {}
        lines, indents = self.lines, self.indents
        while self.i < len(lines):
            line = lines[self.i]
            at = indents[self.i]
            if at < indent:
                break
            content = line[at:]
            if at > indent or content[:2] == "- " or content == "-":
                if at == indent:
                    break  # a sequence at this column ends the mapping (its parent's next item)
                raise _NotRead
            cut = _key_end(content)
            if cut < 0:
                if not content.endswith(":"):
                    raise _NotRead
                key = _plain_key(content[:-1])
                self.i += 1
                out[key] = self._after_key(indent, depth)
                continue
            key = _plain_key(content[:cut])
            self.i += 1
            out[key] = _scalar(content[cut + 2:])
            if self.i < len(lines) and indents[self.i] > indent:  # a deeper line would continue the scalar
                raise _NotRead
        return out

    def sequence(self, indent: int, depth: int) -> list:
        if depth > self.max_depth:
            raise _NotRead
        out: list = []
        lines, indents = self.lines, self.indents
        while self.i < len(lines):
            line = lines[self.i]
            at = indents[self.i]
            if at != indent or not (line[at:at + 2] == "- " or line[at:] == "-"):
                if at > indent:
                    raise _NotRead
                break
            content = line[at + 2:]
            if not content:
                self.i += 1
                out.append(self._after_key(indent, depth, same_column=False))
                continue
            if content[0] == " ":
                raise _NotRead
            if _opens_block(content):
                # an item that opens a block on its own line: read it at the column after "- "
                lines[self.i], indents[self.i] = " " * (indent + 2) + content, indent + 2
                out.append(self._node(indent + 2, depth + 1))
                continue
            self.i += 1
            out.append(_scalar(content))
            if self.i < len(lines) and indents[self.i] > indent:
                raise _NotRead
        return out


def _opens_block(content: str) -> bool:
    """A sequence item's text that is a nested sequence or a mapping, not a scalar."""
    return content[:2] == "- " or content == "-" or (content[0] not in "'\"" and (": " in content or content.endswith(":")))


def _key_end(content: str) -> int:
    """Where a mapping line's key ends (its ": "), or -1: after the closing quote of a quoted key."""
    if content[:1] != "'":
        return content.find(": ")
    at = 1
    while True:
        quote = content.find("'", at)
        if quote < 0:
            raise _NotRead
        if content[quote + 1:quote + 2] == "'":  # '' stands for a quote inside the key
            at = quote + 2
            continue
        return quote + 1 if content[quote + 1:quote + 3] == ": " else -1


def _plain_key(text: str) -> str:
    value = _scalar(text)  # a plain key, or a quoted one (the dumper quotes a key such as 'no')
    if not isinstance(value, str):
        raise _NotRead
    return value


def _scalar(text: str) -> Any:
    if text == "[]":
        return []
    if text == "{}":
        return {}
    value = _atom(text)
    return _atom.__wrapped__(text) if type(value) is float else value  # (a float made anew: a NaN is no other's)


@lru_cache(maxsize=65536)
def _atom(text: str) -> Any:
    """A scalar's value (a str, an int, a float, a bool or None: nothing a caller can change), remembered by
    its text: a page's keys and values recur, and a long-lived worker reads the pages it wrote."""
    first = text[:1]
    if first == "'":
        return _single_quoted(text)
    if not _plain(text):
        raise _NotRead
    if first not in _RESOLVED_FIRST:
        return text
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
    if tag == _STR:
        return text
    build = _BUILD.get(tag)
    if build is None:
        raise _NotRead
    return build(text)


def _single_quoted(text: str) -> str:
    if len(text) < 2 or text[-1] != "'":
        raise _NotRead
    inner = text[1:-1]
    if "'" in inner.replace("''", ""):
        raise _NotRead
    return inner.replace("''", "'")


def _plain(text: str) -> bool:
    """A plain scalar this reader takes as the safe loader would: one line, no comment or ": ", no
    indicator first (but "-", "?" or ":" before a non-space)."""
    if not text or text != text.strip(" ") or ": " in text or " #" in text or text.endswith(":"):
        return False
    first = text[0]
    return first not in _INDICATORS or (first in _PLAIN_FIRST_OK and len(text) > 1 and text[1] != " ")
