"""Thirty-ninth pass (issue 5): the mat's markers in a dim, flat view.

Room 860004 of the accuracy bench: a camera 290 mm away, 10.3 degrees above the table (inside the
spec), in a dim room.  Each 30 mm marker is about 58 x 11 px: its six cells are under 2 px high, and
the default ArUco detector found neither marker in the reference (or only marker 0), so ten kinds
came out uncertain on `mat_not_visible`.  When the default detector finds fewer than both markers,
a detector for small, flat markers looks again (on the frame, then on a 2x upscale of it) and adds
only the markers still missing, of a plausible square (``detect_mat_markers``).  Where the default
detector finds both, the retry never runs.  Seeded scenes are rebuilt with the accuracy bench's
options for that seed (``random_scene``)."""

import numpy as np
import pytest

import vision.tower.geometry as geometry_module
from vision.synth.tower_scene import make_tower_scene
from vision.tower import Reason, TowerSettings, Verdict
from vision.tower.judge import TowerAnalyzer
from vision.tower.geometry import _plausible_quad, detect_mat_markers, marker_mat_corners
from tower_judging import judge_scene

# Seed 860004 of the accuracy bench: 4 heavy and 3 light cubes, a dim, noisy room.
ROOM_860004 = dict(heavy=4, light=3, frames=2, dim=True, nudge_px=3.4346539648333576,
                   exposure_drift=0.10111705841682508, off_spot_mm=1.4204311163126047, distractors=4,
                   noise=5.765664243066948, pile=False, near=0.519849053401847)


def _room(kind):
    return make_tower_scene(kind, seed=860004, **ROOM_860004)


@pytest.fixture(scope="module")
def aside():
    return _room("aside")


def test_the_flat_dim_view_finds_both_markers_and_the_true_pose(aside):
    settings = TowerSettings()
    reference = aside.frames[0]
    assert len(detect_mat_markers(reference, settings, retry=False)) < 2
    markers = detect_mat_markers(reference, settings)
    assert set(markers) == {0, 1}
    for quad in markers.values():
        assert _plausible_quad(quad)
        width, height = np.ptp(quad, axis=0)
        assert width > 4 * height  # very flat: the scene is what this pass is about
    # The corners are the renderer's (a wrong square would not be): within 1.5 px of the true marker
    # corners, as the default detector's marker 0 is in stand 860004 (within 0.5 px).
    k, rot, t = aside.camera.matrices()
    for marker_id, mat_corners in marker_mat_corners(settings).items():
        cam = np.column_stack([mat_corners, np.zeros(4)]) @ rot.T + t
        pix = cam @ k.T
        assert np.abs(markers[marker_id] - pix[:, :2] / pix[:, 2:]).max() < 1.5


def test_the_flat_dim_view_is_judged(aside):
    v = judge_scene(aside)
    assert Reason.MAT_NOT_VISIBLE not in v.reasons
    assert v.verdict is Verdict.FAIL  # a cube beside the tower


def test_a_marker_the_default_detector_found_keeps_its_corners():
    # Stand 860004: the default detector finds marker 0 only; the retry adds marker 1.
    reference = _room("stand").frames[0]
    plain = detect_mat_markers(reference, TowerSettings(), retry=False)
    markers = detect_mat_markers(reference, TowerSettings())
    assert set(plain) == {0} and set(markers) == {0, 1}
    assert np.array_equal(markers[0], plain[0])


def test_no_retry_where_the_default_detector_finds_both(tower_scene, monkeypatch):
    scene = tower_scene("stand", 1)
    before = judge_scene(scene)
    plain = detect_mat_markers(scene.frames[0], TowerSettings(), retry=False)
    assert set(plain) == {0, 1}
    assert not TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)._flat_view

    class NoRetry:
        def detectMarkers(self, gray):  # noqa: N802 (OpenCV's name)
            raise AssertionError("the retry ran although both markers were found")

    monkeypatch.setattr(geometry_module, "_FLAT_DETECTOR", NoRetry())
    markers = detect_mat_markers(scene.frames[0], TowerSettings())
    assert all(np.array_equal(markers[i], plain[i]) for i in (0, 1))
    after = judge_scene(scene)
    assert (after.verdict, after.reasons, after.confidence) == (before.verdict, before.reasons, before.confidence)


def test_the_retry_takes_no_sliver_or_mirrored_square():
    square = np.array([[0.0, 0.0], [50.0, 2.0], [49.0, 12.0], [1.0, 11.0]])  # ArUco order, y down
    assert _plausible_quad(square)
    assert not _plausible_quad(square[::-1])  # mirrored: counter-clockwise
    assert not _plausible_quad(np.array([[0.0, 0.0], [50.0, 0.0], [50.0, 3.0], [0.0, 3.0]]))  # a sliver
    assert not _plausible_quad(np.array([[0.0, 0.0], [50.0, 12.0], [50.0, 0.0], [0.0, 12.0]]))  # crossed


def test_the_upscaled_retry_finds_a_marker_the_flat_detector_misses():
    # Lean 860004's last frame: neither detector finds a marker at 1x; on a 2x upscale the flat
    # detector finds marker 1, moved from the reference by the camera nudge (3.4 px at most).
    import cv2

    scene = _room("lean")
    settings = TowerSettings()
    gray = cv2.cvtColor(scene.frames[-1], cv2.COLOR_BGR2GRAY)
    assert not geometry_module._markers_in(gray, geometry_module._FLAT_DETECTOR, settings)
    last = detect_mat_markers(scene.frames[-1], settings)
    reference = detect_mat_markers(scene.frames[0], settings)
    assert set(last) == {1}
    assert np.abs(last[1] - reference[1]).max() < ROOM_860004["nudge_px"] + 1.5


@pytest.mark.parametrize("kind", ["stand", "lean"])
def test_a_flat_view_follows_the_nudge_with_the_one_marker_the_last_frame_shows(kind):
    # Stand and lean 860004: the last frame shows marker 1 only; the view follows its shift (the
    # nudge moves the whole image), and the legal tower passes (uncertain on the count before).
    scene = _room(kind)
    settings = TowerSettings()
    assert set(detect_mat_markers(scene.frames[-1], settings)) == {1}
    v = judge_scene(scene)
    assert v.verdict is Verdict.PASS
