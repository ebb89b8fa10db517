"""A nudged camera stays where it was nudged to: the live path follows it.

Once a read has registered a frame by a marker search, the next reads test the markers
against that frame's patches and, seen unmoved, take its mapping with no search; the empty
board's top-down view stays the change reference and drift is still measured against the
calibration. A hand over a marker or a further nudge falls back to the search.
"""

import numpy as np
import pytest

from vision.arena import ArenaSettings, ArenaWatcher, calibrate_arena, prepare_reference, read_arena
from vision.arena.registration import register
from vision.synth.arena_scene import nudged

from tests.arena.arena_scenes import POSES, empty, mini, read_spaces, render, scene, watcher_read

NUDGED = nudged(POSES[0], np.random.default_rng(4))
FURTHER = nudged(NUDGED, np.random.default_rng(11))
TWO = (mini(-80, 0), mini(40, 0))  # on S3 and S6


@pytest.fixture(scope="module")
def calibration(geometry):
    return calibrate_arena(empty(geometry, POSES[0]), geometry)


@pytest.fixture(scope="module")
def frames(geometry):
    """Frames of the two fighters: from the nudged camera (two noise draws, one with a hand
    over marker 12) and from a camera nudged once more."""
    return {
        "first": render(scene(NUDGED, minis=TWO, seed=21), geometry),
        "next": render(scene(NUDGED, minis=TWO, seed=22), geometry),
        "hand": render(scene(NUDGED, minis=TWO, hidden=[12], seed=23), geometry),
        "further": render(scene(FURTHER, minis=TWO, seed=24), geometry),
    }


def _watcher(calibration):
    return ArenaWatcher(calibration, settings=ArenaSettings(stable_frames=1, read_hz=10))


def test_a_nudged_cameras_next_read_takes_the_still_path_and_reads_the_same(geometry, calibration, frames):
    watcher = _watcher(calibration)
    first = watcher_read(watcher, frames["first"], 0.0)
    assert not first.reading.registration.unmoved  # the nudge is searched for once
    assert first.reading.registration.markers_used == (10, 11, 12, 13)
    following = watcher_read(watcher, frames["next"], 1.0)
    assert following.reading.registration.unmoved  # ... and then seen unmoved: no search
    assert np.array_equal(following.reading.registration.homography, first.reading.registration.homography)
    assert read_spaces(first) == read_spaces(following) == ["S3", "S6"]
    # A search of the same frame maps the board to within the detector's noise of it.
    searched = read_arena(frames["next"], calibration.reference, geometry, annotate=False, fighters=2)
    assert not searched.registration.unmoved and searched.occupied == following.reading.occupied
    corners = np.array([[-200, -60], [200, -60], [200, 60], [-200, 60]], np.float64)
    gap = np.abs(searched.registration.project(corners) - following.reading.registration.project(corners)).max()
    assert gap < 0.5, gap


def test_drift_is_still_measured_against_the_calibration(geometry, calibration, frames):
    watcher = _watcher(calibration)
    first = watcher_read(watcher, frames["first"], 0.0)
    following = watcher_read(watcher, frames["next"], 1.0)
    assert following.reading.registration.unmoved
    searched = register(frames["next"], geometry)
    assert first.drift_mm > 0.5  # the nudge shows against the calibration, not against the followed frame
    assert following.drift_mm == pytest.approx(first.drift_mm)
    assert following.drift_mm == pytest.approx(calibration.drift_mm(searched), abs=0.3)


def test_a_hand_over_a_marker_is_searched_for_and_keeps_the_followed_view(geometry, calibration, frames):
    watcher = _watcher(calibration)
    first = watcher_read(watcher, frames["first"], 0.0)
    hand = watcher_read(watcher, frames["hand"], 1.0)
    # Three markers unmoved: the camera has not moved; marker 12 is searched for where it was, in vain.
    assert hand.reading.registration.unmoved and hand.reading.registration.markers_found == (10, 11, 13)
    assert hand.missing_markers == (12,) and read_spaces(hand) == ["S3", "S6"]
    searched = read_arena(frames["hand"], calibration.reference, geometry, annotate=False, fighters=2)
    assert not searched.registration.unmoved and searched.markers_found == (10, 11, 13)
    assert searched.occupied == hand.reading.occupied
    assert hand.drift_mm == pytest.approx(first.drift_mm, abs=0.05)  # the followed frame's corners of 10, 11, 13
    # Three markers do not move the followed view: with the hand gone, the markers are unmoved again.
    after = watcher_read(watcher, frames["next"], 2.0)
    assert after.reading.registration.unmoved and after.missing_markers == ()
    assert read_spaces(after) == ["S3", "S6"]


