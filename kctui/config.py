"""Settings: defaults, then the config file (`config.toml` in the config dir), then `KCTUI_*` variables.

Every window is in seconds and may be fractional, so tests and users can shorten them.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kctui import paths


class ConfigError(Exception):
    """The config file or an environment variable is invalid; one line for a person."""


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    stability_window: float = Field(5.0, ge=0)
    quiet_window: float = Field(30.0, ge=0)
    auto_min_interval: float = Field(600.0, ge=0)
    scan_interval: float = Field(5.0, gt=0)
    lease_seconds: float = Field(3600.0, gt=0)
    max_files: int = Field(20_000, gt=0)
    max_bytes: int = Field(1 << 30, gt=0)
    api_enabled: bool = True
    api_host: str = "127.0.0.1"
    api_port: int = Field(8765, ge=0, le=65535)


# environment variable -> settings field
ENV_VARS: dict[str, str] = {
    "KCTUI_STABILITY_WINDOW": "stability_window",
    "KCTUI_QUIET_WINDOW": "quiet_window",
    "KCTUI_AUTO_MIN_INTERVAL": "auto_min_interval",
    "KCTUI_SCAN_INTERVAL": "scan_interval",
    "KCTUI_LEASE_SECONDS": "lease_seconds",
    "KCTUI_MAX_FILES": "max_files",
    "KCTUI_MAX_BYTES": "max_bytes",
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
    try:
        return Settings(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        var = next((k for k, v in ENV_VARS.items() if v == field), field)
        raise ConfigError(f"invalid setting {var}: {err['msg']}") from exc
