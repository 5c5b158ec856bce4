"""Benchmark: review approvals on a 20,000-page wiki, against the same wiki's plain promotion.

    python benchmarks/review.py                     # 20,000 pages, 40 single approvals, 1,000 in bulk
    python benchmarks/review.py --pages 5000 --samples 30 --bulk 500
    python benchmarks/review.py --item-pages 1      # one page per held item (the shape before change sets)

Once, in a temporary state directory: create a manual knowledge base and promote a 20,000-page wiki
through the normal compile path (request_compile, claim, a staged tree, report_result: validation,
promotion, revisions). Pages look like the built-in compiler's: frontmatter with the sources they cite
and those sources' digests, sections of cited claims. A second pass holds `samples + bulk` items for
review (review.json, as the built-in compiler files them): each a change set — one changed source
(its own file, so the decision engine checks its digest) revising `--item-pages` pages (default 2).
Then:
  single approve   `review.resolve(…, "approve")` of one held item, `--samples` times: the whole use
                   case (checks, source digests, page decisions, page-level promotion with fsyncs,
                   revisions, commit)
  bulk approve     `review_bulk.select_items(--all)` + `bulk_resolve(…, "approve")` of `--bulk` items
                   (`--bulk × --item-pages` pages): one transaction, one page promotion
  anchor           the same wiki's plain promotion of an unchanged tree: validate + promote (fsync of
                   every file, journal, RENAME_EXCHANGE) of a copy of the live wiki (copy not timed;
                   the old tree's deletion reported apart), median of `--anchor-runs`
Printed: p50/p95 of a single approval (goal p95 <= 200 ms), the bulk time (goal <= 5 s), the anchor,
and each as a ratio of the anchor.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# this folder holds `queue.py` (a benchmark), which must not shadow the standard library's `queue`
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

# A page as the built-in compiler writes it: frontmatter with the sources it cites (their digests),
# generated/stale marks and tags; a body of sections with cited claims.
PAGE = ("---\naliases: []\ncompile_status: {status}\ndescription: Topic {n}, a thing mentioned in {nsrc} source(s).\n"
        "domain: general\nentity_type: thing\ngenerated:\n  at: '2026-12-01T10:12:42.552609Z'\n"
        "  by: kctui/0.3.0 extract/2 builtin\nlast_updated: '2026-12-01T10:12:42.552609Z'\nsources:\n{sources}"
        "stale_after: '2027-03-01T10:12:42.552609Z'\nstatus: stable\ntags:\n- thing\ntitle: Topic {n}\n"
        "type: Concept\n---\n\n# Topic {n}\n\n## Description\n\n"
        "* **Topic {n}** — note: Topic {n} is one of the synthetic pages of this benchmark. ^[topic{src}.md:L1-L1]\n\n"
        "## Key Positions/Products/Claims\n\n* **Topic {n}** — version: {v} ^[{cite}:L2-L2]\n\n"
        "## Related Concepts\n\n_None yet._\n\n## Related Entities\n\n* [[topic{next:05d}|Topic {next}]]\n\n"
        "## Sources\n\n* [[topic{src}-md|Topic {src}]]\n\n## Updates\n\n"
        "* 2026-12-01T10:12:42.552609Z: created from `topic{src}.md`.\n")
SOURCE = "# Topic {s}\nversion: {v}\n"


def digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def page_path(n: int) -> str:
    return f"concepts/group{n // 1000:02d}/topic{n:05d}.md"


def page(n: int, v: str, status: str = "compiled", change: tuple[str, str] | None = None) -> str:
    """Page n citing its topic source; `change` (source, its text): the held revision's own source."""
    src = n % 200
    refs = [(f"topic{src}.md", digest(SOURCE.format(s=src, v=f"1.{src}")))] + ([(change[0], digest(change[1]))] if change else [])
    sources = "".join(f"- digest: {d}\n  id: {r.replace('.', '-')}\n  resource: {r}\n" for r, d in refs)
    return PAGE.format(n=n, v=v, status=status, src=src, nsrc=len(refs), sources=sources, next=(n + 1) % 20000,
                       cite=change[0] if change else f"topic{src}.md")


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def write_tree(root: Path, texts: dict[str, str]) -> None:
    made: set[Path] = set()
    for rel, text in texts.items():
        target = root / rel
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_text(text, encoding="utf-8")


