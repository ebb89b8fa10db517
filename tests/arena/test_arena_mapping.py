"""The mapping: known homographies give the right spaces, and only trustworthy ones are used."""

import cv2
import numpy as np
import pytest

from vision.arena.pose import camera_position
from vision.arena.registration import detect_markers, register
from vision.synth.arena_scene import make_camera

from tests.arena.arena_scenes import POSES, empty, render, scene


@pytest.mark.parametrize("pose", POSES, ids=lambda p: f"el{p.elevation_deg:g}az{p.azimuth_deg:g}")
def test_registration_recovers_the_known_homography(geometry, pose):
    known = make_camera(pose, geometry).ground_homography()
    registration = register(empty(geometry, pose), geometry)
    assert registration.ok and registration.markers_used == (10, 11, 12, 13)
    centres = np.array(list(geometry.spaces.values()))
    truth = _project(known, centres)
    assert np.abs(registration.project(centres) - truth).max() < 1.5  # px
    # Every space centre seen in the image maps back onto its own space.
    back = _project(np.linalg.inv(registration.homography), truth)
    assert [geometry.space_at(x, y) for x, y in back] == list(geometry.spaces)


def test_camera_position_comes_out_of_the_homography(geometry):
    pose = POSES[1]
    camera = make_camera(pose, geometry)
    estimate = camera_position(register(empty(geometry, pose), geometry).homography, pose.image_size)
    assert np.linalg.norm(np.array(estimate.centre_mm) - camera.centre) < 15  # mm, at ~40 cm
    away = estimate.away(0, 0)
    assert away[1] > 0.8  # the camera is in front: figures lean towards +y


def test_one_marker_missing_still_maps_with_three(geometry):
    detected = detect_markers(empty(geometry))
    del detected[12]
    registration = register(empty(geometry), geometry, detected=detected)
    assert registration.ok and registration.missing(geometry) == (12,)


def test_two_markers_missing_is_no_mapping_and_names_them(geometry):
    detected = detect_markers(empty(geometry))
    del detected[11], detected[13]
    registration = register(empty(geometry), geometry, detected=detected)
    assert not registration.ok
    assert "missing 11, 13" in registration.error


def test_a_marker_that_disagrees_is_left_out(geometry):
    detected = detect_markers(empty(geometry))
    detected[11] = detected[11] + [25.0, 10.0]  # as if that sticker had been moved
    registration = register(empty(geometry), geometry, detected=detected)
    assert registration.ok and registration.markers_used == (10, 12, 13)


@pytest.mark.parametrize("wrong", ["turned", "moved"])
def test_three_markers_that_disagree_give_no_mapping(geometry, wrong):
    detected = detect_markers(empty(geometry))
    del detected[12]
    if wrong == "turned":  # a marker read a quarter turn off
        detected[11] = np.roll(detected[11], 1, axis=0)
    else:  # a marker some 3 cm from where the layout puts it
        detected[11] = detected[11] + [45.0, 20.0]
    registration = register(empty(geometry), geometry, detected=detected)
    assert not registration.ok
    assert "do not agree" in registration.error


def _project(homography, points):
    pts = np.column_stack([points, np.ones(len(points))]) @ np.asarray(homography).T
    return pts[:, :2] / pts[:, 2:3]


def test_big_frames_are_searched_small_and_refined_full(geometry):
    from vision.arena.registration import aruco_detector
    from vision.synth.arena_scene import CameraPose

    pose = CameraPose(distance_mm=550, elevation_deg=45, azimuth_deg=10, image_size=(1920, 1080), fill=0.6)
    image = render(scene(pose, hidden=[13]), geometry)
    quick = detect_markers(image, geometry)
    # The reference: a full-size search with sub-pixel corners (without refinement, corner
    # precision differs between OpenCV 4.x, which the Pi runs, and 5.x).
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    reference = cv2.aruco.ArucoDetector(aruco_detector().getDictionary(), params)
    corners, ids, _ = reference.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    full = {int(i): q.reshape(4, 2) for i, q in zip(ids.ravel(), corners)}
    assert sorted(quick) == sorted(full) == [10, 11, 12]
    for marker_id in quick:
        assert np.abs(quick[marker_id] - full[marker_id]).max() < 1.0  # px, on a 1920 px frame
