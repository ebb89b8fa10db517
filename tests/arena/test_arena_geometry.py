import pytest

from vision.arena import ArenaSettings, BoardGeometry, LayoutError, SettingsError, load_geometry

from tests.arena.arena_scenes import LAYOUTS


def _layout(**changes):
    base = {
        "id": "tiny",
        "board_mm": [200, 100],
        "space_mm": 36,
        "spaces": [{"id": "A", "board_mm": [-20, 0]}, {"id": "B", "board_mm": [20, 0]}],
        "markers": [{"id": i, "board_mm": [x, y], "size_mm": 20} for i, (x, y) in enumerate([(-80, 30), (80, 30), (80, -30)])],
    }
    base.update(changes)
    return base


def test_line_9_matches_the_spec(geometry):
    assert list(geometry.spaces) == [f"S{i}" for i in range(1, 10)]
    for i in range(1, 10):
        assert geometry.spaces[f"S{i}"] == ((i - 5) * 40.0, 0.0)
    assert geometry.space_mm == 36
    assert geometry.board_mm == (440.0, 160.0)
    assert geometry.markers == {10: (-195.0, 55.0, 30.0), 11: (195.0, 55.0, 30.0), 12: (195.0, -55.0, 30.0), 13: (-195.0, -55.0, 30.0)}


def test_marker_corners_are_upright_in_aruco_order(geometry):
    corners = geometry.marker_corners(10)
    # top-left, top-right, bottom-right, bottom-left with +y up
    assert corners.tolist() == [[-210, 70], [-180, 70], [-180, 40], [-210, 40]]


@pytest.mark.parametrize(
    ("point", "space"),
    [((0, 0), "S5"), ((-160, 0), "S1"), ((177, 17), "S9"), ((-20, 0), None), ((0, 30), None), ((200, 0), None)],
)
def test_space_at(geometry, point, space):
    assert geometry.space_at(*point) == space


def test_layout_id_and_path_both_load(geometry):
    by_id = load_geometry("line-9", layouts_dir=LAYOUTS)
    assert by_id == geometry
    with pytest.raises(LayoutError, match="'nope'.*known layout id"):
        load_geometry("nope", layouts_dir=LAYOUTS)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"space_mm": "big"}, "'space_mm' is 'big'"),
        ({"space_mm": 0}, "'space_mm' is 0.0"),
        ({"board_mm": [200]}, r"'board_mm' is \[200\]"),
        ({"spaces": [{"id": "A", "board_mm": [0, 0]}, {"id": "A", "board_mm": [40, 0]}]}, "'spaces\\[1\\].id' is 'A'"),
        ({"markers": [{"id": 77, "board_mm": [0, 0], "size_mm": 20}]}, "'markers\\[0\\].id' is 77"),
        ({"markers": [{"id": 1, "board_mm": [0, 0], "size_mm": 20}]}, "1 markers: at least 3"),
    ],
)
def test_bad_layouts_name_the_field_and_value(changes, message):
    with pytest.raises(LayoutError, match=message):
        BoardGeometry.from_layout(_layout(**changes))


def test_settings_defaults_follow_the_spec():
    settings = ArenaSettings()
    assert (settings.base_mm, settings.read_hz, settings.drift_tolerance_mm, settings.stable_frames) == (26.0, 3.0, 6.0, 3)
    assert settings.base_bgr("0") is None


def test_settings_from_mapping_reads_colours():
    settings = ArenaSettings.from_mapping({"base_colors": {0: "#FF8000", "Maggot": "#102030"}, "stable_frames": 5})
    assert settings.base_bgr(0) == (0, 128, 255)
    assert settings.base_bgr("Maggot") == (48, 32, 16)
    assert settings.stable_frames == 5


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"colour": 1}, "vision.arena.colour is not a known setting"),
        ({"base_mm": -3}, "vision.arena.base_mm is -3"),
        ({"read_hz": "fast"}, "vision.arena.read_hz is 'fast'"),
        ({"stable_frames": 2.5}, "vision.arena.stable_frames is 2.5"),
        ({"base_colors": {"0": "red"}}, "vision.arena.base_colors.0 is 'red'"),
    ],
)
def test_settings_refuse_bad_values_by_name(mapping, message):
    with pytest.raises(SettingsError, match=message):
        ArenaSettings.from_mapping(mapping)
    assert issubclass(SettingsError, ValueError)
