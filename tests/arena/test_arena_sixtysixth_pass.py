"""Sixty-sixth pass: blind spot 1 (a small fighter on a space's corner hidden behind a taller fighter's
figure, built by ``bench/arena_corner_sweep.py``: read away with ``ok: true`` on main without the fighter
count), and the spec scenes a rule for it must keep.

The sixty-second pass's rule (a base is opaque, so where a space's printed outline shows in the live view
as printed no base stands over it; a place hidden behind a figure with no seen print under its base is a
doubt) was ported onto main and measured again here: it closes the sweep's scenes behind a taller one, but
doubts spec scenes main reads right, where the print a base would cover lies under the fighter in front's
own change (honest room by its premises, a right reading lost all the same). The narrower forms tried did
not keep both (see docs/arena-reader.md, "Sixty-sixth pass"), so the reader does not ask it: the sweep
scenes below are strict xfails (they pass with a rule that closes them), and the spec scenes are guards
that such a rule must keep (right on main; each a doubt with the sixty-second pass's rule asked)."""

from __future__ import annotations

import pytest

from arena_scenes import bench_module, line_9, spec_scene
from vision.arena import read_arena

GEOMETRY = line_9()
SWEEP = bench_module("arena_corner_sweep")
#: Sweep scenes of a small fighter on a space's corner behind a taller one (elevation, azimuth, space,
#: corner, base colour).
BEHIND_A_TALLER_ONE = [
    (35, -25, "S1", "back-right", "space"),
    (45, 0, "S5", "back-right", "board"),
    (60, 25, "S5", "front-right", "space"),
    (60, 25, "S8", "front-left", "board"),
    (45, -25, "S9", "back-left", "space"),
]


@pytest.mark.xfail(strict=True, reason="blind spot 1 is open on main: the small fighter's body is wholly in the taller "
                   "figure's change, explained as that figure (docs/arena-reader.md, sixty-sixth pass)")
@pytest.mark.parametrize("label", BEHIND_A_TALLER_ONE)
def test_a_small_fighter_behind_a_taller_one_on_a_corner_is_not_read_away(label):
    # Read on main as ok: true without the small fighter (a wrong answer); a doubt naming its space
    # would be honest. (45, -25, S9, back-left) is the scene test_arena_fortyseventh_pass's fighter moved
    # onto S5 resembles: a fighter on S8 in front of S9's back-left corner, seen from about 45 degrees.
    (job,) = [j for j in SWEEP.jobs("behind") if j[1] == label]
    reading, truth = SWEEP.read_one(job)
    assert label[2] in truth
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)


@pytest.mark.parametrize("label", BEHIND_A_TALLER_ONE)
def test_with_the_count_the_same_scenes_are_never_a_wrong_ok(label):
    # With the count the fighter missing is seen to be missing: a doubt on main already.
    (job,) = [j for j in SWEEP.jobs("behind") if j[1] == label]
    reading, truth = SWEEP.read_one(job, with_count=True)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)


@pytest.mark.parametrize("seed", [790085, 790238, 790252, 790054, 790133, 790278])
def test_spec_scenes_with_a_fighter_in_front_of_a_free_space_are_read(seed):
    # The sixty-second pass's fresh readings it lost. 790085 (places on S4's front-left behind an off-row
    # fighter's figure), 790238 (S1's right outline behind S2's fighter) and 790252 (S9's back-left behind
    # S8's) are still doubts with its rule asked on today's main: the outline under those places lies
    # under that fighter's own change. The other three read right with it now. Right on main: a rule for
    # blind spot 1 must keep them.
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth


@pytest.mark.parametrize("seed", [630015, 630066, 630097, 330374])
def test_spec_scenes_with_room_the_print_rules_out_are_read(seed):
    # The sixty-second pass's guards: places where a small fighter's body would hide in a taller one's
    # figure, whose outline shows as printed (or whose base would overlap a placed base). Right on main.
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth
