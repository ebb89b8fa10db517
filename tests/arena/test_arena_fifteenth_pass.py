"""Fifteenth accuracy pass: a token-sized disc whose outline runs on past its far rim further than
a flat token's top could show is something standing, not a token (see docs/arena-reader.md,
"Fifteenth pass")."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from arena_scenes import assert_never_wrong_when_ok, drawn_discs, line_9
from vision.arena import bases
from vision.arena.bases import Blob, Evidence
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
#: In front of the board and high above it (some 74 degrees up at the board's middle): away from the
#: camera is +y there, and a 6 mm token's top shows 1.75 mm displaced that way.
HIGH_CAMERA = CameraPosition(centre_mm=(0.0, -150.0, 520.0), focal_px=800.0)


def test_spec_scene_of_a_figure_fitted_by_its_near_rim_is_never_wrong_when_ok():
    # 250268, 69 degrees up: a 35 mm figure over a base the board's colour, its body and shoulders
    # fitted as one 17.1 mm disc, read as a token with S8 left empty (no count).
    assert_never_wrong_when_ok([250268], GEOMETRY)


def _disc_seen_from_above(run_past_rim_mm: float, *, figure=Evidence.UNKNOWN) -> Blob:
    return Blob(0.0, 0.0, 8.5, 0.3, 0.1, figure, (0.0, 0.0), 1, 1.0, short_behind_mm=-run_past_rim_mm)


def test_a_token_seen_from_above_ends_where_its_top_shows():
    flat_top = math.hypot(*HIGH_CAMERA.lean(0.0, 0.0, bases.MAX_TOKEN_THICKNESS_MM))
    # The thickest token's top, and its blur: a token.
    token = _disc_seen_from_above(flat_top + 0.5)
    assert not bases._more_of_it_behind(token, [token], HIGH_CAMERA)
    # Running on well past that (250268: 4.5 mm where a 6 mm top reaches 2.4): something standing.
    standing = _disc_seen_from_above(flat_top + 2.0)
    assert bases._more_of_it_behind(standing, [standing], HIGH_CAMERA)
    # ... unless another disc fitted just behind it accounts for the change (a token lying against it).
    behind = Blob(0.0, 8.5 + 9.5, 9.5, 0.2, 0.0, Evidence.UNKNOWN, (0.0, 18.0), 1, 1.0)
    assert not bases._more_of_it_behind(standing, [standing, behind], HIGH_CAMERA)
    # A disc beside it, not behind, explains nothing there.
    beside = replace(behind, x_mm=-30.0, y_mm=0.0, peak_mm=(-30.0, 0.0))
    assert bases._more_of_it_behind(standing, [standing, beside], HIGH_CAMERA)
    # From lower down, the figure evidence decides, not this.
    lower = _disc_seen_from_above(flat_top + 2.0, figure=Evidence.NO)
    assert not bases._more_of_it_behind(lower, [lower], HIGH_CAMERA)


def test_the_far_outline_of_a_disc_with_something_standing_runs_on_past_its_rim():
    view = BoardView(440, 160, 3.0)
    search = np.ones((480, 1320), bool)
    token = drawn_discs(view, [(0, 0, 8.5, 100.0)])
    assert abs(bases._short_behind(*token, view, HIGH_CAMERA, 0, 0, 8.5, search)) < 0.5
    # A narrower upper part shown 5 mm further away from the camera (+y): its outline ends 5 mm past the rim.
    figure = drawn_discs(view, [(0, 0, 8.5, 100.0), (0, 5.0, 7.0, 120.0), (0, 6.5, 7.0, 120.0)])
    run = -bases._short_behind(*figure, view, HIGH_CAMERA, 0, 0, 8.5, search)
    assert 4.0 < run < 6.0
