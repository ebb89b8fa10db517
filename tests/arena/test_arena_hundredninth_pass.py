"""The hundred-and-ninth pass: a soft shadow's edge from something out of view is light, not a thing.

A shadow multiplies every channel by one factor (in linear light), and one cast from out of view (a
player leaning over, a lamp behind a shoulder) has a long edge across spaces and board alike. The
smooth (bilinear) light field cannot follow that edge and left a band of change along it, read as
figures on the row (the ninety-ninth pass's ``light`` hunt). ``vision.arena.topdown`` now traces the
shade on the lighting cells: a grey factor where all three channels agree with one, its median over
56 mm (a long edge stays, anything under half the window goes). See docs/arena-reader.md,
"Hundred-and-ninth pass"."""

from __future__ import annotations

import warnings

import cv2
import numpy as np
import pytest

from tests.arena.arena_scenes import spec_scene
from vision.arena import read_arena
from vision.arena.reader import prepare_reference
from vision.arena.registration import register
from vision.arena.topdown import (_SHADE_DEAD_ZONE, _SHADE_LENGTH_CELLS, _SHADE_WINDOW_CELLS, SmoothView,
                                  _in_shade_from_out_of_view, _lighting_field, _long_shade, _median_over_window,
                                  _under_new_light, change_between)
from vision.synth.arena_scene import random_match_scene, render_scene

#: The ninety-ninth pass's ``light`` hunt scenes whose shadow edge was read as figures: two proposed a
#: fighter where none stands (S1, S6), one a second fighter (S7 for S4, and S7 alone with the count).
SHADOW_EDGES = [1000043, 1000050, 1000087]


def _hunt(seed, geometry):
    reference, live, truth = random_match_scene(np.random.default_rng(seed), geometry, hunt="light")
    return render_scene(reference, geometry), render_scene(live, geometry), truth, len(live.miniatures), live


@pytest.mark.parametrize("seed", SHADOW_EDGES)
@pytest.mark.parametrize("counted", [False, True])
def test_a_shadows_edge_from_out_of_view_is_read_right(seed, counted, geometry):
    reference, live, truth, count, scene_ = _hunt(seed, geometry)
    assert scene_.look.shade is not None
    reading = read_arena(live, reference, geometry, annotate=False, fighters=count if counted else None)
    assert reading.ok and reading.occupied == truth, reading.error


def _relit(live_image, reference_image, geometry):
    prepared = prepare_reference(reference_image, geometry)
    registration = register(live_image, geometry, expected=prepared.expected_markers(live_image),
                            still=prepared.still_markers(live_image))
    live = SmoothView.of(prepared.view.warp(live_image, registration.homography))
    coefficients = _lighting_field(live, prepared.smooth, prepared.search)
    return live, prepared, coefficients, _under_new_light(prepared.smooth, coefficients)


@pytest.mark.parametrize("seed", [998800, 998841, 998842, 998847, 998902, 998979])
def test_without_a_shade_the_light_stands_to_the_bit(seed, geometry):
    # The generator's own scenes (its lamp, the figures' own cast shadows): no shade is left over
    # the smooth field, and the relit reference is the very array it was. (An earlier drawing of the
    # rule traced shade in 998841-998979: figures' own shadows, a corner of board round a marker.)
    live_image, reference_image, _, _ = spec_scene(seed, geometry)
    live, prepared, coefficients, predicted = _relit(live_image, reference_image, geometry)
    assert _in_shade_from_out_of_view(live, prepared.smooth, prepared.search, coefficients, predicted) is predicted


def test_a_shade_is_traced_in_a_shadow_scene(geometry):
    reference, live_image, _, _, _ = _hunt(1000043, geometry)
    live, prepared, coefficients, predicted = _relit(live_image, reference, geometry)
    shaded = _in_shade_from_out_of_view(live, prepared.smooth, prepared.search, coefficients, predicted)
    assert shaded is not predicted and float(np.abs(shaded - predicted).max()) > 0.1


def _board(shape=(160, 440), colour=(27, 88, 21), seed=0):
    rng = np.random.default_rng(seed)
    image = np.empty(shape + (3,), np.float32)
    image[:] = colour
    return image + rng.normal(0, 2.0, image.shape).astype(np.float32)


def _change(live, reference):
    usable = np.ones(reference.shape[:2], bool)
    as_view = lambda image: SmoothView.of(np.clip(image, 0, 255).astype(np.uint8))  # noqa: E731
    return change_between(as_view(live), as_view(reference), usable)


def _soft_shadow(shape, edge_u, blur_px, depth):
    """A half-plane's shadow (left of ``edge_u``), its edge blurred: a factor per pixel."""
    inside = np.zeros(shape, np.float32)
    inside[:, :edge_u] = 1.0
    return 1 - depth * cv2.GaussianBlur(inside, (0, 0), blur_px)


