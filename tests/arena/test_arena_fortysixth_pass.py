"""Forty-sixth pass: a token-sized disc seen from high above that "stands up" only because a fighter's
base touches it from behind, on its line away from the camera, is judged by size alone, as a disc lying
alone is (fresh 590014, 590050, 590149, 590207, with touching tokens: tokens laid against a fighter's
base on the camera's side, each a doubt "may be a token or a base" without the count on main).
See docs/arena-reader.md, "Forty-sixth pass"."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from arena_scenes import SPACE, away_from_camera, line_9, render, scene, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.synth.arena_scene import CameraPose, Miniature

GEOMETRY = line_9()
SETTINGS = ArenaSettings()

#: In front of the board and high above it (some 70 degrees up at the board's middle): the line away
#: from the camera at (40, 0) is close to +y.
CAMERA = CameraPosition(centre_mm=(0.0, -150.0, 430.0), focal_px=700.0)

#: A fighter's base as the reader fits it: crisp, solid, one step, 27 mm, seen from high above.
BASE = Blob(40.0, 10.0, 13.5, 0.1, 0.0, Evidence.UNKNOWN, (40.0, 10.0), 1, 1.0, stands_up=True)


def token_in_front(base: Blob, diameter: float, gap: float, side: float = 0.0) -> Blob:
    """A crisp solid token-sized disc ``gap`` mm in front of ``base`` (towards the camera), standing up
    (the change runs on into the base), ``side`` mm across the line to the camera."""
    ax, ay = CAMERA.away(base.x_mm, base.y_mm)
    along = base.radius_mm + diameter / 2 + gap
    x, y = base.x_mm - ax * along - ay * side, base.y_mm - ay * along + ax * side
    return Blob(x, y, diameter / 2, 0.15, 0.0, Evidence.UNKNOWN, (x, y), 1, 1.0, stands_up=True,
                short_behind_mm=-8.0, across_mm=diameter)


# --- the rule, on fitted discs -----------------------------------------------------------------------

@pytest.mark.parametrize("diameter", [15.0, 18.0, 21.0])
@pytest.mark.parametrize("gap", [0.0, 1.0])
def test_a_token_standing_up_only_into_a_base_touching_it_is_a_token(diameter, gap):
    disc = token_in_front(BASE, diameter, gap)
    assert bases.classify(disc, SETTINGS) is Kind.UNSURE  # standing up: a figure's foot or top?
    assert bases._stands_up_only_into_a_base(disc, [disc, BASE], CAMERA, SETTINGS)
    assert bases.classify(replace(disc, stands_up=False), SETTINGS) is Kind.TOKEN


def test_a_disc_whose_fighters_base_would_clear_the_base_behind_is_not_explained_by_it():
    # 4 mm in front of it, an 18 mm disc: a 25 mm base centred on it would reach 3.5 mm past its rim, short
    # of the base behind; what stands up there may be a figure rising out of the disc.
    disc = token_in_front(BASE, 18.0, 4.0)
    assert not bases._stands_up_only_into_a_base(disc, [disc, BASE], CAMERA, SETTINGS)


def test_a_base_beside_the_line_away_from_the_camera_carries_nothing_on():
    # Touching it, but off to the side: the line away from the camera through the disc misses it.
    disc = token_in_front(BASE, 18.0, 0.0)
    beside = replace(BASE, x_mm=disc.x_mm + 23.0, y_mm=disc.y_mm)
    assert not bases._stands_up_only_into_a_base(disc, [disc, beside], CAMERA, SETTINGS)


@pytest.mark.parametrize("base", [replace(BASE, tiered=0.8),  # a faint ring round a figure's foot
                                  replace(BASE, coverage=0.8),  # not all changed: two things?
                                  replace(BASE, radius_mm=10.0),  # a token's size, no base
                                  replace(BASE, fit_error_mm=0.9)])  # no crisp rim
def test_only_a_clear_base_carries_the_change_on(base):
    disc = token_in_front(base, 18.0, 0.5)
    assert not bases._stands_up_only_into_a_base(disc, [disc, base], CAMERA, SETTINGS)


@pytest.mark.parametrize("evidence", [Evidence.YES, Evidence.PARTIAL])
def test_seen_from_low_a_figures_evidence_is_not_waived(evidence):
    disc = replace(token_in_front(BASE, 18.0, 0.5), figure=evidence)
    assert not bases._stands_up_only_into_a_base(disc, [disc, BASE], CAMERA, SETTINGS)


def test_the_size_alone_checks_still_apply():
    disc = token_in_front(BASE, 18.0, 0.5)
    for sign in (dict(rim_ahead=True), dict(wide_faint_ring=True), dict(faint_skirt=True), dict(fit_error_mm=0.7),
                 dict(coverage=0.95), dict(tiered=0.5)):
        assert bases.classify(replace(disc, stands_up=False, **sign), SETTINGS) is Kind.UNSURE, sign


# --- the seeds ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [590014, 590050, 590149, 590207])
def test_a_token_laid_against_a_fighters_base_from_high_above_is_read(seed):
    live, reference, truth, _ = spec_scene(seed, GEOMETRY, touching_tokens=True)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth


# --- the guard's danger: a figure on a base the board's colour in front of a fighter's base ----------

def fighter_in_front_of_a_fighter(elevation: float, azimuth: float, height: float, width: float):
    """A fighter on a base the space's colour (25 mm) and, right behind it on its line away from the
    camera (0.5 mm apart), a fighter on a vivid 27 mm base standing off the row: only the front one is on
    a space (S6). Seen from high above, the front one's figure is a token-sized disc touching that base."""
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=azimuth)
    back = Miniature(40.0, 24.0, base_mm=27.0, base_bgr=(40, 40, 160), figure_bgr=(90, 160, 90), figure_height_mm=40.0)
    ax, ay = away_from_camera(pose, back.x_mm, back.y_mm)
    reach = back.base_mm / 2 + 12.5 + 0.5
    front = Miniature(back.x_mm - ax * reach, back.y_mm - ay * reach, base_mm=25.0, base_height_mm=3.0, base_bgr=SPACE,
                      figure_bgr=(60, 60, 200), figure_height_mm=height, figure_width_mm=width)
    assert GEOMETRY.space_at(front.x_mm, front.y_mm) == "S6" and GEOMETRY.space_at(back.x_mm, back.y_mm) is None
    return render(scene(pose, minis=(front, back)), GEOMETRY), render(scene(pose, seed=99), GEOMETRY)


@pytest.mark.parametrize("elevation, azimuth", list(itertools.product([64, 72, 80], [-20, 0, 20])))
@pytest.mark.parametrize("height, width", [(26.0, 8.0), (40.0, 16.0)])
def test_a_fighter_whose_base_is_the_spaces_colour_in_front_of_a_fighters_base_is_never_read_away(
        elevation, azimuth, height, width):
    live, reference = fighter_in_front_of_a_fighter(elevation, azimuth, height, width)
    for count in (None, 2):
        reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
        assert not reading.ok or reading.occupied == ("S6",), (count, reading.occupied, reading.error)

