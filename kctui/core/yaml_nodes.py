"""The node tree PyYAML's safe representer makes of a page's frontmatter, made without it (issue 31: a
full or incremental pass writes hundreds of frontmatters, and the representer's five Python calls per
value were most of `frontmatter.dump_yaml`).

`node_of(data)` gives the very nodes `SafeRepresenter.represent_data` gives, under `dump_yaml`'s settings
(no default style, block style everywhere, keys sorted): a string, an int, a bool and None as the
scalars of their tags; a list, a tuple and a dict as a sequence and a mapping (a dict's items sorted
when they sort, in their order when they do not), a list, non-empty tuple or dict met again as the same
node (the emitter then writes an anchor and an alias, as PyYAML does). Any other type (a float, a date,
a set, a subclass) gives None: the caller represents that data the usual way.
"""

from __future__ import annotations

import io
from typing import Any

import yaml

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_Scalar, _Sequence, _Mapping = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode


class _Unfit(Exception):
    """A value of a type the representer would treat otherwise."""


def node_of(data: Any) -> yaml.Node | None:
    """The representer's node tree of `data`, or None when it holds a type this does not make."""
    try:
        return _node(data, {})
    except (_Unfit, RecursionError):
        return None


def _node(data: Any, seen: dict[int, yaml.Node]) -> yaml.Node:
    kind = type(data)
    if kind is str:
        return _Scalar(_STR, data)
    if kind is dict or kind is list or kind is tuple:
        shared = kind is not tuple or data != ()  # (the representer's `ignore_aliases`: only the empty tuple)
        if shared and id(data) in seen:
            return seen[id(data)]
        value: list = []
        if kind is dict:
            node: yaml.Node = _Mapping(_MAP, value, flow_style=False)
            if shared:
                seen[id(data)] = node
            items = list(data.items())
            try:
                items = sorted(items)
            except TypeError:
                pass
            for key, item in items:
                value.append((_node(key, seen), _node(item, seen)))
            return node
        node = _Sequence(_SEQ, value, flow_style=False)
        if shared:
            seen[id(data)] = node
        for item in data:
            value.append(_node(item, seen))
        return node
    if kind is bool:
        return _Scalar(_BOOL, "true" if data else "false")
    if kind is int:
        return _Scalar(_INT, str(data))
    if data is None:
        return _Scalar(_NULL, "null")
    raise _Unfit


def emit(node: yaml.Node, dumper: type, **settings: Any) -> str:
    """What `yaml.dump` writes for the data `node` represents, through `dumper` with `settings` (one
    document, to a string)."""
    stream = io.StringIO()
    emitter = dumper(stream, **settings)
    try:
        emitter.open()
        emitter.serialize(node)
        emitter.close()
    finally:
        emitter.dispose()
    return stream.getvalue()
