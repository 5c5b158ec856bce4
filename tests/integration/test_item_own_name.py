"""A list item that opens with a name of its own does not go on with the item before's thing, though the
name gets no page (said once): "- Hetzner maintenance window on 11 Nov" after an item on Datadog is no
Datadog fact (QA session 31, problem 10: a Hetzner fact proposed on Datadog's page once the vendor table
stopped naming Hetzner)."""

from __future__ import annotations

from pathlib import Path

from kctui.compiler.runner import CompileRequest
from kctui.compiler.steps.pipeline import compile_pass

HANDOVER = ("# On-call handover — week of 9 Nov 2026\n\nFrom: Tobias Ek  To: Ines Duarte\n\n"
            "- The on-call engineer this week is Ines Duarte.\n"
            "- Datadog monitor \"api-latency-p99\" is flapping; muted until 12 Nov.\n"
            "- Hetzner maintenance window on 11 Nov 02:00–04:00 UTC.\n")
VENDORS = "# Vendors\n\n| Vendor | Service |\n| --- | --- |\n| Datadog | Monitoring |\n| Hetzner | Bare metal |\n"


def _compile(tmp_path: Path, vendors: str) -> Path:
    src = tmp_path / "kb" / "sources"
    src.mkdir(parents=True)
    (src / "handover.md").write_text(HANDOVER, encoding="utf-8")
    (src / "vendors.md").write_text(vendors, encoding="utf-8")
    req = CompileRequest("job-1", "manual", "sha256:" + "0" * 64, "2026-01-01T00:00:00Z", src, None,
                         src.parent / "job-1" / "wiki", trust_policy={})
    compile_pass(req, cache_dir=None)
    return req.output_path


def test_an_item_naming_its_own_thing_is_not_the_item_befores(tmp_path: Path) -> None:
    wiki = _compile(tmp_path, VENDORS.replace("| Hetzner | Bare metal |\n", ""))
    assert "Hetzner maintenance" not in (wiki / "entities" / "datadog.md").read_text(encoding="utf-8")


def test_with_a_page_it_lands_on_its_own(tmp_path: Path) -> None:
    wiki = _compile(tmp_path, VENDORS)
    assert "Hetzner maintenance" in (wiki / "entities" / "hetzner.md").read_text(encoding="utf-8")
    assert "Hetzner maintenance" not in (wiki / "entities" / "datadog.md").read_text(encoding="utf-8")
