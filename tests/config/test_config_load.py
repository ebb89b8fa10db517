"""Loading, merging, dumping and the CLI of firmware_config."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firmware_config
from assistant.cli import main
from firmware_config import ConfigError, dump_config, load_config


def test_defaults_match_the_brief():
    config = load_config()
    assert (config.gpio.button_pin, config.gpio.buzzer_pin, config.gpio.led_pin) == (17, 18, 27)
    assert config.gpio.buzzer_kind == "active"
    assert config.countdown.seconds == 10
    assert config.cameras.tower.resolution == (640, 480)
    assert config.http.port == 8080
    assert config.referee.pin == ""
    assert config.match.variant == "tower"


def test_default_text_is_the_packaged_file_and_documents_every_key():
    packaged = Path(firmware_config.__file__).with_name("default.toml").read_text(encoding="utf-8")
    assert firmware_config.DEFAULT_CONFIG_TEXT == packaged
    assert "# " in packaged  # the defaults are documented in comments
    assert tomllib.loads(packaged)["gpio"]["button_pin"] == 17


def test_data_dir_expands_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert load_config().store.data_dir == tmp_path / ".local/share/knockdown"


def test_a_file_is_merged_over_the_defaults(tmp_path):
    path = tmp_path / "knockdown.toml"
    path.write_text('[gpio]\nled_pin = false\n[cameras.arena]\nsource = "none"\n', encoding="utf-8")
    config = load_config(path)
    assert config.gpio.led_pin is None
    assert config.gpio.button_pin == 17  # untouched keys keep their defaults
    assert config.cameras.arena.source == "none"
    assert config.cameras.tower.source == "auto"


def test_overrides_nested_or_dotted_and_none_is_ignored(tmp_path):
    path = tmp_path / "k.toml"
    path.write_text("[http]\nport = 9000\n", encoding="utf-8")
    assert load_config(path, overrides={"http.port": 9100}).http.port == 9100
    assert load_config(path, overrides={"http": {"port": 9200}}).http.port == 9200
    assert load_config(path, overrides={"http.port": None, "http": {"host": None}}).http.port == 9000


def test_config_is_frozen():
    config = load_config()
    with pytest.raises(ValueError):
        config.http.port = 1  # pydantic's frozen error is a ValidationError (a ValueError)


def test_dump_reads_back_to_an_equal_config(tmp_path):
    config = load_config(
        overrides={
            "gpio.led_pin": False,
            "gpio.buzzer_kind": "passive",
            "vision.arena.base_colors": {"0": "#D02020", "1": "#2040d0"},
            "store.data_dir": str(tmp_path / 'with "quotes" and \\ slash'),
            "referee.pin": "0420",
        }
    )
    path = tmp_path / "dumped.toml"
    path.write_text(dump_config(config), encoding="utf-8")
    assert load_config(path) == config
    assert load_config(path).vision.arena.base_colors == {"0": "#d02020", "1": "#2040d0"}


def test_cli_check_ok_and_error(tmp_path, capsys):
    good = tmp_path / "good.toml"
    good.write_text("[countdown]\nseconds = 5\n", encoding="utf-8")
    assert main(["config", "check", str(good)]) == 0
    assert capsys.readouterr().out.strip() == f"ok: {good}"

    bad = tmp_path / "bad.toml"
    bad.write_text("[countdown]\nseconds = 0\n", encoding="utf-8")
    assert main(["config", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: countdown.seconds = 0" in err
    assert "greater than or equal to 1" in err


def test_cli_show_prints_the_effective_config(tmp_path, capsys):
    path = tmp_path / "k.toml"
    path.write_text("[http]\nport = 9001\n", encoding="utf-8")
    assert main(["config", "show", "--config", str(path)]) == 0
    shown = tomllib.loads(capsys.readouterr().out)
    assert shown["http"]["port"] == 9001
    assert shown["gpio"]["button_pin"] == 17


def test_cli_show_defaults_and_a_missing_file(tmp_path, capsys):
    assert main(["config", "show"]) == 0
    assert tomllib.loads(capsys.readouterr().out)["countdown"]["seconds"] == 10
    missing = tmp_path / "missing.toml"
    assert main(["config", "show", "--config", str(missing)]) == 2
    assert f"{missing}: cannot read the config file" in capsys.readouterr().err


def test_config_error_is_a_value_error_listing_issues(tmp_path):
    path = tmp_path / "k.toml"
    path.write_text("[http]\nport = 0\nhost = \"\"\n", encoding="utf-8")
    with pytest.raises(ValueError) as info:
        load_config(path)
    assert isinstance(info.value, ConfigError)
    assert {issue.key for issue in info.value.issues} == {"http.port", "http.host"}
    assert all(issue.source == str(path) for issue in info.value.issues)


@settings(max_examples=60, deadline=None)
@given(
    path=st.text(max_size=30),
    host=st.text(min_size=1, max_size=20),
    port=st.integers(1, 65535),
    seconds=st.integers(1, 60),
    colour=st.from_regex(r"#[0-9a-fA-F]{6}", fullmatch=True),
)
def test_any_valid_config_survives_dump_and_load(tmp_path_factory, path, host, port, seconds, colour):
    config = load_config(overrides={
        "cameras.tower.path": path, "http.host": host, "http.port": port,
        "countdown.seconds": seconds, "vision.arena.base_colors": {"1": colour},
    })
    file = tmp_path_factory.mktemp("dump") / "k.toml"
    file.write_text(dump_config(config), encoding="utf-8")
    assert load_config(file) == config
