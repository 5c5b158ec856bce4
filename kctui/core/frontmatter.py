"""YAML frontmatter: split a Markdown document and load its header through a safe, capped loader.

The loader is `yaml.SafeLoader` with aliases refused (a 342-byte alias bomb expands to hundreds of
millions of nodes when walked), a size cap (64 KiB by default) and a nesting cap.
"""

from __future__ import annotations

from typing import Any

import yaml

MAX_FRONTMATTER_BYTES = 64 * 1024
MAX_DEPTH = 64


class FrontmatterError(ValueError):
    """The frontmatter is missing, unclosed, too large or not safe YAML."""


class _CappedSafeLoader(yaml.SafeLoader):
    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

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


def _guarded(text: str, max_bytes: int, use):  # type: ignore[no-untyped-def]
    """Run `use(loader)` on a capped, alias-refusing loader, turning every YAML failure into
    FrontmatterError."""
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise FrontmatterError(f"YAML larger than {max_bytes} bytes")
    loader = _CappedSafeLoader(text)
    try:
        return use(loader)
    except FrontmatterError:
        raise
    except RecursionError as exc:
        raise FrontmatterError("YAML nested too deeply") from exc
    except yaml.YAMLError as exc:
        raise FrontmatterError(f"invalid YAML: {str(exc).splitlines()[0]}") from exc
    finally:
        loader.dispose()


def safe_load_yaml(text: str, max_bytes: int = MAX_FRONTMATTER_BYTES) -> Any:
    """Load one YAML document safely; raise FrontmatterError on anything suspicious."""
    return _guarded(text, max_bytes, lambda loader: loader.get_single_data())


def compose_yaml(text: str, max_bytes: int = MAX_FRONTMATTER_BYTES) -> "yaml.Node | None":
    """Compose one YAML document into a node tree (with line positions) under the same guards as
    `safe_load_yaml`: size cap, aliases refused, nesting capped. Raises FrontmatterError."""
    return _guarded(text, max_bytes, lambda loader: loader.get_single_node())


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


def dump_yaml(data: Any) -> str:
    """Deterministic YAML for frontmatter we write (sorted keys, block style, UTF-8)."""
    return yaml.safe_dump(data, sort_keys=True, allow_unicode=True, default_flow_style=False, width=10_000)
