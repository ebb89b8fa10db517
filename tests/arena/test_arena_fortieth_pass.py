"""Fortieth pass: a token lying just in front of a fighter whose base is the board's colour is never
taken, with the count, as the stand-in for that fighter (see docs/arena-reader.md, "Fortieth pass").

Seen from low, such a token stands up by the figure behind it and measures as a fighter's base fitted
token-sized does (the thirty-seventh pass). Told one fighter is there, the reader took the token as
that fighter's stand-in and read its space occupied: a wrong ``ok: true`` in 7 of the 12 scenes."""

from __future__ import annotations

import math

import pytest

from arena_scenes import BOARD, line_9, token_in_front_of_a_fighter
from vision.arena import read_arena

GEOMETRY = line_9()


@pytest.mark.parametrize("size", [22.0, 18.0])
@pytest.mark.parametrize("azimuth", [-20.0, 0.0, 20.0])
@pytest.mark.parametrize("elevation", [36.0, 44.0])
def test_with_the_count_a_token_in_front_of_a_fighter_is_never_its_stand_in(elevation, azimuth, size):
    live, reference, token, truth = token_in_front_of_a_fighter(GEOMETRY, elevation, azimuth, size, BOARD)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=1)
    at_token = [f.board_mm for f in reading.fighters  # (taken: a guess of a reading in doubt is no reading)
                if not f.guessed and math.hypot(f.board_mm[0] - token.x_mm, f.board_mm[1] - token.y_mm) < token.diameter_mm / 2]
    assert not at_token, at_token
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)
