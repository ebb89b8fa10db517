"""Messy real tables: other mats, clutter in the view, the fighter's cubes at the start, dim hands."""

import numpy as np
import pytest

from vision.synth.tower_scene import Look, render_mat_texture
from vision.tower import Reason, TowerSettings, Verdict
from vision.tower.geometry import detect_mat_markers
from tower_judging import judge_scene


@pytest.mark.parametrize("style", ["plain", "product", "busy"])
def test_every_mat_print_shows_both_markers_where_the_spec_puts_them(style):
    px_per_mm = 4.0
    look = Look(mat_style=style, mat_size_mm=(297.0, 210.0), ink=50, mat_rgb=(240, 235, 220))
    texture = render_mat_texture(px_per_mm, look=look, rng=np.random.default_rng(1))
    markers = detect_mat_markers(texture, TowerSettings())
    assert sorted(markers) == [0, 1]
    for marker_id, x_mm in ((0, -60.0), (1, 60.0)):
        centre = markers[marker_id].mean(axis=0) / px_per_mm - (297.0 / 2, 210.0 / 2)
        assert centre == pytest.approx((x_mm, 0.0), abs=0.5)


@pytest.mark.parametrize(("seed", "style"), [(2, "busy"), (4, "plain"), (0, "product")])
@pytest.mark.parametrize("kind", ["stand", "fork"])
def test_the_verdict_does_not_depend_on_the_mat_print(tower_scene, kind, seed, style):
    scene = tower_scene(kind, seed)
    assert scene.look.mat_style == style
    assert judge_scene(scene).verdict.value == scene.expected


@pytest.mark.parametrize("seed", [9, 13, 18])
def test_a_hand_in_a_dim_room_is_still_a_hand(tower_scene, seed):
    # In a dim room the hand is about as bright as the wall behind it: it shows only as
    # skin-coloured speckle, close to light wood.  It still holds the tower.
    v = judge_scene(tower_scene("hand_top", seed, dim=True))
    assert v.verdict is Verdict.FAIL, v
    assert v.reasons == [Reason.HAND]


def test_pieces_behind_the_spot_and_a_nudged_camera_do_not_fail_a_standing_tower(tower_scene):
    # Supply cubes and pieces right behind the spot and beside the markers; the camera moved 4 px.
    # The outline a nudge leaves around a supply cube is no cube on the table, and the line it
    # leaves along the far mat edge is no hand.
    scene = tower_scene("stand", 9, distractors=10, near=1.0, nudge_px=4.0)
    v = judge_scene(scene)
    assert v.verdict is Verdict.PASS, v
    assert v.ground_contacts == 1


@pytest.mark.parametrize("seed", [0, 1])
def test_the_fighters_cubes_beside_the_mat_at_the_start_are_no_change_at_the_spot(tower_scene, seed):
    stand = tower_scene("stand", seed, pile=True)
    assert judge_scene(stand).verdict is Verdict.PASS
    aside = judge_scene(tower_scene("aside", seed, pile=True))
    assert aside.verdict is Verdict.FAIL
    assert Reason.CUBE_COUNT in aside.reasons
