"""Writing a pass's result: pages (unchanged ones copied byte for byte), `index.md`, `log.md`, the
link check, and the change brief beside the staged wiki (`<job>/brief.md`)."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from kctui.compiler.index_log import IndexEntry, log_entry, render_index, render_log
from kctui.compiler.wiki_state import PageInfo, PreviousWiki, file_identity, page_info
from kctui.core.brief import BriefClaimChange, BriefConflict, BriefData, BriefPage, render_brief
from kctui.core.pages import KIND_DIRS, Page, citation, link, outgoing_links, parse_page, render_body, render_page

if TYPE_CHECKING:
    from kctui.compiler.extract import Extraction
    from kctui.compiler.pipeline import PassResult
    from kctui.compiler.runner import CompileRequest
    from kctui.compiler.update import ConflictReport, PageUpdate, PassContext


def wrong_style(raw: bytes, style: str) -> bool:
    """A previous page written with the other link style must be re-rendered."""
    return (b"[[" in raw) if style == "markdown" else (b"](/" in raw)


class PageWriter:
    def __init__(self, request: CompileRequest, prev: PreviousWiki, version: str) -> None:
        self.request = request
        self.prev = prev
        self.version = version
        self.style = request.link_style if request.link_style in ("wikilink", "markdown") else "wikilink"
        self.pages: dict[str, Page] = {}  # every touched page, changed or not
        self.rendered: dict[str, str] = {}  # slug -> text of pages whose bytes changed
        self.infos: dict[str, PageInfo] = {}
        self.digests: dict[str, str] = {}
        self._links: dict[str, str] | None = None
        self.link_unchanged = True
        self._parsed: dict[str, Page | None] = {}

    def previous_page(self, slug: str) -> Page | None:
        if slug not in self._parsed:
            raw = self.prev.raw.get(slug)
            try:
                self._parsed[slug] = parse_page(raw.decode("utf-8"), slug) if raw is not None else None
            except ValueError:
                self._parsed[slug] = None
        return self._parsed[slug]

    def previous_page_copy(self, slug: str) -> Page | None:
        """A fresh parse of the previous page (for comparing against a page built from the cached one)."""
        raw = self.prev.raw.get(slug)
        return parse_page(raw.decode("utf-8"), slug) if raw is not None else None

    def _source_links(self, ctx: PassContext) -> dict[str, str]:
        if self._links is None:
            self._links = {path: link(slug, ctx.titles.get(slug, path), "source", self.style)
                           for path, slug in ctx.source_slugs.items()}
        return self._links

    def put(self, page: Page, old: Page | None, ctx: PassContext) -> bool:
        """Render `page`; True when its bytes differ from the previous page (then it carries this
        job's timestamps), False when the previous bytes stand."""
        body = render_body(page, self._source_links(ctx), self.style)
        self.pages[page.slug] = page
        if old is not None and old.generated_by == self.version:  # another version's page is always rewritten
            page.generated_by, page.generated_at, page.last_updated = old.generated_by, old.generated_at, old.last_updated
            raw = self.prev.raw.get(page.slug, b"")
            if raw.endswith(body.encode("utf-8")) and render_page(page, {}, self.style, body).encode("utf-8") == raw:
                return False
        page.generated_by = self.version
        page.generated_at = page.last_updated = self.request.created_at
        self.rendered[page.slug] = render_page(page, {}, self.style, body)
        return True

    def finish(self, removed: list[str], ctx: PassContext) -> dict[str, str]:
        """slug -> page class of every page of the new wiki."""
        final = {slug: info.kind for slug, info in self.prev.pages.items() if slug not in removed}
        for slug, page in self.pages.items():
            final[slug] = page.kind
        return final

    def check_links(self, final: dict[str, str]) -> list[str]:
        dangling: list[str] = []
        for slug in sorted(final):
            if slug in self.rendered:
                targets = outgoing_links(self.rendered[slug])
            else:
                targets = set(self.prev.pages[slug].links)
            dangling += [f"{slug} → {t}" for t in sorted(targets) if t not in final]
        return dangling

    def write_all(self, final: dict[str, str], updates: list[PageUpdate], conflicts: list[ConflictReport],
                  warnings: list[str], check_stop=lambda: None) -> None:  # noqa: ANN001
        out = Path(self.request.output_path)
        if out.is_symlink():
            out.unlink()
        elif out.exists():
            shutil.rmtree(out)
        for folder in KIND_DIRS.values():
            (out / folder).mkdir(parents=True, exist_ok=True)
        entries: list[IndexEntry] = []
        base = str(out)
        for n, slug in enumerate(sorted(final)):
            if n % 200 == 0:
                check_stop()
            kind = final[slug]
            target = os.path.join(base, KIND_DIRS[kind], f"{slug}.md")
            if slug in self.rendered:
                data = self.rendered[slug].encode("utf-8")
                info = page_info(self.rendered[slug], slug)
                self.digests[slug] = hashlib.sha256(data).hexdigest()
                _write(target, data)
            else:
                info = self.prev.pages[slug]
                self.digests[slug] = self.prev.digests[slug]
                self._carry(slug, kind, target)
            self.infos[slug] = info
            page = self.pages.get(slug)
            entries.append(IndexEntry(kind, slug, page.title if page else info.title,
                                      page.description if page else info.description))
        _write(out / "index.md", render_index(entries).encode("utf-8"))
        kinds = [u.kind for u in updates]
        entry = log_entry(
            at=self.request.created_at, job_id=self.request.job_id, trigger=self.request.trigger,
            source_digest=self.request.source_digest, created=kinds.count("create"),
            updated=sum(kinds.count(k) for k in ("append", "revise", "refresh")), archived=kinds.count("supersede"),
            removed=kinds.count("remove"), held=0, conflicts=len(conflicts), warnings=len(warnings),
        )
        log = render_log(self.prev.log_text, self.request.created_at[:10], entry)
        _write(out / "log.md", log.encode("utf-8"))


    def _carry(self, slug: str, kind: str, target: str) -> None:
        """An unchanged page: a hard link to the previous generation's file when that file is still the
        one read (same inode, size and modification time; wiki/ has one writer, which only ever swaps
        whole trees), else a copy of the bytes read."""
        identity = self.prev.identities.get(slug)
        if self.link_unchanged and identity is not None and self.request.previous_wiki_path is not None:
            source = os.path.join(self.request.previous_wiki_path, KIND_DIRS[kind], f"{slug}.md")
            try:
                os.link(source, target, follow_symlinks=False)
                if file_identity(os.stat(target, follow_symlinks=False)) == identity:
                    return
                os.unlink(target)
            except OSError:
                self.link_unchanged = False  # another filesystem, or links not allowed: copy from now on
        _write(target, self.prev.raw[slug])


def _write(path: Path | str, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)


def brief_data(request: CompileRequest, version: str, result: PassResult, live: dict[str, Extraction],
               dropped_links: list[str], warnings: list[str], timings: list[tuple[str, float]]) -> BriefData:
    ch = result.changes
    pages = [BriefPage(u.page_class, u.slug, u.title, u.kind, u.added, u.revised, u.retracted)
             for u in result.updates if u.kind != "refresh"]
    conflicts = [BriefConflict(c.page_class, c.slug, c.title, c.attribute, c.scope,
                               tuple((x.value, citation(x.evidence)) for x in c.claims)) for c in result.conflicts]
    return BriefData(
        job_id=request.job_id,
        trigger=request.trigger,
        created_at=request.created_at,
        source_digest=request.source_digest,
        compiler=version,
        added=list(ch.added),
        modified=list(ch.modified),
        deleted=list(ch.deleted),
        renamed=list(ch.renamed),
        unchanged=len(ch.unchanged),
        pages=pages,
        refreshed=sum(1 for u in result.updates if u.kind == "refresh"),
        claim_changes=[BriefClaimChange(c.change, c.path, c.subject, c.attribute, c.scope, c.old, c.new)
                       for c in result.claim_changes],
        conflicts=conflicts,
        skipped=[(s.path, s.reason, s.detail) for s in result.skipped],
        warnings=[w for w in warnings if ": skipped (" not in w],
        links_dropped=dropped_links,
        unreached=[(p, len(ex.unreached), ex.unreached[:5]) for p, ex in sorted(live.items()) if ex.unreached],
        dropped_claims=sum(ex.dropped for ex in live.values()),
        timings=timings,
        cache_hits=result.cache_hits,
    )


def write_brief(output_path: Path, brief: BriefData) -> str:
    text = render_brief(brief)
    target = Path(output_path).parent / "brief.md"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".brief.md.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        pass  # the brief is also returned in the report
    return text
