"""Eighty-fourth pass: a lone fighter whose base is close to the board's or its space's colour, fitted by its
figure's foot as a token-sized disc, standing up, was left unsure as "a figure on a base the colour of the board,
or a token at a base" (19 doubt scenes of the seventy-eighth pass's census). A figure is one body with its foot:
its change runs on out of the disc as strong as the disc's own, with no dip, past any token stack's reach
(``_figure_rising_out_of_its_foot``). A figure standing right behind a token stands on the middle of its own base,
whose faint top shows between them as a dip; a base behind as vivid as the token carries the change on without
one, and is found as a base behind (see docs/arena-reader.md, "Eighty-fourth pass")."""

from __future__ import annotations

import itertools

import pytest

from arena_scenes import BOARD, SPACE, assert_never_wrong_when_ok, away_from_camera, line_9, read_both_ways, render, scene, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind, classify, replace
from vision.arena.settings import ArenaSettings
from vision.synth.arena_scene import CameraPose, Miniature, Token

GEOMETRY = line_9()

#: The census group (seventy-eighth pass): "lone/apart: token-sized UNSURE".
GROUP = [950174, 950246, 900180, 900223, 940065, 940132, 940150, 940174, 940231, 940291, 910138, 910153, 920186,
         920188, 930001, 930008, 930091, 930112, 930297]
#: Of them, those the rule settles on both stacks: the figure runs on out of the disc past any token stack's reach
#: (940231 too on numpy 2.4.6 + OpenCV 5.0.0; on numpy 1.24 + OpenCV 4.11 it keeps a doubt about change on S3's outline).
SETTLED = [950246, 940150, 940291, 920186, 920188, 930091, 930297]


@pytest.mark.parametrize("seed", SETTLED)
def test_a_lone_fighter_fitted_by_its_foot_is_read(seed):
    # 34-55 degrees up; the base within 5-20 levels of the board's colour, its figure's foot fitted 13-23 mm.
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok and reading.occupied == truth, (reading.occupied, reading.error)


@pytest.mark.parametrize("seed", GROUP)
def test_the_group_is_never_read_wrong(seed):
    assert_never_wrong_when_ok([seed], GEOMETRY)


#: A vivid token's colour, and a fighter's base the same colour.
TOKEN_COLOUR = (200, 40, 180)


def _token_with_a_fighter_right_behind(elevation, azimuth, base_bgr, base_mm, figure_width, token_y=8.0):
    """A vivid 20 mm token on S6; a fighter (40 mm figure ``figure_width`` wide) on a base ``base_mm`` across
    0.5 mm behind it on its line away from the camera, off the row. Returns (live, reference, truth)."""
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=azimuth)
    lying = Token(40.0, token_y, 20.0, 3.0, TOKEN_COLOUR)
    ax, ay = away_from_camera(pose, lying.x_mm, lying.y_mm)
    reach = 10.0 + base_mm / 2 + 0.5
    behind = Miniature(lying.x_mm + ax * reach, lying.y_mm + ay * reach, base_mm=base_mm, base_bgr=base_bgr,
                       figure_bgr=(60, 60, 200), figure_height_mm=40.0, figure_width_mm=figure_width)
    assert GEOMETRY.space_at(behind.x_mm, behind.y_mm) is None  # off the row, on no space
    live = render(scene(pose, minis=(behind,), tokens=(lying,)), GEOMETRY)
    return live, render(scene(pose, seed=99), GEOMETRY), ()


# The figure on its base's middle, its front 6 mm (16 mm wide on 27) or 3 mm (20 on 25) behind the token's rim;
# a base the board's or the spaces' colour (the dip), or the token's own colour (no dip: a base behind).
TRAPS = [(el, az, base, size, width) for el, az, base, (size, width)
         in itertools.product((40, 60), (-20, 20), (BOARD, SPACE, TOKEN_COLOUR), ((27.0, 16.0), (25.0, 20.0)))]


@pytest.mark.parametrize("case", TRAPS)
def test_a_token_with_a_fighter_right_behind_it_is_never_read_a_fighter(case):
    live, reference, truth = _token_with_a_fighter_right_behind(*case)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, 1):
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied)


def _standing_foot(**changes) -> Blob:
    # A crisp 18 mm disc standing up, its figure seen: a token-sized disc classify leaves unsure.
    blob = Blob(0.0, 0.0, 9.0, 0.4, 0.0, Evidence.YES, (0.0, 0.0), 1, 1.0, stands_up=True)
    return replace(blob, **changes)


def test_a_foot_whose_figure_rises_out_of_it_is_a_fighter():
    settings = ArenaSettings()
    assert classify(_standing_foot(), settings) is Kind.UNSURE
    assert classify(_standing_foot(rises_out=True), settings) is Kind.FIGHTER


def test_rising_out_counts_for_nothing_where_what_stands_behind_is_apart():
    settings = ArenaSettings()
    assert classify(_standing_foot(rises_out=True, apart_behind=True), settings) is Kind.UNSURE
    assert not bases._figure_rising_out_of_its_foot(_standing_foot(rises_out=True, stands_up=False))
