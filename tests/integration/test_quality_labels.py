"""The hand-labelled handbook sample (tests/data/handbook_labels.json, used by benchmarks/quality.py)
says what the files say: every candidate occurs in its file as spelled, every definitional sentence
is on its line, every question's answer is in its file; the sample is as large as issue 12 asks."""

from __future__ import annotations

import json
import re
from pathlib import Path

LABELS = Path(__file__).resolve().parents[1] / "data" / "handbook_labels.json"


def _plain(text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(re.sub(r"[*_`]", "", text).split()).casefold()


def test_the_labelled_sample_matches_the_handbook(shared_dir):
    root = shared_dir / "corpus" / "handbook" / "engineering"
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    entities, defs, questions = labels["entities"], labels["definitions"], labels["questions"]
    assert len(entities) >= 150 and len(defs) >= 40 and len(questions) >= 25
    negatives = sum(1 for e in entities if not e["is_named_thing"])
    assert 40 <= negatives <= 60
    assert len({e["name"] for e in entities}) == len(entities)
    for e in entities:
        text = (root / e["file"]).read_text(encoding="utf-8")
        assert re.search(r"(?<![\w-])" + re.escape(e["name"]) + r"(?![\w-])", text), e
        assert e.get("type") in (None, "person", "tool", "service", "company", "team", "product"), e
    for d in defs:
        line = (root / d["file"]).read_text(encoding="utf-8").splitlines()[d["line"] - 1]
        assert d["sentence"] in line, d
    for q in questions:
        assert _plain(q["answer"]) in _plain((root / q["file"]).read_text(encoding="utf-8")), q
