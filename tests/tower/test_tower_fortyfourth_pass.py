"""Forty-fourth pass (issue 5): a nudged camera not followed because the last frame lost a marker.

Room 905005 of the forty-third pass's hunt at the spec's edges (the camera 30 cm away and 10 degrees
up, a wide lens: each marker about 45 x 8 px; the bench's largest nudge, 4 px, and exposure drift,
0.2): seven kinds (stand, y_fork, fork, two_ground, two_towers, wrong_colour, falling) came out
"uncertain: hand" with no cube counted.
The default detector finds both markers in the reference but only marker 1 in the last frame, so the
judge did not follow the nudge (it re-measured the pose only where the last frame shows both), and
the whole view was compared with a reference 4.7 px off: the edges of a heavy-coloured box at the
view's left edge and the mat's far edge, misplaced, made a blob from the side that joined the tower
(the twenty-fifth pass's bumped-camera case, which it keeps uncertain).

The mat lies still under the tower: a marker the reference showed is still there, and a nudge moves
the whole picture by one shift.  So a last frame that misses a marker the reference showed to the
default detector looks again with the flat-view detector; the shift is the mean move of the corners
found (a flat marker's corners scatter by up to 2 px from frame to frame: stagger 930023), and the
last frame's markers are the reference's moved by it, so the view follows the nudge.  Where the last
frame shows every marker the reference did, or the reference itself was a flat view (the
thirty-ninth pass), nothing changes."""

import cv2
import numpy as np
import pytest

from vision.synth.tower_scene import Camera, make_tower_scene
from vision.tower import Reason, TowerSettings, Verdict, judge_tower
from vision.tower.geometry import detect_mat_markers
from vision.tower.judge import TowerAnalyzer, _percentile_80
from tower_judging import judge_scene

# Room 905005 of the hunt (`random_scene(kind, 905005)` with the hunt's edge options): 4 heavy and 2
# light cubes, a camera 30 cm away and 10 degrees up, a focal length of 470 px.
ROOM_905005 = dict(heavy=4, light=2, frames=3, dim=False, nudge_px=4.0, exposure_drift=0.2,
                   off_spot_mm=10.831519867098509, distractors=9, noise=2.488127548593142, pile=False, near=0.6,
                   camera=Camera(distance_mm=300.0, elevation_deg=10.0, yaw_deg=-6.1339019850188485,
                                 roll_deg=1.241295553445064, focal_px=469.5839937296381,
                                 principal_offset=(-6.5482117521543, -6.567206261647423)))


def _final(frames, heavy, light):
    analyzer = TowerAnalyzer(frames[0], heavy=heavy, light=light)
    return analyzer, analyzer._final_observation(analyzer.observe(frames[-1]))


def _covered(frames, marker_id):
    """The end frames with one marker painted over in the paper's colour around it (a sleeve or a
    cube lying on it): the last frame shows it to no detector, whatever the renderer's noise."""
    quad = detect_mat_markers(frames[0], TowerSettings(), retry=False)[marker_id]
    centre = quad.mean(axis=0)
    cover = np.zeros(frames[0].shape[:2], np.uint8)
    cv2.fillConvexPoly(cover, (centre + 1.6 * (quad - centre)).astype(np.int32), 1)
    around = np.zeros_like(cover)
    cv2.fillConvexPoly(around, (centre + 2.2 * (quad - centre)).astype(np.int32), 1)
    out = [frames[0]]
    for frame in frames[1:]:
        frame = frame.copy()
        frame[cover > 0] = np.median(frame[(around > 0) & (cover == 0)], axis=0).astype(np.uint8)
        out.append(frame)
    return out


def test_room_905005_the_last_frame_misses_a_marker_and_the_view_follows_the_nudge(tower_scene):
    scene = tower_scene("stand", 905005, **ROOM_905005)
    settings = TowerSettings()
    # Premise: the reference shows both markers to the default detector (no flat view), the last
    # frame only marker 1.
    assert set(detect_mat_markers(scene.frames[0], settings, retry=False)) == {0, 1}
    assert set(detect_mat_markers(scene.frames[-1], settings, retry=False)) == {1}
    analyzer, last = _final(scene.frames, scene.heavy, scene.light)
    assert not analyzer._flat_view
    assert last.view.geometry is not analyzer.geometry  # the pose re-measured: the nudge followed
    assert not last.hand.any()


@pytest.mark.parametrize(("kind", "verdict", "reasons"), [
    ("stand", Verdict.PASS, []),
    ("two_ground", Verdict.FAIL, [Reason.GROUND_CONTACTS]),
    ("wrong_colour", Verdict.FAIL, [Reason.CUBE_COUNT]),
])
def test_room_905005_is_decided(tower_scene, kind, verdict, reasons):
    # Uncertain on `hand`, 0 cubes seen, before this pass.
    v = judge_scene(tower_scene(kind, 905005, **ROOM_905005))
    assert v.verdict is verdict
    assert v.reasons == reasons


