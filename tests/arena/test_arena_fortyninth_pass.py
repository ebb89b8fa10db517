"""Forty-ninth pass: told how many fighters are on the arena, the reader does not take two resting tokens
as the fighter missing where the fighter's solid base overlaps them from behind, or where that base, seen
from high above, shows its figure by its outline running on (see docs/arena-reader.md, "Forty-ninth pass").

The built set ``resting-behind`` (bench/arena_stacked_tokens.py): a vivid 22 mm token resting 5 or 11 mm
off a faint one on the back of S6, a fighter standing off the row right behind the pair. Read with the
count (one fighter), `main` (b80dbc8) put that fighter on S6 with ok: true in 22 of the 480 scenes; in 10
of them the pair stood in for the fighter missing though the fighter's crisp solid base stood right behind
it: overlapping it (7), or, from 74-80 degrees, not standing up but with its far outline running on (3).
A count says how many fighters there are, not where they stand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena_scenes import read_resting_behind, resting_behind_job
from vision.arena import bases
from vision.arena.bases import Blob, Evidence
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings

SETTINGS = ArenaSettings()
#: In front of the board and above it (some 70 degrees up at the pair): away from it is +y.
CAMERA = CameraPosition(centre_mm=(40.0, -150.0, 420.0), focal_px=800.0)

#: (61, -20, 5.0, 135, False) as measured: the pair fitted a crisp 28.6 mm disc on S6, left unsure (of
#: neither size), taken as the stand-in on `main`; the fighter's base behind it off the row, a crisp solid
#: 27.5 mm disc unsure only by the pair's change ahead of it, overlapping the pair by 5.4 mm.
PAIR = Blob(41.1, 14.6, 14.3, 0.44, 0.19, Evidence.UNKNOWN, (41.1, 14.6), 1, 0.93, stands_up=True)
BASE_BEHIND = Blob(40.6, 37.2, 13.75, 0.11, 0.0, Evidence.UNKNOWN, (40.6, 37.2), 1, 1.0, ahead=0.62, stands_up=True)

#: (80, 0, 11.0, 180, False) as measured: the pair fitted a crisp 25.0 mm disc on S6 standing up (by the
#: base behind it), taken as the stand-in on `main`; the fighter's base behind it, a crisp solid 27.4 mm
#: disc, not standing up from so high, its far outline running on 3.3 mm past its rim.
HIGH_PAIR = Blob(30.9, 9.4, 12.5, 0.38, 0.14, Evidence.UNKNOWN, (30.9, 9.4), 1, 1.0, stands_up=True)
RUNNING_ON = Blob(40.4, 33.1, 13.7, 0.08, 0.0, Evidence.UNKNOWN, (40.4, 33.1), 1, 1.0, ahead=0.71,
                  short_behind_mm=-3.3, runs_on_behind=True)


def _moved(blob: Blob, dy: float) -> Blob:
    return replace(blob, y_mm=blob.y_mm + dy, peak_mm=(blob.peak_mm[0], blob.peak_mm[1] + dy))


def test_the_measured_discs_are_what_main_read(geometry):
    # The premise: the pair and the base behind overlap by more than fitting error, the base behind is a
    # clear solid one (but for the pair in front of it) on its line away from the camera, off every space;
    # _base_behind skips it (overlapping), so the forty-third pass's rule never asked.
    assert bases._overlapping(PAIR, BASE_BEHIND)
    assert bases._overlapping_base_behind(PAIR, [PAIR, BASE_BEHIND], CAMERA, SETTINGS) is BASE_BEHIND
    assert bases._base_behind(PAIR, [PAIR, BASE_BEHIND], CAMERA, SETTINGS) is None
    assert geometry.space_at(PAIR.x_mm, PAIR.y_mm) == "S6"
    assert geometry.space_at(BASE_BEHIND.x_mm, BASE_BEHIND.y_mm) is None
    # The high pair: its base behind is found, but does not stand up.
    assert bases._base_behind(HIGH_PAIR, [HIGH_PAIR, RUNNING_ON], CAMERA, SETTINGS) is RUNNING_ON
    assert not RUNNING_ON.stands_up


def test_a_stand_in_overlapped_from_behind_by_a_solid_base_off_the_row_is_a_guess(geometry):
    assert bases._solid_base_overlapping_behind_on_another_space(PAIR, [PAIR, BASE_BEHIND], [], geometry, CAMERA,
                                                                 SETTINGS)


def test_a_stand_in_with_nothing_overlapping_it_is_not_asked(geometry):
    assert not bases._solid_base_overlapping_behind_on_another_space(PAIR, [PAIR], [], geometry, CAMERA, SETTINGS)
    # Only touching it (moved 5 mm back: no longer overlapping by more than fitting error).
    touching = _moved(BASE_BEHIND, 5.0)
    assert not bases._overlapping(PAIR, touching)
    assert not bases._solid_base_overlapping_behind_on_another_space(PAIR, [PAIR, touching], [], geometry, CAMERA,
                                                                     SETTINGS)


def test_a_base_overlapping_on_the_stand_ins_own_space_is_no_guess(geometry):
    # Both 28 mm nearer the camera: the stand-in at S6's front, the base behind it on S6 too.
    front, behind = _moved(PAIR, -28.0), _moved(BASE_BEHIND, -28.0)
    assert geometry.space_at(front.x_mm, front.y_mm) == geometry.space_at(behind.x_mm, behind.y_mm) == "S6"
    assert not bases._solid_base_overlapping_behind_on_another_space(front, [front, behind], [], geometry, CAMERA,
                                                                     SETTINGS)


def test_a_base_overlapping_that_is_taken_already_is_a_fighter_counted(geometry):
    assert not bases._solid_base_overlapping_behind_on_another_space(PAIR, [PAIR, BASE_BEHIND], [BASE_BEHIND],
                                                                     geometry, CAMERA, SETTINGS)


@pytest.mark.parametrize("change", [dict(coverage=0.8), dict(tiered=0.5), dict(fit_error_mm=1.0),
                                    dict(radius_mm=9.0, y_mm=PAIR.y_mm + 18.0)],
                         ids=["patchy", "stepping to a fainter ring", "ragged", "token-sized"])
def test_a_disc_behind_that_is_no_clear_solid_base_is_not_asked(geometry, change):
    other = replace(BASE_BEHIND, **change)
    assert bases._overlapping(PAIR, other) and bases._base_carrying_change_on(other, SETTINGS) is None
    assert not bases._solid_base_overlapping_behind_on_another_space(PAIR, [PAIR, other], [], geometry, CAMERA,
                                                                     SETTINGS)


def test_a_solid_base_overlapping_from_the_cameras_side_is_not_asked(geometry):
    # The base in front of the stand-in (towards the camera) is where no figure of the stand-in shows.
    in_front = replace(BASE_BEHIND, y_mm=PAIR.y_mm - 22.6, peak_mm=(BASE_BEHIND.x_mm, PAIR.y_mm - 22.6))
    assert bases._overlapping(PAIR, in_front)
    assert not bases._solid_base_overlapping_behind_on_another_space(PAIR, [PAIR, in_front], [], geometry, CAMERA,
                                                                     SETTINGS)


def test_a_base_behind_whose_outline_runs_on_offers_a_second_place(geometry):
    assert bases._seen_base_behind_on_another_space(HIGH_PAIR, [HIGH_PAIR, RUNNING_ON], [], geometry, CAMERA,
                                                    SETTINGS)


def test_a_base_behind_neither_standing_up_nor_running_on_still_offers_none(geometry):
    # The forty-third pass's premise kept: a flat token fitted base-sized under a figure's top
    # (test_arena_twentyninth_pass) offers the fighter no second place.
    flat = replace(RUNNING_ON, runs_on_behind=False, short_behind_mm=0.0)
    assert not bases._seen_base_behind_on_another_space(HIGH_PAIR, [HIGH_PAIR, flat], [], geometry, CAMERA, SETTINGS)


# --- the built set, read with the count ------------------------------------------------------------------

#: (elevation, azimuth, offset mm, direction degrees, fighter on a base the spaces' colour): read on `main`
#: (b80dbc8, numpy 2 + OpenCV 5) with the count as a fighter on S6 with ok: true: the pair stood in for
#: the fighter missing, the fighter's solid base overlapping it from behind (the first seven) or, not
#: standing up, its outline running on (the last three).
RESTING_BEHIND_WITH_THE_COUNT = [
    (55, -20, 5.0, 135, False), (55, 20, 5.0, 45, False), (61, -20, 5.0, 135, False), (61, 0, 5.0, 135, False),
    (61, 20, 5.0, 0, False), (61, 20, 5.0, 45, False), (67, 20, 5.0, 0, False),
    (74, 20, 5.0, 0, False), (80, 0, 11.0, 135, False), (80, 0, 11.0, 180, False),
]


@pytest.mark.parametrize("label", RESTING_BEHIND_WITH_THE_COUNT)
def test_with_the_count_the_fighter_behind_resting_tokens_is_never_put_on_their_space(label):
    reading = read_resting_behind(label, with_count=True)
    truth = resting_behind_job(label)[-1]
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)
