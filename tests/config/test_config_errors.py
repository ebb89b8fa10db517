"""Every invalid key or value gets a message naming the file, the key, the value and the rule."""

from __future__ import annotations

import pytest

from firmware_config import ConfigError, load_config

# (TOML text, the dotted key blamed, the value as shown, a fragment of the rule)
INVALID = [
    ('[gpio]\npin_factory = "pigpio"\n', "gpio.pin_factory", '"pigpio"', "'auto', 'lgpio', 'rpigpio' or 'mock'"),
    ("[gpio]\nbutton_pin = 40\n", "gpio.button_pin", "40", "less than or equal to 27"),
    ("[gpio]\nbutton_pin = 1\n", "gpio.button_pin", "1", "greater than or equal to 2"),
    ('[gpio]\nbutton_pin = "17"\n', "gpio.button_pin", '"17"', "valid integer"),
    ("[gpio]\nbutton_pin = 17.0\n", "gpio.button_pin", "17.0", "valid integer"),
    ("[gpio]\nbuzzer_pin = 17\n", "gpio.buzzer_pin", "17", "GPIO17 is also gpio.button_pin"),
    ("[gpio]\nbutton_pin = 27\n", "gpio.button_pin", "27", "GPIO27 is also gpio.led_pin"),
    ("[gpio]\nled_pin = 18\n", "gpio.led_pin", "18", "each device needs its own pin"),
    ("[gpio]\nled_pin = true\n", "gpio.led_pin", "true", "or false for no LED"),
    ('[gpio]\nled_pin = "off"\n', "gpio.led_pin", '"off"', "valid integer"),
    ('[gpio]\nbuzzer_kind = "piezo"\n', "gpio.buzzer_kind", '"piezo"', "'active' or 'passive'"),
    ('[gpio]\nbuzzer_kind = "passive"\nbuzzer_pin = 22\n', "gpio.buzzer_pin", "22", "hardware-PWM pin (12, 13, 18, 19)"),
    ('[gpio]\nbuzzer_kind = "passive"\npin_factory = "lgpio"\nbuzzer_pin = 5\n', "gpio.buzzer_pin", "5", "needs PWM"),
    ("[gpio]\nbutton_bounce_ms = -1\n", "gpio.button_bounce_ms", "-1", "greater than or equal to 0"),
    ("[gpio]\nlong_press_seconds = 0.1\n", "gpio.long_press_seconds", "0.1", "greater than or equal to 0.5"),
    ("[gpio]\nbutton_bounce_ms = 500\nlong_press_seconds = 0.5\n", "gpio.long_press_seconds", "0.5", "longer than gpio.button_bounce_ms"),
    ("[gpio]\nbuton_pin = 5\n", "gpio.buton_pin", "5", "unknown key; allowed in [gpio]: pin_factory, button_pin"),
    ("[countdown]\nseconds = 0\n", "countdown.seconds", "0", "greater than or equal to 1"),
    ("[countdown]\nseconds = 2.5\n", "countdown.seconds", "2.5", "valid integer"),
    ("[countdown]\nbeep_ms = 900\n", "countdown.beep_ms", "900", "less than or equal to 500"),
    ("[countdown]\nfinal_tone_ms = 80\n", "countdown.final_tone_ms", "80", "longer than countdown.beep_ms (80)"),
    ("[countdown]\nbeep_hz = 20\n", "countdown.beep_hz", "20", "greater than or equal to 100"),
    ('[countdown]\nfinal_hz = "A4"\n', "countdown.final_hz", '"A4"', "valid number"),
    ("[countdown]\nbeeps = 3\n", "countdown.beeps", "3", "unknown key"),
    ('[cameras.tower]\nsource = "webcam"\n', "cameras.tower.source", '"webcam"', "'picamera2', 'usb', 'folder'"),
    ('[cameras.arena]\nsource = "folder"\n', "cameras.arena.path", '""', 'source = "folder" needs a path'),
    ("[cameras.tower]\nindex = -1\n", "cameras.tower.index", "-1", "greater than or equal to 0"),
    ("[cameras.tower]\nresolution = [640]\n", "cameras.tower.resolution", "[640]", "must be [width, height]"),
    ("[cameras.tower]\nresolution = [640, 8]\n", "cameras.tower.resolution[1]", "8", "greater than or equal to 16"),
    ("[cameras.tower]\nfps = 0\n", "cameras.tower.fps", "0", "greater than 0"),
    ('[cameras.arena]\nexposure_lock = "yes"\n', "cameras.arena.exposure_lock", '"yes"', "valid boolean"),
    ("[cameras.tower]\nzoom = 2\n", "cameras.tower.zoom", "2", "allowed in [cameras.tower]: source, index, path"),
    ("[cameras.side]\nsource = \"usb\"\n", "cameras.side", '{"source" = "usb"}', "allowed in [cameras]: tower, arena"),
    ("[vision.tower]\nlight_rgb = [225, 190]\n", "vision.tower.light_rgb", "[225, 190]", "at least 3 items"),
    ("[vision.tower]\nheavy_rgb = [110, 30, 256]\n", "vision.tower.heavy_rgb[2]", "256", "less than or equal to 255"),
    ("[vision.tower]\ncube_mm = 0\n", "vision.tower.cube_mm", "0", "greater than 0"),
    ("[vision.tower]\nmarker_ids = [3, 3]\n", "vision.tower.marker_ids", "[3, 3]", "must differ"),
    ("[vision.tower]\nauto_confirm_confidence = 1.5\n", "vision.tower.auto_confirm_confidence", "1.5", "less than or equal to 1"),
    ("[vision.tower]\nsettle_seconds = -1\n", "vision.tower.settle_seconds", "-1", "greater than or equal to 0"),
    ('[vision.arena]\nbase_colors = { "0" = "red" }\n', "vision.arena.base_colors.0", '"red"', '"#rrggbb"'),
    ('[vision.arena]\nbase_colors = { "2" = "#aabbcc" }\n', "vision.arena.base_colors.2", '"#aabbcc"', "'0' or '1'"),
    ("[vision.arena]\nstable_frames = 0\n", "vision.arena.stable_frames", "0", "greater than or equal to 1"),
    ("[vision.arena]\nread_hz = 0\n", "vision.arena.read_hz", "0", "greater than 0"),
    ('[store]\ndata_dir = ""\n', "store.data_dir", '""', "non-empty path"),
    ("[http]\nport = 70000\n", "http.port", "70000", "less than or equal to 65535"),
    ('[http]\nhost = ""\n', "http.host", '""', "at least 1 character"),
    ("[referee]\npin = 1234\n", "referee.pin", "1234", "must be a quoted string"),
    ('[referee]\npin = "12a4"\n', "referee.pin", '"12a4"', "4-8 digits"),
    ('[referee]\npin = "123"\n', "referee.pin", '"123"', "4-8 digits"),
    ("[referee]\nauto_confirm_seconds = -2\n", "referee.auto_confirm_seconds", "-2", "greater than or equal to 0"),
    ('[match]\nvariant = "cards"\n', "match.variant", '"cards"', "'tower' or 'dice'"),
    ('[match]\narena = "Line 9"\n', "match.arena", '"Line 9"', "should match pattern"),
    ('[matches]\nvariant = "dice"\n', "matches", '{"variant" = "dice"}', "allowed in [top level]: gpio, countdown"),
    ('gpio = 5\n', "gpio", "5", "valid dictionary"),
]


