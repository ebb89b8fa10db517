"""The twentieth pass's cheaper paths give what the plain ones gave.

- The mask is grown, and find_blobs' distance map, peaks, outline and regions are worked out,
  in a window round the change: the same as over the whole view.
- What is worked out from the prepared reference's read-only search mask is kept; from any
  other mask it is worked out afresh.
- A frame with a marker covered since the camera stood still is mapped from the other
  markers once: every such frame gets that same mapping, as a fresh fit gives it.
- Of a colour frame, only the windows a covered marker is looked for in are made grey.
"""

import cv2
import numpy as np
import pytest

from vision.arena import bases, prepare_reference, read_arena
from vision.arena.bases import _DISTANCE_MARGIN_PX, change_mask, changed_window, find_blobs
from vision.arena.pose import camera_position
from vision.arena.registration import DETECT_WIDTH, _detect_near, register, to_gray
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView, Change, SmoothView, _saturates, change_between, per_mask

from tests.arena.arena_scenes import POSES, empty, mini, render, scene, token

WHOLE_VIEW = (slice(0, None), slice(0, None))


def _change(seed: int, shape=(160, 440)) -> Change:
    """A change field: noise, clear discs (one at the view's edge, one a ring round an unchanged
    middle), faint change touching one and faint change on its own."""
    rng = np.random.default_rng(seed)
    h, w = shape
    score = rng.uniform(0.0, 0.5, shape).astype(np.float32)
    rr, cc = np.mgrid[:h, :w]
    for u, v, r in ((60 + seed % 7, 50, 13), (w - 6, 90 + seed % 5, 12), (250, 120, 10)):
        score[(cc - u) ** 2 + (rr - v) ** 2 <= r * r] = rng.uniform(1.2, 3.0)
    ring = ((cc - 330) ** 2 + (rr - 60) ** 2 <= 14 ** 2) & ((cc - 330) ** 2 + (rr - 60) ** 2 > 7 ** 2)
    score[ring] = 2.0
    unshaded = score.copy()
    unshaded[(cc - 60) ** 2 + (rr - 70) ** 2 <= 12 ** 2] = np.maximum(unshaded[(cc - 60) ** 2 + (rr - 70) ** 2 <= 144], 0.7)
    unshaded[(cc - 160) ** 2 + (rr - 100) ** 2 <= 10 ** 2] = 0.8  # faint, touching nothing clear
    difference = (score * 40 + rng.uniform(0, 5, shape)).astype(np.float32)
    return Change(score, unshaded, difference)


def _search(shape=(160, 440)) -> np.ndarray:
    search = np.ones(shape, bool)
    search[:3], search[-3:], search[:, :3], search[:, -3:] = False, False, False, False
    search[10:40, 10:40] = False  # a marker's keep-out
    return search


def test_the_changed_window_holds_everything_marked_with_its_margin_and_starts_on_even_pixels():
    mask = np.zeros((160, 440), np.uint8)
    assert changed_window(mask, 16) == (slice(0, 0), slice(0, 0))
    mask[52:60, 104:130] = 1
    mask[97, 211] = 1
    rows, cols = changed_window(mask, 5)
    assert rows.start % 2 == 0 and cols.start % 2 == 0
    assert rows.start <= 52 - 5 and rows.stop >= 98 + 5 and cols.start <= 104 - 5 and cols.stop >= 212 + 5
    assert mask[rows, cols].sum() == mask.sum()
    mask[158, 438] = 1  # at the view's corner: the window stops at the view
    rows, cols = changed_window(mask, 5)
    assert rows.stop == 160 and cols.stop == 440


@pytest.mark.parametrize("seed", range(6))
def test_the_mask_grown_round_the_change_is_the_mask_grown_over_the_whole_view(seed, monkeypatch):
    change, search = _change(seed), _search()
    windowed = change_mask(change, search)
    monkeypatch.setattr(bases, "changed_window", lambda mask, margin: WHOLE_VIEW)
    whole = change_mask(change, search)
    assert windowed.dtype == whole.dtype and np.array_equal(windowed, whole)
    assert windowed[60, 330] == 1  # the ring's middle filled
    assert windowed[70, 60] == 1 and windowed[100, 160] == 0  # faint change joins only touching clear change


