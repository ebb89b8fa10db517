"""Forty-third pass: told how many fighters are on the arena, the reader never puts the one standing off
the row behind two resting tokens on the tokens' space (see docs/arena-reader.md, "Forty-third pass").

The built set ``resting-behind`` (bench/arena_stacked_tokens.py): a vivid 22 mm token resting 5 or 11 mm
off a faint one on the back of S6, a fighter standing off the row right behind the pair. Read with the
count (one fighter), `main` put that fighter on S6 with ok: true in 56 of the 480 scenes, 41 of them
read a doubt (or right) without the count: the pair stood in for the fighter missing, a token stack
within a resting token's reach was taken by the count, or the pair's disc was taken where a solid base
overlapping it was left. A count says how many fighters there are, not where they stand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena_scenes import read_resting_behind, resting_behind_job
from vision.arena import bases
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings

SETTINGS = ArenaSettings()
#: In front of the board and above it (some 70 degrees up at the pair): away from it is +y.
CAMERA = CameraPosition(centre_mm=(40.0, -150.0, 420.0), focal_px=800.0)

#: (61, -20, 11.0, 180, False) as measured: the upper token alone fitted a crisp solid 24.9 mm disc of
#: neither size on S6, standing up by the fighter's base behind it ...
PAIR = Blob(31.74, 10.12, 12.45, 0.073, 0.10, Evidence.UNKNOWN, (31.74, 10.12), 1, 1.0, stands_up=True)
#: ... a crisp solid 27.3 mm disc off the row, unsure only by the pair's change ahead of it.
BASE_BEHIND = Blob(40.6, 33.3, 13.65, 0.06, 0.0, Evidence.UNKNOWN, (40.6, 33.3), 1, 1.0, ahead=0.79, stands_up=True)

#: (74, -20, 11.0, 90, False) as measured: the pair ringed (``tiered`` 0.81), 22.0 mm, standing up no further
#: than a token resting on it could show; and the fighter behind it off the row, unsure by the pair ahead.
RINGED_PAIR = Blob(41.2, 8.5, 11.0, 0.23, 0.81, Evidence.UNKNOWN, (41.2, 8.5), 1, 0.99, stands_up=True,
                   within_resting_reach=True)
FIGHTER_OFF_THE_ROW = Blob(40.7, 44.2, 13.8, 0.10, 0.0, Evidence.UNKNOWN, (40.7, 44.2), 1, 1.0, ahead=0.5,
                           stands_up=True)


def test_the_measured_discs_are_what_main_read(geometry):
    # The premise: the pair has the solid base behind it where its figure should show; that base is a
    # clear one but for the pair in front of it, off every space; the ringed pair is no token.
    assert bases._base_behind(PAIR, [PAIR, BASE_BEHIND], CAMERA, SETTINGS) is BASE_BEHIND
    assert bases.is_clear_base(replace(BASE_BEHIND, ahead=0.0), SETTINGS)
    assert geometry.space_at(PAIR.x_mm, PAIR.y_mm) == "S6"
    assert geometry.space_at(BASE_BEHIND.x_mm, BASE_BEHIND.y_mm) is None
    assert bases.classify(RINGED_PAIR, SETTINGS) is not Kind.TOKEN
    assert bases.classify(FIGHTER_OFF_THE_ROW, SETTINGS) is not Kind.TOKEN


def test_a_stand_in_with_a_solid_base_behind_it_off_the_row_is_a_guess(geometry):
    assert bases._seen_base_behind_on_another_space(PAIR, [PAIR, BASE_BEHIND], [], geometry, CAMERA, SETTINGS)


def test_a_stand_in_with_nothing_behind_it_is_not_asked(geometry):
    assert not bases._seen_base_behind_on_another_space(PAIR, [PAIR], [], geometry, CAMERA, SETTINGS)


def test_a_stand_in_with_the_base_behind_on_its_own_space_is_no_guess(geometry):
    # The pair at S6's front edge, the base behind it on S6 too: either way the fighter is on S6.
    front = replace(PAIR, y_mm=PAIR.y_mm - 28.0, peak_mm=(PAIR.x_mm, PAIR.y_mm - 28.0))
    behind = replace(BASE_BEHIND, y_mm=BASE_BEHIND.y_mm - 28.0, peak_mm=(BASE_BEHIND.x_mm, BASE_BEHIND.y_mm - 28.0))
    assert bases._base_behind(front, [front, behind], CAMERA, SETTINGS) is behind
    assert geometry.space_at(front.x_mm, front.y_mm) == geometry.space_at(behind.x_mm, behind.y_mm) == "S6"
    assert not bases._seen_base_behind_on_another_space(front, [front, behind], [], geometry, CAMERA, SETTINGS)


def test_a_base_behind_taken_already_is_a_fighter_counted(geometry):
    assert not bases._seen_base_behind_on_another_space(PAIR, [PAIR, BASE_BEHIND], [BASE_BEHIND], geometry, CAMERA,
                                                        SETTINGS)


def test_a_disc_behind_not_standing_up_offers_no_second_place(geometry):
    # Flat: maybe a token lying there fitted base-sized under the figure's top (test_arena_twentyninth_pass).
    flat = replace(BASE_BEHIND, stands_up=False)
    assert not bases._seen_base_behind_on_another_space(PAIR, [PAIR, flat], [], geometry, CAMERA, SETTINGS)


def test_a_stand_in_seen_from_low_is_not_asked(geometry):
    # From lower, a figure leans past its base and may be fitted as a solid disc behind it (spec scene 12393,
    # read right with the count in test_arena_accuracy3): that says nothing of a second fighter.
    low = replace(PAIR, figure=Evidence.YES)
    assert bases._base_behind(low, [low, BASE_BEHIND], CAMERA, SETTINGS) is BASE_BEHIND
    assert not bases._seen_base_behind_on_another_space(low, [low, BASE_BEHIND], [], geometry, CAMERA, SETTINGS)


#: (67, 0, 11.0, 315, False) as measured: the pair fitted a crisp 27.6 mm disc on S6, taken; the fighter's
#: base behind it, off the row, a crisp solid 27.5 mm disc overlapping it by 3.2 mm.
TAKEN_PAIR = Blob(43.6, 9.3, 13.8, 0.55, 0.40, Evidence.UNKNOWN, (43.6, 9.3), 1, 0.96, ahead=0.29, stands_up=True)
OVERLAPPING_BASE = Blob(40.4, 33.4, 13.75, 0.08, 0.0, Evidence.UNKNOWN, (40.4, 33.4), 1, 1.0, ahead=0.38,
                        stands_up=True)


@pytest.mark.parametrize("ahead", [0.38, 0.6], ids=["a fighter but for the overlap", "unsure by the change ahead"])
def test_a_solid_base_left_overlapping_a_taken_one_is_named(ahead):
    other = replace(OVERLAPPING_BASE, ahead=ahead)
    assert bases._solid_bases_overlapping([TAKEN_PAIR], [TAKEN_PAIR, other], SETTINGS) == [(TAKEN_PAIR, other)]


def test_the_same_base_fitted_again_or_no_solid_base_is_not_named():
    again = replace(OVERLAPPING_BASE, x_mm=TAKEN_PAIR.x_mm + 3.0, y_mm=TAKEN_PAIR.y_mm + 3.0)
    patchy = replace(OVERLAPPING_BASE, coverage=0.8)
    assert bases._solid_bases_overlapping([TAKEN_PAIR], [TAKEN_PAIR, again, patchy], SETTINGS) == []


#: (61, 0, 5.0, 0, True) as measured: the pair fitted a 28.7 mm disc on S6, taken as the stand-in; the fighter
#: behind it on a base the spaces' colour seen by its figure only, a crisp 11.2 mm disc standing on its own.
STAND_IN = Blob(43.8, 12.9, 14.35, 0.33, 0.19, Evidence.UNKNOWN, (43.8, 12.9), 1, 0.96)
FIGURE_OFF_THE_ROW = Blob(40.6, 35.5, 5.6, 0.13, 0.0, Evidence.YES, (40.6, 35.5), 1, 1.0, ahead=0.21, stands_up=True)


def test_a_disc_standing_on_its_own_behind_a_stand_in_on_a_space_is_a_second_place(geometry):
    assert bases._on_figure_line(FIGURE_OFF_THE_ROW, [STAND_IN], CAMERA)
    assert bases._standing_on_its_own_behind_one_on_a_space(FIGURE_OFF_THE_ROW, [STAND_IN], geometry, CAMERA)


def test_a_figures_top_or_a_stand_in_off_the_spaces_is_not_asked(geometry):
    top = replace(FIGURE_OFF_THE_ROW, figure=Evidence.UNKNOWN)  # nothing behind it: a top
    assert not bases._standing_on_its_own_behind_one_on_a_space(top, [STAND_IN], geometry, CAMERA)
    # Both behind the row: which of them is the fighter, neither is on a space.
    off = replace(STAND_IN, y_mm=STAND_IN.y_mm + 20.0, peak_mm=(STAND_IN.x_mm, STAND_IN.y_mm + 20.0))
    behind = replace(FIGURE_OFF_THE_ROW, y_mm=FIGURE_OFF_THE_ROW.y_mm + 20.0)
    assert geometry.space_at(off.x_mm, off.y_mm) is None and bases._on_figure_line(behind, [off], CAMERA)
    assert not bases._standing_on_its_own_behind_one_on_a_space(behind, [off], geometry, CAMERA)


def test_something_not_a_token_seen_off_the_row_may_be_the_fighter_counted(geometry):
    assert bases._maybe_a_fighter_off_the_spaces(RINGED_PAIR, [RINGED_PAIR, FIGHTER_OFF_THE_ROW], geometry, SETTINGS)


@pytest.mark.parametrize("where", [(80.0, 0.0), (40.0, 2.0)], ids=["on S7", "overlapping the pair"])
def test_what_stands_on_a_space_or_is_the_disc_itself_is_not_asked(geometry, where):
    other = replace(FIGHTER_OFF_THE_ROW, x_mm=where[0], y_mm=where[1], peak_mm=where)
    assert not bases._maybe_a_fighter_off_the_spaces(RINGED_PAIR, [RINGED_PAIR, other], geometry, SETTINGS)


def test_a_token_off_the_row_is_no_fighter(geometry):
    token = Blob(40.0, 50.0, 10.0, 0.1, 0.0, Evidence.NO, (40.0, 50.0), 2, 1.0)
    assert bases.classify(token, SETTINGS) is Kind.TOKEN
    assert not bases._maybe_a_fighter_off_the_spaces(RINGED_PAIR, [RINGED_PAIR, token], geometry, SETTINGS)


# --- the built set, read with the count ------------------------------------------------------------------

#: (elevation, azimuth, offset mm, direction degrees, fighter on a base the spaces' colour): read on `main`
#: (a5ce165) with the count as a fighter on S6 with ok: true, on numpy 2 + OpenCV 5 and on numpy 1.24 +
#: OpenCV 4.11 alike. The pair stood in for the fighter missing, a solid base behind it (the first two) or the
#: fighter's figure standing on its own off the row behind it (the next two) left; a ringed pair within a
#: resting token's reach was taken by the count (the next three); the pair's disc was taken where the
#: fighter's solid base overlapped it (the last two; (55, 20, 5.0, 180) is a wrong ok without the count too).
RESTING_BEHIND_WITH_THE_COUNT = [
    (61, -20, 11.0, 180, False), (67, 20, 11.0, 90, False), (55, 20, 5.0, 45, True), (61, 0, 5.0, 0, True),
    (55, -20, 11.0, 45, True), (74, -20, 11.0, 90, False), (80, 0, 11.0, 90, True),
    (67, 0, 11.0, 315, False), (55, 20, 5.0, 180, False),
]


@pytest.mark.parametrize("label", RESTING_BEHIND_WITH_THE_COUNT)
def test_with_the_count_the_fighter_behind_resting_tokens_is_never_put_on_their_space(label):
    reading = read_resting_behind(label, with_count=True)
    truth = resting_behind_job(label)[-1]
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)
