"""The hundred-and-eighth pass: two tokens, one resting on the other, before a fighter on a dull base right behind them
(``bench/arena_stacked_tokens.py --set overlap-behind-board-resting``): the pair fits one crisp, solid, base-sized disc
and the fighter's figure, past bare-looking board of that fighter's own base, is taken for its figure. A figure stands
on its base's middle and hides that base's far rim where it rises past it; where the disc's far rim shows whole there
(the change just past it a fraction of the disc's own), what stands further on may stand behind it: a doubt
(``bases._far_rim_seen_whole``, ``bases._whole_rims_before_a_figure``). See docs/arena-reader.md, "Hundred-and-eighth
pass"."""

from __future__ import annotations

import numpy as np
import pytest

from arena_scenes import line_9, read_both_ways, read_stacked_tokens, spec_scene
from vision.arena import bases
from vision.arena.bases import Blob, Evidence, FirmDoubt
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
SET = "overlap-behind-board-resting"
VIEW = BoardView(440.0, 160.0)
#: A camera 48 degrees up, straight in front of the board (as the reader places it).
CAMERA = CameraPosition((0.0, -321.2, 356.7), 900.0)
NEW_DOUBT = "its far rim shows whole"


def _score(disc_level, *, figure=None, behind=None):
    """A drawn change score: a 27 mm disc at (44, 4) mm, a figure (level) rising from its middle 8 mm wide, and
    something (level) standing 26 mm behind its centre, 10 mm across."""
    w, h = VIEW.size
    u, v = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    x, y = VIEW.to_mm(u, v)
    score = np.zeros((h, w), np.float32)
    score[np.hypot(x - 44.0, y - 4.0) <= 13.5] = disc_level
    if figure is not None:
        body = (np.abs(x - 44.0) <= 4.0) & (y >= 4.0) & (y <= 40.0)
        score[body] = np.maximum(score[body], figure)  # (over the base's back half, as strong as the stronger)
    if behind is not None:
        score[np.hypot(x - 44.0, y - 30.0) <= 5.0] = behind
    return score


def _whole(score, x=44.0, y=4.0):
    return bases._far_rim_seen_whole(score, VIEW, CAMERA, x, y, 13.5, np.ones(score.shape, bool))


def test_a_figure_rising_from_the_disc_hides_its_far_rim():
    assert not _whole(_score(10.0, figure=8.0))
    assert not _whole(_score(10.0, figure=4.0))  # fainter than its base, still over a third of it


def test_a_disc_whose_far_rim_steps_down_whole_before_what_stands_behind_it():
    assert _whole(_score(10.0, behind=2.0))  # the pair's change, then the fighter behind's, apart
    assert _whole(_score(10.0, figure=2.0))  # a figure a fifth as strong as its base: no telling (the weak spot)


def test_where_the_lines_leave_the_view_nothing_is_said():
    score = _score(10.0, behind=2.0)
    search = np.ones(score.shape, bool)
    search[:, :] = False
    assert not bases._far_rim_seen_whole(score, VIEW, CAMERA, 44.0, 4.0, 13.5, search)


def _taken(x=44.0, y=4.0, *, whole=True, figure_only=False):
    return Blob(x, y, 13.5, 0.3, 0.0, Evidence.YES, (x, y), 1, 1.0, stands_up=True, far_rim_whole=whole,
                figure_only=figure_only)


def test_a_fighter_taken_on_a_space_by_a_disc_with_a_whole_far_rim_is_a_firm_doubt():
    (doubt,) = bases._whole_rims_before_a_figure([_taken()], GEOMETRY)
    assert isinstance(doubt, FirmDoubt) and NEW_DOUBT in doubt


def test_no_doubt_without_a_whole_far_rim_off_every_space_or_placed_by_its_figure():
    assert not bases._whole_rims_before_a_figure([_taken(whole=False)], GEOMETRY)
    assert not bases._whole_rims_before_a_figure([_taken(y=60.0)], GEOMETRY)  # off the row: no space changes
    assert not bases._whole_rims_before_a_figure([_taken(figure_only=True)], GEOMETRY)


#: Read S6 with ok: true by main d9f4367 with the count and without (dev stack), 40-56 degrees up (the fighter's
#: figure seen past the pair: ``Evidence.YES``), its base the board's colour, the spaces' and a shade off the board's.
@pytest.mark.parametrize("label", [(40, -25, 5.0, 315, "board"), (48, 15, 8.0, 180, "board"),
                                   (56, -25, 5.0, 315, "space"), (56, -15, 5.0, 180, "near-board")])
@pytest.mark.parametrize("with_count", [False, True])
def test_a_resting_pair_before_a_dull_fighter_is_never_read_a_fighter(label, with_count):
    reading, truth = read_stacked_tokens(SET, label, with_count=with_count)
    assert not reading.ok or reading.occupied == truth, reading.occupied


@pytest.mark.parametrize("seed", [998903, 999739])
def test_real_fighters_whose_far_rim_is_faint_or_whole_are_still_read(seed):
    # 998903: of the used fighters with a figure seen past their base (998800-999099), the least change just past
    # the far rim, 0.49 of the base's (the rule asks under a third). 999739: a fighter on S3 seen from 77 degrees up,
    # its 36 mm figure inside its base, its far rim whole (0.07), standing up by faint change past it: from high
    # above a figure need not cross its base's far rim, so the rule asks only where a figure is seen past it (the
    # first version, asking standing discs too, doubted it).
    # (999739 without the count is a doubt on main too: change near (166, 15) mm that nothing explains.)
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert NEW_DOUBT not in (reading.error or ""), fighters
        if fighters is not None or seed != 999739:
            assert reading.ok and reading.occupied == tuple(truth), (fighters, reading.error)
