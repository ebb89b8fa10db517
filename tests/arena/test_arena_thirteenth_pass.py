"""Thirteenth accuracy pass: three kinds of wrong ok:true (see docs/arena-reader.md, "Thirteenth
pass"): a figure's top seen from high above read as a token, a token with another against it
fitted as a base, and a pair of tokens standing in for a missing fighter whose own top stood
elsewhere."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, drawn_discs, line_9
from vision.arena import bases
from vision.arena.bases import Blob, Evidence
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
#: Straight in front of the board, 45 degrees up: away from the camera is +y at the board's middle.
CAMERA = CameraPosition(centre_mm=(0.0, -350.0, 350.0), focal_px=800.0)


@pytest.mark.parametrize("seed, touching_tokens", [
    # 67 degrees up: the 14 mm top of a 28 mm figure over a base the board's colour, read as a
    # token, and S7 as empty (no count).
    (190266, False),
    # 66 degrees up: a pale 21.9 mm token with a 19.2 mm one lying against it, fitted as a 25.2 mm
    # disc, read as a fighter on S2 (no count).
    (200248, True),
    # 72 degrees up, told 2 fighters: two overlapping tokens on S9 standing up as a figure's foot,
    # taken for the second fighter, whose own top stood off the row (fresh seed, main at 28c4b91).
    (220583, False),
])
def test_spec_scenes_read_wrong_before_are_never_wrong_when_ok(seed, touching_tokens):
    assert_never_wrong_when_ok([seed], GEOMETRY, touching_tokens=touching_tokens)



def test_a_base_reaches_its_far_rim_a_disc_fitted_too_big_does_not():
    view = BoardView(440, 160, 3.0)
    search = np.ones((480, 1320), bool)
    base = drawn_discs(view, [(0, 0, 13.0, 100.0)])
    assert abs(bases._short_behind(*base, view, CAMERA, 0, 0, 13.0, search)) < 0.5
    # A figure standing on it runs on away from the camera: never short.
    standing = drawn_discs(view, [(0, 0, 13.0, 100.0), (0, 12, 7.0, 150.0), (0, 20, 7.0, 150.0)])
    assert bases._short_behind(*standing, view, CAMERA, 0, 0, 13.0, search) < 0
    # A 22 mm token whose front half was fitted as a 25.2 mm disc, its middle 0.5 mm further away.
    token = drawn_discs(view, [(0, 0, 11.0, 100.0)])
    assert bases._short_behind(*token, view, CAMERA, 0, 0.5, 12.6, search) > bases.SHORT_BEHIND_MM + 0.5


def test_a_clear_base_sized_disc_short_behind_is_not_a_fighter():
    settings = ArenaSettings()
    disc = Blob(0.0, 0.0, 12.6, 0.1, 0.07, Evidence.UNKNOWN, (0.0, 0.0), 1, 1.0)
    assert bases.classify(disc, settings) is bases.Kind.FIGHTER
    assert bases.classify(replace(disc, short_behind_mm=1.7), settings) is bases.Kind.UNSURE


def _token_seen_from_above(ahead_points):
    return Blob(0.0, 0.0, 7.0, 0.1, 0.0, Evidence.UNKNOWN, (0.0, 0.0), 1, 1.0,
                ahead=len(ahead_points) / 24, ahead_points=tuple(ahead_points), ahead_looked=24)


def test_a_token_seen_from_above_is_all_there_is_of_it():
    body = [(0.0, -11.5), (1.0, -11.5), (-1.0, -11.5)]  # change just in front of the rim, towards the camera
    top = _token_seen_from_above(body)
    assert bases._more_of_it_in_front(top, [top], CAMERA)
    assert not bases._more_of_it_in_front(_token_seen_from_above([]), [top], CAMERA)
    # What shows in front is another disc fitted there (a base or a token lying against it): explained.
    neighbour = Blob(0.0, -22.0, 13.0, 0.1, 0.0, Evidence.UNKNOWN, (0.0, -22.0), 1, 1.0)
    assert not bases._more_of_it_in_front(top, [top, neighbour], CAMERA)
    # From lower down the figure evidence decides, not this.
    lower = Blob(0.0, 0.0, 7.0, 0.1, 0.0, Evidence.NO, (0.0, 0.0), 1, 1.0, ahead=0.1, ahead_points=tuple(body),
                 ahead_looked=24)
    assert not bases._more_of_it_in_front(lower, [lower], CAMERA)


def test_a_stand_in_is_not_taken_while_another_standing_thing_is_unplaced():
    settings = ArenaSettings()
    # A token-sized disc on S9 standing up (what lies behind it runs on away from the camera) ...
    foot = Blob(160.0, -10.0, 9.0, 0.1, 0.0, Evidence.UNKNOWN, (160.0, -10.0), 3, 1.0, ahead=0.0, stands_up=True)
    assert bases._standing_in_for(1, [foot], [], GEOMETRY, CAMERA, settings)
    # ... is not the one fighter missing while a figure's top, its foot unseen, stands elsewhere.
    top = Blob(-80.0, 30.0, 6.5, 0.2, 0.0, Evidence.YES, (-80.0, 30.0), 1, 1.0, ahead=0.8, stands_up=True)
    assert bases._standing_in_for(1, [foot, top], [], GEOMETRY, CAMERA, settings) == []
