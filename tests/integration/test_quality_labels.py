"""The hand-labelled samples used by benchmarks/quality.py say what the files say: every candidate
occurs in its file as spelled, every definitional sentence is on (or, for the RFCs, starts on) its
line, every question's answer is in its file; each sample is as large as issue 12 asks.
tests/data/handbook_labels.json labels the handbook, tests/data/rfc_labels.json the Rust RFCs."""

from __future__ import annotations

import json
import re
from pathlib import Path

LABELS = Path(__file__).resolve().parents[1] / "data" / "handbook_labels.json"
RFC_LABELS = LABELS.with_name("rfc_labels.json")
TYPES = (None, "person", "tool", "service", "company", "team", "product")


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


def test_the_labelled_sample_matches_the_rfcs(shared_dir):
    root = shared_dir / "corpus" / "rust-rfcs" / "text"
    labels = json.loads(RFC_LABELS.read_text(encoding="utf-8"))
    assert labels["about"] and set(labels) == {"about", "entities", "definitions"}
    entities, defs = labels["entities"], labels["definitions"]
    assert len(entities) >= 100 and len(defs) >= 30
    named = sum(1 for e in entities if e["is_named_thing"])
    assert 60 <= named <= 70 and 35 <= len(entities) - named <= 45
    assert len({e["name"] for e in entities}) == len(entities)
    for e in entities:
        assert re.search(r"(?<![\w-])" + re.escape(e["name"]) + r"(?![\w-])",
                         (root / e["file"]).read_text(encoding="utf-8")), e
        assert e.get("type") in TYPES and isinstance(e["mentions"], int) and e["mentions"] >= 1, e
        if e["is_named_thing"]:  # a named thing recurs (a single mention would have to be defined)
            assert e["mentions"] >= 2, e
    assert len({(d["file"], d["line"], d["term"]) for d in defs}) == len(defs)
    for d in defs:
        lines = (root / d["file"]).read_text(encoding="utf-8").splitlines()
        first = " ".join(lines[d["line"] - 1].split())
        following = " ".join(" ".join(lines[d["line"] - 1:d["line"] + 11]).split())
        at = following.find(d["sentence"])
        assert 0 <= at < len(first), d  # the sentence starts on the labelled line
        assert d["term"].casefold() in _plain(d["sentence"]), d
