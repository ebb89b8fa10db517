"""Thirty-eighth pass (issue 5): a cube beside a counted one, before a background of its own look.

Top_pair 820023 (a legal tower: a light base, a heavy pair side by side on top) failed at 0.85 on
`cube_count`, one heavy cube short.  A dark heavy supply cube lies on the mat just behind the spot;
the pair's left cube stands in front of it in the view, 0.02 off it in every channel: below any
change the vote sees and below what the likeness (``_with_camouflaged_faces``) tells from noise.  So
the left cube vanished, the run on top (the right cube and the left one's edge) was 1.45 widths, one
turned cube, and the count came up one short with no doubt.  A cube may stand unseen beside a
counted cube, on a cube of the layer below, where the background has the look of a missing cube's
face (``_blind_beside``): the count is blind there, uncertain, never a fail.

The built siblings take the same scene with one cube of the pair left out (the fighter still owns
three): before the supply cube the view cannot tell, so uncertain; with no clutter behind the spot
the place beside shows the pale paper as it was, and the missing cube is a fail as before.  So is
missing 820001, whose place beside the top cube lies before a light supply cube of another shade
than the tower's light faces over half of it: a cube there would have changed it
(``_face_would_show``).  Seeded
scenes are rebuilt with the accuracy bench's options for that seed (``random_scene``)."""

import dataclasses

import pytest

import vision.synth.tower_scene as tower_scene_module
from vision.synth.tower_scene import make_tower_scene
from vision.tower import Reason, Verdict
from vision.tower.judge import _CubeBox, _face_rows
from tower_judging import analyzer_and_last, judge_scene

# Top_pair 820023 of the accuracy bench: 2 heavy cubes (the pair) on 1 light base.
SCENE_820023 = dict(frames=6, dim=False, nudge_px=1.389844611215441, exposure_drift=0.0861084158345929,
                    off_spot_mm=6.410861145685872, distractors=6, noise=3.516745338136964, pile=False,
                    near=0.3125372290445192)
# Missing 820001: a chain of 2 heavy and 2 light cubes, the fighter owning one light cube more; a light
# supply cube lies behind the top cube's right side.
SCENE_820001 = dict(frames=5, dim=False, nudge_px=0.6274979092442203, exposure_drift=0.1398642369254773,
                    off_spot_mm=0.4323237465381915, distractors=9, noise=5.443248893029826, pile=True,
                    near=0.5986375453760105)
# The same room with no clutter: the camera and the cubes stay (drawn before the clutter).
NO_CLUTTER = dict(SCENE_820023, distractors=0)


def _top_pair(monkeypatch, options, *, leave_out: str | None = None):
    """Top_pair 820023's scene, with the pair's ``leave_out`` ("left" or "right") cube not built;
    the fighter still owns 2 heavy and 1 light cube.  The cube is dropped after its wood is drawn,
    so the room, the light and the clutter are the seed's own."""
    real_wood = tower_scene_module._real_wood

    def without_one(cubes, rng, colours, spread):
        cubes = real_wood(cubes, rng, colours, spread)
        if leave_out is None:
            return cubes
        top = max(c.centre[2] for c in cubes)
        pair = sorted((c for c in cubes if c.centre[2] == top), key=lambda c: c.centre[0])
        assert len(pair) == 2
        gone = pair[0] if leave_out == "left" else pair[1]
        return [c for c in cubes if c is not gone]

    with monkeypatch.context() as patched:
        patched.setattr(tower_scene_module, "_real_wood", without_one)
        return make_tower_scene("top_pair", seed=820023, heavy=2, light=1, **options)


def _uncertain_with_a_blind_place_beside(scene):
    """Judge a legal ``scene``: uncertain on the count alone, and the view's structure (returned)
    has a blind place beside a counted cube."""
    assert scene.standing
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.UNCERTAIN
    assert verdict.reasons == [Reason.CUBE_COUNT]
    analyzer, last = analyzer_and_last(scene, likeness=True)
    structure = analyzer._structure(last, last.view)
    assert analyzer._blind_beside(structure.boxes, last)
    return structure


