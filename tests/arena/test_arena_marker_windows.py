"""Looking for the markers where the reference saw them first, the whole frame if need be."""

import numpy as np

from vision.arena.registration import detect_markers, register
from vision.synth.arena_scene import nudged

from tests.arena.arena_scenes import POSES, empty, mini, render, scene


def _calibrated(geometry, pose=POSES[0]):
    return register(empty(geometry, pose), geometry).homography


def test_the_windows_find_what_the_whole_frame_search_finds(geometry):
    pose = nudged(POSES[0], np.random.default_rng(3))
    image = render(scene(pose, minis=[mini(-40, 0)]), geometry)
    whole = detect_markers(image, geometry)
    windows = detect_markers(image, geometry, expected=_calibrated(geometry))
    assert sorted(windows) == sorted(whole) == [10, 11, 12, 13]
    for marker_id, corners in whole.items():
        assert np.abs(windows[marker_id] - corners).max() < 0.5


def test_a_hidden_marker_still_registers_from_the_windows(geometry):
    image = render(scene(minis=[mini(-40, 0)], hidden=[12]), geometry)
    registration = register(image, geometry, expected=_calibrated(geometry))
    assert registration.ok and registration.markers_used == (10, 11, 13)


def test_a_camera_moved_far_away_from_the_windows_falls_back_to_the_whole_frame(geometry):
    far_off = np.array([[1, 0, 250], [0, 1, 180], [0, 0, 1]]) @ _calibrated(geometry)  # 250 px right, 180 down
    image = render(scene(minis=[mini(-40, 0)]), geometry)
    registration = register(image, geometry, expected=far_off)
    assert registration.ok and registration.markers_used == (10, 11, 12, 13)
    assert np.allclose(registration.homography / registration.homography[2, 2],
                       register(image, geometry).homography / register(image, geometry).homography[2, 2], atol=1e-3)
