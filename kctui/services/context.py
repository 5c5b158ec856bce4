"""What every service call needs: the store, the clock and the settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kctui import paths
from kctui.config import Settings, load_settings
from kctui.core.clock import SystemClock
from kctui.store.db import Store


class Clock:  # structural type: anything with now_us()
    def now_us(self) -> int:  # pragma: no cover - protocol
        raise NotImplementedError


@dataclass
class ServiceContext:
    store: Store
    clock: Clock = field(default_factory=SystemClock)
    settings: Settings = field(default_factory=Settings)

    def now(self) -> int:
        return self.clock.now_us()

    @classmethod
    def open(cls, clock: Clock | None = None, settings: Settings | None = None, db_path: Path | None = None) -> ServiceContext:
        store = Store.open(db_path or paths.database_file())
        return cls(store=store, clock=clock or SystemClock(), settings=settings or load_settings())

    def close(self) -> None:
        self.store.close()
