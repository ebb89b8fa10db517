"""Nineteenth accuracy pass: a token-sized disc that "stands up" only by change beyond bare board
behind it (a fighter's base a few mm behind a token, seen from high above, bridged in the change
mask by its closing) is not standing: a figure is one body joined to its foot (see
docs/arena-reader.md, "Nineteenth pass")."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, line_9, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
SETTINGS = ArenaSettings()

#: Real tokens read as "may be a token or a base" on main, with the count too (a firm doubt): each
#: stands up only by the base of a fighter standing a few mm behind it, across bare board.
TOKEN_BEFORE_A_BASE_SEEDS = [
    # 73 degrees up: a 16.7 mm token on S6, S7's fighter 29 mm behind it (the gap 2-7 mm).
    300165,
    # 78 degrees up: a 15.1 mm token between S2 and S3, S2's fighter 27 mm behind it.
    300227,
    # 59 degrees up: a 17.1 mm token on S7, a fighter off the row 33 mm behind it.
    300460,
]

#: In front of the board, some 45 degrees up at its middle: away from the camera is about +y.
CAMERA = CameraPosition(centre_mm=(0.0, -350.0, 350.0), focal_px=800.0)
VIEW = BoardView(440, 160, 3.0)
SEARCH = np.ones((480, 1320), bool)
BARE_LEVEL = bases.FAINT_CHANGE

#: A token-sized disc seen from high above whose change stands up: unsure on its own.
STANDING_TOKEN = Blob(0.0, 0.0, 8.0, 0.2, 0.0, Evidence.UNKNOWN, (0.0, 0.0), 1, 1.0, stands_up=True)


def _read_recording_the_rule(seed, monkeypatch, *, fighters):
    """The reading of a spec seed, and whether ``_apart_behind`` found a disc apart in it."""
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    answers, rule = [], bases._apart_behind

    def recording(*args):
        answers.append(rule(*args))
        return answers[-1]

    with monkeypatch.context() as patched:
        patched.setattr(bases, "_apart_behind", recording)
        reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count if fighters else None)
    return reading, truth, any(answers)


@pytest.mark.parametrize("fighters", [False, True])
@pytest.mark.parametrize("seed", TOKEN_BEFORE_A_BASE_SEEDS)
def test_a_token_standing_up_only_by_a_base_behind_bare_board_is_read(seed, fighters, monkeypatch):
    reading, truth, apart = _read_recording_the_rule(seed, monkeypatch, fighters=fighters)
    if apart:
        assert reading.ok, reading.error
        assert reading.occupied == truth
    # Where another renderer (the Pi's OpenCV 4.11) leaves the rule nothing to read, only never
    # wrong; the next test keeps this one from passing by the rule never applying.
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)


def test_the_rule_reads_the_seeds_on_any_renderer(monkeypatch):
    apart = [_read_recording_the_rule(seed, monkeypatch, fighters=False)[2] for seed in TOKEN_BEFORE_A_BASE_SEEDS]
    assert sum(apart) >= 2, dict(zip(TOKEN_BEFORE_A_BASE_SEEDS, apart))


def test_random_spec_scenes_round_them_are_never_wrong_when_ok():
    assert_never_wrong_when_ok(range(300160, 300170), GEOMETRY)


def _score(token_r=8.0, *, behind_gap=None, body_width=None, body_offset=0.0):
    """A change score: a token at (0, 0), optionally a base ``behind_gap`` mm past its far rim (away
    from CAMERA) and a body of ``body_width`` mm from its middle out to that base, ``body_offset`` mm
    to its side."""
    score = np.zeros(SEARCH.shape, np.float32)
    ppm = VIEW.px_per_mm
    ax, ay = CAMERA.away(0.0, 0.0)

    def px(x, y):
        return tuple(int(round(c)) for c in VIEW.to_px(x, y))

    cv2.circle(score, px(0.0, 0.0), int(round(token_r * ppm)), 5.0, -1)
    far = token_r + 14.0
    if behind_gap is not None:
        along = token_r + behind_gap + 13.0
        cv2.circle(score, px(ax * along, ay * along), int(round(13.0 * ppm)), 5.0, -1)
        far = along
    if body_width is not None:
        nx, ny = -ay, ax
        half = body_width / 2
        corners = [(nx * (body_offset + s * half) + ax * d, ny * (body_offset + s * half) + ay * d)
                   for s, d in ((-1, 0.0), (-1, far), (1, far), (1, 0.0))]
        cv2.fillConvexPoly(score, np.array([px(x, y) for x, y in corners], np.int32), 5.0)
    return score


def _apart(score, r=8.0):
    return bases._apart_behind(score, BARE_LEVEL, VIEW, CAMERA, 0.0, 0.0, r, SEARCH)


def test_bare_board_between_a_disc_and_what_stands_behind_it_sets_it_apart():
    assert _apart(_score(behind_gap=4.0))
    # A gap under a figure's break (1 mm) is blur, not board: nothing is apart.
    assert not _apart(_score(behind_gap=1.0))


def test_a_figure_joined_to_the_disc_is_never_apart():
    # Its body runs on from the foot to its top (here into what stands behind): unbroken.
    assert not _apart(_score(behind_gap=4.0, body_width=6.0))
    # A leg or flank off the centre line, with bare board between the legs on it, still joins it.
    assert not _apart(_score(behind_gap=4.0, body_width=3.0, body_offset=5.0))
    assert not _apart(_score(behind_gap=4.0, body_width=3.0, body_offset=-7.5))
    # A figure alone, with nothing behind it, too.
    assert not _apart(_score(body_width=5.0))


def test_where_change_is_not_looked_for_nothing_is_apart():
    keep_out = SEARCH.copy()
    u, v = VIEW.to_px(*CAMERA.away(0.0, 0.0))
    keep_out[int(v) - 60:int(v) + 60, int(u) - 60:int(u) + 60] = False
    assert not bases._apart_behind(_score(behind_gap=4.0), BARE_LEVEL, VIEW, CAMERA, 0.0, 0.0, 8.0, keep_out)


@pytest.mark.parametrize("figure", [Evidence.UNKNOWN, Evidence.PARTIAL, Evidence.NO])
def test_a_token_sized_disc_apart_from_what_stands_behind_it_is_a_token(figure):
    standing = replace(STANDING_TOKEN, figure=figure)
    assert bases.classify(standing, SETTINGS) is Kind.UNSURE
    assert bases.classify(replace(standing, apart_behind=True), SETTINGS) is Kind.TOKEN


def test_a_figure_plainly_behind_it_keeps_a_token_sized_disc_unsure():
    # Evidence.YES is not this rule's: the disc stays unsure whatever stands up.
    assert bases.classify(replace(STANDING_TOKEN, figure=Evidence.YES, apart_behind=True), SETTINGS) is Kind.UNSURE


def test_a_ringed_disc_apart_from_what_stands_behind_it_is_no_ringed_figure():
    # The sixteenth pass's ringed figure stands up out of its disc; standing only apart, it is not one.
    ringed = Blob(157.9, -6.4, 11.25, 0.42, 0.93, Evidence.UNKNOWN, (157.9, -6.4), 1, 1.0, ahead=0.0, stands_up=True)
    assert bases.classify(ringed, SETTINGS) is Kind.FIGHTER
    assert bases.classify(replace(ringed, apart_behind=True), SETTINGS) is Kind.UNSURE


def test_what_lies_beyond_bare_board_is_no_more_of_a_token():
    high = CameraPosition(centre_mm=(0.0, -150.0, 520.0), focal_px=800.0)
    flat_top = math.hypot(*high.lean(0.0, 0.0, bases.MAX_TOKEN_THICKNESS_MM))
    running_on = replace(STANDING_TOKEN, stands_up=False, short_behind_mm=-(flat_top + 4.0))
    assert bases._more_of_it_behind(running_on, [running_on], high)
    assert not bases._more_of_it_behind(replace(running_on, apart_behind=True), [running_on], high)
