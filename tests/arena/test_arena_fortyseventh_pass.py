"""Forty-seventh pass: told how many fighters are on the arena, the reader never takes the figure of a
fighter standing off the row, on a base close to the board's colour, for the fighter missing on the space
that figure leans over (spec scene 487058 with touching tokens: truth S8, read S5 and S8 with ok: true on
numpy 2 + OpenCV 5.0; a built scene of the same shape read S4 so on OpenCV 5.0 and 5.1). See
docs/arena-reader.md, "Forty-seventh pass".

Seen from 42 degrees up, the off-row fighter's 44 mm figure shows over S5; a disc fitted on its middle
measures as a foot does (token-sized, standing up, the figure behind it, 0.375 of the band in front of it
changed: the figure is narrower than the disc). Its real foot, nearer the camera in the same change, is
fitted raggedly together with the base's faint edge, so it was never a candidate of its own."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import replace

import numpy as np
import pytest

from arena_scenes import spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, random_match_scene, render_scene

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


# --- the built scene: the figure's top taken as a fighter behind a token (its own foot) ---------------------

#: A fighter off the row in front of S4 (27 mm base the board's pink, a 14 mm x 40 mm figure leaning 3 mm
#: left and back), a vivid fighter on S8; 52 cm away, 42 degrees up, 18 degrees to the left.
PINK_BOARD, PINK_SPACE = (163, 95, 190), (140, 80, 165)
BUILT_POSE = CameraPose(distance_mm=520, elevation_deg=42, azimuth_deg=-18, target_mm=(-14, -8))
OFF_ROW = Miniature(-40.0, -35.0, base_mm=27.0, base_height_mm=3.0, base_bgr=(163, 100, 195),
                    figure_bgr=(119, 48, 164), figure_height_mm=40.0, figure_width_mm=14.0, lean_mm=(-3, 3))
ON_S8 = Miniature(123.0, -5.0, base_mm=25.6, base_bgr=(25, 113, 112), figure_bgr=(90, 35, 168),
                  figure_height_mm=39.0)

#: As measured there (OpenCV 5.1): the figure's top over S4, a crisp 17.3 mm disc stepping down to a fainter
#: ring, standing up no further than a token resting on it could show, 0.58 of the band ahead changed ...
BUILT_CAMERA = CameraPosition(centre_mm=(-133.055, -376.115, 347.575), focal_px=725.95)
FIGURE_TOP = Blob(-35.783, -5.477, 8.639, 0.477, 0.412, Evidence.YES, (-34.0, 1.0), 2, 1.0, ahead=0.583,
                  stands_up=True, within_resting_reach=True, across_mm=15.9)
#: ... and the foot with the base's near part, a crisp flat 18.6 mm disc: by its look a token.
FOOT_AS_A_TOKEN = Blob(-34.189, -33.160, 9.284, 0.431, 0.0, Evidence.NO, (-37.0, -31.0), 2, 0.925, across_mm=18.85)


def with_change_ahead_on(disc: Blob, token: Blob, camera: CameraPosition) -> Blob:
    """``disc`` with the points of its band ahead (as ``_change_ahead`` looks) that lie on ``token`` changed."""
    ax, ay = camera.away(disc.x_mm, disc.y_mm)
    points = []
    for angle in bases._AHEAD_ANGLES:
        for extra in (bases._AHEAD_NEAREST_MM, 6.0, 8.0):
            a = math.atan2(-ay, -ax) + angle
            point = (disc.x_mm + math.cos(a) * (disc.radius_mm + extra), disc.y_mm + math.sin(a) * (disc.radius_mm + extra))
            if bases._on_token(point, token, camera):
                points.append(point)
    return replace(disc, ahead_points=tuple(points), ahead_looked=24, ahead=len(points) / 24)


def test_the_built_discs_are_what_main_read(geometry):
    top = with_change_ahead_on(replace(FIGURE_TOP, within_resting_reach=False), FOOT_AS_A_TOKEN, BUILT_CAMERA)
    assert top.ahead == pytest.approx(FIGURE_TOP.ahead, abs=0.01)  # all its change ahead lies on the "token"
    assert bases.classify(FOOT_AS_A_TOKEN, SETTINGS) is Kind.TOKEN
    assert geometry.space_at(top.x_mm, top.y_mm) == "S4"
    # Without the count it is unsure (within a resting token's reach); the count lets that pass, and then
    # it is a fighter but for the "token" in front of it:
    assert bases.classify(FIGURE_TOP, SETTINGS) is Kind.UNSURE
    assert bases._a_fighter_but_for_change_in_front(top, SETTINGS)
    kinds = {id(top): Kind.UNSURE, id(FOOT_AS_A_TOKEN): Kind.TOKEN}
    bases._bases_behind_tokens([top, FOOT_AS_A_TOKEN], kinds, BUILT_CAMERA, SETTINGS)
    assert kinds[id(top)] is Kind.FIGHTER  # main's reading: a fighter behind a token


def test_a_disc_let_pass_by_the_count_alone_is_no_fighter_behind_a_token():
    top = with_change_ahead_on(replace(FIGURE_TOP, within_resting_reach=False), FOOT_AS_A_TOKEN, BUILT_CAMERA)
    kinds = {id(top): Kind.UNSURE, id(FOOT_AS_A_TOKEN): Kind.TOKEN}
    assert bases._bases_behind_tokens([top, FOOT_AS_A_TOKEN], kinds, BUILT_CAMERA, SETTINGS, {id(top)}) == {}
    assert kinds[id(top)] is Kind.UNSURE


def test_the_built_scene_is_never_a_wrong_ok_and_its_s4_never_read(geometry):
    scene = Scene(pose=BUILT_POSE, miniatures=(ON_S8, OFF_ROW), lighting=Lighting(noise=2.5), board_bgr=PINK_BOARD,
                  space_bgr=PINK_SPACE, seed=186, board_seed=7)
    empty = Scene(pose=BUILT_POSE, lighting=Lighting(noise=2.5), board_bgr=PINK_BOARD, space_bgr=PINK_SPACE, seed=99,
                  board_seed=7)
    image, reference = render_scene(scene, geometry), render_scene(empty, geometry)
    for fighters in (2, None):
        reading = read_arena(image, reference, geometry, annotate=False, fighters=fighters)
        assert not reading.ok or reading.occupied == ("S8",), (fighters, reading.occupied)
