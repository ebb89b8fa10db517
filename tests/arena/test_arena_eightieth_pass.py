"""Eightieth pass: a 20 mm token touching a fighter's base, a second fighter just behind the token (the
seventy-eighth pass's built case (55, -20, BOARD, 4.0)), read S6 and S7 with ok: true on OpenCV 5. The seed
on the token fitted a 41 mm circle, 0.63 mm off, through the token's front arc and what lies past it; beside
the crisp base on S6, ``_split_touching_pairs`` forced a base's radius on that arc: a crisp 25 mm "base" with
the figure behind standing up out of it. A 10 mm radius fits the same arc 0.12 mm off, on the token's true
centre: the arc tells a token's rim, so no base is taken from it (``_base_on_short_arc``). OpenCV 4.11's
render of it fits that seed 36 mm, 2.2 mm off (no disc), and never got there. See docs/arena-reader.md,
"Eightieth pass"."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena_scenes import BOARD, line_9, read_both_ways, spec_scene
from test_arena_seventyeighth_pass import _token_beside_a_fighter_and_one_behind
from vision.arena import bases, read_arena, reader
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
CASE = (55, -20, BOARD, 4.0)
TOKEN_CENTRE = (63.75, 4.0)  # 40 + 13.25 + 0.5 + 10: 0.5 mm from the 26.5 mm base at x 40
VIEW = BoardView(440, 160, 3.0)
CENTRE = (10.0, 5.0)


def _arc(radius: float, half_arc_deg: float, noise: float, seed: int):
    """Rim points (view mm) of a circle round CENTRE over an arc facing the camera (as the twenty-first pass's)."""
    rng = np.random.default_rng(seed)
    u, v = VIEW.to_px(*CENTRE)
    cu, cv = u / VIEW.px_per_mm, v / VIEW.px_per_mm
    angles = np.radians(90.0 + np.linspace(-half_arc_deg, half_arc_deg, 21))
    r = radius + rng.normal(0.0, noise, 21)
    return cu + r * np.cos(angles), cv + r * np.sin(angles), np.ones(21, bool)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("radius", [7.5, 10.0, 11.0])
def test_a_tokens_arc_is_never_taken_for_a_base(radius, seed):
    xs, ys, valid = _arc(radius, 60.0, 0.1, seed)
    wide = (CENTRE[0], CENTRE[1] + 6.0, radius + 6.0, 0.6, 0.0)  # a wide fit through it and what lies past it
    assert bases._base_on_short_arc(wide, xs, ys, valid, VIEW) is None


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("radius", [12.5, 13.25, 14.0])
def test_a_bases_short_arc_is_still_a_base(radius, seed):
    xs, ys, valid = _arc(radius, 40.0, 0.1, seed)
    based = bases._base_on_short_arc((CENTRE[0], CENTRE[1] + 4.0, 17.0, 0.2, 0.0), xs, ys, valid, VIEW)
    assert based is not None and math.hypot(based[0] - CENTRE[0], based[1] - CENTRE[1]) < 1.0


def _read_spying(case, monkeypatch, fighters):
    """The reading, and the discs ``find_blobs`` returned."""
    live, reference, truth = _token_beside_a_fighter_and_one_behind(*case)
    found, rule = [], reader.find_blobs

    def spying(*args, **kwargs):
        blobs = rule(*args, **kwargs)
        found.extend(blobs)
        return blobs

    monkeypatch.setattr(reader, "find_blobs", spying)
    return read_arena(live, reference, GEOMETRY, annotate=False, fighters=fighters), truth, found


@pytest.mark.parametrize("fighters", [None, 2])
def test_the_token_is_no_base_and_the_read_a_doubt(fighters, monkeypatch):
    reading, truth, found = _read_spying(CASE, monkeypatch, fighters)
    assert not reading.ok, reading.occupied
    near = [b for b in found if math.hypot(b.x_mm - TOKEN_CENTRE[0], b.y_mm - TOKEN_CENTRE[1]) < 5.0]
    assert not any(bases.is_disc(b, ArenaSettings()) and b.diameter_mm > bases.TOKEN_MAX_MM + 1.0
                   and b.fit_error_mm <= bases.CRISP_RIM_MM for b in near), near


@pytest.mark.parametrize("seed", [300279, 300257, 300367, 300525])
def test_touching_bases_split_by_the_rule_still_read(seed):
    # 300279's short arc fits a token's radius nearly as well as a base's (0.43 mm against 0.50): the
    # margin keeps its split (a right reading without the count, a doubt with a plain comparison).
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied)
    if seed == 300279:
        assert reading.ok and read_arena(live, reference, GEOMETRY, annotate=False).ok