def test_room_905005_with_the_marker_covered_is_decided(tower_scene):
    # The same with marker 0 painted over in the end frames: the premise whatever the detector does.
    scene = tower_scene("stand", 905005, **ROOM_905005)
    frames = _covered(scene.frames, 0)
    assert 0 not in detect_mat_markers(frames[-1], TowerSettings())
    analyzer, last = _final(frames, scene.heavy, scene.light)
    assert last.view.geometry is not analyzer.geometry and not last.hand.any()
    v = judge_tower(frames, heavy=scene.heavy, light=scene.light)
    assert v.verdict is Verdict.PASS


POINTS = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 60.0], [-40.0, 0.0, 0.0], [40.0, 0.0, 30.0]])


@pytest.mark.parametrize("covered_id", [0, 1])
def test_a_covered_marker_the_view_follows_the_nudge_as_with_both(covered_id):
    """A nudge of up to 4 px, either marker covered in the end frames: the last frame's pose, from the
    marker seen and the other moved with it, puts the tower's spot and points around it where the
    pose from both markers does, within 0.3 px; both are off the reference's by the nudge."""
    scene = make_tower_scene("stand", seed=2, nudge_px=4.0)
    analyzer, both = _final(scene.frames, scene.heavy, scene.light)
    _, one = _final(_covered(scene.frames, covered_id), scene.heavy, scene.light)
    followed = both.view.geometry.project(POINTS)
    assert np.abs(followed - analyzer.geometry.project(POINTS)).max() > 1.5
    assert np.abs(one.view.geometry.project(POINTS) - followed).max() < 0.3


@pytest.mark.parametrize("covered_id", [0, 1])
def test_a_covered_marker_without_a_nudge_keeps_the_reference_view(covered_id):
    # The marker seen did not move: no re-look, the verdict as with both markers seen.
    scene = make_tower_scene("stand", seed=2, nudge_px=0.0)
    frames = _covered(scene.frames, covered_id)
    analyzer, last = _final(frames, scene.heavy, scene.light)
    assert last.view.geometry is analyzer.geometry
    plain = judge_scene(scene)
    v = judge_tower(frames, heavy=scene.heavy, light=scene.light)
    assert (v.verdict, v.reasons, v.confidence) == (plain.verdict, plain.reasons, plain.confidence)


# Stagger 930023 of the accuracy bench: 1 heavy and 3 light cubes, a dim room, a camera 28 cm away
# and 12 degrees up; the picture moved by under half a pixel.
STAGGER_930023 = dict(heavy=1, light=3, frames=5, dim=True, nudge_px=1.7097366595752255,
                      exposure_drift=0.01651542530961103, off_spot_mm=0.7208861078987572, distractors=7,
                      noise=4.712797535569915, pile=False, near=0.09988960550354688)


def test_stagger_930023_a_flat_marker_s_scattered_corners_are_no_nudge(tower_scene):
    """The last frame loses marker 0 and shows marker 1 with corners up to 2 px off the reference's
    one way and another (a flat, dim view): no nudge, so the view stays the reference's and the
    tower passes (following the largest corner's move, the view went 1 px off: uncertain)."""
    scene = tower_scene("stagger", 930023, **STAGGER_930023)
    settings = TowerSettings()
    reference = detect_mat_markers(scene.frames[0], settings, retry=False)
    last = detect_mat_markers(scene.frames[-1], settings, retry=False)
    assert set(reference) == {0, 1} and set(last) == {1}
    moves = last[1] - reference[1]
    assert np.abs(moves).max() > 1.5 and np.abs(moves.mean(axis=0)).max() < 0.75
    analyzer, final = _final(scene.frames, scene.heavy, scene.light)
    assert final.view.geometry is analyzer.geometry
    assert judge_scene(scene).verdict is Verdict.PASS


# Falling 930019 of the accuracy bench: 2 heavy and 5 light cubes, a camera 19 cm away and 10 degrees
# up; the tower falls to the left over marker 0.
FALLING_930019 = dict(heavy=2, light=5, frames=5, dim=False, nudge_px=1.507027001376502,
                      exposure_drift=0.06930228087950525, off_spot_mm=7.170618949394571, distractors=4,
                      noise=1.7234010234142274, pile=True, near=0.3410368630796993)


def test_falling_930019_fallen_on_a_marker_s_quiet_zone_is_never_passed(tower_scene):
    """The fallen cubes hide marker 0 and lie on its quiet zone, the brighter of the two (the light
    falls off across the mat): the white over both zones dropped while the light rose, the whole
    view read "changed" from the front, and the judge says "uncertain: hand" with no cube counted.
    Reading the white on the zones the last frame shows was measured and taken out (it turned a
    legal top_pair 350017 into a wrong fail); this keeps the premise and the honest answer."""
    scene = tower_scene("falling", 930019, **FALLING_930019)
    settings = TowerSettings()
    assert set(detect_mat_markers(scene.frames[0], settings, retry=False)) == {0, 1}
    assert 0 not in detect_mat_markers(scene.frames[-1], settings)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    gain = scene.frames[-1][:150].mean() / scene.frames[0][:150].mean()  # the wall above the table
    both = (_percentile_80(scene.frames[-1][analyzer._white_idx])
            / _percentile_80(scene.frames[0][analyzer._white_idx]))
    assert gain > 1.03 and both.max() < 0.95  # the white over both zones fell as the light rose
    assert judge_scene(scene).verdict is not Verdict.PASS
