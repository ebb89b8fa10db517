"""Seventy-fifth pass: a ringed disc's standing up is measured by the change joined to its far rim; change
that starts again only after bare board across its whole width is something apart (see
docs/arena-reader.md, "Seventy-fifth pass").

``bench/arena_stacked_tokens.py --set resting-behind``: a vivid 22 mm token resting 11 mm off a faint one on
S6, a fighter off the row 0.5 mm behind the pair. The pair fits one ringed disc of neither size that
"stands up"; what a token resting on it can show ends within ``_resting_token_reach``, then bare board,
then the fighter behind (its base the spaces' colour, seen from 55 and 80 degrees up). ``main`` looked
for change only past that reach (``_stands_up``), where the fighter behind is, so the pair stood up past any
token stack: S6 with ``ok: true``, with the count and without. A figure
is one body joined to its foot (``_apart_behind``, the nineteenth pass): what starts again after bare
board is no figure standing on the pair.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from arena_scenes import read_stacked_tokens
from vision.arena import bases
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

#: In front of the board, some 45 degrees up at its middle: away from the camera is about +y.
CAMERA = CameraPosition(centre_mm=(0.0, -350.0, 350.0), focal_px=800.0)
VIEW = BoardView(440, 160, 3.0)
SEARCH = np.ones((480, 1320), bool)
#: A ringed disc of neither size at (0, 0).
R = 12.0
ON_OPENCV_5 = int(cv2.__version__.split(".")[0]) >= 5


def _change(run_on: float, *, gap: float | None = None, body: tuple[float, float] | None = None):
    """A change score: the disc, something on it running on ``run_on`` mm past its far rim (10 mm wide),
    then ``gap`` mm of bare board and a base-wide thing 30 mm long behind; ``body`` (width, offset across)
    a figure's body from the disc's middle out to that thing's far end."""
    score = np.zeros(SEARCH.shape, np.float32)
    ax, ay = CAMERA.away(0.0, 0.0)
    nx, ny = -ay, ax

    def band(near: float, far: float, half: float, offset: float = 0.0):
        corners = [(nx * (offset + s * half) + ax * d, ny * (offset + s * half) + ay * d)
                   for s, d in ((-1, near), (-1, far), (1, far), (1, near))]
        cv2.fillConvexPoly(score, np.array([[round(c) for c in VIEW.to_px(x, y)] for x, y in corners], np.int32), 5.0)

    cv2.circle(score, tuple(round(c) for c in VIEW.to_px(0.0, 0.0)), round(R * VIEW.px_per_mm), 5.0, -1)
    band(0.0, R + run_on, 5.0)
    end = R + run_on
    if gap is not None:
        end = R + run_on + gap + 30.0
        band(R + run_on + gap, end, 12.0)
    if body is not None:
        band(0.0, end, body[0] / 2, body[1])
    return score


def _within(score, bridged=None):
    """``_within_resting_reach`` on ``score``, its change mask ``bridged`` (as the mask's closing bridges
    a gap of a few mm) or the score's own."""
    mask = ((score if bridged is None else bridged) > 0).astype(np.uint8) * 255
    return bases._within_resting_reach(score, bases.FAINT_CHANGE, mask, VIEW, CAMERA, 0.0, 0.0, R, SEARCH)


def test_what_rests_on_it_alone_is_within_the_reach():
    assert 8.0 < bases._resting_token_reach(CAMERA, 0.0, 0.0) - 10.0  # (the 8 mm run below is well within)
    assert _within(_change(8.0))


def test_what_starts_again_after_bare_board_is_apart_even_where_the_mask_bridges_it():
    apart = _change(8.0, gap=4.0)
    bridged = _change(8.0, gap=0.0)
    assert not _within(bridged)  # joined: it stands up past any token stack
    assert _within(apart, bridged)


def test_change_joined_to_the_rim_past_the_reach_stands_up():
    assert not _within(_change(40.0))
    # A gap under a figure's break (1 mm) is blur, not board.
    assert not _within(_change(8.0, gap=1.0), _change(8.0, gap=0.0))


def test_a_figure_joined_across_the_gap_keeps_it_standing():
    # A body (or a leg off the centre line) from the disc out to what stands behind: one thing.
    for body in ((4.0, 0.0), (3.0, 6.0), (3.0, -8.0)):
        assert not _within(_change(8.0, gap=4.0, body=body), _change(8.0, gap=0.0)), body


def _apart_off_the_spaces(score, bridged):
    from dataclasses import replace
    from arena_scenes import line_9
    mask = (bridged > 0).astype(np.uint8) * 255
    disc = replace(bases.Blob(0.0, 0.0, R, 0.3, 0.5, bases.Evidence.YES, (0.0, 0.0), 1, 0.8, stands_up=True),
                   within_resting_reach=True)
    return bases._apart_behind_off_the_spaces(disc, mask, VIEW, line_9(), CAMERA)


def test_with_the_count_what_stands_apart_off_every_space_may_be_the_fighter_counted():
    # The disc on S5 (line-9's middle space, 36 mm deep); what stands past the reach some 40 mm behind
    # it, off the row.
    assert _apart_off_the_spaces(_change(8.0, gap=4.0), _change(8.0, gap=0.0))
    # Nothing past the reach: nothing apart to be the fighter.
    assert not _apart_off_the_spaces(_change(8.0), _change(8.0))


#: main read S6 with ok: true, with the count and without (the pair ringed, the fighter's base the
#: spaces' colour behind a gap of bare board).
SETTLED = [
    # On numpy 1.24 + OpenCV 4.11 the pair fits 24.9 mm (24.5 on OpenCV 5): base-sized, where the reach is
    # not asked (a ringed base round its figure), and it stays S6 with ok: true there: a strict xfail on that
    # stack, so the day it is read right there the mark must go.
    pytest.param("resting-behind", (55, 0, 11.0, 90, True),
                 marks=pytest.mark.xfail(not ON_OPENCV_5, strict=True,
                                         reason="fitted base-sized on 4.11: still wrong there")),
    ("resting-behind", (80, 20, 11.0, 45, True)),
]


@pytest.mark.parametrize("with_count", [False, True])
@pytest.mark.parametrize("which, label", SETTLED)
def test_the_pair_is_never_a_wrong_ok(which, label, with_count):
    # With the count: at 80 degrees the fighter's top is a disc off the row (``_maybe_a_fighter_off_the_spaces``);
    # at 55 it is not fitted at all, only change past the reach, apart, off every space.
    reading, truth = read_stacked_tokens(which, label, with_count=with_count)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)