def compile_pass(ctx, ws: Path, kb_id: str, texts: dict[str, str], items: list[dict] | None = None) -> None:  # noqa: ANN001
    from kctui import paths
    from kctui.services import jobs, results

    jobs.request_compile(ctx, ws, kb_id)
    _, job = jobs.claim(ctx)
    staged = paths.staged_wiki(ws, kb_id, job.id)
    write_tree(staged, texts)
    if items is not None:
        (staged.parent / "review.json").write_text(json.dumps({"version": 1, "items": items}), encoding="utf-8")
    ok, _base, done = results.report_result(ctx, ws, kb_id, job.id, "succeeded")
    assert ok and done.phase == "succeeded", done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=20_000)
    ap.add_argument("--samples", type=int, default=40, help="single approvals timed (>= 30 for a p95)")
    ap.add_argument("--bulk", type=int, default=1_000)
    ap.add_argument("--item-pages", type=int, default=2,
                    help="pages of each held item (a change set: one source change revising several pages)")
    ap.add_argument("--anchor-runs", type=int, default=1, help="plain promotions timed (the median is the anchor)")
    args = ap.parse_args()
    held = args.samples + args.bulk
    per = max(1, args.item_pages)
    if held * per > args.pages:
        raise SystemExit("(--samples + --bulk) * --item-pages must not exceed --pages")

    tmp = Path(tempfile.mkdtemp(prefix="kctui-review-bench-"))
    os.environ["KCTUI_STATE_DIR"] = str(tmp / "state")
    os.environ["KCTUI_CONFIG_DIR"] = str(tmp / "config")
    from kctui import paths
    from kctui.core.page_status import set_page_status
    from kctui.publish.promote import cleanup_after_promotion, promote
    from kctui.publish.validate import validate_staged_tree
    from kctui.services import bases, review
    from kctui.services.context import ServiceContext
    from kctui.services.review_bulk import bulk_resolve, select_items

    try:
        ctx = ServiceContext.open()
        ws = tmp / "ws"
        ws.mkdir()
        _, base = bases.create_base(ctx, ws, "Bench", policy="manual")
        src = paths.sources_path(ws, base.id)
        for s in range(200):
            (src / f"topic{s}.md").write_text(SOURCE.format(s=s, v=f"1.{s}"), encoding="utf-8")

        t0 = time.perf_counter()
        texts = {page_path(n): page(n, "1.0") for n in range(args.pages)}
        texts["index.md"] = "# Bench\n"
        compile_pass(ctx, ws, base.id, texts)
        print(f"setup: promoted a {args.pages}-page wiki through the compile path in {time.perf_counter() - t0:.1f} s")

        t0 = time.perf_counter()
        shown = dict(texts)
        items = []
        for j in range(held):
            # one source change (its own file) revises `per` pages: one held item, a change set
            change = (f"changes/change{j:04d}.md", SOURCE.format(s=j, v="2.0"))
            (src / change[0]).parent.mkdir(exist_ok=True)
            (src / change[0]).write_text(change[1], encoding="utf-8")
            pages = []
            for n in range(j * per, (j + 1) * per):
                shown[page_path(n)] = set_page_status(texts[page_path(n)], "needs-review")
                pages.append({"page": page_path(n), "title": f"Topic {n}", "updateKind": "revise",
                              "reason": "autonomy_ceiling", "summary": f"version of topic {n} revised",
                              "proposedBody": page(n, "2.0", change=change)})
            items.append({"kind": "held", **pages[0], "sources": [change[0]], "pages": pages if per > 1 else []})
        compile_pass(ctx, ws, base.id, shown, items)
        open_items = review.list_items(ctx)
        assert len(open_items) == held, len(open_items)
        print(f"setup: a second pass held {held} updates of {per} page(s) each in {time.perf_counter() - t0:.1f} s")

        live = paths.wiki_path(ws, base.id)
        singles: list[float] = []
        for item in open_items[:args.samples]:
            t = time.perf_counter()
            done = review.resolve(ctx, item.id, "approve", actor="human:bench")
            singles.append(time.perf_counter() - t)
            assert done.state == "approved"
        assert "version: 2.0" in (live / open_items[0].page_path).read_text(encoding="utf-8")

        t = time.perf_counter()
        selection = select_items(ctx, everything=True)
        outcome = bulk_resolve(ctx, selection.items, "approve", actor="human:bench")
        bulk_s = time.perf_counter() - t
        assert len(outcome.applied) == args.bulk and outcome.promotions == 1, outcome.json()
        assert outcome.pages == args.bulk * per, outcome.pages
        assert not review.list_items(ctx)

        kb = paths.kb_path(ws, base.id)
        anchors: list[float] = []
        cleanups: list[float] = []
        for r in range(max(1, args.anchor_runs)):
            staged = paths.staged_wiki(ws, base.id, f"job-anchor-{r}")
            shutil.copytree(live, staged, symlinks=True)
            t = time.perf_counter()
            validate_staged_tree(staged)
            promote(kb, staged, f"job-anchor-{r}", cleanup=False)
            anchors.append(time.perf_counter() - t)
            t = time.perf_counter()
            cleanup_after_promotion(kb)
            cleanups.append(time.perf_counter() - t)
            shutil.rmtree(staged.parent, ignore_errors=True)
        anchor = statistics.median(anchors)
        ctx.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    p50, p95 = pct(singles, 0.5), pct(singles, 0.95)
    print()
    print(f"wiki: {args.pages} pages · single approvals: {len(singles)} samples · bulk: {args.bulk} items · "
          f"{per} page(s) per item")
    print(f"anchor  plain promotion of the unchanged tree (validate + promote): {anchor * 1000:8.1f} ms "
          f"(old tree's deletion after it: {statistics.median(cleanups) * 1000:.0f} ms)")
    print(f"single  approve one item   p50 {p50 * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   "
          f"goal p95 <= 200 ms: {'met' if p95 <= 0.200 else 'MISSED'}   p95 / anchor = {p95 / anchor:.2g}")
    print(f"bulk    approve {args.bulk} items   {bulk_s:7.2f} s ({outcome.pages} pages, one promotion)   "
          f"goal <= 5 s: {'met' if bulk_s <= 5.0 else 'MISSED'}   bulk / anchor = {bulk_s / anchor:.2f}")


if __name__ == "__main__":
    main()
