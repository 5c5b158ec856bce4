"""The garbage collector's thresholds during a compile pass (kctui.compiler.builtin.collector): raised to
the pass's while it runs, put back after, a higher or disabled threshold left as it is."""

from __future__ import annotations

import gc

import pytest

from kctui.compiler.builtin import collector


@pytest.mark.parametrize("current, expected", [
    ((700, 10, 10), (10_000, 20, 100)),  # the interpreter's defaults
    ((10_000, 20, 100), (10_000, 20, 100)),  # the app's already
    ((50_000, 5, 1_000), (50_000, 20, 1_000)),  # a higher one stays
    ((0, 10, 10), (0, 20, 100)),  # a collector turned off stays off
])
def test_raised(current: tuple[int, int, int], expected: tuple[int, int, int]) -> None:
    assert collector.raised(current) == expected


def test_pass_collection_puts_the_thresholds_back() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with collector.pass_collection():
            assert gc.get_threshold() == (10_000, 20, 100)
            with collector.pass_collection():  # (an overlapping pass)
                assert gc.get_threshold() == (10_000, 20, 100)
            assert gc.get_threshold() == (10_000, 20, 100)
        assert gc.get_threshold() == (700, 10, 10)
        with pytest.raises(RuntimeError), collector.pass_collection():
            raise RuntimeError("a failed pass")
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)
