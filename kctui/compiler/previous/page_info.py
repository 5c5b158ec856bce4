"""One compiled page summarised as compiler state (`PageInfo`): its class, title, aliases, sources with
their digests, outgoing links and the actor that wrote it — read from the page's own bytes."""

from __future__ import annotations

from typing import NamedTuple

from kctui.compiler.trust.decided_pages import encoded
from kctui.compiler.trust.stale import Clock, staleness
from kctui.core.decided_values import DECIDED_KEY
from kctui.core.frontmatter import MAX_FRONTMATTER_BYTES, parse_document, split_frontmatter
from kctui.core.pages import (
    KEPT_KEY,
    KIND_DIRS,
    MAX_FRONTMATTER_SOURCES,
    MENTIONED_ONCE_KEY,
    OWN_COMPANIES_KEY,
    OWN_NAMES_KEY,
    OWN_PEOPLE_KEY,
    RECURRING_KEY,
    TYPE_KINDS,
    Page,
    frontmatter_of,
    kept_entries,
    outgoing_links,
)


class PageInfo(NamedTuple):  # a tuple: a pass makes one per previous page (4× faster than a frozen dataclass)
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
    kept: tuple[tuple[str, str], ...] = ()  # (source, seen digest) of each claim a person kept (`kept_claims`)
    stale: Clock | None = None  # what decides when the page goes stale (kctui.compiler.trust.stale.staleness)
    # a source page: the names its source gives pages of their own (`own_names`); None: not recorded (an
    # older pass's page, or not a source page)
    own: tuple[str, ...] | None = None
    people: tuple[str, ...] = ()  # a source page: the people its source names by their full name (`own_people`)
    # the decisions a person made on the page's conflicts, each as JSON (`decided_values`,
    # kctui.compiler.trust.decided_pages): every page a pass builds is flagged from them
    decided: tuple[str, ...] = ()
    companies: tuple[str, ...] = ()  # … and the names of several words it types as a company (`own_companies`)


def _names(value: object) -> tuple[str, ...]:
    return tuple(str(n) for n in value) if isinstance(value, list) else ()


def _recorded_names(value: object) -> tuple[str, ...] | None:
    return tuple(str(n) for n in value) if isinstance(value, list) else None


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
        kept=tuple((str(e.get("source") or ""), str(e.get("seen") or "")) for e in kept_entries(data)),
        stale=staleness(text, data),
        own=_recorded_names(data.get(OWN_NAMES_KEY)) if kind == "source" else None,
        people=_names(data.get(OWN_PEOPLE_KEY)) if kind == "source" else (),
        decided=encoded(data),
        companies=_names(data.get(OWN_COMPANIES_KEY)) if kind == "source" else (),
    )


def link_styles(raw: bytes) -> tuple[bool, bool]:
    """Whether the bytes hold a wikilink (`[[`) and a Markdown site link (`](/`)."""
    return b"[[" in raw, b"](/" in raw


def info_of_rendered(page: Page, body: str, text: str) -> PageInfo | None:
    """`page_info(text, page.slug)` for `text = render_page(page, …, body)`, taken from the page instead of
    read back from the YAML it wrote; None when the text might read back otherwise — a value that is not a
    plain printable string, YAML the capped loader would refuse (too large, an alias), or a header that
    does not end where it was written — and then the text is parsed as any page is."""
    if KEPT_KEY in page.extra or DECIDED_KEY in page.extra:  # rare (a person decided): read back as any page is
        return None
    header, rest, _ = split_frontmatter(text)
    if not _reads_back(header, rest, body):
        return None
    names = _mention_names(page)
    if names is None:
        return None
    passing, recurring, own, people, companies = names
    sources = tuple((s.resource, s.digest) for s in page.sources[:MAX_FRONTMATTER_SOURCES])
    texts = [page.title, page.description, page.compile_status, page.generated_by, *page.aliases, *passing,
             *recurring, *(own or ()), *people, *companies, *(r for pair in sources for r in pair)]
    if page.kind not in KIND_DIRS or not all(isinstance(t, str) and t.isprintable() for t in texts):
        return None
    return PageInfo(kind=page.kind, slug=page.slug, title=page.title, description=page.description,
                    aliases=tuple(page.aliases), sources=sources, compile_status=page.compile_status,
                    links=tuple(sorted(outgoing_links(rest))), generated_by=page.generated_by,
                    passing=passing, recurring=recurring, stale=staleness(text, frontmatter_of(page)), own=own,
                    people=people, companies=companies)


def _reads_back(header: str | None, rest: str, body: str) -> bool:
    """The header ends where it was written, and the capped loader takes it (not too large, no alias)."""
    if header is None or rest != "\n" + body or len(header.encode("utf-8")) > MAX_FRONTMATTER_BYTES:
        return False
    return "&id" not in header and "*id" not in header  # the emitter's anchors: the loader refuses aliases


def _mention_names(page: Page) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...] | None,
                                         tuple[str, ...], tuple[str, ...]] | None:
    """A source page's (names mentioned once, those of them named elsewhere, its own names or None when
    not recorded, its people, its companies); ((), (), None, (), ()) for another page; None when one of them is
    not a list."""
    if page.kind != "source":
        return (), (), None, (), ()
    once, elsewhere, own, people, companies = (page.extra.get(k) for k in (
        MENTIONED_ONCE_KEY, RECURRING_KEY, OWN_NAMES_KEY, OWN_PEOPLE_KEY, OWN_COMPANIES_KEY))
    if not all(v is None or isinstance(v, list) for v in (once, elsewhere, own, people, companies)):
        return None
    return tuple(once or ()), tuple(elsewhere or ()), None if own is None else tuple(own), tuple(people or ()), \
        tuple(companies or ())
