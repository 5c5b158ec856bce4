"""The compiler on the real corpora of ../shared/corpus (skipped when ../shared is absent).

endoflife.date: a slice compiled from the 2025-08-22 folder, then the 2026-08-22 folder as the next
generation: every changed fact of a product's own file is a revise of exactly that claim, nothing is a
conflict, unchanged files leave their pages byte-identical, new products are created, one entity page
per product; a note that disagrees about one end-of-life date is exactly one conflict citing both.
rust-rfcs: concept and entity pages each exactly once whatever the spelling, every link resolves, no
page without evidence, no entity titled by a common word or a template section.
"""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import pytest

from kctui.compiler.builtin.name_checks import clean_title
from kctui.compiler.builtin.names import one_word, zipf
from kctui.compiler.builtin.usage import USAGE_MAX_ZIPF
from kctui.compiler.steps.pipeline import compile_pass
from kctui.core.frontmatter import parse_document
from kctui.core.slugs import near_key
from tests.helpers.corpus import EOL, RFCS, SHARED, copy_generation, releases
from tests.helpers.wiki import check_wiki, pages, request, tree

needs_corpus = pytest.mark.skipif(not (EOL.is_dir() and RFCS.is_dir()),
                                  reason=f"the shared corpora are not present at {SHARED / 'corpus'}")

COMMON = ["alpine-linux", "amazon-eks", "angular", "apache-groovy", "apache-kafka", "centos", "composer", "debian",
          "django", "electron", "go", "isc-dhcp", "jquery", "kubernetes"]
ONLY_2025 = ["apache-activemq-artemis"]
ONLY_2026 = ["apache-artemis", "authentik", "cilium", "duckdb", "jruby"]
RFC_SLICE = 40


def _title_ok(title: str) -> bool:
    """A page title: no placeholder or \"<word> team\"; one frequent word only when a document's usage made it
    a name, and never a very frequent one (USAGE_MAX_ZIPF)."""
    return clean_title(title, common_ok=True) and not (len(title.split()) == 1 and one_word(title) and zipf(title) >= USAGE_MAX_ZIPF)


@pytest.fixture(scope="module")
def endoflife(tmp_path_factory: pytest.TempPathFactory):
    if not EOL.is_dir():
        pytest.skip(f"the shared corpora are not present at {SHARED / 'corpus'}")
    root = tmp_path_factory.mktemp("eol")
    src = root / "kb" / "sources"
    copy_generation("2025-08-22", COMMON + ONLY_2025, src)
    first = request(src, "job-2025", at="2025-08-22T00:00:00Z")
    r1 = compile_pass(first, cache_dir=root / "cache")
    check_wiki(first.output_path, src)
    gen1 = tree(first.output_path)
    copy_generation("2026-08-22", COMMON + ONLY_2026, src)
    second = request(src, "job-2026", prev=first.output_path, at="2026-08-22T00:00:00Z")
    r2 = compile_pass(second, cache_dir=root / "cache")
    return src, first, second, r1, r2, gen1


@needs_corpus
def test_endoflife_next_generation_is_valid_and_conflict_free(endoflife) -> None:
    src, first, second, r1, r2, gen1 = endoflife
    check_wiki(second.output_path, src)
    assert r1.conflicts == [] and r2.conflicts == []
    assert all(p[0]["compile_status"] in ("compiled", "archived") for p in pages(second.output_path).values())


