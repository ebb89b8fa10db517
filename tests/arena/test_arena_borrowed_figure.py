"""A solid disc in front of a fighter is a fighter only if its own figure stands on it: change
that starts again behind it after bare board belongs to the fighter there (seed 180099: two
overlapping tokens on S6 read as a fighter, ok:true, by the base of the fighter behind them)."""

from __future__ import annotations

import numpy as np
import pytest

from arena_scenes import empty, line_9, mini, render, scene
from vision.arena import read_arena
from vision.synth.arena_scene import CameraPose, Token, random_match_scene, render_scene

GEOMETRY = line_9()
# Two tokens lying one over the other on S6 (19 and 21.6 mm, 5 mm apart): together one solid
# disc of a base's size.
OVERLAPPING_TOKENS = (Token(45.0, 3.7, 19.2, 2.9, (175, 223, 75)), Token(40.2, 2.6, 21.6, 3.1, (85, 170, 126)))


def _behind(dx: float, y: float):
    # A fighter standing off the row behind them, a little to one side.
    return mini(40 + dx, y, base=(66, 158, 226), figure=(174, 168, 233), base_mm=27.2, height=33.0)


@pytest.mark.parametrize("elevation, azimuth, dx, y", [(40, 0, 16, 34), (40, -8, 20, 34), (45, -8, 16, 34)])
def test_overlapping_tokens_before_a_fighter_are_not_a_fighter(elevation, azimuth, dx, y):
    pose = CameraPose(distance_mm=520, elevation_deg=elevation, azimuth_deg=azimuth)
    reading = read_arena(render(scene(pose, minis=(_behind(dx, y),), tokens=OVERLAPPING_TOKENS), GEOMETRY),
                         empty(GEOMETRY, pose), GEOMETRY, annotate=False)
    # Bare board lies 5-10 mm deep between the tokens and that fighter's base, and the change
    # along their figure's line is otherwise plain: a doubt, not S6.  (Where that change is only
    # partly there and rises after the gap, it reads like a figure close to the board's colour
    # -- seed 100166 -- and the pair is still taken for a fighter without the count: open.)
    assert not reading.ok, reading.occupied
    assert "may be a token or a base" in reading.error


@pytest.mark.parametrize("elevation", [40, 45])
def test_a_fighter_on_that_space_still_reads(elevation):
    # Its own figure runs on unbroken out of its far rim.
    pose = CameraPose(distance_mm=520, elevation_deg=elevation, azimuth_deg=0)
    fighter = mini(40, 3.0, base=(66, 158, 226), figure=(174, 168, 233), base_mm=27.2, height=33.0)
    reading = read_arena(render(scene(pose, minis=(fighter,)), GEOMETRY), empty(GEOMETRY, pose), GEOMETRY,
                         annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == ("S6",)


def test_seed_180099_is_never_wrong_when_ok():
    reference, live, truth = random_match_scene(np.random.default_rng(180099), GEOMETRY)
    image, empty_image = render_scene(live, GEOMETRY), render_scene(reference, GEOMETRY)
    for count in (None, len(live.miniatures)):
        reading = read_arena(image, empty_image, GEOMETRY, annotate=False, fighters=count)
        assert not reading.ok or reading.occupied == truth, (count, reading.occupied, truth)
