"""Seventeenth pass (issue 5): a lit top face's blur.  In a dim, very noisy room (the 7 x 7 colour
average) the lit top face of a ring's light arm, beside the dark cap resting on the arms, blurred up
into the cap's layer band: its lower rows filled there and made one light cube more, and the legal
ring failed at 0.85 on the count.  A real cube of a layer fills its face up to its own top edge,
above the reach of the top face below: a run whose last cube (or only one) is made only by the rows
that reach fills holds one cube fewer for all the view can tell (an unsure reading "fringe": maybe
no cube).  Seeded scenes are rebuilt from the generator with the accuracy bench's options for that
seed."""

import dataclasses

import numpy as np
import pytest

from vision.tower import Verdict
from vision.tower.judge import EDGE_BLUR_PX, VIEW_PX_PER_MM, TowerAnalyzer
from tower_judging import analyzer_and_last, judge_scene

# Seed 470023 of the accuracy bench (fresh range): a dim, very noisy room, pale paper behind.
DIM_ROOM_470023 = dict(frames=6, dim=True, nudge_px=0.4004500444706598, exposure_drift=0.010226855259114287,
                       off_spot_mm=1.5066775546964588, distractors=2, noise=4.1720585955077105, pile=True,
                       near=0.16815415937632122)


def test_the_ring_whose_arm_top_face_blurs_into_the_cap_layer_is_never_failed(tower_scene):
    # Was a fail at 0.85 (cube_count, 1 heavy 4 light seen of 1 + 3): the right arm's lit top face
    # beside the heavy cap read as a light cube in the cap's layer.
    scene = tower_scene("ring", 470023, heavy=1, light=3, **DIM_ROOM_470023)
    assert scene.standing
    analyzer, last = analyzer_and_last(scene)
    assert analyzer._blur == 7, "the scene should take the very noisy room's 7 x 7 average"
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL, verdict
    structure = analyzer._structure(last, last.view)
    if len(structure.boxes) > scene.heavy + scene.light:
        # This renderer reads the extra cube (as on OpenCV 5): the rule must be what keeps the
        # ring from failing.  (Where another OpenCV draws the top face lower, nothing is extra.)
        assert (2, "fringe") in structure.unsure, structure.unsure


def _painted(analyzer: TowerAnalyzer, scene, *, right_of_cap: str, apart: bool = False):
    """The last frame's observation with painted masks: a light base, two light arms on it (front
    face and lit top face), a heavy cap turned on the arms; right of the cap either the right
    arm's lit top face, blurred upwards as far as the blur reaches (next to the cap, or ``apart``
    from it by two columns of change the colours did not read, as 470023 shows it), or a real
    light cube's face filling the cap's layer."""
    obs = analyzer.observe(scene.frames[-1])
    view, cube = obs.view, analyzer.settings.cube_mm
    light = np.zeros_like(obs.light)
    heavy = np.zeros_like(obs.heavy)
    changed = np.zeros_like(obs.changed)

    def paint(mask, z0, z1, x0, x1):
        mask[view.row(z1): view.row(z0), view.col(x0): view.col(x1)] = True

    reach_mm = (analyzer._blur // 2 + EDGE_BLUR_PX) / VIEW_PX_PER_MM
    top_face = analyzer._top_face_mm(view, cube)
    paint(light, 0, cube, -5, 5)
    # The arms, and their top faces blurred up by the whole reach (just short of it).
    for x0, x1 in ((-13, -1), (1, 13)):
        paint(light, cube, 2 * cube + top_face + reach_mm - 0.25, x0, x1)
    # The cap, turned (1.4 widths), covers the left arm's top face and the right arm's left part.
    paint(heavy, 2 * cube, 3 * cube, -12, 2)
    if right_of_cap == "cube":
        paint(light, 2 * cube, 3 * cube, 2, 12)
    elif apart:
        paint(changed, 2 * cube, 3 * cube, 2, 3)
    # A cube's front face hides what is behind it: the arms' top faces under the cap.
    light &= ~heavy
    if apart:
        light &= ~changed
    return dataclasses.replace(obs, light=light, heavy=heavy, changed=light | heavy | changed, still_colour=None)


@pytest.mark.parametrize("apart", [False, True])
def test_a_top_faces_blur_is_maybe_no_cube(tower_scene, apart, monkeypatch):
    scene = tower_scene("ring", 470023, heavy=1, light=3, **DIM_ROOM_470023)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=1, light=3)
    obs = _painted(analyzer, scene, right_of_cap="top face", apart=apart)
    with monkeypatch.context() as patched:
        # This pass's rule alone (the twenty-third pass's drops the same piece: below).
        patched.setattr(TowerAnalyzer, "_own_top_face_missing", lambda *args, **kwargs: None)
        structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 2 for b in structure.boxes) == 2, "the top face's blur should read as one cube more"
    assert (2, "fringe") in structure.unsure
    # Twenty-third pass: nothing changed above it, where a cube's own top face would show: it is
    # no cube at all (the doubt stays).
    structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 2 for b in structure.boxes) == 1, structure.boxes
    assert (2, "fringe") in structure.unsure


