"""Seventy-ninth pass: a base's rim is what most of its rays agree on; one or two rays that ran on past it,
into change touching it, do not pull its fit (see docs/arena-reader.md, "Seventy-ninth pass").

``bench/arena_stacked_tokens.py --set resting-behind``: a vivid 22 mm token resting 5 or 11 mm off a faint one
on S6, a fighter (a vivid 27 mm base) off the row 0.5 mm behind the pair. Seen from 55 and 74 degrees up, the
rays walked out of the fighter's base towards the camera ran on into the pair's change on one or two rays
and the circle fitted to them all was pulled 6-7 mm towards the pair, 2.2-2.6 mm off a circle: ragged, no
disc, so no base stood behind the pair, whose figure evidence was the fighter's. ``main`` read S6 with
``ok: true`` ((55, 0, 11, 90, False) with the count and without, (74, 0, 5, 135, False) with it).
``bases._base_rim_past_a_neighbour`` fits the circle the other rays agree on: the fighter's base, crisp.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from arena_scenes import answers_of, read_stacked_tokens, resting_behind_job
from vision.arena import bases, reader

#: The rim points (board mm) of the ragged fit of (55, 0, 11.0, 90, False)'s fighter, seeded at (41, 46): 15
#: rays; the seventh and eighth ran on into the pair's change, 11.0 and 7.6 mm past the base's rim. Fitted
#: together: (40.2, 36.8), 27.8 mm, 2.58 mm off a circle; the fighter stands at (40.0, 44.0), 27 mm.
MEASURED = np.array([(54.4, 43.7), (53.8, 41.7), (53.2, 39.7), (52.3, 37.8), (51.1, 36.0), (49.7, 34.3), (52.9, 23.3),
                     (28.3, 27.1), (30.6, 34.7), (29.2, 36.6), (28.2, 38.7), (27.2, 40.8), (26.8, 43.0), (26.7, 45.2),
                     (26.7, 47.4)])
FIGHTER = (40.0, 44.0)


def _rim(points=MEASURED):
    """(xs, ys, valid, the circle fitted to them all), as ``_fits_to`` has them."""
    xs, ys, valid = points[:, 0].copy(), points[:, 1].copy(), np.ones(len(points), bool)
    return xs, ys, valid, bases._robust_circles(xs[None], ys[None], valid[None])[0]


def _moved(k: int, by_mm: float, points=MEASURED):
    """The points with ray ``k``'s moved ``by_mm`` out from the fighter's centre (negative: in)."""
    moved = points.copy()
    dx, dy = moved[k] - FIGHTER
    moved[k] += by_mm * np.array([dx, dy]) / math.hypot(dx, dy)
    return moved


def test_a_crisp_base_round_two_rays_that_ran_on_is_fitted_on_the_others():
    xs, ys, valid, pulled = _rim()
    assert pulled[3] > bases.MAX_RIM_ERROR_MM  # as measured: no disc
    cx, cy, r, rms = bases._base_rim_past_a_neighbour(xs, ys, valid, pulled)
    assert math.hypot(cx - FIGHTER[0], cy - FIGHTER[1]) < 1.0 and 26.0 <= 2 * r <= 28.8 and rms <= bases.CRISP_RIM_MM


def test_a_ray_short_of_the_rim_is_no_neighbours():
    assert bases._base_rim_past_a_neighbour(*_rim(_moved(2, -4.0))) is None


def test_three_rays_past_the_rim_are_more_than_a_touching_neighbour_leaves():
    assert bases._base_rim_past_a_neighbour(*_rim(_moved(2, 6.0))) is None


def test_a_token_sized_rim_is_left_as_fitted():
    shrunk = FIGHTER + 0.75 * (MEASURED - FIGHTER)
    assert bases._base_rim_past_a_neighbour(*_rim(shrunk)) is None


def test_a_rim_ragged_all_round_is_left_as_fitted():
    wobbled = MEASURED.copy()
    for k in range(0, len(wobbled), 2):
        wobbled = _moved(k, 1.5 if k % 4 else -1.5, wobbled)
    assert bases._base_rim_past_a_neighbour(*_rim(wobbled)) is None


#: main read S6 with ok: true (the fighter's base a ragged fit): (label, with the count).
SETTLED = [((55, 0, 11.0, 90, False), False), ((55, 0, 11.0, 90, False), True), ((74, 0, 5.0, 135, False), True)]


@pytest.mark.parametrize("label, with_count", SETTLED)
def test_the_pair_in_front_of_a_fighter_is_never_a_wrong_ok(label, with_count):
    reading, truth = read_stacked_tokens("resting-behind", label, with_count=with_count)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


@pytest.mark.parametrize("label", [(55, 0, 11.0, 90, False), (74, 0, 5.0, 135, False)])
def test_the_fighters_base_behind_the_pair_is_fitted_crisp_on_it(label):
    (fighter,) = resting_behind_job(label)[3]
    answers, _ = answers_of(reader, "find_blobs", lambda: read_stacked_tokens("resting-behind", label))
    (blobs,) = answers
    assert any(b.fit_error_mm <= bases.CRISP_RIM_MM and 26.0 <= b.diameter_mm <= 28.8
               and math.hypot(b.x_mm - fighter.x_mm, b.y_mm - fighter.y_mm) < 1.5 for b in blobs), [
        (round(b.x_mm, 1), round(b.y_mm, 1), round(b.diameter_mm, 1), round(b.fit_error_mm, 2)) for b in blobs]


def test_a_base_another_seed_fitted_crisp_stands_as_fitted():
    # On numpy 1.24 + OpenCV 4.11 the fighter's base is fitted crisp from one seed (27.5 mm, 0.38 of the band
    # ahead changed) and ragged from another; fitted past the pair, the ragged one replaced the crisp one
    # (0.42 ahead: unsure) and this right reading became a doubt with the count. On numpy 2.4 + OpenCV 5.0
    # the scene is a doubt (main's too): there it must at least never be read wrong.
    reading, truth = read_stacked_tokens("resting-behind", (74, -20, 5.0, 0, False), with_count=True)
    if int(cv2.__version__.split(".")[0]) >= 5:
        assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)
    else:
        assert reading.ok and reading.occupied == truth, (reading.occupied, reading.error)
