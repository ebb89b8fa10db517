"""Seventy-third pass: a token-sized disc joined by a faint body, unbroken, to another token-sized disc
well behind it on its line away from the camera is a figure's foot and top, never a token (see
docs/arena-reader.md, "Seventy-third pass").

Fresh 890222 (the seventieth pass's fresh range): two fighters touching on S7 and S8, 45 degrees up. The S7
fighter's base is close to its space's colour and its figure to the board's: the reader fitted its foot as
a 13.1 mm disc on S7 (figure partial, not standing up: a token by its look) and its lit top as a flat
19.7 mm disc 36 mm behind it off the row (a token by its look); every change was then explained and
``main`` read S8 alone with ``ok: true`` without the count. Between the two discs the figure's body is
too faint for the change mask, yet 2-4 times the board's noise, unbroken across the foot's width: two
flat tokens lying apart have bare board between them.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from arena_scenes import bench_module, spec_scene
from vision.arena import bases, load_geometry, read_arena
from vision.arena.bases import Blob, Evidence
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, render_scene

SETTINGS = ArenaSettings()
GEOMETRY = load_geometry(bench_module("arena_stacked_tokens").LAYOUT)
VIEW = BoardView.of(GEOMETRY)
#: 890222 as measured: the camera 45 degrees up, ...
CAMERA = CameraPosition(centre_mm=(-112.7, -330.6, 344.2), focal_px=694.6)
#: ... the S7 figure's foot, a 13.1 mm disc on S7, ...
FOOT = Blob(82.4, 5.3, 6.55, 0.25, 0.0, Evidence.PARTIAL, (83.0, 7.0), 1, 1.0)
#: ... and its top, a flat 19.7 mm disc 36 mm behind it, off the row.
TOP = Blob(98.8, 37.3, 9.85, 0.11, 0.0, Evidence.NO, (104.0, 38.0), 1, 1.0)
#: The board's noise in the smoothed score, as there (the ring checks' level).
LEVEL = 0.16


class _Score:
    """The smoothed change score and the level over the board's noise (``_FrontRimCheck``'s)."""

    def __init__(self, smooth):
        self._smooth = smooth

    def smooth(self):
        return self._smooth

    def ring_level(self):
        return LEVEL


def _score(discs=(FOOT, TOP), body_mm=12.0, body=0.5):
    """Each disc at 1.9 and, between the first two, a body ``body_mm`` wide at ``body`` (0: bare board)."""
    w, h = VIEW.size
    smooth = np.zeros((h, w), np.float32)
    if body:
        ends = [tuple(int(round(c)) for c in VIEW.to_px(d.x_mm, d.y_mm)) for d in discs[:2]]
        cv2.line(smooth, ends[0], ends[1], body, int(round(body_mm * VIEW.px_per_mm)))
    for d in discs:
        cv2.circle(smooth, tuple(int(round(c)) for c in VIEW.to_px(d.x_mm, d.y_mm)), int(round(d.radius_mm)), 1.9, -1)
    return _Score(cv2.GaussianBlur(smooth, (5, 5), 0))


def _foot(foot=FOOT, top=TOP, discs=None, score=None):
    discs = [foot, top] if discs is None else discs
    score = _score((foot, top)) if score is None else score
    return bases._foot_of_a_top_behind(foot, discs, CAMERA, VIEW, score, None, SETTINGS)


def test_both_discs_are_tokens_by_their_look():
    assert bases.classify(FOOT, SETTINGS) is bases.Kind.TOKEN
    assert bases.classify(TOP, SETTINGS) is bases.Kind.TOKEN


def test_a_faint_body_unbroken_from_a_token_sized_disc_to_one_well_behind_it_is_a_foot_and_top():
    assert _foot()


def test_joined_so_it_is_never_a_token():
    assert bases.classify(replace(FOOT, top_behind=True), SETTINGS) is bases.Kind.UNSURE


def test_bare_board_between_them_is_two_tokens():
    assert not _foot(score=_score(body=0.0))


def test_change_under_the_board_s_noise_between_them_is_bare_board():
    assert not _foot(score=_score(body=0.5 * LEVEL))


def test_a_thin_streak_between_them_is_no_body():
    # Change along one line only (a shadow's edge, a crack): not across most of the narrower disc.
    assert not _foot(score=_score(body_mm=2.0))


def test_a_disc_between_them_is_what_joins_them():
    between = replace(FOOT, x_mm=90.6, y_mm=21.3, radius_mm=6.0, peak_mm=(90.6, 21.3))
    assert not _foot(discs=[FOOT, TOP, between])


def test_a_top_within_a_token_s_own_reach_is_not_apart_from_it():
    # A disc just behind, its near rim within the foot's own top's lean (and what the mask's closing
    # bridges): a token lying against it, or the foot's own top.
    near = replace(TOP, x_mm=FOOT.x_mm + 0.454 * 20.0, y_mm=FOOT.y_mm + 0.891 * 20.0)
    assert not _foot(top=near, score=_score((FOOT, near)))


def test_a_disc_off_its_line_away_from_the_camera_is_no_top_of_it():
    aside = replace(TOP, x_mm=130.0, y_mm=10.0, peak_mm=(130.0, 10.0))
    assert not _foot(top=aside, score=_score((FOOT, aside)))


def test_a_base_sized_disc_is_no_foot_here():
    assert not _foot(foot=replace(FOOT, radius_mm=13.5), score=_score((replace(FOOT, radius_mm=13.5), TOP)))


def test_890222_is_never_a_wrong_ok_without_the_count():
    live, reference, truth, count = spec_scene(890222, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


def test_890222_is_never_a_wrong_ok_with_the_count():
    live, reference, truth, count = spec_scene(890222, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


#: 890222's two fighters rebuilt (the S7 fighter's base close to its space's colour, its figure to the
#: board's; the S8 fighter vivid), on 890222's board, seen from 40-60 degrees up and 17 degrees to
#: either side, both or the S7 fighter alone: 30 scenes, of which ``main`` read 7 wrong without the count
#: (on either stack; this pass 2, on numpy 1.24 + OpenCV 4.11 3).
S7_FIGHTER = Miniature(80.8, 2.85, base_mm=27.5, base_height_mm=2.9, base_bgr=(60, 121, 118), figure_bgr=(104, 193, 226),
                       figure_height_mm=38.4, figure_width_mm=17.3, lean_mm=(-1.5, 1.1))
S8_FIGHTER = Miniature(108.0, 2.85, base_mm=27.0, base_height_mm=3.6, base_bgr=(87, 156, 177), figure_bgr=(206, 113, 151),
                       figure_height_mm=36.5, figure_width_mm=12.1, lean_mm=(-0.9, 1.6))


def _rebuilt(elevation, azimuth, both):
    """(live, reference, truth) of 890222's fighters rebuilt at this pose."""
    pose = CameraPose(distance_mm=489, elevation_deg=elevation, azimuth_deg=azimuth, target_mm=(-10.0, 3.75))
    minis = (S7_FIGHTER, S8_FIGHTER) if both else (S7_FIGHTER,)

    def scene(minis, seed):
        return Scene(pose=pose, miniatures=minis, tokens=(), hidden_markers=(), lighting=Lighting(noise=2.9),
                     board_bgr=(83, 162, 191), space_bgr=(75, 156, 160), seed=seed, board_seed=907601022)
    truth = ("S7", "S8") if both else ("S7",)
    return render_scene(scene(minis, 5), GEOMETRY), render_scene(scene((), 99), GEOMETRY), truth


