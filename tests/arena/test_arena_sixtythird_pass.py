"""Sixty-third pass: a token pair with a fighter a few mm behind it is not read as a base (see
docs/arena-reader.md, "Sixty-third pass").

``_pinched_by`` measures how far inside the fitted rim a disc's outline lies on both sides of each direction
across it: a base is round, two tokens lying one over the other off centre are a base's size along their
offset only. A ray that finds no outline within reach ran on into something else's change (a fighter's base
a few mm behind, its change joined to the disc's far side): that side tells nothing of the disc's width. On
``main`` such a direction was not measured at all, so a pair whose narrow direction ran into the fighter
behind passed as round (``bench/arena_stacked_tokens.py --set gap-behind``: 22 wrong ``ok: true`` without
the count, 24 with it). Now the other ray alone counts there.
"""

from __future__ import annotations

import numpy as np
import pytest

from arena_scenes import bench_module, drawn_discs
from vision.arena import bases, load_geometry, read_arena
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import render_scene

VIEW = BoardView(440, 160, 3.0)
SEARCH = np.ones((480, 1320), bool)
#: 22 and 21 mm tokens 4 mm apart along x (as the twelfth pass's): 25.5 mm along the offset, a token's
#: width across it (along y).
PAIR = [(-2.0, 0.0, 11.0, 100.0), (2.0, 0.0, 10.5, 160.0)]


def _pinched(discs, x, y, r):
    return bases._pinched_by(*drawn_discs(VIEW, discs), VIEW, x, y, r, SEARCH)


@pytest.mark.xfail(strict=True, reason="needs the one-sided pinch, taken out: it cost fresh right readings (docs: sixty-third pass)")
@pytest.mark.parametrize("side", [1.0, -1.0])
def test_a_pair_is_pinched_with_a_base_joined_across_its_offset(side):
    # The fighter's 27 mm base overlapping the pair's edge by 1 mm, across the offset (the pair's
    # narrow direction): the rays that way run on into the base's change, the other side still shows
    # the pair a token's width.
    base = (0.0, side * (10.5 + 13.5 - 1.0), 13.5, 120.0)
    assert _pinched(PAIR + [base], 0.25, 0.0, 12.75) > bases.PINCHED_MM + 0.8


def test_a_round_base_with_another_joined_to_it_is_not_pinched():
    # Two 26-27 mm bases overlapping 1 mm (or a token against one): every direction has an outline on
    # the rim on the side that does not run on.
    for dx, dy in ((0.0, 25.5), (25.5, 0.0), (18.0, 18.0), (0.0, -25.5)):
        assert abs(_pinched([(0.0, 0.0, 13.0, 100.0), (dx, dy, 13.5, 140.0)], 0.0, 0.0, 13.0)) < 0.5, (dx, dy)
    # A token lying against it.
    assert abs(_pinched([(0.0, 0.0, 13.0, 100.0), (0.0, 23.0, 11.0, 140.0)], 0.0, 0.0, 13.0)) < 0.5


def test_alone_a_round_base_and_a_pair_read_as_before():
    assert abs(_pinched([(0.0, 0.0, 13.0, 100.0)], 0.0, 0.0, 13.0)) < 0.5
    assert _pinched(PAIR, 0.25, 0.0, 12.75) > bases.PINCHED_MM + 0.8


# gap-behind scenes read S6 with ok: true on main without the count, the pair not standing up: the
# fighter's change joined to the pair's far side hid its narrow direction. (With the count, 24 gap-behind
# scenes are read wrong on main and on this branch alike, the first of these among them: the count settles
# the pair's doubt, the fighter behind being off every space. Not fixed here; see the doc.)
@pytest.mark.parametrize("key", [
    (61, -20, 5.0, 0, 4.5, False),
    (67, -20, 11.0, 0, 3.0, True),  # (the lower token faint)
])
def test_gap_behind_pairs_are_never_read_as_one(key):
    bench = bench_module("arena_stacked_tokens")
    (job,) = [j for j in bench.jobs("gap-behind") if j[1] == key]
    _, _, pose, minis, tokens, truth = job
    geometry = load_geometry(bench.LAYOUT)
    live = render_scene(bench._scene(pose, minis, tokens), geometry)
    reference = render_scene(bench._scene(pose, seed=99), geometry)
    reading = read_arena(live, reference, geometry, annotate=False)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)
