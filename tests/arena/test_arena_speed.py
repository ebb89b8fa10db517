"""The reader's cheaper paths give the readings of the full ones.

- An unmoved camera: markers the frame shows where the reference had them keep the
  reference's corners without a search; a moved, shifted or covered marker is searched for.
- The lighting is fitted on coarse cell means: a known smooth light change is removed.
- The rim circle solved from sums finds the circle far from the origin too.
"""

import cv2
import numpy as np

from vision.arena import prepare_reference, read_arena
from vision.arena.bases import _robust_circle
from vision.arena.registration import register
from vision.arena.topdown import SmoothView, change_between
from vision.synth.arena_scene import Lighting, nudged

from tests.arena.arena_scenes import POSES, empty, mini, render, scene

EVENING = Lighting(gain=0.7, tint_bgr=(0.85, 0.95, 1.1), gradient=0.15, noise=3.0)


def _shifted(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    moved = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(image, moved, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def test_an_unmoved_camera_keeps_the_reference_markers_under_new_light(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    live = render(scene(minis=[mini(-40, 0)], lighting=EVENING, seed=5), geometry)
    assert sorted(prepared.still.unmoved(live)) == [10, 11, 12, 13]
    registration = register(live, geometry, expected=prepared.expected_markers(live), still=prepared.still_markers(live))
    assert registration.markers_used == registration.markers_found == (10, 11, 12, 13)
    searched_again = register(live, geometry, detected=prepared.registration.corners)  # what a fit would make of them
    assert np.array_equal(registration.homography, searched_again.homography)
    assert np.array_equal(registration.homography, prepared.registration.homography)
    assert registration.error_px == searched_again.error_px
    reading = read_arena(live, prepared, geometry, annotate=False)
    assert reading.ok and reading.occupied == ("S4",), reading.error


def test_a_nudged_camera_is_searched_for_as_before(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    live = render(scene(nudged(POSES[0], np.random.default_rng(4)), minis=[mini(40, 0)], seed=6), geometry)
    assert prepared.still.unmoved(live) == {}
    with_still = register(live, geometry, expected=prepared.expected_markers(live), still=prepared.still_markers(live))
    searched = register(live, geometry, expected=prepared.expected_markers(live))
    assert with_still.markers_used == searched.markers_used == (10, 11, 12, 13)
    assert np.array_equal(with_still.homography, searched.homography)
    reading = read_arena(live, prepared, geometry, annotate=False)
    assert reading.ok and reading.occupied == ("S6",), reading.error


def test_a_shift_of_half_a_pixel_is_not_unmoved_but_none_is(geometry):
    reference = empty(geometry)
    prepared = prepare_reference(reference, geometry)
    assert sorted(prepared.still.unmoved(_shifted(reference, 0.0, 0.0))) == [10, 11, 12, 13]
    assert prepared.still.unmoved(_shifted(reference, 0.5, 0.0)) == {}
    assert prepared.still.unmoved(_shifted(reference, 0.0, -0.5)) == {}


def test_a_covered_marker_is_searched_for_and_reported_missing(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    live = render(scene(minis=[mini(-80, 0)], hidden=[12], seed=8), geometry)
    assert sorted(prepared.still.unmoved(live)) == [10, 11, 13]
    reading = read_arena(live, prepared, geometry, annotate=False)
    assert reading.markers_found == (10, 11, 13)
    assert reading.ok and reading.occupied == ("S3",), reading.error


def test_a_still_reference_is_only_used_on_images_of_its_size(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    small = cv2.resize(empty(geometry), (640, 480), interpolation=cv2.INTER_AREA)
    assert prepared.still_markers(small) is None and prepared.expected_markers(small) is None
    reading = read_arena(small, prepared, geometry, annotate=False)
    assert reading.ok and reading.occupied == () and reading.markers_found == (10, 11, 12, 13)


def test_a_smooth_light_change_is_fitted_on_the_coarse_grid_and_removed():
    rng = np.random.default_rng(2)
    h, w = 160, 440
    board = cv2.GaussianBlur(rng.uniform(60, 200, (h, w, 3)).astype(np.float32), (0, 0), 3.0)
    us = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :, None]
    vs = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None, None]
    gain = np.exp(np.float32([0.1, -0.2, 0.05]) + 0.3 * us - 0.2 * vs + 0.4 * us * vs)  # bilinear in log space
    lit = (board + 10) * gain - 10
    lit[70:90, 200:225] = (30, 200, 60)  # something new on the board
    usable = np.ones((h, w), bool)
    change = change_between(SmoothView.of(lit), SmoothView.of(board), usable)
    assert change.score[75:85, 205:220].min() >= 1.0
    away = np.ones((h, w), bool)
    away[60:100, 190:235] = False
    assert change.score[away].max() < 0.2 and change.difference[away].max() < 3.0


def test_the_rim_circle_is_found_far_from_the_origin_and_a_stray_point_dropped():
    angles = np.radians(np.linspace(-88, 88, 21))
    rim = np.column_stack([412.0 + 13.0 * np.cos(angles), 147.0 + 13.0 * np.sin(angles)])
    cx, cy, r, error = _robust_circle(rim)
    assert abs(cx - 412.0) < 1e-9 and abs(cy - 147.0) < 1e-9 and abs(r - 13.0) < 1e-9 and error < 1e-9
    rim[10] += [3.0, 0.0]  # one rim point on a neighbour's outline
    cx, cy, r, error = _robust_circle(rim)
    assert abs(cx - 412.0) < 1e-9 and abs(cy - 147.0) < 1e-9 and abs(r - 13.0) < 1e-9 and error < 1e-9
    near_origin = _robust_circle(rim - [400.0, 140.0])
    assert np.allclose(near_origin, (12.0, 7.0, 13.0, 0.0), atol=1e-9)