@needs_corpus
def test_endoflife_changed_facts_are_revises_of_exactly_that_claim(endoflife) -> None:
    src, first, second, r1, r2, gen1 = endoflife
    expected: set[tuple[str, str, str, str, str]] = set()
    unchanged: set[tuple[str, str, str]] = set()
    for name in COMMON:
        old = releases(EOL / "2025-08-22" / "products" / f"{name}.md")
        new = releases(EOL / "2026-08-22" / "products" / f"{name}.md")
        for cycle in old.keys() & new.keys():
            for field in ("latest", "eol", "latestReleaseDate"):
                a, b = old[cycle].get(field), new[cycle].get(field)
                if a is not None and b is not None:
                    if a != b:
                        expected.add((f"products/{name}.md", field, cycle, a, b))
                    else:
                        unchanged.add((f"products/{name}.md", field, cycle))
    assert any(e[1] == "latest" for e in expected), "the slice must contain real `latest` changes"
    revised = {(c.path, c.attribute, c.scope, c.old, c.new) for c in r2.claim_changes if c.change == "revised"
               and c.attribute in ("latest", "eol", "latestReleaseDate")}
    assert revised == expected
    touched = {(c.path, c.attribute, c.scope) for c in r2.claim_changes if c.change != "added"}
    assert not (touched & unchanged), "an unchanged fact was touched"
    # each revise shows on the product's entity page with the old value kept in its history
    path, field, cycle, old_value, new_value = sorted(e for e in expected if e[1] == "latest")[0]
    text = next(body for data, body in pages(second.output_path).values()
                if data["type"] == "Entity" and any(s["resource"] == path for s in data["sources"]))
    assert f"({cycle}) latest: {old_value} → {new_value}" in text.split("## Updates", 1)[1]
    # ... in its release table: the cycle's row holds the new value and cites that record's lines
    [row] = [ln for ln in text.split("\n") if ln.startswith(f"| {cycle} | ")]
    assert f" | {new_value} | " in row and f" | ^[{path}:L" in row and f" {old_value} " not in row


@needs_corpus
def test_endoflife_unchanged_files_leave_their_pages_untouched_and_new_products_are_created(endoflife) -> None:
    src, first, second, r1, r2, gen1 = endoflife
    gen2 = tree(second.output_path)
    for name in ("centos", "isc-dhcp"):  # byte-identical in both snapshots
        slug = f"products-{name}-md"
        assert gen2[f"sources/{slug}.md"] == gen1[f"sources/{slug}.md"]
        data, _ = pages(second.output_path)[f"sources/{slug}.md"]
        entity_links = [k for k, v in gen1.items() if k.startswith("entities/") and f"id: {slug}\n".encode() in v]
        # what those pages say citing the unchanged file stands as it was (the pages themselves may gain
        # what a changed file says of the same thing: every statement reaches the pages of its names)
        cite = f"^[products/{name}.md:".encode()
        assert entity_links and all([ln for ln in gen2[k].splitlines() if cite in ln] ==
                                    [ln for ln in gen1[k].splitlines() if cite in ln] for k in entity_links)
    kinds = {u.slug: u.kind for u in r2.updates}
    for name in ONLY_2026:
        assert kinds[f"products-{name}-md"] == "create"
    created_entities = {u.title for u in r2.updates if u.page_class == "entity" and u.kind == "create"}
    for name in ONLY_2026:
        title = parse_document((src / "products" / f"{name}.md").read_text(encoding="utf-8"))[0]["title"]
        assert title in created_entities or any(  # a renamed product may land on its existing page
            u.title == title for u in r2.updates if u.page_class == "entity")
    assert kinds["products-apache-activemq-artemis-md"] == "remove"


@needs_corpus
def test_endoflife_one_entity_page_per_product(endoflife) -> None:
    src, first, second, r1, r2, gen1 = endoflife
    found = pages(second.output_path)
    keys = [near_key(d["title"]) for rel, (d, _) in found.items() if d["type"] in ("Entity", "Concept")]
    assert len(keys) == len(set(keys)), "duplicate concept/entity pages"
    for name in COMMON + ONLY_2026:
        title = parse_document((src / "products" / f"{name}.md").read_text(encoding="utf-8"))[0]["title"]
        hits = [rel for rel, (d, _) in found.items() if d["type"] == "Entity" and near_key(d["title"]) == near_key(title)]
        assert len(hits) == 1, (title, hits)