def test_a_real_light_cube_beside_the_cap_is_no_top_face(tower_scene):
    # A real cube there fills its face up to its own top edge, above the top face's reach: still
    # counted, no doubt.
    scene = tower_scene("ring", 470023, heavy=1, light=3, **DIM_ROOM_470023)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=1, light=3)
    obs = _painted(analyzer, scene, right_of_cap="cube")
    structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 2 and not b.heavy for b in structure.boxes) == 1
    assert sum(b.layer == 2 for b in structure.boxes) == 2
    assert not any(what == "fringe" for _, what in structure.unsure)


def test_a_light_cube_under_a_heavy_one_keeps_its_upper_rows(tower_scene):
    # The rows above the top face's reach are read on the whole run: a light cube right under a
    # heavy one has them within the heavy face's reach (where its light fringe would be), yet they
    # are its own face (a very noisy room's stagger had passed, and turned uncertain when they were
    # left out with the fringe).
    scene = tower_scene("ring", 470023, heavy=1, light=3, **DIM_ROOM_470023)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=1, light=3)
    obs = analyzer.observe(scene.frames[-1])
    view, cube = obs.view, analyzer.settings.cube_mm
    # Three light cubes, a heavy one on top (its lit top face too).  At this camera the third light
    # cube's band keeps two rows above the top face's reach, both within the heavy face's.
    assert view.row(2 * cube + analyzer._top_face_mm(view, 2 * cube)
                    + (analyzer._blur // 2 + EDGE_BLUR_PX) / VIEW_PX_PER_MM) - view.row(2.95 * cube) >= 2
    light = np.zeros_like(obs.light)
    heavy = np.zeros_like(obs.heavy)
    light[view.row(3 * cube): view.row(0), view.col(-5): view.col(5)] = True
    heavy[view.row(4 * cube + analyzer._top_face_mm(view, 4 * cube)): view.row(3 * cube), view.col(-5): view.col(5)] = True
    painted = dataclasses.replace(obs, light=light, heavy=heavy, changed=light | heavy, still_colour=None)
    structure = analyzer._structure(painted, painted.view)
    assert [(b.layer, b.heavy) for b in structure.boxes] == [(0, False), (1, False), (2, False), (3, True)]
    assert not any(what == "fringe" for _, what in structure.unsure), structure.unsure


def test_a_top_face_piece_whose_face_is_mostly_gaps_is_speckle_not_also_fringe(tower_scene, monkeypatch):
    # The same piece with its face below the band mostly gaps (a sliver): it is speckle, "maybe no
    # cube" already; a second doubt about the same piece would count twice towards a view unclear as
    # a whole (two_towers 470044, a clear breach, turned uncertain that way).
    scene = tower_scene("ring", 470023, heavy=1, light=3, **DIM_ROOM_470023)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=1, light=3)
    obs = _painted(analyzer, scene, right_of_cap="top face", apart=True)
    view, cube = obs.view, analyzer.settings.cube_mm
    # Gaps over the face below the band, keeping one pixel in four on diagonal lines (still joined
    # to the arm below, 8-connected).
    light = obs.light.copy()
    rows, cols = slice(view.row(2.7 * cube), view.row(2 * cube)), slice(view.col(3), view.col(13))
    r, c = np.indices(light[rows, cols].shape)
    light[rows, cols] &= (r + c) % 4 == 0
    obs = dataclasses.replace(obs, light=light, changed=light | obs.heavy | (obs.changed & ~obs.light))
    with monkeypatch.context() as patched:
        # This pass's doubts alone (the twenty-third pass drops the piece: below).
        patched.setattr(TowerAnalyzer, "_own_top_face_missing", lambda *args, **kwargs: None)
        structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 2 for b in structure.boxes) == 2, "the piece should still read as one cube more"
    assert (2, "speckle") in structure.unsure
    assert (2, "fringe") not in structure.unsure
    # Twenty-third pass: it shows no top face of its own above it, so it is no cube at all.
    structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 2 for b in structure.boxes) == 1, structure.boxes
