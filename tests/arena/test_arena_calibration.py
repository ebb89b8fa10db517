import numpy as np
import pytest

from vision.arena import CalibrationError, calibrate_arena, read_arena
from vision.arena.calibration import ArenaCalibration
from vision.arena.registration import register
from vision.synth.arena_scene import nudged

from tests.arena.arena_scenes import POSES, empty, mini, render, scene


def test_calibration_reports_the_space_centre_error(geometry):
    calibration = calibrate_arena(empty(geometry), geometry)
    report = calibration.report()
    assert report["markers"] == [10, 11, 12, 13]
    assert list(report["spaces"]) == list(geometry.spaces)
    # Marker corners are found to about a pixel; the spaces between them inherit about that.
    assert 0 < calibration.reprojection_px < 3
    assert 0 < calibration.reprojection_mm < 2
    # The middle of the board is better pinned down than its ends, near the markers' mates.
    assert calibration.space_error_mm["S5"] <= max(calibration.space_error_mm.values())


def test_calibration_needs_every_marker(geometry):
    frame = render(scene(hidden=[12]), geometry)
    with pytest.raises(CalibrationError, match=r"all 4 markers \[10, 11, 12, 13\].*missing 12"):
        calibrate_arena(frame, geometry)


def test_calibration_refuses_unusable_input(geometry):
    with pytest.raises(CalibrationError, match="empty frame is 'NoneType'"):
        calibrate_arena(None, geometry)


def test_saved_calibration_reads_like_the_original(geometry, tmp_path):
    calibration = calibrate_arena(empty(geometry), geometry)
    path = calibration.save(tmp_path)
    assert path.name == "arena-calibration.json" and (tmp_path / "arena-reference.png").is_file()
    loaded = ArenaCalibration.load(tmp_path, geometry)
    assert loaded.reprojection_mm == pytest.approx(calibration.reprojection_mm, abs=0.05)
    live = render(scene(minis=[mini(-120, 0)]), geometry)
    assert read_arena(live, loaded.reference, geometry).occupied == ("S2",)


def test_drift_measures_how_far_the_view_moved(geometry):
    pose = POSES[0]
    calibration = calibrate_arena(empty(geometry, pose), geometry)
    still = register(render(scene(pose, minis=[mini(0, 0)], seed=5), geometry), geometry)
    assert calibration.drift_mm(still) < 3
    knocked = register(render(scene(nudged(pose, np.random.default_rng(8))), geometry), geometry)
    assert calibration.drift_mm(knocked) > 6
