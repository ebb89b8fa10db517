"""Sixteenth pass (issue 5): a crease inside a turned cube, and a fringe between a heavy face and the
background.

``y_fork`` 450022 failed at 0.85 on three neighbours: two layers above its base the run of cube
colour (a heavy cube on one arm, a turned light cube on the other) was split at the crease between
the light cube's two faces, which left a heavy cube 1.7 cubes wide resting on both arms.  A cube
cannot show wider than its turned diagonal: a crease that leaves one side wider than that is no
sure meeting of two cubes: the wide side's cube may end short of it by its excess over one cube.

The fifteenth pass's fringe doubt (light within the blur's reach of a heavy face may be only its
edge) also took light faces right under a heavy cube for fringe (the top of stack_pair 360003's
light pair).  A fringe is the heavy face blurred into what is behind it: the background must lie
within the same reach on the far side.  Seeded scenes are rebuilt from the generator with the accuracy
bench's options for that seed; the painted masks pin the rules on any renderer."""

import dataclasses

import numpy as np

from vision.tower import Verdict, judge_tower
from vision.tower.judge import TURNED_WIDTH, TowerAnalyzer, _between
from tower_judging import DIM_ROOM_450020

# Seed 450022 of the accuracy bench: a dim room, the tower 11 mm off the spot.
DIM_ROOM_450022 = dict(frames=4, dim=True, nudge_px=0.6525247866613144, exposure_drift=0.061209474308063005,
                       off_spot_mm=11.234437741046467, distractors=2, noise=4.320105697844809, pile=False,
                       near=0.14991267976079894)


def test_the_y_fork_with_a_turned_light_arm_is_not_failed(tower_scene):
    # Was a fail at 0.85 (cube_neighbours): a legal Y fork.  Pass or uncertain, never fail.
    scene = tower_scene("y_fork", 450022, heavy=4, light=3, **DIM_ROOM_450022)
    verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    assert verdict.verdict is not Verdict.FAIL, verdict


def _painter(analyzer: TowerAnalyzer, scene):
    obs = analyzer.observe(scene.frames[-1])
    view = obs.view
    masks = {name: np.zeros_like(obs.light) for name in ("light", "heavy", "crease")}

    def paint(name, z0, z1, x0, x1):
        masks[name][view.row(z1): view.row(z0), view.col(x0): view.col(x1)] = True

    def painted(**extra):
        light, heavy, crease = masks["light"], masks["heavy"], masks["crease"]
        # The view's colour, painted too: each face its cube colour, a crease the light face in
        # shade (the faces' own colour at a lower brightness, no light from behind).
        colour = obs.colour.copy()
        colour[light] = (0.45, 0.62, 0.78)
        colour[heavy] = (0.08, 0.09, 0.35)
        colour[crease] = (0.22, 0.31, 0.39)
        return dataclasses.replace(obs, light=light, heavy=heavy, changed=light | heavy | crease,
                                   colour=colour, still_colour=None, **extra)

    return view, paint, painted


def _y_fork_with_a_crease(analyzer: TowerAnalyzer, scene, *, heavy_from: float, heavy_to: float, crease_at: float):
    """Painted masks of a Y fork: a heavy base, two light arms apart, a heavy cube over the left
    arm and a light cube over the right one, a heavy cube on top of the left column.  In the
    pair's layer the colours' run goes on from the heavy cube (``heavy_from`` to ``heavy_to``, mm)
    into the light cube's face (the gap between the arms hidden) up to a crease 1.5 mm wide at
    ``crease_at``, the light cube's face going on beyond it."""
    view, paint, painted = _painter(analyzer, scene)
    cube = analyzer.settings.cube_mm
    paint("heavy", 0, cube, -3, 7)
    paint("light", cube, 2 * cube, -10, 0)
    paint("light", cube, 2 * cube, 3, 15.5)
    paint("heavy", 2 * cube, 3 * cube, heavy_from, heavy_to)
    paint("light", 2 * cube, 3 * cube, heavy_to, crease_at)
    paint("crease", 2 * cube, 3 * cube, crease_at, crease_at + 1.5)
    paint("light", 2 * cube, 3 * cube, crease_at + 1.5, 15.5)
    paint("heavy", 3 * cube, 4 * cube, heavy_from, heavy_from + 10)
    return painted()


