"""Thirty-fifth pass: a disc that "stands up" (seen from so high that a figure stays over its base)
only as far as a token resting on it and a solid base right behind it carry the change on has no
figure of its own: it is unsure, not a fighter. A base behind whose rim steps down to a fainter ring
round a stronger middle carries nothing on (see docs/arena-reader.md, "Thirty-fifth pass").

A vivid token resting off a faint one, a fighter's base 0.5 mm behind the pair
(bench/arena_stacked_tokens.py ``--set resting-behind``), was read on `main` as a fighter on S6. The
thirty-third pass's rule (reverted) also took spec scene 70034's faint-ringed foot behind a real
fighter for such a base on numpy 1.24 + OpenCV 4.11, where it measured 24.6 mm (24.0 on OpenCV 5):
its right reading with the count became a doubt there."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.arena import bases
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings

from tests.arena.arena_scenes import assert_read_right_with_the_count, read_resting_behind

SETTINGS = ArenaSettings()
#: In front of the board and above it (some 70 degrees up at the pair): away from it is +y.
CAMERA = CameraPosition(centre_mm=(40.0, -150.0, 420.0), focal_px=800.0)

#: The pair as measured on the built set's (67, 20, 11.0, 90, False): a vivid token resting 11 mm off a
#: faint one, fitted 25.2 mm, ringed, "standing up" by the fighter's base behind; taken as a fighter.
PAIR = Blob(39.92, 11.19, 12.58, 0.38, 0.52, Evidence.UNKNOWN, (39.92, 11.19), 1, 0.675, stands_up=True)
#: The real fighter behind it, a crisp solid 27.5 mm disc, one step (``tiered`` 0.07), unsure only by
#: the pair's change ahead of it.
FIGHTER_BEHIND = Blob(40.33, 44.36, 13.76, 0.066, 0.07, Evidence.UNKNOWN, (40.33, 44.36), 1, 1.0, ahead=0.88,
                      stands_up=True)
#: The same pair's neighbour from 61 degrees, (61, -20, 11.0, 180, False): the upper token alone fitted
#: a crisp solid 24.9 mm disc of neither size, standing up by the base behind (fitted 27.35 mm).
SOLID_PAIR = Blob(31.74, 10.12, 12.45, 0.073, 0.10, Evidence.UNKNOWN, (31.74, 10.12), 1, 1.0, stands_up=True)


def test_the_measured_discs_are_what_main_read():
    # (The premise: the pair alone is a fighter by its standing up; the fighter behind is a clear base
    # but for the change in front of it.)
    assert bases.classify(PAIR, SETTINGS) is Kind.FIGHTER
    assert bases.classify(SOLID_PAIR, SETTINGS) is Kind.FIGHTER
    assert bases.classify(FIGHTER_BEHIND, SETTINGS) is Kind.UNSURE
    assert bases.is_clear_base(replace(FIGHTER_BEHIND, ahead=0.0), SETTINGS)


@pytest.mark.parametrize("front", [PAIR, SOLID_PAIR], ids=["ringed", "solid"])
def test_standing_up_carried_on_by_a_solid_base_right_behind_is_no_figure(front):
    assert bases._figure_is_a_base_behind(front, [front, FIGHTER_BEHIND], CAMERA, SETTINGS)


def test_with_nothing_behind_its_standing_up_is_its_own():
    assert not bases._figure_is_a_base_behind(PAIR, [PAIR], CAMERA, SETTINGS)


def test_a_disc_not_standing_up_seen_from_high_above_is_not_asked():
    # Its size alone decides (with its own checks); nothing behind it was taken as its figure.
    flat = replace(PAIR, stands_up=False)
    assert not bases._figure_is_a_base_behind(flat, [flat, FIGHTER_BEHIND], CAMERA, SETTINGS)


def test_a_base_beyond_a_resting_tokens_reach_does_not_explain_it():
    # Change past the reach of a token resting on it, before the base's rim, stands up of its own.
    reach = bases._resting_token_reach(CAMERA, PAIR.x_mm, PAIR.y_mm)
    gap = PAIR.radius_mm + FIGHTER_BEHIND.radius_mm + reach
    near = replace(FIGHTER_BEHIND, x_mm=PAIR.x_mm, y_mm=PAIR.y_mm + gap - 1.0)
    far = replace(FIGHTER_BEHIND, x_mm=PAIR.x_mm, y_mm=PAIR.y_mm + gap + 1.0)
    assert bases._figure_is_a_base_behind(PAIR, [PAIR, near], CAMERA, SETTINGS)
    assert not bases._figure_is_a_base_behind(PAIR, [PAIR, far], CAMERA, SETTINGS)


def test_a_base_beside_it_does_not_explain_it():
    aside = replace(FIGHTER_BEHIND, x_mm=PAIR.x_mm + PAIR.radius_mm + FIGHTER_BEHIND.radius_mm + 4.0, y_mm=PAIR.y_mm + 5.0)
    assert not bases._figure_is_a_base_behind(PAIR, [PAIR, aside], CAMERA, SETTINGS)


def test_a_fighter_seen_by_its_base_ring_behind_explains_it_at_its_ring():
    # The fighter behind on a base the spaces' colour, seen by its figure's disc (fitted 15.7 mm, well
    # behind its base's centre) and its base's faint ring: its base stands at the ring.
    figure = Blob(40.2, 54.0, 7.85, 1.12, 0.0, Evidence.UNKNOWN, (40.2, 54.0), 2, 1.0, stands_up=True,
                  base_ring=(40.3, 44.6, 13.96))
    assert bases.classify(figure, SETTINGS) is Kind.FIGHTER
    assert bases._figure_is_a_base_behind(PAIR, [PAIR, figure], CAMERA, SETTINGS)
    assert not bases._figure_is_a_base_behind(PAIR, [PAIR, replace(figure, base_ring=None)], CAMERA, SETTINGS)


# --- spec scene 70034: a real fighter whose figure leans on to a faint-ringed foot behind it ------------

#: Its camera as seen from the fighter on S5: 53 degrees up (a 12 mm height leans 8.95 mm away).
CAMERA_70034 = CameraPosition(centre_mm=(-28.66, -220.26, 300.0), focal_px=800.0)
#: The fighter on S5 as measured (both stacks alike): crisp, solid, 26.7 mm, standing up by its figure.
FIGHTER_70034 = Blob(-3.57, -6.94, 13.33, 0.24, 0.14, Evidence.UNKNOWN, (-3.57, -6.94), 1, 1.0, stands_up=True)
#: The fighter behind it, off the row: its figure's foot in its base's faint ring (``tiered`` 0.88), seen
#: 24.0 mm across on OpenCV 5 and 24.6 mm on numpy 1.24 + OpenCV 4.11 (the clear base's size cut, its
#: figure seen, is 24.5 mm).
FOOT_70034 = {"opencv5": Blob(-8.52, 37.64, 11.99, 0.216, 0.88, Evidence.YES, (-8.52, 37.64), 1, 1.0, ahead=0.46,
                              stands_up=True),
              "opencv4.11": Blob(-8.50, 38.12, 12.305, 0.288, 0.88, Evidence.YES, (-8.50, 38.12), 1, 1.0, ahead=0.42,
                                 stands_up=True)}


def test_the_70034_camera_is_the_scenes():
    lean = CAMERA_70034.lean(FIGHTER_70034.x_mm, FIGHTER_70034.y_mm, 12.0)
    assert lean[0] == pytest.approx(1.05, abs=0.1) and lean[1] == pytest.approx(8.89, abs=0.1)


@pytest.mark.parametrize("stack", sorted(FOOT_70034))
def test_a_faint_ringed_foot_behind_carries_nothing_on(stack):
    foot = FOOT_70034[stack]
    # On 4.11 it is a clear base by its size, by 0.1 mm; on OpenCV 5 not, by 0.5 mm: not what decides.
    assert bases.is_clear_base(replace(foot, ahead=0.0), SETTINGS) is (stack == "opencv4.11")
    assert not bases._figure_is_a_base_behind(FIGHTER_70034, [FIGHTER_70034, foot], CAMERA_70034, SETTINGS)
    # Its ring is what decides: the same disc one step from the board, where it stands, would carry the
    # fighter's standing up on (its near rim 17 mm past the fighter's far rim, a resting token's reach 23 mm).
    solid = replace(foot, tiered=0.0, radius_mm=13.5)
    assert bases._figure_is_a_base_behind(FIGHTER_70034, [FIGHTER_70034, solid], CAMERA_70034, SETTINGS)


def test_spec_scene_70034_is_still_read_right_with_the_count(geometry):
    assert_read_right_with_the_count(70034, geometry)


# --- scenes from the built set -------------------------------------------------------------------

#: (elevation, azimuth, offset mm, direction degrees, fighter on a base the spaces' colour): read on
#: `main` (fe1d522) as a fighter on S6 with ok: true, on numpy 2 + OpenCV 5 and on numpy 1.24 + OpenCV 4.11
#: alike, 61-80 degrees up (the pair fitted ringed, solid base-sized, or of neither size; the fighter
#: behind on a vivid base, or on one the spaces' colour seen by its faint ring).
RESTING_BEHIND = [(61, -20, 11.0, 180, False), (67, 20, 11.0, 90, False), (67, 0, 11.0, 225, False),
                  (74, 0, 5.0, 315, False), (74, 20, 11.0, 90, True), (80, -20, 5.0, 135, False),
                  (80, 0, 11.0, 180, False)]


@pytest.mark.parametrize("label", RESTING_BEHIND)
def test_a_token_resting_on_a_faint_one_before_a_fighter_is_never_read_a_fighter(label):
    # Without the count, as the bench reads (the fighter stands off the row: S6 is empty). With it, the
    # pair still stands in for the fighter missing, as on `main` (left open: see the docs).
    reading = read_resting_behind(label)
    assert not reading.ok or reading.occupied == (), (reading.occupied, reading.error)