def test_the_distance_map_round_the_change_is_the_whole_views():
    change = _change(3)
    mask = change_mask(change, _search())
    rows, cols = changed_window(mask, _DISTANCE_MARGIN_PX)
    whole = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    assert np.array_equal(cv2.distanceTransform(mask[rows, cols], cv2.DIST_L2, 5), whole[rows, cols])
    assert whole[rows, cols].sum() == whole.sum()


def test_nothing_changed_is_an_empty_mask_and_no_disc():
    change = Change(np.zeros((160, 440), np.float32), np.zeros((160, 440), np.float32), np.zeros((160, 440), np.float32))
    mask = change_mask(change, _search())
    assert mask.shape == (160, 440) and not mask.any()
    view = BoardView(440.0, 160.0)
    assert find_blobs(change, mask, view, camera_position(_a_mapping(), (800, 600)), ArenaSettings(), _search()) == []


def _a_mapping() -> np.ndarray:
    return np.array([[1.2, 0.05, 400.0], [0.02, -1.0, 330.0], [0.0, 0.0004, 1.0]])


@pytest.mark.parametrize("pose", range(3))
def test_discs_fitted_round_the_change_are_those_fitted_over_the_whole_view(pose, geometry, monkeypatch):
    """A fighter, two touching and tokens (one at the board's edge): the same discs, regions and all."""
    minis = [mini(-160, 0), mini(40, 0), mini(40 + 27, 0)]
    tokens = [token(-80, 10), token(120, -60, 18)]
    prepared = prepare_reference(empty(geometry, POSES[pose]), geometry)
    frame = render(scene(POSES[pose], minis=minis, tokens=tokens, seed=31 + pose), geometry)
    registration = register(frame, geometry)
    view = prepared.view
    live = SmoothView.of(view.warp(frame, registration.homography))
    camera = prepared.camera_for(frame, registration)
    change = change_between(live, prepared.smooth, prepared.search)
    mask = change_mask(change, prepared.search)
    windowed = find_blobs(change, mask, view, camera, ArenaSettings(), prepared.search)
    monkeypatch.setattr(bases, "changed_window", lambda mask, margin: WHOLE_VIEW)
    assert np.array_equal(change_mask(change, prepared.search), mask)
    whole = find_blobs(change, mask, view, camera, ArenaSettings(), prepared.search)
    assert len(windowed) >= 3 and windowed == whole
    assert [b.region for b in windowed] == [b.region for b in whole]


def test_what_is_worked_out_from_a_read_only_mask_is_kept_and_from_any_other_worked_out_afresh():
    calls = []

    def count(mask):
        calls.append(1)
        return np.flatnonzero(mask)

    shared = np.zeros((20, 30), bool)
    shared[5:9, 3:7] = True
    shared.flags.writeable = False
    first = per_mask(shared, "test cells", count)
    assert per_mask(shared, "test cells", count) is first and len(calls) == 1
    assert np.array_equal(first, np.flatnonzero(shared))
    assert per_mask(shared, "other cells", count) is not first and len(calls) == 2  # another thing of it
    changing = shared.copy()  # writeable: may change between reads
    per_mask(changing, "test cells", count)
    per_mask(changing, "test cells", count)
    assert len(calls) == 4
    base = np.zeros((20, 30), bool)
    view = base[:, :]
    view.flags.writeable = False  # read-only, but its memory is another array's, which may change
    per_mask(view, "test cells", count)
    base[0, 0] = True
    assert np.array_equal(per_mask(view, "test cells", count), [0]) and len(calls) == 6


def test_the_saturation_check_on_bytes_answers_as_the_check_on_the_smoothed_view():
    rng = np.random.default_rng(5)
    usable = np.ones((160, 440), bool)
    for top in (200, 247, 248, 249, 250, 255):
        view = rng.integers(100, 180, (160, 440, 3), dtype=np.uint8)
        view[40:120, 50:400] = top  # a large bright patch: thousands of pixels
        live = SmoothView.of(view)
        assert _saturates(live, usable) == _saturates(SmoothView(live.bgr, live.log), usable)  # (no bytes)
    assert _saturates(SmoothView.of(np.full((160, 440, 3), 255, np.uint8)), usable)


