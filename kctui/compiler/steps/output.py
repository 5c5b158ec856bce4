"""Writing a pass's result: pages (unchanged ones carried byte for byte), `index.md`, `log.md` and the
link check (the review manifest and the change brief beside the staged wiki: kctui.compiler.steps.brief_files)."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING

from kctui.compiler.previous.page_info import PageInfo, info_of_rendered, link_styles, page_info
from kctui.compiler.previous.page_memo import PageFile
from kctui.compiler.previous.prelink import Prelink, clear_output, remove_entry
from kctui.compiler.previous.wiki import (
    PreviousWiki,
    file_identity,
    racily_clean,
    stat_key,
)
from kctui.compiler.steps.index_log import IndexEntry, index_text, log_entry, render_log
from kctui.core.pages import (
    KIND_DIRS,
    Page,
    link,
    outgoing_links,
    parse_page,
    render_body,
    render_page,
)

if TYPE_CHECKING:
    from kctui.compiler.contract import CompileRequest
    from kctui.compiler.trust.changes import ConflictReport, PageUpdate, PassContext


def wrong_style(raw: bytes, style: str) -> bool:
    """A previous page written with the other link style must be re-rendered."""
    wiki, md = link_styles(raw)
    return wiki if style == "markdown" else md


class PageWriter:
    def __init__(self, request: CompileRequest, prev: PreviousWiki, version: str) -> None:
        self.request = request
        self.prev = prev
        self.version = version
        self.style = request.link_style if request.link_style in ("wikilink", "markdown") else "wikilink"
        self.pages: dict[str, Page] = {}  # every touched page written as built, changed or not
        self.rendered: dict[str, str] = {}  # slug -> text of pages whose bytes changed
        self.text_kinds: dict[str, str] = {}  # slug -> class of pages written as text (held, flagged)
        self.infos: dict[str, PageInfo] = {}
        self.digests: dict[str, str] = {}
        self.files: dict[str, PageFile] = {}  # slug -> the page file written or carried (for the page memo)
        self.styles: dict[str, tuple[bool, bool]] = {}  # slug -> link_styles of the bytes written
        self._links: dict[str, str] | None = None
        self.link_unchanged = True
        self.prelink: Prelink | None = None  # the staged page folders linked ahead (kctui.compiler.previous.prelink)
        self._parsed: dict[str, Page | None] = {}
        self._infos_of: dict[str, PageInfo] = {}  # a text `render` wrote -> its PageInfo (as page_info reads it)
        self._links_of: dict[str, tuple[str, ...]] = {}  # … -> outgoing_links(text), when its body's are all

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
        """Render `page` and write it; True when its bytes differ from the previous page (then it
        carries this job's timestamps), False when the previous bytes stand."""
        text = self.render(page, old, ctx)
        self.keep(page, text)
        return text is not None

    def render(self, page: Page, old: Page | None, ctx: PassContext) -> str | None:
        """The page's text, or None when it is byte for byte the previous page (`old`, parsed from the
        previous wiki; then the page keeps its timestamps). Nothing is written yet."""
        body = render_body(page, self._source_links(ctx), self.style)
        if old is not None and old.generated_by == self.version:  # another version's page is always rewritten
            page.generated_by, page.generated_at, page.last_updated = old.generated_by, old.generated_at, old.last_updated
            raw = self.prev.raw.get(page.slug, b"")
            if raw.endswith(body.encode("utf-8")) and render_page(page, {}, self.style, body).encode("utf-8") == raw:
                return None
        page.generated_by = self.version
        page.generated_at = page.last_updated = self.request.created_at
        text = render_page(page, {}, self.style, body)
        info = info_of_rendered(page, body, text)
        if info is not None:
            self._infos_of[text] = info
            head = text[:len(text) - len(body)]
            if "[[" not in head and "](" not in head and "`" not in head and head[-1:] not in ("[", "]"):
                # no link or code span starts before the body: the text links where its body does
                self._links_of[text] = info.links
        return text

    def keep(self, page: Page, text: str | None) -> None:
        """Write `page` as built (`text` from `render`; None: the previous bytes stand)."""
        self.pages[page.slug] = page
        self.text_kinds.pop(page.slug, None)
        if text is None:
            self.rendered.pop(page.slug, None)
        else:
            self.rendered[page.slug] = text

    def put_text(self, slug: str, kind: str, text: str) -> None:
        """Write a page as text (a held page keeping its body, a flagged one); its index line comes
        from the text itself. Bytes equal to the previous page's keep that file."""
        self.pages.pop(slug, None)
        self.text_kinds[slug] = kind
        if self.prev.raw.get(slug) == text.encode("utf-8"):
            self.rendered.pop(slug, None)
        else:
            self.rendered[slug] = text

    def current_text(self, slug: str) -> str | None:
        """What this pass writes for `slug` so far: its new text, else the previous page's."""
        if slug in self.rendered:
            return self.rendered[slug]
        raw = self.prev.raw.get(slug)
        return raw.decode("utf-8") if raw is not None else None

    def finish(self, removed: list[str], ctx: PassContext) -> dict[str, str]:
        """slug -> page class of every page of the new wiki."""
        final = {slug: info.kind for slug, info in self.prev.pages.items() if slug not in removed}
        for slug, page in self.pages.items():
            final[slug] = page.kind
        final.update(self.text_kinds)
        return final

    def check_links(self, final: dict[str, str]) -> list[str]:
        """`page → target` for every link of the new wiki to a page it does not have (sorted)."""
        rendered, pages = self.rendered, self.prev.pages
        targets: set[str] = set()
        generation = self.prev.generation
        if generation is not None and generation.derived.get("links_resolve") and final.keys() >= pages.keys():
            # the previous wiki is a generation whose every link resolved, and every one of its pages is
            # still a page: only the links of the pages written anew can point nowhere
            links_of = self._links_of
            for slug, text in rendered.items():
                if slug in final:
                    links = links_of.get(text)
                    targets.update(outgoing_links(text) if links is None else links)
            if targets.issubset(final):
                return []
            targets.clear()
        # the common case, checked at once: every target of every page is a page of the new wiki (the
        # links `render` read from a text's body are the text's, as above)
        for slug in final:
            text = rendered.get(slug)
            links = self._links_of.get(text) if text is not None else pages[slug].links
            targets.update(outgoing_links(text) if links is None else links)
        return [] if targets.issubset(final) else self._dangling(final)

    def _dangling(self, final: dict[str, str]) -> list[str]:
        dangling: list[str] = []
        for slug in sorted(final):
            if slug in self.rendered:
                targets = outgoing_links(self.rendered[slug])
            else:
                targets = self.prev.pages[slug].links  # sorted and unique (page_info)
            if not all(map(final.__contains__, targets)):
                dangling += [f"{slug} → {t}" for t in sorted(set(targets)) if t not in final]
        return dangling

    def write_all(self, final: dict[str, str], updates: list[PageUpdate], conflicts: list[ConflictReport],
                  warnings: list[str], check_stop=lambda: None, held: int = 0,  # noqa: ANN001
                  tick=lambda done, total, current: None) -> None:  # noqa: ANN001
        """The staged wiki: every page of `final` (rendered ones written, unchanged ones carried), then
        `index.md` and `log.md`."""
        out = Path(self.request.output_path)
        prelinked = self.prelink is not None and self.link_unchanged and self.prelink.wait()
        if not prelinked:
            clear_output(out)
        for folder in KIND_DIRS.values():
            (out / folder).mkdir(parents=True, exist_ok=True)
        prev_root = self.request.previous_wiki_path
        dirs, src_dirs = _open_dirs(out, prev_root)
        try:
            entries = self._stage_pages(final, dirs, src_dirs, prelinked, check_stop, tick)
        finally:
            for fd in [*dirs.values(), *src_dirs.values()]:
                if fd is not None:
                    os.close(fd)
        tick(len(final), len(final) + 2, "index.md")
        index = index_text(entries).encode("utf-8")
        # an index that stands is the previous one's file, linked as carried pages are (not in a dry run)
        if not (self.link_unchanged and prev_root is not None
                and link_same(Path(prev_root) / "index.md", out / "index.md", index)):
            write_file(out / "index.md", index)
        tick(len(final) + 1, len(final) + 2, "log.md")
        self._write_log(out, updates, conflicts, warnings, held)

    def _stage_pages(self, final: dict[str, str], dirs: dict[str, int], src_dirs: dict[str, int | None],
                     prelinked: bool, check_stop, tick) -> list[IndexEntry]:  # noqa: ANN001
        """Every page into the staged folders (what the prelink carried taken at once, the rest page by
        page), what the previous generation had and this one does not removed; the index entries."""
        # what the prelink made, listed once: a carried page is checked by its entry, without a stat
        staged = {kind: {e.name: e for e in os.scandir(fd)} for kind, fd in dirs.items()} if prelinked else {}
        order = sorted(final)
        carried = self._carry_linked(order, final, staged) if prelinked else set()
        entries = [_tuple_new(IndexEntry, (final[slug], slug, self.prev.pages[slug].title,
                                           self.prev.pages[slug].description)) for slug in carried]
        for n, slug in enumerate(order):
            if n % 200 == 0:
                check_stop()
                tick(n, len(final) + 2, f"{KIND_DIRS[final[slug]]}/{slug}.md")
            if slug not in carried:
                entries.append(self._stage_page(slug, final[slug], dirs, src_dirs, staged, prelinked))
        if prelinked:  # what the previous generation had and this one does not
            for kind, fd in dirs.items():
                for name in staged[kind]:
                    if not (name.endswith(".md") and final.get(name[:-3]) == kind):
                        remove_entry(name, fd)
        return entries

    def _write_log(self, out: Path, updates: list[PageUpdate], conflicts: list[ConflictReport], warnings: list[str],
                   held: int) -> None:
        """`log.md`: the previous log with this pass's entry appended."""
        kinds = [u.kind for u in updates if u.written]
        entry = log_entry(
            at=self.request.created_at, job_id=self.request.job_id, trigger=self.request.trigger,
            source_digest=self.request.source_digest, created=kinds.count("create"),
            updated=sum(kinds.count(k) for k in ("append", "revise", "refresh")), archived=kinds.count("supersede"),
            removed=kinds.count("remove"), held=held, conflicts=len(conflicts), warnings=len(warnings),
        )
        log = render_log(self.prev.log_text, self.request.created_at[:10], entry)
        write_file(out / "log.md", log.encode("utf-8"))

    def _carry_linked(self, order: list[str], final: dict[str, str], staged: dict[str, dict]) -> set[str]:
        """The pages carried as the prelink linked them, at once (hundreds per pass): each staged entry a
        regular file with the inode the pass read (`_carried`); when one of them has no link styles
        recorded, none is (they are carried page by page)."""
        prev, rendered, pages = self.prev, self.rendered, self.pages
        identities = prev.identities
        carried = {slug for slug in order if slug not in rendered and slug not in pages
                   and _is_read_file(staged[final[slug]].get(f"{slug}.md"), identities.get(slug))}
        if not all(slug in prev.styles for slug in carried):
            return set()
        prev_digests, prev_styles, prev_pages, racy = prev.digests, prev.styles, prev.pages, prev.racy
        self.digests.update({slug: prev_digests[slug] for slug in carried})
        self.styles.update({slug: prev_styles[slug] for slug in carried})
        self.files.update({slug: PageFile(*identities[slug], racy[slug], prev_digests[slug]) for slug in carried})
        self.infos.update({slug: prev_pages[slug] for slug in carried})
        return carried

    def _stage_page(self, slug: str, kind: str, dirs: dict[str, int], src_dirs: dict[str, int | None],
                    staged: dict[str, dict], prelinked: bool) -> IndexEntry:
        """One page into the staged wiki: a rendered page written (never through a link to the previous
        one), an unchanged one carried; its index entry."""
        name = f"{slug}.md"
        if slug in self.rendered:
            text = self.rendered[slug]
            data = text.encode("utf-8")
            info = self._infos_of.get(text) or page_info(text, slug)
            digest = self.digests[slug] = hashlib.sha256(data).hexdigest()
            self.styles[slug] = link_styles(data)
            if prelinked:
                remove_entry(name, dirs[kind])  # a link to the previous page: never written through
            written_at = time.time_ns()
            st = _write_at(dirs[kind], name, data)
            self.files[slug] = PageFile(*stat_key(st), racily_clean(st.st_mtime_ns, written_at), digest)
        else:
            info = self.prev.pages[slug]
            digest = self.digests[slug] = self.prev.digests[slug]
            self.styles[slug] = self.prev.styles.get(slug) or link_styles(self.prev.raw[slug])
            if not (prelinked and self._carried(slug, dirs[kind], staged[kind].get(name), name, digest)):
                self._carry(slug, dirs[kind], src_dirs[kind], name, digest)
        self.infos[slug] = info
        page = self.pages.get(slug)
        return IndexEntry(kind, slug, page.title if page else info.title, page.description if page else info.description)

    def _carried(self, slug: str, dir_fd: int, entry: os.DirEntry | None, name: str, digest: str) -> bool:
        """An unchanged page the prelink linked (kctui.compiler.previous.prelink), as its staged folder lists it:
        True when the entry is a regular file and the very file the pass read (the inode it recorded, whose
        size and modification time the pass checked when it read the previous wiki); else whatever stands at
        its name is removed and False (the page is then carried one by one). The entry's inode comes with
        the folder's listing: no page is stat'ed again here."""
        identity = self.prev.identities.get(slug)
        if entry is None:
            return False
        if _is_read_file(entry, identity):
            self.files[slug] = PageFile(*identity, self.prev.racy[slug], digest)
            return True
        remove_entry(name, dir_fd)
        return False

    def _carry(self, slug: str, dir_fd: int, src_fd: int | None, name: str, digest: str) -> None:
        """An unchanged page: a hard link to the previous generation's file when that file is still the
        one read (same inode, size and modification time; wiki/ has one writer, which only ever swaps
        whole trees), else a copy of the bytes read."""
        identity = self.prev.identities.get(slug)
        if self.link_unchanged and identity is not None and src_fd is not None:
            try:
                os.link(name, name, src_dir_fd=src_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
                st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
                if file_identity(st) == identity:
                    # the link changes the ctime only (not part of the key): the file holds the bytes it held
                    self.files[slug] = PageFile(*stat_key(st), self.prev.racy[slug], digest)
                    return
                os.unlink(name, dir_fd=dir_fd)
            except OSError:
                self.link_unchanged = False  # another filesystem, or links not allowed: copy from now on
                remove_entry(name, dir_fd)
        written_at = time.time_ns()
        st = _write_at(dir_fd, name, self.prev.raw[slug])
        self.files[slug] = PageFile(*stat_key(st), racily_clean(st.st_mtime_ns, written_at), digest)


def _is_read_file(entry: os.DirEntry | None, identity: tuple | None) -> bool:
    """A staged entry is the very page file the pass read: a regular file with the inode it recorded."""
    return (entry is not None and identity is not None and entry.inode() == identity[1]
            and entry.is_file(follow_symlinks=False))


_tuple_new = tuple.__new__  # IndexEntry's own __new__ without its Python frame (hundreds per pass)


def _write_at(dir_fd: int, name: str, data: bytes) -> os.stat_result:
    """Write a new file `name` in the folder `dir_fd` (it must not exist: a file standing there could be
    a link to the live wiki's); its stat once written."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        return os.fstat(fd)
    finally:
        os.close(fd)


def link_same(previous: Path, target: Path, data: bytes) -> bool:
    """Give `target` (which must not exist) the previous generation's file when it holds exactly `data`:
    a hard link, as a carried page's (a file that stands needs no new inode); True when done. The link
    must be the very file whose bytes were compared (same inode, size and modification time), else it
    is removed and False (then the caller writes `data`)."""
    try:
        fd = os.open(previous, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode) or st.st_size != len(data) or os.read(fd, len(data) + 1) != data:
            return False
    except OSError:
        return False
    finally:
        os.close(fd)
    try:
        os.link(previous, target, follow_symlinks=False)
    except OSError:
        return False
    try:
        if file_identity(os.stat(target, follow_symlinks=False)) == file_identity(st):
            return True
    except OSError:
        pass
    remove_entry(target)
    return False


def write_file(path: Path | str, data: bytes) -> None:
    """Write a new file of the staged output (not atomic: the staged tree is swapped in whole)."""
    with open(path, "wb") as fh:
        fh.write(data)


def _open_dirs(out: Path, prev_root: Path | None) -> tuple[dict[str, int], dict[str, int | None]]:
    """The staged wiki's page folders, and the previous generation's (None where it has none), opened."""
    dirs: dict[str, int] = {}
    src_dirs: dict[str, int | None] = {}
    try:
        for kind, folder in KIND_DIRS.items():
            dirs[kind] = os.open(out / folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                src_dirs[kind] = (os.open(os.path.join(prev_root, folder), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                                  if prev_root is not None else None)
            except OSError:
                src_dirs[kind] = None
    except BaseException:
        for fd in [*dirs.values(), *src_dirs.values()]:
            if fd is not None:
                os.close(fd)
        raise
    return dirs, src_dirs
