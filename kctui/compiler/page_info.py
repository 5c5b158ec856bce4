"""One compiled page summarised as compiler state (`PageInfo`): its class, title, aliases, sources with
their digests, outgoing links and the actor that wrote it — read from the page's own bytes."""

from __future__ import annotations

from dataclasses import dataclass

from kctui.core.frontmatter import parse_document
from kctui.core.pages import MENTIONED_ONCE_KEY, RECURRING_KEY, TYPE_KINDS, outgoing_links


@dataclass(frozen=True)
class PageInfo:
    kind: str
    slug: str
    title: str
    description: str
    aliases: tuple[str, ...]
    sources: tuple[tuple[str, str], ...]  # (resource, digest)
    compile_status: str
    links: tuple[str, ...]  # slugs the body links to
    generated_by: str = ""
    passing: tuple[str, ...] = ()  # a source page: the names its source mentions once (frontmatter `mentioned_once`)
    recurring: tuple[str, ...] = ()  # … and those of them another source names too (`mentioned_elsewhere`)


def _names(value: object) -> tuple[str, ...]:
    return tuple(str(n) for n in value) if isinstance(value, list) else ()


def page_info(text: str, slug: str) -> PageInfo:
    data, body, _ = parse_document(text)
    data = data or {}
    kind = TYPE_KINDS.get(str(data.get("type")))
    if not kind:
        raise ValueError(f"not a compiled page (type {data.get('type')!r})")
    sources = tuple(
        (str(s.get("resource", "")), str(s.get("digest", "")))
        for s in data.get("sources") or []
        if isinstance(s, dict)
    )
    return PageInfo(
        kind=kind,
        slug=slug,
        title=str(data.get("title", slug)),
        description=str(data.get("description", "")),
        aliases=tuple(str(a) for a in data.get("aliases") or []),
        sources=sources,
        compile_status=str(data.get("compile_status", "compiled")),
        links=tuple(sorted(outgoing_links(body))),
        generated_by=str((data.get("generated") or {}).get("by", "")) if isinstance(data.get("generated"), dict) else "",
        passing=_names(data.get(MENTIONED_ONCE_KEY)) if kind == "source" else (),
        recurring=_names(data.get(RECURRING_KEY)) if kind == "source" else (),
    )


def link_styles(raw: bytes) -> tuple[bool, bool]:
    """Whether the bytes hold a wikilink (`[[`) and a Markdown site link (`](/`)."""
    return b"[[" in raw, b"](/" in raw