def _covered_after_calibration(geometry):
    """A reference with all four markers, and two frames (other noise draws) of the unmoved
    camera with marker 10 covered."""
    prepared = prepare_reference(empty(geometry), geometry)
    frames = [render(scene(minis=[mini(-40, 0)], hidden=(10,), seed=seed), geometry) for seed in (41, 42)]
    return prepared, frames


def test_frames_with_a_marker_covered_since_calibration_are_mapped_once_and_alike(geometry, monkeypatch):
    prepared, frames = _covered_after_calibration(geometry)
    first = read_arena(frames[0], prepared, geometry, annotate=False)
    assert first.ok and first.occupied == ("S4",) and 10 not in first.registration.markers_used
    assert first.registration.unmoved and len(prepared.still.refits) == 1
    mapping = first.registration.homography.copy()
    fits = []
    plain_register = register

    def counted(image, geometry_, **kwargs):
        if kwargs.get("detected") is not None:
            fits.append(1)
        return plain_register(image, geometry_, **kwargs)

    monkeypatch.setattr("vision.arena.registration.register", counted)
    again = [read_arena(frame, prepared, geometry, annotate=False) for frame in frames + frames]
    assert fits == []  # the mapping of the same unmoved markers is not fitted again
    monkeypatch.setattr("vision.arena.registration.register", plain_register)
    for k, reading in enumerate(again):  # as a reference prepared afresh (fitting the mapping anew) reads it
        fresh = read_arena(frames[k % 2], prepare_reference(empty(geometry), geometry), geometry, annotate=False)
        assert reading.to_json() == fresh.to_json()
        assert np.array_equal(reading.registration.homography, fresh.registration.homography)
    # Each read has its own mapping: changing one does not change the next.
    again[0].registration.homography[0, 0] += 1.0
    assert np.array_equal(read_arena(frames[0], prepared, geometry, annotate=False).registration.homography, mapping)


def test_the_camera_of_another_mapping_is_the_one_worked_out_from_it_and_few_are_kept(geometry):
    prepared, frames = _covered_after_calibration(geometry)
    registration = read_arena(frames[0], prepared, geometry, annotate=False).registration
    assert not np.array_equal(registration.homography, prepared.registration.homography)
    camera = prepared.camera_for(frames[0], registration)
    assert camera == camera_position(registration.homography, (frames[0].shape[1], frames[0].shape[0]))
    assert prepared.camera_for(frames[0], registration) is camera
    for k in range(20):  # a moving camera's mappings: each its own, and the memory stays small
        moved = registration.homography.copy()
        moved[0, 2] += k + 1
        shifted = type(registration)(moved, registration.markers_found, registration.markers_used)
        assert prepared.camera_for(frames[0], shifted) == camera_position(moved, (frames[0].shape[1], frames[0].shape[0]))
    assert len(prepared.cameras) <= 8


def test_a_marker_looked_for_in_a_colour_frame_is_found_as_in_its_grey(geometry):
    """Found (refined on the frame, the frame wider than DETECT_WIDTH) and not found (covered)."""
    for hidden in ((), (10,)):
        frame = render(scene(hidden=hidden, seed=43), geometry)
        assert frame.shape[1] > DETECT_WIDTH
        expected = register(render(scene(seed=43), geometry), geometry).homography
        scale = DETECT_WIDTH / frame.shape[1]
        colour = _detect_near(frame, geometry, expected, scale, markers=[10, 12], reach_frame=0.0)
        grey = _detect_near(to_gray(frame), geometry, expected, scale, markers=[10, 12], reach_frame=0.0)
        assert [q.tolist() for q in colour[0]] == [q.tolist() for q in grey[0]]
        assert np.array_equal(colour[1], grey[1])
        found = set(np.ravel(colour[1]).tolist()) if colour[1] is not None else set()
        assert found == ({10, 12} if not hidden else {12})
