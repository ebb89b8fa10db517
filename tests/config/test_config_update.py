"""update_config: a calibration rewrites only the keys it sets (the user's comments stay)."""

import pytest

from firmware_config import ConfigError, load_config, update_config

HAND_WRITTEN = """\
# The referee at table 3 (Anna, 2026-11-02)
[http]
port = 9000  # the club's router forwards this one

[vision.tower]
# measured under the club's lamps
light_rgb = [230, 195, 150]
"""


def test_only_the_keys_given_change_and_comments_stay(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(HAND_WRITTEN, encoding="utf-8")

    config = update_config(path, {"vision.tower.light_rgb": [221, 188, 141], "vision.tower.tallest_tower_cubes": 7})

    text = path.read_text(encoding="utf-8")
    assert text.startswith("# The referee at table 3 (Anna, 2026-11-02)\n[http]\nport = 9000  # the club's router")
    assert "# measured under the club's lamps\nlight_rgb = [221, 188, 141]\ntallest_tower_cubes = 7\n" in text
    assert "[gpio]" not in text and "heavy_rgb" not in text  # defaults the file did not set stay unset
    assert config == load_config(path)
    assert config.http.port == 9000 and list(config.vision.tower.light_rgb) == [221, 188, 141]


def test_a_missing_file_is_created_with_only_what_was_set(tmp_path):
    path = tmp_path / "tower-calibration.toml"

    config = update_config(path, {"vision.tower.tallest_tower_cubes": 8})

    assert path.read_text(encoding="utf-8") == "[vision.tower]\ntallest_tower_cubes = 8\n"
    assert config.vision.tower.tallest_tower_cubes == 8
    assert config.gpio == load_config().gpio


def test_a_table_written_inline_is_updated_in_place(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('vision = { tower = { tallest_tower_cubes = 6 } }  # one line\n', encoding="utf-8")

    update_config(path, {"vision": {"tower": {"tallest_tower_cubes": 9}}})

    assert path.read_text(encoding="utf-8") == 'vision = { tower = { tallest_tower_cubes = 9 } }  # one line\n'


def test_a_bad_value_changes_nothing(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(HAND_WRITTEN, encoding="utf-8")

    with pytest.raises(ConfigError, match=r"override: http\.port = 'eighty'|http\.port"):
        update_config(path, {"http.port": "eighty"})

    assert path.read_text(encoding="utf-8") == HAND_WRITTEN
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]  # no temporary file left behind