#: On the Pi's numpy 1.24 + OpenCV 4.11 the render and the fits differ a little: (40, -17), the S7 fighter
#: alone, has its top fitted ragged there (2.31 mm off a circle, no disc to join the foot to): still wrong
#: there, a strict xfail on that stack.
ON_OPENCV_5 = int(cv2.__version__.split(".")[0]) >= 5


@pytest.mark.parametrize("elevation, azimuth, both", [
    pytest.param(40, -17, False, marks=pytest.mark.xfail(not ON_OPENCV_5, strict=True,
                                                         reason="top fitted ragged on 4.11: still wrong there")),
    (40, 0, False), (45, -17, True), (45, -17, False), (45, 0, True),
])
def test_rebuilt_the_foot_and_top_are_never_a_wrong_ok(elevation, azimuth, both):
    # main read these S7 missed with ok: true; the foot and the top are joined by the body: a doubt.
    live, reference, truth = _rebuilt(elevation, azimuth, both)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


@pytest.mark.xfail(strict=True, reason="left: 40 degrees up, 17 to the side, the S7 fighter's foot is not fitted at "
                                       "all, only its top off the row (a 20 mm flat disc): nothing to join it to")
@pytest.mark.parametrize("both", [True, False])
def test_rebuilt_left_only_the_top_fitted(both):
    live, reference, truth = _rebuilt(40, 17, both)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


@pytest.mark.parametrize("elevation, azimuth", [(50, -17), (55, -17), (55, 17)])
def test_rebuilt_read_right_as_before(elevation, azimuth):
    live, reference, truth = _rebuilt(elevation, azimuth, True)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok and reading.occupied == truth, (reading.occupied, reading.error)
