import dataclasses

import pytest

from vision.tower import TowerSettings, TowerSettingsError


def test_defaults_are_the_product_spec():
    s = TowerSettings()
    assert s.light_rgb == (225, 190, 140)
    assert s.heavy_rgb == (110, 30, 25)
    assert s.cube_mm == 10
    assert s.marker_ids == (0, 1)
    assert s.marker_mm == 30
    assert s.marker_offset_mm == 60
    assert 0 < s.settle_seconds <= 3
    assert 0 < s.auto_confirm_confidence <= 1


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TowerSettings().cube_mm = 12  # type: ignore[misc]


def test_from_mapping_reads_config_lists_and_round_trips():
    s = TowerSettings.from_mapping({"light_rgb": [200, 170, 120], "marker_ids": [4, 5], "settle_seconds": 2})
    assert s.light_rgb == (200, 170, 120)
    assert s.marker_ids == (4, 5)
    assert s.settle_seconds == 2.0
    assert TowerSettings.from_mapping(s.to_mapping()) == s


def test_unknown_key_is_refused_by_name():
    with pytest.raises(TowerSettingsError, match="'cube_size'"):
        TowerSettings.from_mapping({"cube_size": 10})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("light_rgb", [300, 0, 0]),
        ("heavy_rgb", [1, 2]),
        ("cube_mm", 0),
        ("cube_mm", "10"),
        ("marker_ids", [3, 3]),
        ("marker_ids", [0, 60]),
        ("marker_mm", -30),
        ("marker_offset_mm", 10),
        ("settle_seconds", float("nan")),
        ("auto_confirm_confidence", 1.5),
        ("auto_confirm_confidence", True),
    ],
)
def test_bad_values_name_key_and_value(key, value):
    with pytest.raises(TowerSettingsError) as err:
        TowerSettings.from_mapping({key: value})
    assert key in str(err.value)
    assert repr(value) in str(err.value) or repr(list(value)) in str(err.value) or repr(tuple(value)) in str(err.value)


def test_non_table_is_refused():
    with pytest.raises(TowerSettingsError, match="table"):
        TowerSettings.from_mapping([("cube_mm", 10)])  # type: ignore[arg-type]
