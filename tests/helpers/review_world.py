"""Issue 13's random world of the review property tests (`tests/integration/test_review_property.py`,
and issue 35's hunk decisions and undos on top of it): a small base, random source edits, compiles and
decisions, and the invariants checked after every step (see `World.check`)."""

from __future__ import annotations

import hashlib
import itertools
import threading
from pathlib import Path

from hypothesis import strategies as st

from kctui import paths
from kctui.core.frontmatter import parse_document
from kctui.core.pages import KEPT_MARK, kept_entries, kept_match, parse_page
from kctui.services import jobs, review, revisions
from kctui.services.errors import Conflict
from kctui.services.local_transport import LocalTransport
from kctui.services.worker import run_worker
from tests.helpers import make_base

PRICES = ["$1,100", "$2,400", "$2,750"]
TERMS = ["12", "24"]
_n = itertools.count()


def vendor(price: str, term: str, extra: bool) -> str:
    lead = "Reviewed every quarter.\n\n" if extra else ""
    return f"# Acme Hosting\n\n{lead}Price: {price} / month\n\nContract term: {term} months\n"


def notes(price: str) -> str:
    return f"# Acme Hosting\n\nOur notes say:\n\nPrice: {price} / month\n"


edit = st.one_of(
    st.tuples(st.just("price"), st.sampled_from(PRICES)),
    st.tuples(st.just("term"), st.sampled_from(TERMS)),
    st.tuples(st.just("extra"), st.booleans()),
    st.tuples(st.just("notes"), st.sampled_from(PRICES + [None])),
    st.tuples(st.just("gone"), st.booleans()),  # vendors.md deleted (its pages archived) or back
)
decide = st.tuples(st.just("decide"), st.integers(0, 5), st.sampled_from(
    ["approve", "reject", "use_new", "keep", "dismiss"]))
# a round: a few edits, usually a compile, a few decisions (flattened into steps)
round_ = st.tuples(st.lists(edit, max_size=2), st.sampled_from([True, True, True, False]),
                   st.lists(decide, max_size=2)).map(lambda r: r[0] + ([("compile",)] if r[1] else []) + r[2])
rounds = st.lists(round_, min_size=1, max_size=5).map(lambda rs: [s for r in rs for s in r])


def says(text: str, c) -> bool:  # noqa: ANN001
    return c.value in " ".join(text.split("\n")[c.evidence.start - 1: c.evidence.end])


def digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


