"""What every service call needs: the store, the clock and the settings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kctui import paths
from kctui.core.clock import SystemClock
from kctui.store.db import Store

if TYPE_CHECKING:
    from kctui.config import Settings


class Clock:  # structural type: anything with now_us()
    def now_us(self) -> int:  # pragma: no cover - protocol
        raise NotImplementedError


def _defaults() -> Settings:
    from kctui.config import Settings  # noqa: PLC0415

    return Settings()


def _configured() -> Settings:
    from kctui.config import load_settings  # noqa: PLC0415

    return load_settings()


class ServiceContext:
    """The store, the clock and the settings. The settings are read (config file, `KCTUI_*` variables,
    validated) the first time a service asks for them: a query that needs none, like `kctui status`,
    does not pay for loading the validator."""

    def __init__(self, store: Store, clock: Clock | None = None, settings: Settings | None = None,
                 *, load: Callable[[], Settings] = _defaults) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self._settings = settings
        self._load = load

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = self._load()
        return self._settings

    @settings.setter
    def settings(self, value: Settings) -> None:
        self._settings = value

    def now(self) -> int:
        return self.clock.now_us()

    @classmethod
    def open(cls, clock: Clock | None = None, settings: Settings | None = None, db_path: Path | None = None) -> ServiceContext:
        store = Store.open(db_path or paths.database_file())
        return cls(store=store, clock=clock, settings=settings, load=_configured)

    def close(self) -> None:
        self.store.close()
