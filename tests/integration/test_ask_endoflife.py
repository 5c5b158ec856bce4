"""With no model, `ask` answers extractively (issue 34): on the endoflife corpus (../shared; skipped when
absent), twenty "when does X reach end of life" questions, written from the product files — each date
checked here against its source's release table — and the extractive answer's first sentence must hold
the date for at least 90 % of them."""

from __future__ import annotations

import shutil

import pytest

from kctui import paths
from kctui.services import ask as ask_svc
from tests.helpers.answers import compile_now, make_base
from tests.helpers.corpus import EOL, SHARED, releases

GENERATION = "2026-08-22"
# (product file, how a person names it, release cycle, its end of life as the source says)
QUESTIONS = [
    ("angular", "Angular", "20", "2026-11-28"),
    ("debian", "Debian", "12", "2026-07-11"),
    ("django", "Django", "5.2", "2028-04-30"),
    ("go", "Go", "1.24", "2026-02-10"),
    ("kubernetes", "Kubernetes", "1.34", "2026-10-27"),
    ("alpine-linux", "Alpine Linux", "3.22", "2027-05-01"),
    ("electron", "Electron", "42", "2026-10-20"),
    ("centos", "CentOS", "7", "2024-06-30"),
    ("composer", "Composer", "2.8", "2025-11-13"),
    ("apache-kafka", "Apache Kafka", "3.7", "2024-07-26"),
    ("fedora", "Fedora", "43", "2026-12-09"),
    ("dotnet", ".NET", "10", "2028-11-14"),
    ("elasticsearch", "Elasticsearch", "9.2", "2026-05-05"),
    ("grafana", "Grafana", "13.1", "2027-03-20"),
    ("gitlab", "GitLab", "19.2", "2026-10-15"),
    ("freebsd", "FreeBSD", "14.4", "2026-12-31"),
    ("kotlin", "Kotlin", "2.2", "2025-12-16"),
    ("etcd", "etcd", "3.4", "2026-06-01"),
    ("erlang", "Erlang", "27", "2027-05-20"),
    ("drupal", "Drupal", "11.3", "2026-12-16"),
]
NEEDED = 0.9


@pytest.mark.skipif(not EOL.is_dir(), reason=f"the shared corpora are not present at {SHARED / 'corpus'}")
def test_extractive_answers_hold_the_end_of_life_date_first(svc, workspace):
    products = EOL / GENERATION / "products"
    for name, _, cycle, date in QUESTIONS:  # the list is the sources' own dates
        assert releases(products / f"{name}.md")[cycle]["eol"] == date, (name, cycle)
    base = make_base(svc, workspace, "EOL", {})
    src = paths.sources_path(workspace, base.id) / "products"
    src.mkdir(parents=True, exist_ok=True)
    for name, *_ in QUESTIONS:
        shutil.copyfile(products / f"{name}.md", src / f"{name}.md")
    compile_now(svc, workspace, base.id)
    misses = []
    for name, product, cycle, date in QUESTIONS:
        question = f"when does {product} {cycle} reach end of life"
        result = ask_svc.ask(svc, workspace, base.id, question)
        assert result["mode"] == "extractive" and result["model"] is None
        first = result["answer"].split("\n", 1)[0]
        if date not in first:
            misses.append(f"{question}: {first[:120]!r} (want {date})")
    held = 1 - len(misses) / len(QUESTIONS)
    print(f"{held:.0%} of {len(QUESTIONS)} answered in the first sentence", *misses, sep="\n")
    assert held >= NEEDED, f"{held:.0%} answered first:\n" + "\n".join(misses)
