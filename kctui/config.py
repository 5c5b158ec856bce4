"""Settings: defaults, then the config file (`config.toml` in the config dir), then `KCTUI_*` variables.

Every window is in seconds and may be fractional, so tests and users can shorten them.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from kctui import paths


class ConfigError(Exception):
    """The config file or an environment variable is invalid; one line for a person."""


class SettingError(ValueError):
    """One setting's value is not allowed: which field, and why."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"{field}: {why}")
        self.field = field
        self.why = why


# field -> (type, lowest allowed, is the lowest itself allowed, highest allowed). A small table checked
# by hand rather than a pydantic model: every command reads the settings, and loading the validator
# cost each call about 0.1 s of start-up (tests/unit/test_config.py holds the rules).
BOUNDS: dict[str, tuple[type, float | None, bool, float | None]] = {
    "stability_window": (float, 0, True, None),
    "quiet_window": (float, 0, True, None),
    "auto_min_interval": (float, 0, True, None),
    "scan_interval": (float, 0, False, None),
    "lease_seconds": (float, 0, False, None),
    "max_files": (int, 0, False, None),
    "max_bytes": (int, 0, False, None),
    "max_source_bytes": (int, 0, False, None),
    "api_enabled": (bool, None, True, None),
    "api_host": (str, None, True, None),
    "api_port": (int, 0, True, 65535),
}

_TRUE = {"1", "true", "yes", "on", "t", "y"}
_FALSE = {"0", "false", "no", "off", "f", "n"}


def _as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError("should be true or false")


def _as_number(value: Any, kind: type) -> float | int:
    if isinstance(value, bool):
        raise ValueError(f"should be {'an integer' if kind is int else 'a number'}, not true or false")
    try:
        number = float(value.strip()) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        raise ValueError(f"should be {'an integer' if kind is int else 'a number'}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError("should be a finite number")
    if kind is int:
        if not number.is_integer():
            raise ValueError("should be an integer")
        return int(number)
    return number


def check_setting(field: str, value: Any) -> Any:
    """`value` converted to the field's type, or SettingError saying why it is not allowed."""
    kind, low, low_ok, high = BOUNDS[field]
    try:
        if kind is bool:
            return _as_bool(value)
        if kind is str:
            if not isinstance(value, str):
                raise ValueError("should be a string")
            return value
        number = _as_number(value, kind)
    except ValueError as exc:
        raise SettingError(field, str(exc)) from None
    if low is not None and (number < low or (number == low and not low_ok)):
        raise SettingError(field, f"should be greater than {'or equal to ' if low_ok else ''}{low:g}")
    if high is not None and number > high:
        raise SettingError(field, f"should be less than or equal to {high:g}")
    return number


@dataclass(frozen=True)
class Settings:
    """The host's settings; every value is checked (and a string converted) when made."""

    stability_window: float = 5.0
    quiet_window: float = 30.0
    auto_min_interval: float = 600.0
    scan_interval: float = 5.0
    lease_seconds: float = 3600.0
    max_files: int = 20_000
    max_bytes: int = 1 << 30
    max_source_bytes: int = 1 << 20  # one text source the compiler reads; a larger one is skipped (readers/base.py)
    api_enabled: bool = True
    api_host: str = "127.0.0.1"
    api_port: int = 8765

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, check_setting(f.name, getattr(self, f.name)))


# environment variable -> settings field
ENV_VARS: dict[str, str] = {
    "KCTUI_STABILITY_WINDOW": "stability_window",
    "KCTUI_QUIET_WINDOW": "quiet_window",
    "KCTUI_AUTO_MIN_INTERVAL": "auto_min_interval",
    "KCTUI_SCAN_INTERVAL": "scan_interval",
    "KCTUI_LEASE_SECONDS": "lease_seconds",
    "KCTUI_MAX_FILES": "max_files",
    "KCTUI_MAX_BYTES": "max_bytes",
    "KCTUI_MAX_SOURCE_BYTES": "max_source_bytes",
}


def _read_config_file(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc}") from exc
    section = data.get("host", data)
    return {k: v for k, v in section.items() if not isinstance(v, dict)}


def load_settings(config_path: Path | None = None, environ: dict[str, str] | None = None) -> Settings:
    env = os.environ if environ is None else environ
    values = _read_config_file(config_path or paths.config_file())
    for var, field in ENV_VARS.items():
        raw = env.get(var)
        if raw is not None and raw.strip() != "":
            values[field] = raw.strip()
    known = {f.name for f in fields(Settings)}
    try:
        return Settings(**{k: v for k, v in values.items() if k in known})
    except SettingError as exc:
        var = next((k for k, v in ENV_VARS.items() if v == exc.field), exc.field)
        raise ConfigError(f"invalid setting {var}: {exc.why}") from exc
