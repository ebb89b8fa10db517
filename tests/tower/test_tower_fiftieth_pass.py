"""Fiftieth pass (issue 5): the tower's shadow read as light wood under the base moved the base plane.

Fresh top_pair 972021 (three heavy cubes: a turned base carrying a touching pair) was failed on the
Pi's stack (numpy 1.24 + OpenCV 4.11) at 0.85 on ``cube_count``, seen 1h2l.  In this dim, very noisy
room the base's shadow on the pale mat, a little darker and bluer than the paper, lies within light
wood's radius (light wood is a pale hue near grey) and changed: the base plane step read the light
patch hanging under the base as the base's bottom edge, 4.75 mm under the table line, and moved the
view 13 mm towards the camera.  Every layer's rows then lay half a cube under the cubes: layer 0's
face the base's lower half and the paper, layer 1's the base's top and the pair's lower half with
paper beside, whose averaged hue (heavy mixed with white) reads light wood.  A rule leaving out of
the base row the light pixels that kept the paper's hue (a shadow keeps it, a cube moves it: the
twenty-seventh pass) also took a dim room's light faces for shadow (two_ground 810021): a negative
result, taken out.  The scene's tests were strict xfails saying what is wrong; the guard holds
(docs, fiftieth pass).  The fifty-first pass's rule (the light rows under a heavy base's reach that
kept the paper's hue are no part of it) makes them pass: their marks are removed.
"""
import dataclasses

import numpy as np

from vision.synth.tower_scene import make_tower_scene
from vision.tower import Verdict
from vision.tower.judge import TowerAnalyzer
from tower_judging import judge_scene

# Top_pair 972021 of the accuracy bench: 3 heavy cubes, a dim, very noisy room, 7 mm off the spot.
TOP_PAIR_972021 = dict(heavy=3, light=0, frames=4, dim=True, nudge_px=3.817439304267084,
                       exposure_drift=0.09881376054298814, off_spot_mm=7.322737424515168, distractors=3,
                       noise=5.9579792952968935, pile=False, near=0.5014225196923503)


def _scene():
    return make_tower_scene("top_pair", seed=972021, **TOP_PAIR_972021)


def test_top_pair_972021_is_never_failed_and_reads_no_light_cube():
    verdict = judge_scene(_scene())
    assert verdict.verdict is not Verdict.FAIL
    assert verdict.light_seen == 0


def test_top_pair_972021_keeps_the_view_at_its_base():
    scene = _scene()
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    last = analyzer._final_observation(analyzer.observe(scene.frames[-1]))
    # Its base stands on the table line of the reference's view: no plane to move to.
    assert last.view.y_mm == analyzer.view.y_mm


def _with_patch_under_base(analyzer, obs, colour):
    """``obs`` with a light patch of ``colour`` (view units, B, G, R) 3-8 px under its base row,
    as wide as the base's bottom, hanging from it by a column of light."""
    row = analyzer._base_row(obs, obs.view)
    labels, _, _, tower = analyzer._blobs(obs.cubes)
    c0 = int(np.nonzero((labels[row] == tower))[0].min()) + 2
    patch = np.zeros_like(obs.light)
    patch[row + 3: row + 9, c0: c0 + 12] = True
    patch[row: row + 3, c0: c0 + 3] = True
    painted = obs.colour.copy()
    painted[patch] = colour(analyzer._reference_view(obs.view)[patch])
    return row, dataclasses.replace(obs, light=obs.light | patch, changed=obs.changed | patch, colour=painted)


def test_a_light_patch_of_the_papers_hue_under_the_base_is_no_base_edge():
    scene = _scene()
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    obs = analyzer.observe(scene.frames[-1])
    # A shadow: the paper darkened, its hue kept.
    row, shaded = _with_patch_under_base(analyzer, obs, lambda paper: paper * 0.9)
    assert analyzer._base_row(shaded, shaded.view) <= row


def test_a_light_wood_patch_under_the_base_is_still_its_edge():
    scene = _scene()
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    obs = analyzer.observe(scene.frames[-1])
    # Light wood's own hue (about RGB 225, 190, 140 in the mat white's units): a cube moves the hue.
    wood = np.array([140, 190, 225], np.float32) / 255 * 0.9
    row, wooden = _with_patch_under_base(analyzer, obs, lambda paper: np.broadcast_to(wood, paper.shape))
    assert analyzer._base_row(wooden, wooden.view) >= row + 8
