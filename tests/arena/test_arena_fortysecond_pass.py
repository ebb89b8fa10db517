"""Forty-second pass: a token pair lying flat right in front of a fighter is no fighter, read without
the count (see docs/arena-reader.md, "Forty-second pass").

``bench/arena_stacked_tokens.py --set resting-behind``: a vivid 22 mm token resting 5 or 11 mm off a
faint 22 mm one on the back of S6, a fighter off the row 0.5 mm behind the pair, 55-80 degrees up. On
`main` (a5ce165) 15 scenes read S6 with ok: true on numpy 2 + OpenCV 5 and 17 on numpy 1.24 + OpenCV
4.11. Three rules of this pass, each an instance of "what makes the pair a fighter is the fighter
behind it":
- two solid bases cannot overlap: a disc taken as a fighter whose fit reaches into a clear, solid base
  behind it leaves both unsure (``_overlapping_base_behind``);
- a fighter seen by its figure's foot alone (its base close to the board's colour) right behind a disc
  taken by its figure or its standing up is a base behind it, as a clear base is
  (``_foot_standing_on_the_board`` in ``_figure_is_a_base_behind``);
- a ringed disc taken from high above by its far outline running on (``runs_on_behind``) is asked, as
  one standing up is, whether a base right behind carries that on (``_figure_is_a_base_behind``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.arena import bases
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.settings import ArenaSettings

from tests.arena.arena_scenes import read_resting_behind
# The thirty-fifth pass's camera (some 70 degrees up at the pair, away from it about +y) and its ringed
# pair, (67, 20, 11.0, 90): the same disc whichever base the fighter behind stands on.
from tests.arena.test_arena_thirtyfifth_pass import CAMERA, PAIR

SETTINGS = ArenaSettings()

# --- two solid bases cannot overlap ----------------------------------------------------------------

#: (61, -20, 11.0, 0, False) as measured on OpenCV 5: the pair (11 mm off across the line to the
#: camera) fitted a crisp 25.9 mm ringed disc standing up; the fighter behind, a crisp solid 28.2 mm
#: disc, one step, its fit reaching 4.6 mm into the pair's.
PAIR_ACROSS = Blob(42.77, 11.19, 12.95, 0.45, 0.41, Evidence.UNKNOWN, (42.77, 11.19), 1, 1.0, stands_up=True)
BASE_BEHIND = Blob(40.89, 33.64, 14.12, 0.20, 0.0, Evidence.UNKNOWN, (40.89, 33.64), 1, 1.0, ahead=0.33,
                   stands_up=True)
#: (55, -20, 5.0, 0, False): the pair (5 mm off) fitted 28.8 mm, its figure plainly behind it.
PAIR_WIDE = Blob(44.59, 12.90, 14.40, 0.30, 0.29, Evidence.YES, (44.59, 12.90), 1, 0.99, stands_up=True)
BASE_BEHIND_LOW = Blob(40.86, 33.57, 13.85, 0.10, 0.0, Evidence.YES, (40.86, 33.57), 1, 1.0, ahead=0.42,
                       stands_up=True)


def test_the_overlapping_discs_are_what_main_read():
    # (The premise: each pair is a fighter; the base behind overlaps it by more than fitting error, so
    # `main` left it as the pair's figure, never asking whether the pair's figure is that base.)
    for pair, behind in ((PAIR_ACROSS, BASE_BEHIND), (PAIR_WIDE, BASE_BEHIND_LOW)):
        assert bases.classify(pair, SETTINGS) is Kind.FIGHTER
        assert bases._overlapping(pair, behind)
        assert bases.is_clear_base(replace(behind, ahead=0.0), SETTINGS)
        assert not bases._figure_is_a_base_behind(pair, [pair, behind], CAMERA, SETTINGS)


@pytest.mark.parametrize("pair, behind", [(PAIR_ACROSS, BASE_BEHIND), (PAIR_WIDE, BASE_BEHIND_LOW)],
                         ids=["standing-up", "figure"])
def test_a_clear_base_overlapping_a_fighter_from_behind_is_found(pair, behind):
    assert bases._overlapping_base_behind(pair, [pair, behind], CAMERA, SETTINGS) is behind


def test_nothing_overlapping_behind_finds_nothing():
    assert bases._overlapping_base_behind(PAIR_ACROSS, [PAIR_ACROSS], CAMERA, SETTINGS) is None
    # Touching, not overlapping (the thirty-fifth pass's case: `_figure_is_a_base_behind`).
    apart = replace(BASE_BEHIND, y_mm=PAIR_ACROSS.y_mm + PAIR_ACROSS.radius_mm + BASE_BEHIND.radius_mm)
    assert bases._overlapping_base_behind(PAIR_ACROSS, [PAIR_ACROSS, apart], CAMERA, SETTINGS) is None


def test_a_base_overlapping_from_the_camera_side_is_not_behind():
    # Its centre nearer the camera than the disc's: no figure of the disc's could show there.
    ahead = replace(BASE_BEHIND, y_mm=PAIR_ACROSS.y_mm - (BASE_BEHIND.y_mm - PAIR_ACROSS.y_mm))
    assert bases._overlapping(PAIR_ACROSS, ahead)
    assert bases._overlapping_base_behind(PAIR_ACROSS, [PAIR_ACROSS, ahead], CAMERA, SETTINGS) is None


def test_only_a_clear_solid_one_step_base_counts():
    # A ringed foot (a figure on a base close to the board's colour), a disc not all changed, or one not
    # crisp behind the disc is what a fighter's own figure fitted as a disc looks like: left as before.
    for other in (replace(BASE_BEHIND, tiered=0.5), replace(BASE_BEHIND, coverage=0.8),
                  replace(BASE_BEHIND, fit_error_mm=0.9)):
        assert bases._overlapping_base_behind(PAIR_ACROSS, [PAIR_ACROSS, other], CAMERA, SETTINGS) is None


# --- a ringed disc taken from high above by its outline running on ----------------------------------

#: (80, -20, 11.0, 0, False) as measured on numpy 1.24 + OpenCV 4.11: the pair fitted a crisp 25.0 mm
#: disc, ``tiered`` 0.62, not standing up, its far outline running on (into the base behind): a
#: fighter by ``_ringed_base_from_above``; the fighter behind 0.2 mm short of overlapping it.
RINGED_FROM_ABOVE = Blob(42.43, 9.13, 12.5, 0.27, 0.62, Evidence.UNKNOWN, (42.43, 9.13), 1, 1.0,
                         runs_on_behind=True)
BASE_BEHIND_HIGH = Blob(41.02, 33.01, 14.21, 0.07, 0.0, Evidence.UNKNOWN, (41.02, 33.01), 1, 1.0, ahead=0.17,
                        short_behind_mm=-3.05, runs_on_behind=True)


def test_an_outline_running_on_into_a_clear_base_behind_is_no_figure():
    assert bases.classify(RINGED_FROM_ABOVE, SETTINGS) is Kind.FIGHTER
    assert not bases._overlapping(RINGED_FROM_ABOVE, BASE_BEHIND_HIGH)
    assert bases._figure_is_a_base_behind(RINGED_FROM_ABOVE, [RINGED_FROM_ABOVE, BASE_BEHIND_HIGH], CAMERA, SETTINGS)
    # Its run-on not measured (a disc taken by its size alone): not asked, as before.
    plain = replace(RINGED_FROM_ABOVE, runs_on_behind=False)
    assert not bases._figure_is_a_base_behind(plain, [plain, BASE_BEHIND_HIGH], CAMERA, SETTINGS)
    # With nothing behind it, its run-on is its own.
    assert not bases._figure_is_a_base_behind(RINGED_FROM_ABOVE, [RINGED_FROM_ABOVE], CAMERA, SETTINGS)


# --- a fighter seen by its figure's foot alone, right behind -------------------------------------------

#: (55, -20, 5.0, 45, True) as measured on OpenCV 5: the pair fitted a ringed 24.9 mm disc, its "figure"
#: plainly behind it; the fighter behind (a base the spaces' colour, no ring found) seen as a crisp
#: 10.4 mm foot standing up, little change in front of it.
RINGED_PAIR = Blob(42.91, 11.63, 12.46, 0.56, 0.52, Evidence.YES, (42.91, 11.63), 1, 0.84)
FOOT_BEHIND = Blob(41.58, 38.82, 5.19, 0.10, 0.0, Evidence.YES, (41.58, 38.82), 1, 1.0, ahead=0.12, stands_up=True,
                   across_mm=10.45)
#: (67, 20, 11.0, 90, True): the pair from higher up, "standing up", and the fighter's foot 34.7 mm behind it.
STANDING_PAIR = PAIR
FOOT_BEHIND_HIGH = Blob(40.05, 45.84, 5.46, 0.10, 0.0, Evidence.YES, (40.05, 45.84), 1, 1.0, ahead=0.21,
                        stands_up=True, across_mm=10.91)


def test_the_pairs_and_feet_are_what_main_read():
    for pair, foot in ((RINGED_PAIR, FOOT_BEHIND), (STANDING_PAIR, FOOT_BEHIND_HIGH)):
        assert bases.classify(pair, SETTINGS) is Kind.FIGHTER
        assert bases.classify(foot, SETTINGS) is Kind.UNSURE  # a figure on a base the board's colour, or a token
        assert not bases.is_clear_base(foot, SETTINGS)


@pytest.mark.parametrize("pair, foot", [(RINGED_PAIR, FOOT_BEHIND), (STANDING_PAIR, FOOT_BEHIND_HIGH)],
                         ids=["figure", "standing-up"])
def test_a_foot_standing_right_behind_is_a_base_behind(pair, foot):
    assert bases._figure_is_a_base_behind(pair, [pair, foot], CAMERA, SETTINGS)


def test_the_foots_base_is_the_smallest_spec_base_at_the_foot():
    base = bases._foot_standing_on_the_board(FOOT_BEHIND, SETTINGS)
    assert (base.x_mm, base.y_mm) == (FOOT_BEHIND.x_mm, FOOT_BEHIND.y_mm)
    assert base.diameter_mm == pytest.approx(25.0)


@pytest.mark.parametrize("change", [
    {"ahead": 0.6},  # more of it nearer the camera: a figure's part over its own base, not a foot
    {"stands_up": False},  # nothing stands on it
    {"apart_behind": True},  # what stands behind it is apart from it
    {"fit_error_mm": 1.0},  # no crisp rim: no foot on the board
], ids=["change-ahead", "not-standing", "apart", "ragged"])
def test_only_a_crisp_foot_with_a_figure_on_it_and_nothing_ahead_counts(change):
    foot = replace(FOOT_BEHIND, **change)
    assert bases._foot_standing_on_the_board(foot, SETTINGS) is None
    assert not bases._figure_is_a_base_behind(RINGED_PAIR, [RINGED_PAIR, foot], CAMERA, SETTINGS)


def test_a_foot_further_behind_than_the_figures_reach_is_not_its_figure():
    # Its base (12.5 mm) starting past where the pair's own flat top could show: the pair's figure is its own.
    reach = bases._flat_top_reach(CAMERA, RINGED_PAIR.x_mm, RINGED_PAIR.y_mm)
    far = replace(FOOT_BEHIND, x_mm=RINGED_PAIR.x_mm,
                  y_mm=RINGED_PAIR.y_mm + RINGED_PAIR.radius_mm + 12.5 + reach + 1.0)
    assert not bases._figure_is_a_base_behind(RINGED_PAIR, [RINGED_PAIR, far], CAMERA, SETTINGS)
    near = replace(far, y_mm=far.y_mm - 2.0)
    assert bases._figure_is_a_base_behind(RINGED_PAIR, [RINGED_PAIR, near], CAMERA, SETTINGS)


# --- scenes from the built set -------------------------------------------------------------------

#: (elevation, azimuth, offset mm, direction degrees, fighter on a base the spaces' colour): read on
#: `main` (a5ce165) as a fighter on S6 with ok: true without the count. The first six on both stacks
#: (numpy 2 + OpenCV 5, numpy 1.24 + OpenCV 4.11) but where said. The pair's fit overlaps the fighter's
#: base behind it, or (80 degrees, on 4.11) a ringed pair's outline runs on into it, or the fighter
#: behind is seen by its figure's foot alone. Four scenes read wrong here too are left out (see the
#: docs' "Left open").
RESTING_BEHIND = [
    (55, -20, 5.0, 0, False), (55, 20, 5.0, 180, False), (61, -20, 5.0, 0, False), (61, 0, 5.0, 0, False),
    (61, -20, 11.0, 0, False), (67, -20, 11.0, 0, False),
    # on 4.11 only
    (67, -20, 5.0, 0, False), (74, -20, 11.0, 0, False), (80, -20, 11.0, 0, False),
    # the fighter behind on a base the spaces' colour, seen by its figure's foot alone
    (55, -20, 5.0, 45, True), (61, -20, 11.0, 180, True), (67, 0, 11.0, 90, True), (67, 20, 11.0, 90, True),
    (55, 0, 5.0, 90, True),  # (OpenCV 5 only)
]


@pytest.mark.parametrize("label", RESTING_BEHIND)
def test_a_token_pair_right_in_front_of_a_fighter_is_never_read_a_fighter(label):
    # Without the count, as the bench reads (the fighter stands off the row: S6 is empty).
    reading = read_resting_behind(label)
    assert not reading.ok or reading.occupied == (), (reading.occupied, reading.error)