def test_a_further_nudge_is_searched_for_and_then_followed(geometry, calibration, frames):
    watcher = _watcher(calibration)
    first = watcher_read(watcher, frames["first"], 0.0)
    moved = watcher_read(watcher, frames["further"], 1.0)
    assert not moved.reading.registration.unmoved and read_spaces(moved) == ["S3", "S6"]
    assert moved.drift_mm != pytest.approx(first.drift_mm, abs=0.2)
    again = watcher_read(watcher, render(scene(FURTHER, minis=TWO, seed=25), geometry), 2.0)
    assert again.reading.registration.unmoved and again.drift_mm == pytest.approx(moved.drift_mm)
    assert read_spaces(again) == ["S3", "S6"]


def test_only_a_searched_registration_by_every_marker_found_moves_the_reference(geometry, calibration, frames):
    prepared = calibration.reference
    covered = register(frames["hand"], geometry, expected=prepared.expected_markers(frames["hand"]))
    assert covered.ok and covered.markers_used == (10, 11, 13)
    # A covered marker does not stop it (test_arena_follow.py); a marker found but left out does.
    assert prepared.following(frames["hand"], covered).registration is covered
    found = register(frames["first"], geometry)
    misplaced = {m: q + (12.0 if m == 12 else 0.0) for m, q in found.corners.items()}
    disagreeing = register(frames["first"], geometry, detected=misplaced)
    assert disagreeing.ok and disagreeing.markers_found == (10, 11, 12, 13) and disagreeing.markers_used == (10, 11, 13)
    assert prepared.following(frames["first"], disagreeing) is prepared
    unmoved = register(frames["first"], geometry, still=prepared.still_markers(frames["first"]))
    assert not unmoved.unmoved  # nudged: searched
    followed = prepared.following(frames["first"], unmoved)
    assert followed.smooth is prepared.smooth  # the empty board stays the change reference
    assert followed.registration is unmoved and followed.still.is_still(frames["next"])
    taken = register(frames["next"], geometry, still=followed.still_markers(frames["next"]))
    assert taken.unmoved and followed.following(frames["next"], taken) is followed
    small = frames["first"][::2, ::2]
    assert prepared.following(small, register(small, geometry)) is prepared  # another image size


# --- an unmoved camera with one marker covered, shaded or displaced ------------------------


def _marker_box(prepared, marker_id, margin=6):
    quad = prepared.registration.corners[marker_id]
    (x0, y0), (x1, y1) = np.floor(quad.min(axis=0)).astype(int) - margin, np.ceil(quad.max(axis=0)).astype(int) + margin
    return slice(y0, y1), slice(x0, x1)


def test_an_unmoved_camera_with_a_covered_marker_keeps_the_other_markers_corners(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    live = render(scene(minis=[mini(-80, 0)], hidden=[12], seed=8), geometry)
    registration = register(live, geometry, expected=prepared.expected_markers(live), still=prepared.still_markers(live))
    assert registration.unmoved and registration.markers_found == registration.markers_used == (10, 11, 13)
    kept = register(live, geometry, detected={m: prepared.registration.corners[m] for m in (10, 11, 13)})
    assert np.array_equal(registration.homography, kept.homography)
    searched = register(live, geometry, expected=prepared.expected_markers(live))
    assert searched.markers_used == (10, 11, 13) and not searched.unmoved
    corners = np.array([[-200, -60], [200, -60], [200, 60], [-200, 60]], np.float64)
    assert np.abs(searched.project(corners) - registration.project(corners)).max() < 1.0


def test_a_shaded_marker_found_where_it_was_keeps_the_whole_mapping(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    live = render(scene(minis=[mini(40, 0)], seed=9), geometry).astype(np.float32)
    rows, cols = _marker_box(prepared, 11)
    live[rows, cols] *= np.linspace(1.0, 0.45, cols.stop - cols.start, dtype=np.float32)[None, :, None]  # a shadow's edge
    live = live.astype(np.uint8)
    assert sorted(prepared.still.unmoved(live)) == [10, 12, 13]
    registration = register(live, geometry, expected=prepared.expected_markers(live), still=prepared.still_markers(live))
    assert registration.unmoved and registration.markers_used == (10, 11, 12, 13)
    assert np.array_equal(registration.homography, prepared.registration.homography)
    reading = read_arena(live, prepared, geometry, annotate=False)
    assert reading.ok and reading.occupied == ("S6",), reading.error


def test_a_marker_found_away_from_where_it_was_is_left_to_the_whole_search(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    live = render(scene(seed=10), geometry)
    rows, cols = _marker_box(prepared, 13, margin=12)
    patch = live[rows, cols].copy()
    live[rows.start + 6 : rows.stop + 6, cols] = patch  # the marker alone moved 6 px down
    assert sorted(prepared.still.unmoved(live)) == [10, 11, 12]
    registration = register(live, geometry, expected=prepared.expected_markers(live), still=prepared.still_markers(live))
    assert not registration.unmoved  # searched as before
    searched = register(live, geometry, expected=prepared.expected_markers(live))
    assert registration.markers_used == searched.markers_used
    assert np.array_equal(registration.homography, searched.homography)