@needs_corpus
def test_endoflife_disagreeing_note_is_exactly_one_conflict(endoflife, tmp_path: Path) -> None:
    src, first, second, r1, r2, gen1 = endoflife
    kafka = releases(src / "products" / "apache-kafka.md")
    cycle = next(c for c, fields in kafka.items() if fields.get("eol", "false") not in ("false", "true"))
    claimed = kafka[cycle]["eol"]
    other = (datetime.date.fromisoformat(claimed) + datetime.timedelta(days=30)).isoformat()
    note = src / "notes" / "kafka support.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text(f"# Apache Kafka\n\nOur vendor's support table:\n\n| releaseCycle | eol |\n| --- | --- |\n| {cycle} | {other} |\n",
                    encoding="utf-8")
    try:
        third = request(src, "job-note", prev=second.output_path, at="2026-08-23T00:00:00Z")
        r3 = compile_pass(third, cache_dir=None)
        check_wiki(third.output_path, src)
    finally:
        note.unlink()
        note.parent.rmdir()
    assert len(r3.conflicts) == 1
    conflict = r3.conflicts[0]
    assert (conflict.attribute, conflict.scope) == ("eol", cycle)
    assert {(c.evidence.path, c.value) for c in conflict.claims} == {
        ("products/apache-kafka.md", claimed), ("notes/kafka support.md", other)}
    data, body = pages(third.output_path)[f"entities/{conflict.slug}.md"]
    assert data["compile_status"] == "contradicted" and data["status"] == "draft"
    assert f"— eol: {claimed} ^[products/apache-kafka.md:L" in body and f"— eol: {other} ^[notes/kafka support.md:L7-L7]" in body


@needs_corpus
def test_rust_rfcs_concepts_and_entities_once_links_resolve(tmp_path: Path) -> None:
    src = tmp_path / "kb" / "sources"
    (src / "text").mkdir(parents=True)
    names = sorted(p.name for p in RFCS.glob("*.md"))
    chosen = names[:RFC_SLICE] + [n for n in names[RFC_SLICE:] if n.startswith(("0230", "0235", "0236"))]
    for name in chosen:
        shutil.copyfile(RFCS / name, src / "text" / name)
    req = request(src, "job-rfcs")
    result = compile_pass(req, cache_dir=None)
    check_wiki(req.output_path, src)
    assert result.skipped == []
    found = pages(req.output_path)
    topics = {rel: (d, body) for rel, (d, body) in found.items() if d["type"] in ("Concept", "Entity")}
    keys = [near_key(d["title"]) for d, _ in topics.values()]
    assert len(keys) == len(set(keys)), "a concept or entity has two pages"
    assert len(topics) >= 20 and sum(1 for d, _ in topics.values() if d["type"] == "Concept") >= 5
    for rel, (d, body) in topics.items():
        # every concept and entity page leads to the RFCs it came from and says something cited about it
        assert d["sources"] and all(s["resource"].startswith("text/") for s in d["sources"])
        if d["type"] == "Entity":
            assert _title_ok(d["title"]), d["title"]  # no common word, placeholder or "<word> team"
        template = {"Summary", "Motivation", "Detailed design", "Drawbacks", "Alternatives", "Unresolved questions"}
        assert d["title"] not in template
    assert sum(1 for rel in found if rel.startswith("sources/")) == len(chosen)


@pytest.mark.slow
def test_a_full_pass_over_an_unchanged_real_corpus_changes_nothing(shared_dir, tmp_path):
    """`full=True` re-reads every source and checks it against what the previous wiki records; on the
    endoflife corpus (claims cited at several places) it must neither crash nor rewrite a page."""
    import shutil

    from kctui.compiler.runner import CompileRequest
    from kctui.compiler.steps.pipeline import compile_pass

    src = tmp_path / "kb" / "sources"
    shutil.copytree(shared_dir / "corpus" / "endoflife" / "2026-08-22", src)

    def req(job, prev=None):
        return CompileRequest(job, "manual", "sha256:" + "0" * 64, "2026-08-22T00:00:00Z", src,
                              prev, tmp_path / "kb" / job / "wiki")

    first = req("one")
    compile_pass(first, cache_dir=None)
    again = compile_pass(req("two", first.output_path), cache_dir=None, full=True)
    assert not again.changes.added and not again.changes.deleted and again.updates == []