def test_a_crease_inside_a_turned_cube_is_no_sure_meeting_of_two(tower_scene):
    # The run left of the crease is 1.67 cubes wide, more than one cube shows: the crease may be
    # the light cube's corner, and the heavy cube need not reach the right arm.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=3, light=3)
    obs = _y_fork_with_a_crease(analyzer, scene, heavy_from=-8, heavy_to=3.5, crease_at=8.7)
    structure = analyzer._structure(obs, obs.view)
    cube = analyzer.settings.cube_mm
    pair = [b for b in structure.boxes if b.layer == 2]
    assert len(pair) == 2, "the pair's layer should hold two cubes"
    assert pair[0].heavy and not pair[1].heavy
    assert pair[0].x1 - pair[0].x0 > TURNED_WIDTH * cube, "the painting should leave the heavy side too wide"
    # No cube surely touches three, but one may: uncertain on the neighbours, not a pass either.
    assert structure.max_neighbours <= 2
    assert structure.contacts_unsure


def test_a_crease_that_leaves_both_sides_a_cube_keeps_a_sure_contact(tower_scene):
    # The same Y fork with the heavy cube 1.4 cubes wide up to the crease (a turned cube can show
    # that), reaching well onto both arms: it rests on both and carries one, three neighbours.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=3, light=3)
    obs = _y_fork_with_a_crease(analyzer, scene, heavy_from=-4, heavy_to=5, crease_at=9.25)
    structure = analyzer._structure(obs, obs.view)
    cube = analyzer.settings.cube_mm
    pair = [b for b in structure.boxes if b.layer == 2]
    assert len(pair) == 2 and pair[0].heavy
    assert pair[0].x1 - pair[0].x0 <= TURNED_WIDTH * cube
    assert structure.max_neighbours == 3


def _light_pair_under_a_heavy_cube(analyzer: TowerAnalyzer, scene):
    """Painted masks: a light base, two light cubes side by side on it (touching, no crease), a
    heavy cube on the left one.  The top of the left light cube lies within the blur's reach of the
    heavy face, but below it is more light face, no background."""
    view, paint, painted = _painter(analyzer, scene)
    cube = analyzer.settings.cube_mm
    paint("light", 0, cube, -5, 5)
    paint("light", cube, 2 * cube, -10, 10)
    paint("heavy", 2 * cube, 3 * cube, -10, 0)
    return painted()


def test_a_light_face_under_a_heavy_cube_is_no_fringe(tower_scene):
    # The fifteenth pass read the left light cube's top as the heavy face's fringe: the pair's run
    # held one cube fewer without it, a doubt.  It has light face, not background, beyond it.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=1, light=3)
    obs = _light_pair_under_a_heavy_cube(analyzer, scene)
    structure = analyzer._structure(obs, obs.view)
    assert sum(b.layer == 1 and not b.heavy for b in structure.boxes) == 2
    assert not any(what == "fringe" for _, what in structure.unsure), structure.unsure


def test_between_asks_for_both_sides():
    one = np.zeros((20, 20), bool)
    other = np.zeros((20, 20), bool)
    one[:5] = True  # a face above
    other[12:] = True  # the background below
    between = _between(one, other, 4)
    assert between[8].all()  # 3 px under the face, 4 px over the background
    assert not between[6].any()  # the background is 6 px away
    # The same face with more of something else, not the background, on the far side: nothing.
    assert not _between(one, np.zeros_like(other), 4).any()
    # Both on the same side is no "between".
    assert not _between(one, one, 4)[10:].any()
