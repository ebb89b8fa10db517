"""Forty-seventh pass: told how many fighters are on the arena, the reader never takes the figure of a
fighter standing off the row, on a base close to the board's colour, for the fighter missing on the space
that figure leans over (spec scene 487058 with touching tokens: truth S8, read S5 and S8 with ok: true on
numpy 2 + OpenCV 5.0). See docs/arena-reader.md, "Forty-seventh pass".

Seen from 42 degrees up, the off-row fighter's 44 mm figure shows over S5; a disc fitted on its middle
measures as a foot does (token-sized, standing up, the figure behind it, 0.375 of the band in front of it
changed: the figure is narrower than the disc). Its real foot, nearer the camera in the same change, is
fitted raggedly together with the base's faint edge, so it was never a candidate of its own."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import numpy as np
import pytest

from arena_scenes import spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.synth.arena_scene import random_match_scene, render_scene

SETTINGS = ArenaSettings()

# --- 487058 read with the count on numpy 2 + OpenCV 5.0, as measured ---------------------------------------

CAMERA = CameraPosition(centre_mm=(-133.52232966805795, -377.16225066633297, 354.4989596225453),
                        focal_px=766.7420643335291)
#: The S8 fighter: a clear base, taken.
S8_BASE = Blob(123.364, -5.160, 13.341, 0.181, 0.0, Evidence.YES, (125.0, -3.0), 1, 1.0, stands_up=True)
#: The off-row fighter's figure over S5, fitted a 15.4 mm disc standing up with its figure behind it.
FIGURE_MIDDLE = Blob(4.584, -5.749, 7.675, 0.655, 0.0, Evidence.YES, (5.0, -2.0), 2, 1.0, ahead=0.375,
                     stands_up=True, across_mm=14.72)
#: A token laid against the S8 fighter's base, behind it (unsure: standing up, more of it in front).
TOKEN_BEHIND_S8 = Blob(143.441, 23.060, 10.021, 0.693, 0.353, Evidence.YES, (146.0, 26.0), 1, 1.0, ahead=0.625,
                       stands_up=True, across_mm=19.07)
#: The off-row fighter's foot: fitted raggedly (rim error 3.2 mm) with its base's faint edge, standing up,
#: nothing of it in front; its base's faint ring found round the true base (-2.9, -34.5), 27.1 mm.
RAGGED_FOOT = Blob(-1.701, -29.437, 11.502, 3.163, 0.0, Evidence.YES, (-4.0, -28.0), 2, 1.0, stands_up=True,
                   across_mm=9.35, base_ring=(-2.861, -34.579, 14.397))
BLOBS = [S8_BASE, FIGURE_MIDDLE, TOKEN_BEHIND_S8, RAGGED_FOOT]


def shifted(blob: Blob, dx: float, dy: float) -> Blob:
    ring = None if blob.base_ring is None else (blob.base_ring[0] + dx, blob.base_ring[1] + dy, blob.base_ring[2])
    return replace(blob, x_mm=blob.x_mm + dx, y_mm=blob.y_mm + dy, peak_mm=(blob.peak_mm[0] + dx, blob.peak_mm[1] + dy),
                   base_ring=ring)


def test_the_measured_discs_are_what_main_read(geometry):
    # The premise: the figure's middle is no token and lies on S5, on the foot's figure line; the foot is
    # off every space and too ragged to stand in itself; nothing of the S8 fighter explains either.
    assert bases.classify(FIGURE_MIDDLE, SETTINGS) is Kind.UNSURE
    assert FIGURE_MIDDLE.ahead <= bases.MAX_CHANGE_AHEAD
    assert geometry.space_at(FIGURE_MIDDLE.x_mm, FIGURE_MIDDLE.y_mm) == "S5"
    assert RAGGED_FOOT.fit_error_mm > bases.STANDING_RIM_ERROR_MM
    assert geometry.space_at(RAGGED_FOOT.x_mm, RAGGED_FOOT.y_mm) is None
    assert geometry.space_at(*RAGGED_FOOT.base_ring[:2]) is None
    assert bases._on_figure_line(FIGURE_MIDDLE, [RAGGED_FOOT], CAMERA)
    assert not bases._explained(RAGGED_FOOT, [S8_BASE], CAMERA)
    assert not bases._explained(FIGURE_MIDDLE, [S8_BASE], CAMERA)


def test_the_figure_of_a_ragged_foot_off_the_row_is_no_stand_in(geometry):
    assert bases._ragged_foot_in_front_on_another_space(FIGURE_MIDDLE, BLOBS, [S8_BASE], geometry, CAMERA)
    assert bases._standing_in_for(1, BLOBS, [S8_BASE], geometry, CAMERA, SETTINGS) == []


def test_without_the_foot_in_front_the_stand_in_is_taken(geometry):
    # What the rule asks is the foot: without it, the disc is a figure's foot on S5 as before.
    blobs = [S8_BASE, FIGURE_MIDDLE, TOKEN_BEHIND_S8]
    taken = bases._standing_in_for(1, blobs, [S8_BASE], geometry, CAMERA, SETTINGS)
    assert [(b.x_mm, b.y_mm) for b in taken] == [(FIGURE_MIDDLE.x_mm, FIGURE_MIDDLE.y_mm)]


def test_a_ragged_foot_on_the_stand_ins_own_space_is_no_second_place(geometry):
    # Both 20 mm further back: the foot (and its ring) on S5 too, so either way the fighter is on S5.
    middle, foot = shifted(FIGURE_MIDDLE, 0.0, 20.0), shifted(RAGGED_FOOT, 0.0, 20.0)
    assert geometry.space_at(middle.x_mm, middle.y_mm) == "S5"
    assert geometry.space_at(foot.x_mm, foot.y_mm) == geometry.space_at(*foot.base_ring[:2]) == "S5"
    assert not bases._ragged_foot_in_front_on_another_space(middle, [S8_BASE, middle, foot], [S8_BASE], geometry,
                                                            CAMERA)


@pytest.mark.parametrize("foot", [
    replace(RAGGED_FOOT, ahead=0.6),  # more of it nearer the camera: itself a figure's middle, no foot
    replace(RAGGED_FOOT, region=3),  # apart from the disc's change: its figure is not the disc
    replace(RAGGED_FOOT, stands_up=False, figure=Evidence.NO),  # nothing stands on it
    replace(RAGGED_FOOT, fit_error_mm=1.0),  # crisp enough to be a candidate of its own (asked as one)
    shifted(RAGGED_FOOT, -30.0, 0.0),  # beside the disc's line to the camera
], ids=["more in front", "another region", "not standing", "not ragged", "beside the line"])
def test_only_a_standing_ragged_foot_whose_figure_line_holds_the_disc_is_asked(geometry, foot):
    assert not bases._ragged_foot_in_front_on_another_space(FIGURE_MIDDLE, [S8_BASE, FIGURE_MIDDLE, foot],
                                                            [S8_BASE], geometry, CAMERA)


def test_a_ragged_foot_explained_by_a_taken_base_is_not_asked(geometry):
    # Part of a fighter taken (inside its base): it offers no place of its own.
    foot = replace(RAGGED_FOOT, peak_mm=(S8_BASE.x_mm + 5.0, S8_BASE.y_mm))
    assert bases._explained(foot, [S8_BASE], CAMERA)
    assert not bases._ragged_foot_in_front_on_another_space(FIGURE_MIDDLE, [S8_BASE, FIGURE_MIDDLE, foot],
                                                            [S8_BASE], geometry, CAMERA)


# --- rendered scenes ------------------------------------------------------------------------------------

def test_487058_is_never_a_wrong_ok(geometry):
    live, reference, truth, count = spec_scene(487058, geometry, touching_tokens=True)
    assert truth == ("S8",) and count == 2
    for fighters in (count, None):
        reading = read_arena(live, reference, geometry, annotate=False, fighters=fighters)
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied)
        assert "S5" not in reading.occupied or not reading.ok


@pytest.mark.parametrize("y", [-6.0, 6.0])
def test_the_same_fighter_on_s5_is_still_read(geometry, y):
    # The off-row fighter of 487058 (its base close to the board's pink, its 44 mm figure) moved onto S5:
    # read there, with the count and without.
    reference, live, _ = random_match_scene(np.random.default_rng(487058), geometry, touching_tokens=True)
    fighter = dataclasses.replace(live.miniatures[1], y_mm=y)
    live = dataclasses.replace(live, miniatures=(live.miniatures[0], fighter))
    image, empty = render_scene(live, geometry), render_scene(reference, geometry)
    for fighters in (2, None):
        reading = read_arena(image, empty, geometry, annotate=False, fighters=fighters)
        assert reading.ok, (fighters, reading.error)
        assert reading.occupied == ("S5", "S8")


def test_a_fighter_on_a_space_placed_by_its_standing_disc_is_still_read(geometry):
    # Spec scene 470044 (touching tokens): the S5 fighter is taken by the count as a stand-in (a 23.5 mm disc
    # with its figure behind it), and read right.
    live, reference, truth, count = spec_scene(470044, geometry, touching_tokens=True)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=count)
    assert reading.ok, reading.error
    assert reading.occupied == truth == ("S5", "S6")
