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


def test_one_stray_corner_does_not_cost_a_marker_when_only_three_are_seen(geometry):
    detected = detect_markers(empty(geometry))
    del detected[13]
    exact = register(empty(geometry), geometry, detected=detected).homography
    detected[11] = detected[11].copy()
    detected[11][3] += [3.5, 2.0]  # one corner pulled off by a neighbouring edge
    registration = register(empty(geometry), geometry, detected=detected)
    assert registration.ok and registration.markers_used == (10, 11, 12)
    corners = geometry.marker_corners(11)
    moved = np.abs(_project(registration.homography, corners) - _project(exact, corners)).max()
    assert moved < 0.5  # px: the stray corner was left out of the fit


def test_two_stray_corners_of_one_marker_are_a_marker_that_disagrees(geometry):
    detected = detect_markers(empty(geometry))
    del detected[13]
    detected[11] = detected[11] + [[3.5, 2.0], [0, 0], [0, 0], [-3.5, 2.0]]
    registration = register(empty(geometry), geometry, detected=detected)
    assert not registration.ok and "do not agree" in registration.error


def _project(homography, points):
    mapped = np.column_stack([points, np.ones(len(points))]) @ homography.T
    return mapped[:, :2] / mapped[:, 2:]