@pytest.mark.parametrize("colour", [(27, 88, 21), (134, 72, 23), (150, 150, 150)])
def test_a_soft_shadow_over_a_plain_board_is_no_change(colour):
    # A dark green, a dark brown and a grey board, a shadow over a third of it at half the light,
    # its edge blurred 12 px: nowhere does it reach the change a thing makes.
    reference = _board(colour=colour)
    live = _board(colour=colour, seed=1) * _soft_shadow(reference.shape[:2], 150, 12, 0.5)[..., None]
    assert float(np.percentile(_change(live, reference).score, 99.9)) < 1.0


def test_a_dark_base_in_the_shadow_is_still_change():
    reference = _board()
    live = _board(seed=1)
    cv2.circle(live, (80, 80), 13, (40, 40, 40), -1)  # a 26 mm base, the generator's default colour
    live *= _soft_shadow(reference.shape[:2], 150, 12, 0.5)[..., None]
    score = _change(live, reference).score
    assert float(score[74:87, 74:87].min()) >= 1.0


def test_the_median_keeps_a_long_edge_and_takes_out_a_compact_thing():
    grid = np.zeros((20, 55))
    grid[:, :20] = -0.4  # a shadow's half-plane, 160 mm long
    grid[8:11, 40:43] = -0.4  # a base-sized patch as dark (3 x 3 cells, 24 mm)
    grid[0, :] = np.nan
    shade = _median_over_window(grid, ~np.isnan(grid), _SHADE_WINDOW_CELLS, _SHADE_DEAD_ZONE)
    assert np.all(shade[4:17, :18] == -0.4)  # (at the rim, under half the window is board)
    assert np.all(shade[:, 23:] == 0.0)


def test_a_shade_needs_half_the_board_in_the_window():
    # Two fighters crowd out the board (48 x 64 mm of cells with no number: their colour changed),
    # and their own shadows darken the few cells left between them: that is no shade from out of view.
    grid = np.zeros((20, 55))
    board = np.ones(grid.shape, bool)
    grid[6:12, 21:29] = np.nan
    grid[8:11, 23:26] = -0.3
    assert np.all(_median_over_window(grid, board, _SHADE_WINDOW_CELLS, _SHADE_DEAD_ZONE) == 0.0)
    # The board round them in a shade from out of view: traced beside them.
    grid[:, :40][~np.isnan(grid[:, :40])] = -0.3
    shade = _median_over_window(grid, board, _SHADE_WINDOW_CELLS, _SHADE_DEAD_ZONE)
    assert shade[9, 19] < -0.2 and shade[9, 30] < -0.2


def test_a_shade_is_kept_where_it_runs_across_the_board():
    shade = np.zeros((20, 55))
    shade[2:14, 30:34] = -0.07  # a tall figure's own shadow, 96 x 32 mm
    shade[:, 5:9] = -0.3  # a shade's edge from out of view, down the whole board
    kept = _long_shade(shade)
    assert np.all(kept[:, 5:9] == -0.3) and np.all(kept[:, 30:34] == 0.0)
    shade[2:2 + _SHADE_LENGTH_CELLS, 30:34] = -0.07  # as long as the shortest shade kept
    assert np.all(_long_shade(shade)[2:2 + _SHADE_LENGTH_CELLS, 30:34] == -0.07)


def test_the_median_is_the_median_over_every_window_with_enough_board():
    # Worked out only where it may lie past the dead zone: the same as over every window.
    rng = np.random.default_rng(3)
    grid = rng.normal(0, 0.05, (20, 55))
    grid[:, :25] -= 0.3
    board = rng.random(grid.shape) > 0.1
    grid[~board | (rng.random(grid.shape) < 0.2)] = np.nan
    grid[2:14, 30:42] = np.nan  # things crowding out the board
    half = _SHADE_WINDOW_CELLS // 2
    window = lambda a, fill: np.lib.stride_tricks.sliding_window_view(  # noqa: E731
        np.pad(a, half, constant_values=fill), (_SHADE_WINDOW_CELLS,) * 2).reshape(*grid.shape, -1)
    numbers, seen = window(grid, np.nan), window(board, False).sum(axis=-1)
    enough = (2 * seen >= _SHADE_WINDOW_CELLS ** 2) & (2 * (~np.isnan(numbers)).sum(axis=-1) >= seen)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (a window of NaNs only)
        median = np.nanmedian(numbers, axis=-1)
    expected = np.where(enough & (np.abs(median) > _SHADE_DEAD_ZONE), median, 0.0)
    assert enough.any() and not enough.all() and (expected != 0).any() and (expected == 0).any()
    assert np.array_equal(_median_over_window(grid, board, _SHADE_WINDOW_CELLS, _SHADE_DEAD_ZONE), expected)
