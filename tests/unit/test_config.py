"""The host's settings: defaults, the config file, `KCTUI_*` variables; every value checked by the
table in kctui/config.py, a bad one named in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kctui.config import ConfigError, SettingError, Settings, check_setting, load_settings


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("stability_window", "2.5", 2.5), ("stability_window", 0, 0.0), ("quiet_window", " 30 ", 30.0),
    ("scan_interval", "0.05", 0.05), ("max_files", "20000", 20000), ("max_files", 3.0, 3),
    ("api_enabled", "false", False), ("api_enabled", "1", True), ("api_enabled", True, True),
    ("api_port", "0", 0), ("api_port", 65535, 65535), ("api_host", "::1", "::1"),
])
def test_a_good_value_is_converted(field: str, value: object, expected: object) -> None:
    got = check_setting(field, value)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(("field", "value", "why"), [
    ("stability_window", "-1", "should be greater than or equal to 0"),
    ("scan_interval", "0", "should be greater than 0"),
    ("lease_seconds", "soon", "should be a number"),
    ("max_files", "1.5", "should be an integer"),
    ("max_bytes", True, "should be an integer, not true or false"),
    ("quiet_window", "nan", "should be a finite number"),
    ("api_port", 70000, "should be less than or equal to 65535"),
    ("api_enabled", "maybe", "should be true or false"),
    ("api_host", 7, "should be a string"),
])
def test_a_bad_value_says_why(field: str, value: object, why: str) -> None:
    with pytest.raises(SettingError) as info:
        check_setting(field, value)
    assert info.value.field == field and info.value.why == why


def test_defaults_and_the_layers_in_order(tmp_path: Path) -> None:
    assert Settings() == Settings(stability_window=5.0, lease_seconds=3600, max_files=20_000)
    config = tmp_path / "config.toml"
    config.write_text('[host]\nquiet_window = 12\nmax_files = 50\nunknown_key = "kept out"\n[ui]\ntheme = "x"\n',
                      encoding="utf-8")
    settings = load_settings(config, environ={"KCTUI_MAX_FILES": "70", "KCTUI_QUIET_WINDOW": " "})
    assert (settings.quiet_window, settings.max_files, settings.scan_interval) == (12.0, 70, 5.0)
    with pytest.raises(Exception):  # noqa: B017 - frozen: any attempt to change a setting fails
        settings.max_files = 1  # type: ignore[misc]


def test_a_bad_variable_or_file_is_one_line_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "none.toml"
    with pytest.raises(ConfigError, match=r"^invalid setting KCTUI_MAX_BYTES: should be greater than 0$"):
        load_settings(missing, environ={"KCTUI_MAX_BYTES": "0"})
    bad = tmp_path / "bad.toml"
    bad.write_text("api_port = 'eighty'\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^invalid setting api_port: should be an integer$"):
        load_settings(bad, environ={})
    bad.write_text("api_port = [\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_settings(bad, environ={})
