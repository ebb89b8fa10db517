"""Thirty-first pass: a hand over a covered marker reaching the back corner of S1 or S9 keeps its
"neither a base nor a token" doubt (see docs/arena-reader.md, "Thirty-first pass").

Where the hand's change reaches onto the space, a fighter on a base the space's colour can stand
there with its figure, from its foot up, under the hand: the camera then sees what it sees of the
hand alone, give or take its base's front rim. The doubt is the only thing between that fighter
and an empty space read with ``ok: true``. These tests fail if a rule drops it.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from arena_scenes import assert_a_fighter_added_at_is_never_read_away, line_9
from vision.arena.bases import select_bases
from vision.arena.hiding import FigureCover, search_mask
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import random_match_scene

GEOMETRY = line_9()

#: Spec scenes (the accuracy bench's seeds) whose hand over a covered marker reaches the back
#: corner of S1 or S9, and a place 8 mm inside that space where a fighter's whole figure, from its
#: foot 3 mm up to 25 mm, 4 mm wide, falls in the hand's change or the marker's keep-out.
UNDER_THE_HAND = [(330490, (-170.0, 8.0), "S1"), (330173, (168.0, 10.0), "S9")]


@pytest.mark.parametrize("seed, place, space", UNDER_THE_HAND)
def test_a_fighter_under_the_hand_of_a_spec_scene_is_never_read_away(seed, place, space):
    reference, live, truth = random_match_scene(np.random.default_rng(seed), GEOMETRY)
    assert live.hidden_markers and space not in truth  # the scene as the bench builds it
    assert_a_fighter_added_at_is_never_read_away(reference, live, truth, place, space, GEOMETRY)


#: From in front of the board, some 40 degrees up: away from the camera is +y, leaning left at S1.
LOW_CAMERA = CameraPosition(centre_mm=(0.0, -380.0, 320.0), focal_px=600.0)


def _hand_over_marker_10(view: BoardView, search: np.ndarray) -> np.ndarray:
    """A hand's change in the top-down view: one region over marker 10 and its keep-out, reaching
    onto S1's back corner (S1 spans x -178..-142, y -18..18), as the reader's mask has it (blank
    where nothing is looked at)."""
    w, h = view.size
    mask = np.zeros((h, w), np.uint8)
    centre = tuple(int(round(c)) for c in view.to_px(-190.0, 42.0))
    axes = (int(round(28 * view.px_per_mm)), int(round(38 * view.px_per_mm)))
    cv2.ellipse(mask, centre, axes, 0, 0, 360, 1, -1)
    return mask & search.astype(np.uint8)


def test_a_hand_covering_a_figures_foot_on_a_space_keeps_its_doubt():
    # Constructed masks, so the rule is checked whatever the stack renders (numpy 1.24 and
    # OpenCV 4.11 on the Pi as well). Nothing seen but the hand: no base, no token.
    view = BoardView.of(GEOMETRY)
    search = search_mask(view, GEOMETRY)
    mask = _hand_over_marker_10(view, search)
    cover = FigureCover(mask, view, GEOMETRY, LOW_CAMERA, looked_at=search)
    places = cover.places(*GEOMETRY.spaces["S1"])
    # A place well inside S1 whose figure's foot (3 mm up) is under the hand: a fighter there
    # on a base the board's colour shows nothing outside the hand's change.
    feet_under_the_hand = []
    for x, y in places:
        lx, ly = LOW_CAMERA.lean(x, y, 3.0)
        u, v = (int(round(c)) for c in view.to_px(x + lx, y + ly))
        if mask[v, u] and GEOMETRY.edge_distance(x, y) >= 4.0:
            feet_under_the_hand.append((x, y))
    assert feet_under_the_hand
    _, doubts = select_bases([], mask, view, GEOMETRY, LOW_CAMERA, ArenaSettings(), search=search)
    assert any("neither a base nor a token" in d for d in doubts), doubts
