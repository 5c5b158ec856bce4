"""What packing a context packet asks more than once, asked once (kctui.search.context): a statement as the
packet quotes it, made when the fill first reaches it (a fill stops after MAX_PASSES statements passed over,
and most of a ranking's tail is never reached), and the size of a group's item for the statements it holds,
kept across the fills of one packet (`_next_budget` fills the packet again at larger budgets, where most
groups grow as they did before). The same packet, less work: pure memos of pure functions
(tests/unit/test_pack_memo.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Lazy(Sequence, Generic[T]):
    """`[made(n, x) for n, x in enumerate(items)]`, each made when first read, then kept (the same object
    every time: the packer tells statements apart by identity)."""

    def __init__(self, items: Sequence[Any], made: Callable[[int, Any], T]) -> None:
        self._items = items
        self._made = made
        self._done: list[T] = []

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i: int) -> T:  # type: ignore[override]
        if not isinstance(i, int):
            raise TypeError("a Lazy sequence is read one index at a time")
        if i < 0:
            i += len(self._items)
        if not 0 <= i < len(self._items):
            raise IndexError(i)
        while len(self._done) <= i:
            n = len(self._done)
            self._done.append(self._made(n, self._items[n]))
        return self._done[i]

    def __iter__(self) -> Iterator[T]:
        for i in range(len(self._items)):
            yield self[i]


class Sizes:
    """The size of a group's item for the statements it holds (by identity, in order): `size(members)`
    measures `measure(members)` once per distinct list."""

    def __init__(self, measure: Callable[[list[Any]], int]) -> None:
        self._measure = measure
        self._known: dict[tuple[int, ...], int] = {}

    def size(self, members: list[Any]) -> int:
        key = tuple(map(id, members))
        got = self._known.get(key)
        if got is None:
            got = self._known[key] = self._measure(members)
        return got
