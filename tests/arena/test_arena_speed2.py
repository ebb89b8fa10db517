"""A nudged camera stays where it was nudged to: the live path follows it.

Once a read has registered a frame by a marker search, the next reads test the markers
against that frame's patches and, seen unmoved, take its mapping with no search; the empty
board's top-down view stays the change reference and drift is still measured against the
calibration. A hand over a marker or a further nudge falls back to the search.
"""

import numpy as np
import pytest

from vision.arena import ArenaSettings, ArenaWatcher, calibrate_arena, read_arena
from vision.arena.registration import register
from vision.synth.arena_scene import nudged

from tests.arena.arena_scenes import POSES, empty, mini, render, scene

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


def _read(watcher, image, t):
    """The watcher's read of ``image`` once the view is still (a new view is motion first)."""
    results = [r for r in (watcher.add_frame(image, t + dt) for dt in (0.0, 0.2)) if r is not None]
    assert results, "the watcher did not read a still view"
    return results[0]


def _spaces(result):
    return sorted(f.space for f in result.positions.values())


def test_a_nudged_cameras_next_read_takes_the_still_path_and_reads_the_same(geometry, calibration, frames):
    watcher = _watcher(calibration)
    first = _read(watcher, frames["first"], 0.0)
    assert not first.reading.registration.unmoved  # the nudge is searched for once
    assert first.reading.registration.markers_used == (10, 11, 12, 13)
    following = _read(watcher, frames["next"], 1.0)
    assert following.reading.registration.unmoved  # ... and then seen unmoved: no search
    assert np.array_equal(following.reading.registration.homography, first.reading.registration.homography)
    assert _spaces(first) == _spaces(following) == ["S3", "S6"]
    # A search of the same frame maps the board to within the detector's noise of it.
    searched = read_arena(frames["next"], calibration.reference, geometry, annotate=False, fighters=2)
    assert not searched.registration.unmoved and searched.occupied == following.reading.occupied
    corners = np.array([[-200, -60], [200, -60], [200, 60], [-200, 60]], np.float64)
    gap = np.abs(searched.registration.project(corners) - following.reading.registration.project(corners)).max()
    assert gap < 0.5, gap


def test_drift_is_still_measured_against_the_calibration(geometry, calibration, frames):
    watcher = _watcher(calibration)
    first = _read(watcher, frames["first"], 0.0)
    following = _read(watcher, frames["next"], 1.0)
    assert following.reading.registration.unmoved
    searched = register(frames["next"], geometry)
    assert first.drift_mm > 0.5  # the nudge shows against the calibration, not against the followed frame
    assert following.drift_mm == pytest.approx(first.drift_mm)
    assert following.drift_mm == pytest.approx(calibration.drift_mm(searched), abs=0.3)


def test_a_hand_over_a_marker_falls_back_to_the_search_and_keeps_the_followed_view(geometry, calibration, frames):
    watcher = _watcher(calibration)
    _read(watcher, frames["first"], 0.0)
    hand = _read(watcher, frames["hand"], 1.0)
    assert not hand.reading.registration.unmoved
    assert hand.missing_markers == (12,) and _spaces(hand) == ["S3", "S6"]
    # Three markers do not move the followed view: with the hand gone, the markers are unmoved again.
    after = _read(watcher, frames["next"], 2.0)
    assert after.reading.registration.unmoved and after.missing_markers == ()
    assert _spaces(after) == ["S3", "S6"]


def test_a_further_nudge_is_searched_for_and_then_followed(geometry, calibration, frames):
    watcher = _watcher(calibration)
    first = _read(watcher, frames["first"], 0.0)
    moved = _read(watcher, frames["further"], 1.0)
    assert not moved.reading.registration.unmoved and _spaces(moved) == ["S3", "S6"]
    assert moved.drift_mm != pytest.approx(first.drift_mm, abs=0.2)
    again = _read(watcher, render(scene(FURTHER, minis=TWO, seed=25), geometry), 2.0)
    assert again.reading.registration.unmoved and again.drift_mm == pytest.approx(moved.drift_mm)
    assert _spaces(again) == ["S3", "S6"]


def test_only_a_searched_registration_with_every_marker_moves_the_reference(geometry, calibration, frames):
    prepared = calibration.reference
    covered = register(frames["hand"], geometry, expected=prepared.expected_markers(frames["hand"]))
    assert covered.ok and covered.markers_used == (10, 11, 13)
    assert prepared.following(frames["hand"], covered) is prepared
    unmoved = register(frames["first"], geometry, still=prepared.still_markers(frames["first"]))
    assert not unmoved.unmoved  # nudged: searched
    followed = prepared.following(frames["first"], unmoved)
    assert followed.smooth is prepared.smooth  # the empty board stays the change reference
    assert followed.registration is unmoved and followed.still.is_still(frames["next"])
    taken = register(frames["next"], geometry, still=followed.still_markers(frames["next"]))
    assert taken.unmoved and followed.following(frames["next"], taken) is followed
    small = frames["first"][::2, ::2]
    assert prepared.following(small, register(small, geometry)) is prepared  # another image size
