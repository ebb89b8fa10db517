"""Eighty-second pass (a diagnosis and a negative result): a lone fighter's base-sized disc left unsure as
"wider than a base fits" (the seventy-eighth pass's census: 12 lone fighters on used 900000-950299, fitted
30.0-34.0 mm). A rule allowing the slack over the spec's widest base (28 mm + 4) for a crisp solid disc with a
figure that is round every way (``_widened_base``, commit a6fdd54) read two of them and some built scenes right,
but took a hand reaching onto S1 for a fighter (``test_arena_accuracy3``'s seed 50184) and "round" token pairs
with a fighter right behind: what runs on behind the disc hides its narrow direction. It was taken out. These
tests guard the group and the cases the rule met (see docs/arena-reader.md, "Eighty-second pass")."""

from __future__ import annotations

import math

import cv2
import pytest

from arena_scenes import SPACE, line_9, read_both_ways, read_stacked_tokens, render, scene, spec_scene
from vision.synth.arena_scene import CameraPose, Miniature, Token

GEOMETRY = line_9()

#: The census's "wider than a base fits" lone fighters (used; `main` leaves each a doubt, with the count and
#: without): fitted 30.0-34.0 mm round bases of 25.4-27.8 mm, widened by a shadow's halo all round or by the
#: figure over a base close to the board's colour.
GROUP = [950297, 900142, 940027, 940117, 940136, 910168, 910213, 910233, 910280, 920097, 930126, 930272]


@pytest.mark.parametrize("seed", GROUP)
def test_a_lone_fighter_fitted_wider_than_a_base_is_never_read_wrong(seed):
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied, reading.error)


# --- what the rule met: a token pair fitted some 31 mm "round", a fighter right behind it --------------

def test_a_resting_pair_fitted_round_before_a_fighter_is_never_read_a_fighter():
    # resting-behind (55, -20, 11, 180, False): a vivid 22 mm token resting 11 mm off a faint one, across the line
    # to the camera, a fighter's vivid base 0.5 mm behind, off the row. The pair fitted 31.0 mm, 0.54 mm off a
    # circle, standing up, round where measured (its narrow direction runs on into the base behind): the rule
    # took it for a fighter's disc, and only the base behind kept the read a doubt.
    for with_count in (False, True):
        reading, truth = read_stacked_tokens("resting-behind", (55, -20, 11.0, 180, False), with_count=with_count)
        assert not reading.ok or reading.occupied == truth, (with_count, reading.occupied, reading.error)


def _stacked_pair_before_a_fighter(elevation, azimuth, offset, angle, base, resting=True):
    """A 19.2 mm token resting ``offset`` mm off a 21.6 mm one on S6 (at ``angle`` degrees), a fighter (27 mm base
    ``base``, 36 mm figure) 0.5 mm behind the pair on its line away from the camera, off the row. ``resting``
    False: the two tokens overlap on the board instead (the eighty-seventh pass)."""
    pose = CameraPose(distance_mm=480, elevation_deg=elevation, azimuth_deg=azimuth)
    ground = pose.distance_mm * math.cos(math.radians(elevation))
    cx, cy = ground * math.sin(math.radians(azimuth)), -ground * math.cos(math.radians(azimuth))
    x, y = 40.2, 2.0
    dx, dy = offset * math.cos(math.radians(angle)), offset * math.sin(math.radians(angle))
    pair = (Token(x, y, 21.6, 3.1, (85, 170, 126)),
            Token(x + dx, y + dy, 19.2, 2.9, (175, 223, 75), z_mm=3.1 if resting else 0.0))
    away = math.atan2(y - cy, x - cx)
    ux, uy = math.cos(away), math.sin(away)
    reach = max((t.x_mm - x) * ux + (t.y_mm - y) * uy + t.diameter_mm / 2 for t in pair)
    behind = Miniature(x + (reach + 14.0) * ux, y + (reach + 14.0) * uy, base_mm=27.0, base_bgr=base,
                       figure_bgr=(174, 168, 233), figure_height_mm=36.0)
    assert GEOMETRY.space_at(behind.x_mm, behind.y_mm) is None  # off the row
    live = render(scene(pose, minis=(behind,), tokens=pair), GEOMETRY)
    return live, render(scene(pose, seed=99), GEOMETRY), ()


@pytest.mark.parametrize("case", [(56, 0, 8.0, 180, (66, 158, 226)), (64, 15, 8.0, 0, (66, 158, 226))])
def test_a_stacked_pair_fitted_round_before_a_vivid_fighter_is_never_read_a_fighter(case):
    # The pair fitted 30.2-30.6 mm, round where measured: the rule said yes; the base behind kept it a doubt.
    live, reference, truth = _stacked_pair_before_a_fighter(*case)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, 1):
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied, reading.error)


#: Found, not fixed: `main` reads the pair as a fighter on S6 with ok: true, with the count and without, where
#: the fighter behind stands on a base the spaces' colour (numpy 2.4.6 + OpenCV 5.0.0 and numpy 1.24 + OpenCV
#: 4.11 alike). The rule never spoke in these. (The eighty-fifth pass settled the first, the hundred-and-eighth the
#: second -- its far rim seen whole before the figure behind: their marks are gone.)
@pytest.mark.parametrize("case", [
    (48, -15, 8.0, 0, SPACE),
    (48, 0, 8.0, 0, SPACE),
])
def test_a_stacked_pair_before_a_fighter_on_a_base_the_spaces_colour_is_never_read_a_fighter(case):
    live, reference, truth = _stacked_pair_before_a_fighter(*case)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, 1):
        assert not reading.ok or reading.occupied == truth, (cv2.__version__, fighters, reading.occupied)
