"""Twelfth accuracy pass: tokens lying one on another are never a fighter with ok:true, read
without the fighter count (see docs/arena-reader.md, "Twelfth pass")."""

from __future__ import annotations

import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, drawn_discs, empty, line_9, mini, render, scene, stacked_pair
from vision.arena import bases, read_arena
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import CameraPose, Token

GEOMETRY = line_9()
PLACE = {-80: ("S3",), -40: ("S4",), 40: ("S6",), 80: ("S7",)}


def _read(pose: CameraPose, **things):
    return read_arena(render(scene(pose, **things), GEOMETRY), empty(GEOMETRY, pose), GEOMETRY, annotate=False)


@pytest.mark.parametrize("elevation, azimuth, x, angle", [
    (55, 20, 40, 0), (61, -20, -80, 0), (67, 0, 80, 0), (74, 20, 40, 0), (74, -20, 80, 315), (80, -20, 40, 135),
    (80, 0, -40, 225),
])
def test_a_stacked_pair_fitted_as_a_base_sized_disc_is_never_a_fighter(elevation, azimuth, x, angle):
    # Each pair fits a crisp, solid 25-26.6 mm disc with no figure the camera could see on it:
    # read as a fighter with ok:true before this pass. Across its offset it is a token's width
    # on both sides (1.9-2.4 mm inside the fitted rim; a base's outline is on its rim).
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=azimuth)
    reading = _read(pose, tokens=stacked_pair(x, angle))
    assert not reading.ok or reading.occupied == (), (reading.occupied, reading.error)


@pytest.mark.parametrize("elevation, azimuth, x", [(61, -20, -80), (67, 0, 80), (74, 20, 40), (80, -20, 40)])
def test_a_fighter_where_the_pairs_lay_is_still_read(elevation, azimuth, x):
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=azimuth)
    reading = _read(pose, minis=(mini(x, 2.0, height=35.0),))
    assert reading.ok, reading.error
    assert reading.occupied == PLACE[x]


# Two tokens lying one over the other on S6 (19 and 21.6 mm, 5 mm apart), one solid disc of a
# base's size, and a fighter standing off the row just behind them.
OVERLAPPING_TOKENS = (Token(45.0, 3.7, 19.2, 2.9, (175, 223, 75)), Token(40.2, 2.6, 21.6, 3.1, (85, 170, 126)))


@pytest.mark.parametrize("elevation, azimuth, dx, y", [(40, -8, 12, 30), (45, 0, 20, 30), (45, 8, 16, 30)])
def test_tokens_whose_figure_is_the_base_behind_them_are_not_a_fighter(elevation, azimuth, dx, y):
    # Read as S6 with ok:true before: the change where the pair's figure would be (plain, or
    # rising after a gap) is the rim of the base standing right behind it.
    pose = CameraPose(distance_mm=520, elevation_deg=elevation, azimuth_deg=azimuth)
    behind = mini(40 + dx, y, base=(66, 158, 226), figure=(174, 168, 233), base_mm=27.2, height=33.0)
    reading = _read(pose, minis=(behind,), tokens=OVERLAPPING_TOKENS)
    assert not reading.ok, reading.occupied


@pytest.mark.parametrize("seed", [210051])
def test_overlapping_tokens_seen_from_high_above_are_never_wrong_when_ok(seed):
    # 79.5 degrees up: two 19.5-20 mm tokens 13.6 mm apart, fitted as a 26.8 mm disc, read as a
    # third fighter on S6 with ok:true (fresh seeds 210000-210299, main at 22e06a1).
    assert_never_wrong_when_ok([seed], GEOMETRY)



def test_a_round_base_is_not_pinched_two_offset_discs_are():
    view = BoardView(440, 160, 3.0)
    search = np.ones((480, 1320), bool)
    base = drawn_discs(view, [(0, 0, 13.0, 100.0)])
    assert abs(bases._pinched_by(*base, view, 0, 0, 13.0, search)) < 0.5
    # 22 and 21 mm, 4 mm apart: 25.5 mm along the offset, a token's width across it.
    pair = drawn_discs(view, [(-2, 0, 11.0, 100.0), (2, 0, 10.5, 160.0)])
    assert bases._pinched_by(*pair, view, 0.25, 0, 12.75, search) > bases.PINCHED_MM + 0.8
