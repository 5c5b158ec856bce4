"""Time as integer microseconds since the epoch, and RFC 3339 formatting.

The pure core never reads the clock: every rule takes `now_us`. The shell passes `SystemClock()`;
tests pass a `FakeClock` they move by hand.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

US = 1_000_000


class SystemClock:
    def now_us(self) -> int:
        return time.time_ns() // 1000


class FakeClock:
    def __init__(self, start_us: int = 1_780_000_000 * US) -> None:
        self.t = start_us

    def now_us(self) -> int:
        return self.t

    def advance(self, seconds: float) -> int:
        self.t += int(round(seconds * US))
        return self.t


def rfc3339(us: int | None) -> str | None:
    """`2026-07-26T00:00:01Z` (microseconds shown only when non-zero)."""
    if us is None:
        return None
    dt = datetime.fromtimestamp(us / US, tz=UTC)
    if us % US:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_rfc3339(text: str) -> int:
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return int(round(dt.timestamp() * US))