class World:
    def __init__(self, svc, root: Path) -> None:
        self.svc = svc
        self.ws = root / f"ws{next(_n)}"
        self.ws.mkdir()
        self.ws = self.ws.resolve()
        self.state = {"price": "$2,400", "term": "12", "extra": False, "notes": None, "gone": False}
        self.kb = make_base(svc, self.ws, "Prop", files=self.files())
        self.src = paths.sources_path(self.ws, self.kb.id)
        self.wiki = paths.wiki_path(self.ws, self.kb.id)
        self.seen: dict[str, str] = {}  # digest -> text of every source revision that existed
        self.compiled: dict[str, str] = {}  # path -> digest of the sources the last compile read
        self.remember()

    def files(self) -> dict[str, str]:
        out = {"other.md": "# Other\n\nOther is a thing that stays.\n"}
        if not self.state["gone"]:
            out["vendors.md"] = vendor(self.state["price"], self.state["term"], self.state["extra"])
        if self.state["notes"]:
            out["notes.md"] = notes(self.state["notes"])
        return out

    def remember(self) -> None:
        for text in self.files().values():
            self.seen[digest(text)] = text

    def apply(self, s: tuple) -> None:
        if s[0] == "compile":
            jobs.request_compile(self.svc, self.ws, self.kb.id)
            [outcome] = run_worker(LocalTransport(self.svc), stop_event=threading.Event(), once=True)
            assert outcome.result == "succeeded", outcome
            self.compiled = {rel: digest(text) for rel, text in self.files().items()}
        elif s[0] == "decide":
            items = review.list_items(self.svc, self.ws, kb_id=self.kb.id)
            if not items:
                return
            if s[1] == 5:  # a bulk decision: every open item, one action, one promotion
                done, skipped = review.resolve_many(self.svc, [i.id for i in items], s[2], actor="human:p")
                assert all(" item: " in why or "changed since it was proposed" in why for _, why in skipped), skipped
                assert len(done) + len(skipped) == len(items)
                return
            item = items[s[1] % len(items)]
            action = s[2]
            if item.kind == "held":
                action = "approve" if action in ("approve", "use_new") else "reject"
            elif action in ("approve", "reject"):
                action = "use_new" if action == "approve" else "keep"
            try:  # what the person sees is what the check uses: never refused for a revision
                review.resolve(self.svc, item.id, action, expected_revision=item.expected_revision, actor="human:p")
            except Conflict as exc:  # a proposal whose sources changed since is withdrawn, never applied
                assert "changed since it was proposed" in str(exc), f"{action} of item {item.id} refused: {exc}"
                assert review.get_item(self.svc, item.id).state == "superseded"
        else:
            self.state[s[0]] = s[1]
            for rel in ("vendors.md", "notes.md", "other.md"):
                (self.src / rel).unlink(missing_ok=True)
            for rel, text in self.files().items():
                (self.src / rel).write_text(text, encoding="utf-8")
            self.remember()

    # -- the invariants ------------------------------------------------------------------------

    def check(self) -> None:
        if not self.wiki.is_dir():
            return
        open_items = review.list_items(self.svc, self.ws, kb_id=self.kb.id)
        pending = {p.page_path for i in open_items for p in i.page_list}
        current = self.compiled  # the wiki follows the sources at each compile
        for path in sorted(self.wiki.glob("*/*.md")):
            rel = path.relative_to(self.wiki).as_posix()
            text = path.read_text(encoding="utf-8")
            page = parse_page(text, path.stem)
            if page.is_stub or page.compile_status == "archived":
                continue
            refs = {s.resource: s.digest for s in page.sources}
            kept = kept_entries(page.extra)
            lines = parse_document(text)[1].split("\n")
            for c in page.claims:
                entry = next((e for e in kept if kept_match(e, c)), None)
                now = current.get(c.evidence.path)
                if now is not None and says(self.seen[now], c):
                    continue  # current: its citation contains its value in the current source
                # not what the current source says there: the value must be what a revision of the source
                # said (kept: the pinned one; under review: the one the page records) and visibly flagged
                at = str(entry["pinned"]) if entry else refs.get(c.evidence.path, "")
                assert at in self.seen and says(self.seen[at], c), (
                    f"{rel}: {c.value!r} is in no revision of {c.evidence.path} the page names ({at[:15]})")
                if entry is not None:
                    assert any(KEPT_MARK in ln and c.value in ln for ln in lines), f"{rel}: kept, not flagged"
                    continue
                assert page.compile_status in ("needs-review", "contradicted") and rel in pending, (
                    f"{rel}: {c.value!r} is from an older {c.evidence.path} and neither kept nor under review")
        with self.svc.store.write() as conn:
            for item in open_items:
                for p in item.page_list:
                    now = revisions.current_revision_number(conn, self.kb.workspace, self.kb.id, p.page_path)
                    assert p.expected_revision == now, f"item {item.id}: {p.page_path} at {now}, shown {p.expected_revision}"
                    assert (self.wiki / p.page_path).is_file() or p.update_kind == "create"


def run_steps(world: World, steps: list[tuple]) -> None:
    """A property test's body: the first compile, then each step, the world checked after each one."""
    from hypothesis import note  # noqa: PLC0415

    world.apply(("compile",))
    world.check()
    for n, s in enumerate(steps):
        note(f"step {n}: {s}")
        world.apply(s)
        world.check()