@pytest.mark.parametrize(("text", "key", "shown", "rule"), INVALID, ids=[case[1] for case in INVALID])
def test_invalid_value_is_named_with_file_key_value_and_rule(tmp_path, text, key, shown, rule):
    path = tmp_path / "knockdown.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert f"{path}: {key} = {shown}: " in message
    assert rule in message
    assert [issue.key for issue in info.value.issues] == [key]


def test_every_issue_is_reported_at_once(tmp_path):
    path = tmp_path / "k.toml"
    path.write_text("[gpio]\nbutton_pin = 99\n[http]\nport = 0\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert [issue.key for issue in info.value.issues] == ["gpio.button_pin", "http.port"]
    assert len(str(info.value).splitlines()) == 2


def test_override_errors_name_the_override():
    with pytest.raises(ConfigError, match=r"^override: http\.port = 0: "):
        load_config(overrides={"http.port": 0})


def test_a_passive_buzzer_is_allowed_on_a_pwm_pin_or_on_mock_pins():
    assert load_config(overrides={"gpio.buzzer_kind": "passive"}).gpio.buzzer_pin == 18
    mock = load_config(overrides={"gpio": {"buzzer_kind": "passive", "pin_factory": "mock", "buzzer_pin": 22}})
    assert mock.gpio.buzzer_pin == 22


def test_not_toml_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[gpio]\nbutton_pin = = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"^{path}: not valid TOML: .*line 2"):
        load_config(path)


def test_not_utf8_is_refused(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('[http]\nhost = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(path)
