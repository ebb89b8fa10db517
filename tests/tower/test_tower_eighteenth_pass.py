"""Eighteenth pass (issue 5): a shaded face before a piece of its own colour.  The left cube of a
legal top pair stood, in the shade, before a light supply cube lying behind the spot: its face was
that cube's colour darker by one factor in every channel, which is how a shadow looks, so the view
called it no change there, the pair's layer read one cube, and the tower failed at 0.85 one light
cube short with no doubt.  A shaded face before a background of its own hue and a shadow on that
background look the same on a real table: beside a run above the table, on a cube below, where the
view only darkened a cube-coloured background like a shadow and the rest of the place reads as cube
colour, the run may hold one cube more (an unsure reading "hidden", as for a run part-hidden by
camouflage).  Seeded scenes are rebuilt from the generator with the accuracy bench's options for
that seed."""

import dataclasses

import numpy as np
import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import TowerAnalyzer, _doubt
from tower_judging import analyzer_and_last, judge_scene

# Seed 470049 of the accuracy bench (fresh range): a dim room, clutter behind the spot.
DIM_ROOM_470049 = dict(frames=6, dim=True, nudge_px=3.9635147056634126, exposure_drift=0.19938996226294217,
                       off_spot_mm=5.552868888942075, distractors=8, noise=1.6169249696787076, pile=False,
                       near=0.5582306334137597)


def test_the_top_pair_whose_shaded_cube_stands_before_a_light_piece_is_never_failed(tower_scene):
    # Was a fail at 0.85 (cube_count, 2 light seen of 3): the pair's left cube read as a shadow.
    scene = tower_scene("top_pair", 470049, heavy=0, light=3, **DIM_ROOM_470049)
    assert scene.standing
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL, verdict
    analyzer, last = analyzer_and_last(scene)
    structure = analyzer._structure(last, last.view)
    if len(structure.boxes) < scene.heavy + scene.light:
        # This renderer loses the left cube of the pair (as on OpenCV 5): the rule must be what
        # keeps the tower from failing.  (Where another OpenCV reads it, nothing is short.)
        assert (1, "hidden") in structure.unsure, structure.unsure


# Colours of the side view (B, G, R, the mat's white near 1): pale paper and light wood.
PAPER = (0.8, 0.8, 0.8)
WOOD = (0.55, 0.75, 0.88)
SHADE = 0.6


def _painted(analyzer: TowerAnalyzer, scene, *, behind: str = "wood", shade: float = SHADE, base_x=(-10, 4),
             pair_at: float = -5, seen_below: bool = True):
    """The last frame's observation with painted masks and colours: a light base (at ``base_x``), a
    light cube on it (from ``pair_at``, turned a little) and, left of that cube, the pair's left cube,
    whose lower face (before paper) reads as light wood and whose upper face stands before ``behind``
    (the reference's light wood, or paper) darkened by ``shade`` in every channel (1: the
    reference's look, unchanged); without ``seen_below`` the light piece fills the whole face and all
    of it is darkened (the look of the tower's own shadow on it).  The analyzer's reference is
    painted to match."""
    obs = analyzer.observe(scene.frames[-1])
    view, cube = obs.view, analyzer.settings.cube_mm

    def place(z0, z1, x0, x1):
        return slice(view.row(z1), view.row(z0)), slice(view.col(x0), view.col(x1))

    reference = np.empty(obs.colour.shape, np.float32)
    reference[:] = PAPER
    ref_light = np.zeros(obs.light.shape, bool)
    seen_to = 1.4 * cube if seen_below else cube
    left_upper = place(seen_to, 2 * cube, pair_at - cube, pair_at)
    if behind == "wood":
        # A light supply cube lying behind the spot: its front face fills the left cube's upper face.
        supply = place(seen_to, 2.5 * cube, pair_at - 12, pair_at + 1)
        reference[supply] = WOOD
        ref_light[supply] = True
    colour = reference.copy()
    light = np.zeros_like(obs.light)
    for rows, cols in (place(0, cube, *base_x), place(cube, 2 * cube, pair_at, pair_at + 12),
                       place(cube, seen_to, pair_at - cube, pair_at)):
        light[rows, cols] = True
        colour[rows, cols] = WOOD
    colour[left_upper] = reference[left_upper] * shade
    analyzer._reference_view = lambda view: reference
    analyzer._reference_colours = lambda view: (ref_light, np.zeros_like(ref_light))
    return dataclasses.replace(obs, light=light, heavy=np.zeros_like(light), changed=light.copy(),
                               colour=colour, still_colour=colour)


def test_a_shaded_face_before_a_piece_of_its_colour_may_be_a_hidden_cube(tower_scene):
    scene = tower_scene("top_pair", 470049, heavy=0, light=3, **DIM_ROOM_470049)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=0, light=3)
    obs = _painted(analyzer, scene)
    structure = analyzer._structure(obs, obs.view)
    assert [(b.layer, b.heavy) for b in structure.boxes] == [(0, False), (1, False)], structure.boxes
    assert (1, "hidden") in structure.unsure, structure.unsure
    # The light cube short is what that reading adds: the count breach is in doubt.
    assert _doubt(Reason.CUBE_COUNT, structure, 0, 2, 0, 3) >= 1


@pytest.mark.parametrize("look", ["shadow on paper", "unchanged", "nothing below", "all shadow"])
def test_no_hidden_cube_without_camouflage_or_support(tower_scene, look):
    # The same place darkened like a shadow over paper (no cube colour behind: a shadow, or a face
    # the view would have seen), showing the reference's very look (a cube there would show), or
    # with no cube below to rest on, or all of it darkened with none of it read as cube colour (the
    # tower's own shadow on a piece of cube colour looks so): no reading "hidden", and the count
    # breach stands.
    scene = tower_scene("top_pair", 470049, heavy=0, light=3, **DIM_ROOM_470049)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=0, light=3)
    options = {"shadow on paper": dict(behind="paper"), "unchanged": dict(shade=1.0),
               # The base under the right cube only: the left cube's place overhangs nothing.
               "nothing below": dict(base_x=(0, 10), pair_at=0), "all shadow": dict(seen_below=False)}[look]
    obs = _painted(analyzer, scene, **options)
    structure = analyzer._structure(obs, obs.view)
    assert (1, "hidden") not in structure.unsure, structure.unsure
    assert _doubt(Reason.CUBE_COUNT, structure, 0, 2, 0, 3) == 0

