import numpy as np
import pytest

from vision.synth.tower_scene import make_calibration_shot, make_tower_scene
from vision.tower import TowerSettings, Verdict, judge_tower
from vision.tower.calibration import CalibrationError, calibrate_tower, tallest_tower_in_view
from vision.tower.geometry import MatGeometry

ODD_BOX = {"light_rgb": (200, 160, 100), "heavy_rgb": (60, 70, 120)}


def test_calibration_measures_scale_and_camera():
    shot, camera = make_calibration_shot(seed=1)
    cal = calibrate_tower(shot)
    assert cal.markers_seen == (0, 1)
    truth = camera.focal_px / camera.distance_mm
    assert cal.px_per_mm == pytest.approx(truth, rel=0.15)
    assert cal.camera_distance_mm == pytest.approx(camera.distance_mm, rel=0.1)
    assert 10 <= cal.camera_elevation_deg <= 40
    assert len(cal.describe()) >= 4


def test_learned_colours_let_the_judge_see_another_box_of_cubes():
    shot, _ = make_calibration_shot(seed=2, **ODD_BOX)
    cal = calibrate_tower(shot)
    scene = make_tower_scene("stand", seed=2, **ODD_BOX)
    unlearned = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    learned = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light, settings=cal.settings)
    assert unlearned.verdict is not Verdict.PASS  # the default colours do not fit this box
    assert unlearned.verdict is not Verdict.FAIL  # ... and that is no reason to fail anyone
    assert learned.verdict is Verdict.PASS
    # The heavy cube of this box is blue-ish and darker than the light one.
    assert cal.heavy_rgb[2] > cal.heavy_rgb[0]
    assert sum(cal.light_rgb) > sum(cal.heavy_rgb)


def test_to_mapping_gives_the_config_keys_and_round_trips():
    shot, _ = make_calibration_shot(seed=3)
    cal = calibrate_tower(shot)
    mapping = cal.to_mapping()
    assert mapping["light_rgb"] == list(cal.light_rgb)
    assert mapping["heavy_rgb"] == list(cal.heavy_rgb)
    assert TowerSettings.from_mapping(mapping) == cal.settings
    # The learned colours are near the spec colours for a spec box.
    assert np.abs(np.array(cal.light_rgb) - (225, 190, 140)).max() < 70
    assert np.abs(np.array(cal.heavy_rgb) - (110, 30, 25)).max() < 70


def test_missing_markers_say_what_to_fix():
    with pytest.raises(CalibrationError, match="marker"):
        calibrate_tower(np.full((480, 640, 3), 128, np.uint8))


def test_no_cubes_on_the_spot_is_refused():
    empty = make_tower_scene("stand", seed=1).frames[0]
    with pytest.raises(CalibrationError, match="cube"):
        calibrate_tower(empty)


def _true_tallest_tower(camera, cube_mm: float = 10.0) -> int:
    """The same count from the generator's own camera (not the pose calibration estimates)."""
    return tallest_tower_in_view(MatGeometry.from_pose(*camera.matrices()), camera.size, cube_mm)


@pytest.mark.parametrize("seed", [1, 4, 5])
def test_calibration_says_how_tall_a_tower_the_picture_holds(seed):
    shot, camera = make_calibration_shot(seed=seed)
    cal = calibrate_tower(shot)
    assert abs(cal.tallest_tower_cubes - _true_tallest_tower(camera)) <= 1
    assert f"up to {cal.tallest_tower_cubes} cubes tall" in "\n".join(cal.describe())


def test_a_camera_too_close_for_a_tall_tower_is_told_to_move_back():
    # Fresh tower room 973105's camera: 18 cm away, 27 degrees up, the lens centre a little high;
    # its nine-cube towers leave the picture at the top and read "uncertain" (cube_count, hand).
    from vision.synth.tower_scene import Camera

    close = Camera(distance_mm=184.5, elevation_deg=26.8, yaw_deg=-7.2, roll_deg=-2.7, focal_px=636.3,
                   principal_offset=(3.1, -11.5))
    far = Camera(distance_mm=300.0, elevation_deg=12.0, focal_px=560.0)
    near_cal = calibrate_tower(make_calibration_shot(seed=6, camera=close)[0])
    far_cal = calibrate_tower(make_calibration_shot(seed=6, camera=far)[0])
    assert near_cal.tallest_tower_cubes < 9 <= _true_tallest_tower(far)
    assert far_cal.tallest_tower_cubes > near_cal.tallest_tower_cubes
    assert "move the camera back" in "\n".join(near_cal.describe())
    assert "move the camera back" not in "\n".join(far_cal.describe())


def test_a_picture_that_cuts_off_a_single_cube_is_refused_in_words():
    # The lens centre far up the sensor: the mat's markers still show, a cube's top does not.
    from vision.synth.tower_scene import Camera

    aimed_low = Camera(distance_mm=240.0, elevation_deg=20.0, principal_offset=(0.0, -250.0))
    with pytest.raises(CalibrationError, match="cuts off the top of a single cube.*move the camera back"):
        calibrate_tower(make_calibration_shot(seed=6, camera=aimed_low)[0])
