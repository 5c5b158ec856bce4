"""The real corpora of ../shared/corpus (tests skip where they are absent): where they are, a generation of
endoflife products copied into a knowledge base, and a product's release table as its source says it."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

from kctui.core.frontmatter import parse_document

SHARED = Path(__file__).parents[2].parent / "shared"
EOL = SHARED / "corpus" / "endoflife"
RFCS = SHARED / "corpus" / "rust-rfcs" / "text"


def copy_generation(folder: str, names: list[str], dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "products").mkdir(parents=True)
    for name in names:
        shutil.copyfile(EOL / folder / "products" / f"{name}.md", dest / "products" / f"{name}.md")


def _plain(value) -> str:  # noqa: ANN001 - YAML scalars as the source writes them
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def releases(path: Path) -> dict[str, dict[str, str]]:
    data, _, _ = parse_document(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, str]] = {}
    for item in data.get("releases") or []:
        cycle = _plain(item["releaseCycle"])
        out[cycle] = {k: _plain(v) for k, v in item.items() if k != "releaseCycle" and not isinstance(v, (list, dict))}
    return out