def test_top_pair_820023_a_cube_before_a_supply_cube_of_its_look_is_no_fail(tower_scene):
    structure = _uncertain_with_a_blind_place_beside(
        tower_scene("top_pair", 820023, heavy=2, light=1, **SCENE_820023))
    # The premise: the view still misses the left cube (one heavy on top), and that place is blind.
    assert [(b.layer, b.heavy) for b in structure.boxes] == [(0, False), (1, True)]
    assert structure.blind_layers == 1


def test_the_place_beside_needs_a_cube_below_to_rest_on(tower_scene):
    scene = tower_scene("top_pair", 820023, heavy=2, light=1, **SCENE_820023)
    analyzer, last = analyzer_and_last(scene, likeness=True)
    base, top = analyzer._structure(last, last.view).boxes
    # The base moved from under the camouflaged place (left of the top cube): nothing for a cube
    # there to rest on, so no cube can stand there (cubes do not float).
    moved = dataclasses.replace(base, x0=top.x0 + 1.0, x1=top.x0 + 11.0)
    assert not analyzer._blind_beside([moved, top], last)
    # Nor is a place blind on the table (a cube there is a ground contact, judged as such).
    assert not analyzer._blind_beside([_CubeBox(0, top.x0, top.x1, True)], last)


@pytest.mark.parametrize("leave_out", ["left", "right"])
def test_one_heavy_cube_on_top_before_the_supply_cube_is_uncertain(monkeypatch, leave_out):
    # One heavy cube really missing: whether beside the one on top, before the supply cube, a cube
    # stands, the view cannot tell.  Uncertain, not a fail.
    verdict = judge_scene(_top_pair(monkeypatch, SCENE_820023, leave_out=leave_out))
    assert verdict.verdict is Verdict.UNCERTAIN
    assert Reason.CUBE_COUNT in verdict.reasons


def test_with_no_clutter_behind_the_missing_cube_still_fails_and_the_pair_passes(monkeypatch):
    for leave_out in ("left", "right"):
        verdict = judge_scene(_top_pair(monkeypatch, NO_CLUTTER, leave_out=leave_out))
        assert verdict.verdict is Verdict.FAIL, leave_out
        assert verdict.reasons == [Reason.CUBE_COUNT]
        assert verdict.confidence >= 0.85
    verdict = judge_scene(_top_pair(monkeypatch, NO_CLUTTER))
    assert verdict.verdict is Verdict.PASS
    assert (verdict.heavy_seen, verdict.light_seen) == (2, 1)


def test_missing_820001_a_supply_cube_of_another_shade_hides_no_cube(tower_scene):
    scene = tower_scene("missing", 820001, heavy=2, light=2, **SCENE_820001)
    assert (scene.heavy, scene.light) == (2, 3)
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.FAIL
    assert verdict.reasons == [Reason.CUBE_COUNT]
    assert verdict.confidence >= 0.85
    # The premise: the place right of the top cube is before light wood's colour (a light cube
    # could hide there by the colour alone), but a light face there would have changed it.
    analyzer, last = analyzer_and_last(scene, likeness=True)
    boxes = analyzer._structure(last, last.view).boxes
    top = max(boxes, key=lambda b: b.layer)
    view = last.view
    rows = _face_rows(view, top.layer, 10.0)
    cols = slice(view.col(top.x1), view.col(top.x1 + 10.0))
    assert analyzer._could_hide(last, boxes, rows, cols)
    assert analyzer._face_would_show(last, boxes, rows, cols)
    assert not analyzer._blind_beside(boxes, last)


# Top_pair 840022 (found by the thirty-seventh pass's fresh run after this rule was written, and not
# tuned on): 3 heavy cubes, a pair on a heavy base, in a dim room; main failed it at 0.85 on
# `cube_count` reading 2 heavy cubes, one of the pair unread before the clutter behind the spot.
SCENE_840022 = dict(frames=2, dim=True, nudge_px=0.6020815704409608, exposure_drift=0.11127561136981406,
                    off_spot_mm=11.329283415758402, distractors=8, noise=2.3506576776758275, pile=False,
                    near=0.4876326943536861)


def test_top_pair_840022_a_fresh_wrong_fail_is_uncertain_by_the_same_rule(tower_scene):
    structure = _uncertain_with_a_blind_place_beside(
        tower_scene("top_pair", 840022, heavy=3, light=0, **SCENE_840022))
    # The premise: still one heavy cube short of the three (the place beside is blind, above).
    assert sum(b.heavy for b in structure.boxes) == 2
