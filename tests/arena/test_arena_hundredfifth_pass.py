"""The hundred-and-fifth pass: the hundred-and-first pass's overlapping pair before a fighter on a dull base, drawn
as a real pair lies (``bench/arena_stacked_tokens.py --set overlap-behind-board-resting``): the 19.2 mm token resting
level on the 21.6 mm one, 3.1 mm up, not overlapping it flat on the board. Main's wrong ``ok: true`` is not the flat
drawing's: the physical set is read wrong more often (with the count 77 of 252 against 44, ``--every 5``), on both
stacks, all through ``classify`` (a crisp solid pair fitted base-sized, inside the clear limit, a figure past it).
No rule here: these pin what main reads. See docs/arena-reader.md, "Hundred-and-fifth pass"."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from arena_scenes import BOARD, bench_module, line_9, read_stacked_tokens
from test_arena_eightysecond_pass import _stacked_pair_before_a_fighter
from vision.synth.arena_scene import render_scene

GEOMETRY = line_9()
SET = "overlap-behind-board-resting"
ON_OPENCV_5 = cv2.__version__.startswith("5.")
LEFT = "left in the hundred-and-fifth pass: the resting pair fits one crisp, solid, base-sized disc with a figure past it"


def _jobs(which):
    return {job[1]: job for job in bench_module("arena_stacked_tokens").jobs(which)}


def test_the_set_holds_the_eighty_second_pass_resting_pair():
    bench = bench_module("arena_stacked_tokens")
    _, _, pose, minis, tokens, _ = _jobs(SET)[(48, 0, 8.0, 0, "board")]
    live = render_scene(bench._scene(pose, minis, tokens), GEOMETRY)
    assert np.array_equal(live, _stacked_pair_before_a_fighter(48, 0, 8.0, 0, BOARD, resting=True)[0])


def test_every_upper_token_rests_level_on_the_lower_at_the_flat_sets_places():
    # Its centre over the lower token's top, so it lies level on it (no tilt), one token's thickness up; the fighter
    # and the footprints are the flat set's, pose for pose.
    flat = _jobs("overlap-behind-board")
    resting = _jobs(SET)
    assert resting.keys() == flat.keys()
    for label, (_, _, _, minis, (lower, upper), _) in resting.items():
        assert math.hypot(upper.x_mm - lower.x_mm, upper.y_mm - lower.y_mm) < lower.diameter_mm / 2
        assert upper.z_mm == lower.thickness_mm and lower.z_mm == 0.0
        _, _, _, flat_minis, flat_tokens, _ = flat[label]
        assert minis == flat_minis
        assert [(t.x_mm, t.y_mm) for t in flat_tokens] == [(lower.x_mm, lower.y_mm), (upper.x_mm, upper.y_mm)]


@pytest.mark.parametrize("with_count", [False, True])
def test_a_resting_pair_before_a_ringed_fighter_is_never_read_a_fighter(with_count):
    # The fighter's base, the board's colour, fitted a crisp ring right behind the pair: the hundred-and-first
    # pass's doubt (both stacks).
    reading, truth = read_stacked_tokens(SET, (48, 0, 8.0, 0, "board"), with_count=with_count)
    assert not reading.ok or reading.occupied == truth, reading.occupied


#: Read S6 with ok: true by main 73f0eb7, with the count and without: on numpy 1.24 + OpenCV 4.11 only (on OpenCV 5 the
#: ring behind is fitted crisp and the hundred-and-first pass's rule doubts it; the flat pair at this pose is the
#: reverse, wrong on OpenCV 5 only).
@pytest.mark.xfail(not ON_OPENCV_5, strict=True, reason=LEFT + " (numpy 1.24 + OpenCV 4.11: no crisp ring behind)")
@pytest.mark.parametrize("with_count", [False, True])
def test_a_resting_pair_seen_from_56_degrees_before_a_board_coloured_fighter_is_never_read_a_fighter(with_count):
    reading, truth = read_stacked_tokens(SET, (56, 0, 8.0, 0, "board"), with_count=with_count)
    assert not reading.ok or reading.occupied == truth, reading.occupied


#: Read S6 with ok: true by main 73f0eb7 on both stacks, with the count and without. (48, 0, 8, 0, space): the flat
#: pair fits 30 mm there, a doubt by its size; resting, 29 mm, inside the clear limit, its figure YES (the fighter's
#: behind). (72, 0, 8, 0, board): the fighter's base is fitted a crisp 27.8 mm ring 0.67 changed, but nothing is seen
#: standing on it from 72 degrees (its figure's top inside it), so it is no base of its own to the rule. The first a
#: doubt since the hundred-and-eighth pass (its far rim seen whole past the figure's evidence): its mark removed.
@pytest.mark.parametrize("label", [(48, 0, 8.0, 0, "space"),
                                   pytest.param((72, 0, 8.0, 0, "board"),
                                                marks=pytest.mark.xfail(strict=True, reason=LEFT))])
@pytest.mark.parametrize("with_count", [False, True])
def test_a_resting_pair_before_a_dull_fighter_is_never_read_a_fighter(label, with_count):
    reading, truth = read_stacked_tokens(SET, label, with_count=with_count)
    assert not reading.ok or reading.occupied == truth, reading.occupied
