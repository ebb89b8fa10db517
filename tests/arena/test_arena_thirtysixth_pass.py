"""Thirty-sixth pass: "something that is neither a base nor a token" where no fighter stands
(see docs/arena-reader.md, "Thirty-sixth pass"). No reader change: these are guards.

Fresh 450028 (truth S2 and S5, read S2 and S5) is doubted only for its S2 fighter's cast shadow,
on S2. A fighter can stand behind that fighter's figure on S1's back corner, within the shadow's
reach: no other check looks there. A rule tried (each place reaching the change only over its base
and its figure's corridor) read 450028 right and that fighter away; one kept (a space a clear base
stands on passed over) took three resting token pairs with an off-row fighter behind for a fighter
on S6. The guards fail with them, and the hand's with any rule dropping the hand's doubt.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from arena_scenes import assert_a_fighter_added_at_is_never_read_away, line_9, scene
from vision.arena import read_arena
from vision.arena.bases import Blob, Evidence, select_bases
from vision.arena.hiding import FigureCover, search_mask
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import CameraPose, Miniature, Token, random_match_scene, render_scene

GEOMETRY = line_9()
#: Close to the spaces' colour (arena_scenes.SPACE), a shade lighter: the stacked-token bench's faint token.
FAINT_TOKEN = (128, 150, 168)

def _px(view: BoardView, x: float, y: float) -> tuple[int, int]:
    return tuple(int(round(c)) for c in view.to_px(x, y))


def _fighter_with_a_shadow_tip(view, search, fighter, figure_mm, tip, tip_radius_mm, camera):
    """The change mask of a fighter (its base, and its figure leaning away from the camera) with
    its cast shadow's tip joined to it, as the reader's mask has it."""
    w, h = view.size
    mask = np.zeros((h, w), np.uint8)
    centre = _px(view, fighter.x_mm, fighter.y_mm)
    cv2.circle(mask, centre, int(round(fighter.radius_mm * view.px_per_mm)), 1, -1)
    lx, ly = camera.lean(fighter.x_mm, fighter.y_mm, figure_mm)
    cv2.line(mask, centre, _px(view, fighter.x_mm + lx, fighter.y_mm + ly), 1, int(round(12 * view.px_per_mm)))
    width = int(round(2 * tip_radius_mm * view.px_per_mm))
    cv2.line(mask, centre, _px(view, *tip), 1, width)
    cv2.circle(mask, _px(view, *tip), int(round(tip_radius_mm * view.px_per_mm)), 1, -1)
    return mask & search.astype(np.uint8)


#: 450028 as the bench builds it: the S2 fighter's cast shadow leaves change on S2; a fighter put
#: at S1's back corner (a base the space's colour, a small figure) stands behind that fighter's
#: figure, its own figure showing only over it, from 40 degrees up on the right.
BEHIND_A_FIGURE = [(450028, (-142.0, 16.0), (90, 160, 90)), (450028, (-144.0, 14.0), (60, 60, 200))]


@pytest.mark.parametrize("seed, place, figure", BEHIND_A_FIGURE)
def test_a_fighter_behind_a_figure_at_a_neighbours_back_corner_is_never_read_away(seed, place, figure):
    reference, live, truth = random_match_scene(np.random.default_rng(seed), GEOMETRY)
    assert truth == ("S2", "S5") and GEOMETRY.space_at(*place) == "S1"  # the scene as the bench builds it
    fighter = Miniature(*place, base_mm=25.0, base_height_mm=3.0, base_bgr=live.space_bgr, figure_bgr=figure,
                        figure_height_mm=26.0, figure_width_mm=8.0)
    with_fighter = dataclasses.replace(live, miniatures=live.miniatures + (fighter,))
    image, empty = render_scene(with_fighter, GEOMETRY), render_scene(reference, GEOMETRY)
    for count in (None, len(with_fighter.miniatures)):
        reading = read_arena(image, empty, GEOMETRY, annotate=False, fighters=count)
        assert not reading.ok or reading.occupied == ("S1", "S2", "S5"), (count, reading.occupied, reading.error)


#: 450028's camera, measured: in front of the board and to its right, some 40 degrees up.
RIGHT_LOW_CAMERA = CameraPosition(centre_mm=(115.0, -400.0, 347.0), focal_px=600.0)
TAKEN = Blob(-125.0, -6.0, 12.5, 0.2, 0.0, Evidence.YES, (-125.0, -6.0), 1, 1.0, stands_up=True)


def _fighter_and_its_shadow(view: BoardView, search: np.ndarray) -> np.ndarray:
    """The change mask of a fighter on S2 (its base and a 40 mm figure leaning away from the camera)
    with its cast shadow's tip beside it on S2, joined to the base, as the reader's mask has it."""
    return _fighter_with_a_shadow_tip(view, search, TAKEN, 40.0, (-110.0, 11.0), 7.0, RIGHT_LOW_CAMERA)


def test_change_beside_a_taken_fighter_keeps_its_doubt_while_one_may_hide_behind_its_figure():
    # Constructed masks, so the rule is checked whatever the stack renders (numpy 1.24 and OpenCV
    # 4.11 on the Pi as well).
    view = BoardView.of(GEOMETRY)
    search = search_mask(view, GEOMETRY)
    mask = _fighter_and_its_shadow(view, search)
    settings = ArenaSettings()
    bases, doubts = select_bases([TAKEN], mask, view, GEOMETRY, RIGHT_LOW_CAMERA, settings, search=search)
    assert [(b.x_mm, b.y_mm) for b in bases] == [(TAKEN.x_mm, TAKEN.y_mm)]
    # A fighter can stand on S1's back corner with its body, 13 to 25 mm up, behind the taken figure:
    # the hiding check does not look there (S1's centre is outside that figure's corridor).
    cover = FigureCover(mask, view, GEOMETRY, RIGHT_LOW_CAMERA, looked_at=search)
    hidden = cover.places(*GEOMETRY.spaces["S1"], solids=[(TAKEN.x_mm, TAKEN.y_mm, TAKEN.radius_mm)], by_base=False)
    assert len(hidden) and (hidden[:, 1] >= 8.0).all()  # (on its back half)
    assert not any("may hide a fighter on S1" in d for d in doubts), doubts
    # The shadow's tip keeps its doubt: the one thing left between that fighter and an S1 read away.
    assert any("neither a base nor a token" in d for d in doubts), doubts


#: 450179 as the bench builds it: a hand over covered marker 10, 40 degrees up, reaching S1's back
#: corner; a fighter put under it (a base the space's colour, a small figure) reads as the hand alone.
UNDER_THE_HAND = [(450179, (-170.0, 10.0), "S1")]


@pytest.mark.parametrize("seed, place, space", UNDER_THE_HAND)
def test_a_fighter_under_the_hand_at_a_board_side_end_is_never_read_away(seed, place, space):
    reference, live, truth = random_match_scene(np.random.default_rng(seed), GEOMETRY)
    assert live.hidden_markers == (10,) and space not in truth
    assert_a_fighter_added_at_is_never_read_away(reference, live, truth, place, space, GEOMETRY)


def test_a_resting_pair_taken_for_a_clear_base_keeps_the_doubt_beside_it():
    # ``bench/arena_stacked_tokens.py --set resting-behind``'s (67, 0, 11.0, 315, vivid base): a vivid
    # 22 mm token resting 11 mm off a faint one on the back of S6, an off-row fighter 0.5 mm behind.
    # The pair is taken for a fighter on S6; the change beside it is all that keeps the reading a doubt.
    dx, dy = 11.0 * np.cos(np.radians(315)), 11.0 * np.sin(np.radians(315))
    pair = (Token(40.0, 8.0, 22.0, 3.0, FAINT_TOKEN), Token(40.0 + dx, 8.0 + dy, 22.0, 3.0, (200, 40, 180), z_mm=3.0))
    behind = Miniature(40.0, 8.0 + max(0.0, dy) + 11.0 + 13.5 + 0.5, base_mm=27.0, base_bgr=(66, 158, 226),
                       figure_bgr=(90, 160, 90), figure_height_mm=35.0)
    pose = CameraPose(distance_mm=450, elevation_deg=67, azimuth_deg=0)
    live, empty = scene(pose, minis=(behind,), tokens=pair), scene(pose, seed=99)
    assert GEOMETRY.space_at(behind.x_mm, behind.y_mm) is None
    reading = read_arena(render_scene(live, GEOMETRY), render_scene(empty, GEOMETRY), GEOMETRY, annotate=False)
    assert not reading.ok or reading.occupied == (), (reading.occupied, reading.error)


#: Fresh 450000-450299 scenes doubted "neither a base nor a token" where no fighter stands (the
#: hand over a covered marker, a figure's cast shadow, an unsure token's edge): never a wrong reading.
NOTHING_STANDS_THERE = [450038, 450071, 450151, 450179, 450060, 450028, 450046]


@pytest.mark.parametrize("seed", NOTHING_STANDS_THERE)
def test_the_neither_doubts_where_nothing_stands_are_never_a_wrong_reading(seed):
    reference, live, truth = random_match_scene(np.random.default_rng(seed), GEOMETRY)
    image, empty = render_scene(live, GEOMETRY), render_scene(reference, GEOMETRY)
    for count in (None, len(live.miniatures)):
        reading = read_arena(image, empty, GEOMETRY, annotate=False, fighters=count)
        assert not reading.ok or reading.occupied == truth, (count, reading.occupied, reading.error)
