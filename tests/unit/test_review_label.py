"""QA s31 item 11: a review row names the source change it carries, not one of its pages."""

from __future__ import annotations

import pytest

from kctui.core.review_label import item_label


@pytest.mark.parametrize("kind, title, page, sources, pages, want", [
    ("held", "CDN", "entities/cdn.md", ["roster.md"], 3, "3 pages · roster.md"),
    ("held", "Datadog", "entities/datadog.md", ["vendors.md", "runbook.md", "b.md"], 13, "13 pages · vendors.md, runbook.md +1"),
    ("held", "CDN", "entities/cdn.md", [], 2, "2 pages"),
    ("held", "CDN", "entities/cdn.md", ["roster.md"], 1, "CDN"),
    ("conflict", "RabbitMQ", "entities/rabbitmq.md", ["adr-009.md"], 1, "RabbitMQ"),
    ("held", "", "entities/x.md", [], 1, "entities/x.md"),
])
def test_item_label(kind, title, page, sources, pages, want) -> None:
    assert item_label(kind, title, page, sources, pages) == want
