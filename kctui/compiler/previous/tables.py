"""What a pass looks up in the previous wiki's page summaries by source: the source page of each source
and the digest it cites, the concept and entity pages citing each source, the pages each source page
links to, the archived source pages and the pages holding each link style.

Made in one walk over the pages; or, for a generation this process wrote (kept in memory, see
kctui.compiler.previous.page_memo), carried forward from the generation before it with only the pages that
changed applied (`patch`): the same tables a walk would make, checked so in the tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kctui.compiler.previous.page_info import PageInfo

if TYPE_CHECKING:
    from kctui.compiler.previous.page_memo import Generation

TOPIC_KINDS = ("concept", "entity")


class WikiTables:
    __slots__ = ("page_of", "digest_of", "claims", "citing", "fed", "outside", "archived", "has_wiki", "has_md")

    def __init__(self, pages: dict[str, PageInfo], styles: dict[str, tuple[bool, bool]] | None = None) -> None:
        """`styles`: every page's link styles (a generation's), or None (the link-style tables are not made)."""
        self.page_of: dict[str, str] = {}  # resource -> its source page (the last in listing order)
        self.digest_of: dict[str, str] = {}  # resource -> the digest that page cites
        self.claims: dict[str, int] = {}  # resource -> how many source pages cite it
        self.citing: dict[str, set[str]] = {}  # resource -> the concept and entity pages citing it
        self.fed: dict[str, frozenset[str]] = {}  # source page -> the concept and entity pages it links to
        self.outside: set[str] = set()  # source pages linking to a slug that is not a page here
        self.archived: set[str] = set()  # archived source pages
        self.has_wiki: set[str] | None = None  # pages whose bytes hold a wikilink (`[[`)
        self.has_md: set[str] | None = None  # … a Markdown site link (`](/`)
        for info in pages.values():
            self._add(info, pages)
        if styles is not None:
            self.has_wiki = {slug for slug in pages if styles[slug][0]}
            self.has_md = {slug for slug in pages if styles[slug][1]}

    def _add(self, info: PageInfo, pages: dict[str, PageInfo]) -> None:
        slug = info.slug
        if info.kind == "source":
            for resource, digest in info.sources:
                self.page_of[resource] = slug
                self.digest_of[resource] = digest
                self.claims[resource] = self.claims.get(resource, 0) + 1
            self._link(info, pages)
            if info.compile_status == "archived":
                self.archived.add(slug)
        else:
            for resource, _ in info.sources:
                self.citing.setdefault(resource, set()).add(slug)

    def _link(self, info: PageInfo, pages: dict[str, PageInfo]) -> None:
        fed = []
        outside = False
        for target in info.links:
            found = pages.get(target)
            if found is None:
                outside = True
            elif found.kind in TOPIC_KINDS:
                fed.append(target)
        self.fed[info.slug] = frozenset(fed)
        if outside:
            self.outside.add(info.slug)
        else:
            self.outside.discard(info.slug)

    def restyle(self, style: str) -> set[str] | None:
        """The pages written in the other link style than `style` (None: not known here)."""
        found = self.has_wiki if style == "markdown" else self.has_md
        return None if found is None else set(found)

    def patch(self, before: Generation, after: Generation, changed: list[str]) -> bool:
        """Turn the tables of `before` into those of `after` — the same pages of the same classes, only
        `changed` different — and True; False when a changed source page cites other sources than it
        did, or a source another source page cites too (the listing order decides those: made again)."""
        old_pages, new_pages = before.pages, after.pages
        if not all(self._patchable(old_pages[slug], new_pages[slug]) for slug in changed):
            return False
        for slug in changed:
            old, new = old_pages[slug], new_pages[slug]
            if new.kind == "source":
                self._patch_source(slug, new, new_pages)
            else:
                self._patch_citing(slug, old, new)
            if self.has_wiki is not None and self.has_md is not None:
                wiki, md = after.styles[slug]
                (self.has_wiki.add if wiki else self.has_wiki.discard)(slug)
                (self.has_md.add if md else self.has_md.discard)(slug)
        return True

    def _patchable(self, old: PageInfo, new: PageInfo) -> bool:
        """The page's class is the same and, for a source page, the sources it cites, which no other
        source page cites."""
        if old.kind != new.kind:
            return False
        return old.kind != "source" or ([r for r, _ in old.sources] == [r for r, _ in new.sources]
                                         and all(self.claims.get(r) == 1 for r, _ in new.sources))

    def _patch_source(self, slug: str, new: PageInfo, new_pages: dict[str, PageInfo]) -> None:
        for resource, digest in new.sources:
            self.digest_of[resource] = digest
        self._link(new, new_pages)
        if new.compile_status == "archived":
            self.archived.add(slug)
        else:
            self.archived.discard(slug)

    def _patch_citing(self, slug: str, old: PageInfo, new: PageInfo) -> None:
        """A concept or entity page: the sources it cites moved from `old`'s to `new`'s."""
        for resource, _ in old.sources:
            holders = self.citing.get(resource)
            if holders is not None:
                holders.discard(slug)
                if not holders:
                    del self.citing[resource]
        for resource, _ in new.sources:
            self.citing.setdefault(resource, set()).add(slug)

    def same_as(self, other: WikiTables) -> bool:
        """Every table equal (the tests compare a carried one with one made from the pages)."""
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)
