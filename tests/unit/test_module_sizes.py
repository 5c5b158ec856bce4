"""Issue 18: no module over 400 lines without a one-line reason at its top (`# size: …` on its first line).
A long module is a sign that it does more than one thing; the reason says why this one does not."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 400


def test_every_long_module_says_why_at_its_top() -> None:
    unexplained = []
    for folder in ("kctui", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            if len(lines) > LIMIT and not (lines[0].startswith("# size: ") and len(lines[0]) > len("# size: ") + 20):
                unexplained.append(f"{path.relative_to(ROOT)}: {len(lines)} lines")
    assert not unexplained, "modules over 400 lines with no `# size: <reason>` first line:\n" + "\n".join(unexplained)


def test_no_test_module_imports_another() -> None:
    """Shared test code lives in tests/helpers/, tests/tui/fixtures.py or a conftest, never in a test module."""
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*(from|import)\s+tests(\.\w+)*\.test_\w+", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
