"""The compiler's outputs on the three real corpora are those recorded before the compiler moved into
rooms (tests/data/compile_golden.json, made by `python -m tests.helpers.golden`): a full pass and 5
incremental rounds with the default trust policy, every staged file, the warnings and the review items,
byte for byte — with the previous-wiki store on (memos, resident copies, prelink), and turned off."""

from __future__ import annotations

import json

import pytest

from tests.helpers import golden
from tests.helpers.corpus import SHARED

pytestmark = pytest.mark.skipif(not all(p.is_dir() for p in golden.CORPORA.values()),
                                reason=f"the shared corpora are not present at {SHARED / 'corpus'}")


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(golden.RECORD.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("store", [True, False], ids=["previous-store-on", "previous-store-off"])
@pytest.mark.parametrize("corpus", sorted(golden.CORPORA))
def test_outputs_are_the_recorded_ones(tmp_path, recorded, corpus: str, store: bool) -> None:
    got = golden.run_corpus(golden.CORPORA[corpus], tmp_path, previous_store=store)
    assert len(got) == golden.ROUNDS + 1
    assert golden.first_difference(recorded[corpus], got) == ""


def test_a_changed_output_is_found(recorded) -> None:
    """The comparison can fail: one file's digest changed, or a file gone, is named."""
    runs = json.loads(json.dumps(recorded["rust-rfcs"]))
    path = sorted(runs[0]["files"])[3]
    runs[0]["files"][path] = "0" * 20
    assert golden.first_difference(recorded["rust-rfcs"], runs) == f"pass 0: {path} differs"
    runs = json.loads(json.dumps(recorded["rust-rfcs"]))
    runs[2]["removed"] = ["wiki/concepts/x.md"]
    assert golden.first_difference(recorded["rust-rfcs"], runs).startswith("pass 2: removed differ")
