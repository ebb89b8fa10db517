"""Forty-sixth pass (issue 5): a wrong fail at the spec's far corner from a one-marker pose.

Room 905120 of the forty-fourth pass's hunt (30 cm away, 10 degrees up, dim, a 4 px nudge, clutter
beside the spot): marker 1 is unreadable in the reference, the pose comes from marker 0 alone (about
45 x 10 px) and puts the camera at 365 mm (300 true).  No end frame of `lean` shows a marker, so the
nudge is not followed; the clutter's edges, moved, read as a piece on the table while the tower's two
heavy cubes go unseen.  Three "cubes on the table" lifted the fail to 0.85 over the count's doubts.
From one marker this small the table is extrapolated, not measured: with one marker the ground
lifts do not overrule the doubts.  A one-marker reference does not follow a nudge even where the
last frame shows its marker (the move needs both markers): pinned as a strict xfail until the
forty-eighth pass followed it (by the marker's shift)."""

import numpy as np
import pytest

from vision.synth.tower_scene import Camera
from vision.tower import Reason, Verdict
from vision.tower.judge import TowerAnalyzer
from tower_judging import judge_scene

# `random_scene(kind, seed)` with the hunt's options (the forty-fourth pass), both rooms at the far corner.
ROOM_905120 = dict(heavy=2, light=2, frames=3, dim=True, nudge_px=4.0, exposure_drift=0.2, off_spot_mm=12.0,
                   distractors=9, noise=4.629152026444372, pile=False, near=0.6,
                   camera=Camera(distance_mm=300.0, elevation_deg=10.0, yaw_deg=0.17995618767733568,
                                 roll_deg=0.1038463697804839, focal_px=492.3855847208621,
                                 principal_offset=(-11.791675893266586, 8.122676825849112)))
FALLING_905123 = dict(heavy=0, light=4, frames=6, dim=False, nudge_px=3.7461769752846754, exposure_drift=0.2,
                      off_spot_mm=12.0, distractors=9, noise=3.7763188911031804, pile=False, near=0.6,
                      camera=Camera(distance_mm=300.0, elevation_deg=10.0, yaw_deg=-7.286890461606351,
                                    roll_deg=0.09639571306736539, focal_px=459.90434725943965,
                                    principal_offset=(-7.588408786939364, -5.658663803318025)))


def test_lean_905120_is_judged_from_marker_0_alone_and_its_pose_is_off(tower_scene):
    scene = tower_scene("lean", 905120, **ROOM_905120)
    geometry = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light).geometry
    assert list(geometry.markers) == [0]
    true_distance = np.linalg.norm(scene.camera.position() - [0.0, 0.0, 15.0])
    assert true_distance == pytest.approx(300.0)
    assert np.linalg.norm(geometry.camera_position) > 340.0


def test_lean_905120_legal_is_not_failed(tower_scene):
    v = judge_scene(tower_scene("lean", 905120, **ROOM_905120))
    assert v.verdict is not Verdict.FAIL


def test_two_towers_905120_is_not_passed_from_the_one_marker_pose(tower_scene):
    """A right fail on the dev stack (0.75); the Pi stack's OpenCV 4.11 reads one cube of the
    tower and turns it uncertain (0.45): the rule's cost, never a pass."""
    v = judge_scene(tower_scene("two_towers", 905120, **ROOM_905120))
    assert v.verdict is not Verdict.PASS
    assert Reason.GROUND_CONTACTS in v.reasons


@pytest.mark.parametrize("kind, seed, options", [("aside", 905120, ROOM_905120), ("falling", 905123, FALLING_905123)])
def test_a_one_marker_reference_follows_the_nudge_to_the_tower_s_own_breaches(tower_scene, kind, seed, options):
    """Both are judged on a "hand" that is not there: the nudge is not followed."""
    scene = tower_scene(kind, seed, **options)
    assert len(TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light).geometry.markers) == 1
    v = judge_scene(scene)
    assert v.verdict is Verdict.FAIL
    assert Reason.HAND not in v.reasons
