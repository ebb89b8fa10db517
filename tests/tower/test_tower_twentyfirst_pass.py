"""Twenty-first pass (issue 5): a heavy face the pixel vote read in two pieces.

Ring 540016 (a legal ring, 4 heavy 4 light, in a dim, very noisy room) failed on the count: its left
heavy arm's face changed from the reference all across, but the pixel vote dropped a 3.5 mm patch
of it in no cube colour, so the arm read as two runs and each was counted as a cube (5 heavy seen).
The patch's colour averaged over the still frames was plainly heavy.  A span wider than a crease and
narrower than a face between two runs that both read heavy (their light fringe aside), nearly all
changed and plainly heavy on that average, may be a patch of one face: the count may be one cube
fewer (a doubt: two heavy cubes with a dark gap between them would look the same).  The same split
kept touching_ring 540016 and lean 540016 uncertain one cube over.  Seeded scenes are rebuilt with
the accuracy bench's options for that seed; the painted masks and colours pin the rule on any
renderer."""

import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import TowerAnalyzer, _doubt
from tower_judging import DIM_ROOM_450020, PaintedView, analyzer_and_last, judge_scene

# Seed 540016 of the accuracy bench (ring, touching_ring and lean draw the same room).
DIM_ROOM_540016 = dict(frames=2, dim=True, nudge_px=3.1623435184916144, exposure_drift=0.11416900401747632,
                       off_spot_mm=8.151877157626439, distractors=1, noise=5.868079269287846, pile=False,
                       near=0.49503722820376567)


@pytest.mark.parametrize("kind", ["ring", "touching_ring", "lean"])
def test_the_seed_whose_heavy_arm_read_as_two_runs_is_never_failed_on_the_count(tower_scene, kind, monkeypatch):
    # ring: was a fail at 0.85 (5 heavy 4 light seen of 4 + 4), a legal ring; lean (legal) and
    # touching_ring (three neighbours: it may fail for that) were uncertain one cube over.
    heavy, light = (4, 3) if kind == "lean" else (4, 4)
    scene = tower_scene(kind, 540016, heavy=heavy, light=light, **DIM_ROOM_540016)
    verdict = judge_scene(scene)
    assert not (verdict.verdict is Verdict.FAIL and Reason.CUBE_COUNT in verdict.reasons), verdict
    if kind != "touching_ring":
        assert verdict.verdict is not Verdict.FAIL, verdict
    analyzer, last = analyzer_and_last(scene)
    with monkeypatch.context() as patched:
        patched.setattr(TowerAnalyzer, "_dropped_heavy_patches", lambda *args, **kwargs: [])
        before = analyzer._structure(last, last.view)
    if kind == "ring" and sum(b.heavy for b in before.boxes) > heavy and not before.unsure:
        # This renderer splits the arm as OpenCV 5 does (no doubt left): the rule must be what doubts it.
        structure = analyzer._structure(last, last.view)
        assert (1, "width") in structure.unsure, structure.unsure


# Colours of the side view (B, G, R, the mat's white near 1): a dark heavy face, a light face (and a
# heavy face's light-wood fringe), and a colour no cube has (a dark grey).
HEAVY = (0.08, 0.09, 0.35)
LIGHT = (0.45, 0.62, 0.78)
GREY = (0.12, 0.12, 0.12)


def _painted(analyzer: TowerAnalyzer, scene, *, patch: str = "heavy", patch_mm: float = 3.5, right: str = "heavy",
             right_mm: float = 10.0, fringe: bool = False, still: bool = True):
    """The last frame's observation with painted masks and colours: a heavy base and a light cap
    12 mm wide, and between them two heavy runs, 6.5 mm and 10 mm wide (the arm's run and the
    next cube's, as ring 540016 showed them), ``patch_mm`` apart.  The patch changed in no cube
    colour, its colour HEAVY; or GREY (``patch="grey"``); or HEAVY but not changed
    (``patch="unchanged"``: background of the face's colour seen through a slit).  The right run
    reads heavy, or light (``right="light"``: a light cube beside); ``right_mm`` wide.  With ``fringe`` the left
    run's outer 1.5 mm read as the light fringe of a heavy face blurred into the background.
    Without ``still`` no averaged colour."""
    painted = PaintedView(analyzer, scene)
    light, heavy, unread, paint = painted.light, painted.heavy, painted.unread, painted.paint
    cube = analyzer.settings.cube_mm

    left_end = -5.5
    right_start = left_end + patch_mm
    paint(heavy, 0, cube, -7, 5, HEAVY)
    paint(heavy, cube, 2 * cube, -12, left_end, HEAVY)
    if fringe:
        paint(light, cube, 2 * cube, -12, -10.5, LIGHT)
        heavy &= ~light
    paint(unread, cube, 2 * cube, left_end, right_start, GREY if patch == "grey" else HEAVY)
    if patch == "unchanged":
        unread[:] = False
    paint(light if right == "light" else heavy, cube, 2 * cube, right_start, right_start + right_mm,
          LIGHT if right == "light" else HEAVY)
    paint(light, 2 * cube, 3 * cube, -7, 5, LIGHT)
    return painted.observation(still=still)


@pytest.mark.parametrize("fringe", [False, True], ids=["plain", "with its fringe"])
def test_a_heavy_patch_between_two_heavy_runs_may_make_them_one_cube(tower_scene, fringe):
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=1)
    obs = _painted(analyzer, scene, fringe=fringe)
    structure = analyzer._structure(obs, obs.view)
    assert [(b.layer, b.heavy) for b in structure.boxes] == [(0, True), (1, True), (1, True), (2, False)]
    assert structure.unsure == [(1, "width")], structure.unsure
    # One heavy cube over what the fighter owns: a doubt that reading one cube fewer undoes.
    assert _doubt(Reason.CUBE_COUNT, structure, 3, 1, 2, 1, all_counted=False) >= 1


@pytest.mark.parametrize("look", ["unchanged", "grey", "light beside", "moving", "a crease"])
def test_no_doubt_without_a_heavy_patch_between_heavy_runs(tower_scene, look):
    # Background seen through the gap (however red), change the average does not read as heavy, a
    # light cube on one side, no still frames to average, or a gap no wider than the crease between
    # two touching cubes (top_pair 370011's pair): two cubes, no doubt.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=1)
    options = {"unchanged": dict(patch="unchanged"), "grey": dict(patch="grey"), "light beside": dict(right="light"),
               "moving": dict(still=False), "a crease": dict(patch_mm=1.0)}[look]
    obs = _painted(analyzer, scene, **options)
    structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 1 for b in structure.boxes) == 2, structure.boxes
    assert structure.unsure == [], structure.unsure


def test_no_doubt_beside_a_piece_too_narrow_to_count(tower_scene):
    # A 3 mm heavy piece beside the patch counts no cube (fork 360000 in a very noisy room had a
    # 2 mm one): joining it to the run takes no cube away, so the patch raises no width doubt.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=1)
    obs = _painted(analyzer, scene, right_mm=3.0)
    structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 1 for b in structure.boxes) == 1, structure.boxes
    assert (1, "width") not in structure.unsure, structure.unsure
