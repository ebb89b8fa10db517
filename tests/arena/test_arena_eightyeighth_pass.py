"""Eighty-eighth pass: ``resting-behind``'s last wrong ``ok: true``, (80, 0, 11, 225, True): a vivid 22 mm token
resting 11 mm off a faint 22 mm one on S6, seen from 80 degrees up, read by ``main`` as a fighter on S6 with
``ok: true``, with the count and without. The pair fits one crisp, solid, one-step 23.3 mm disc (the upper token,
just over a token's size) that "stands up" by the faint lower token showing 8 mm past its far rim; the fighter
behind (off the row) plays no part: the same pair with no fighter, 4 or 8 mm further back on S6, is read so too.
A disc of neither size fitted nearer a token's size than a base's (under the size cut) is now asked, as a ringed
one already was, whether what stands up behind it ends within a resting token's reach
(``bases._may_stand_up_by_a_token``); if so it is unsure. See docs/arena-reader.md, "Eighty-eighth pass"."""

from __future__ import annotations

import math

import pytest

from arena_scenes import bench_module, line_9, read_both_ways, read_stacked_tokens
from vision.arena import bases
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.settings import ArenaSettings
from vision.synth.arena_scene import CameraPose, Token

SETTINGS = ArenaSettings()
GEOMETRY = line_9()


@pytest.mark.parametrize("with_count", [False, True])
def test_the_pair_before_the_fighter_is_never_a_wrong_ok(with_count):
    reading, truth = read_stacked_tokens("resting-behind", (80, 0, 11.0, 225, True), with_count=with_count)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


def _resting_pair_alone(y_mm: float):
    """The same pair (a vivid 22 mm token 11 mm off a faint 22 mm one towards 225 degrees) on S6, lower token's
    centre at (40, y_mm), no fighter, 80 degrees up: the live and reference images."""
    bench = bench_module("arena_stacked_tokens")
    dx = dy = -11.0 / math.sqrt(2)
    pair = (Token(40.0, y_mm, 22.0, 3.0, bench.FAINT_TOKEN),
            Token(40.0 + dx, y_mm + dy, 22.0, 3.0, (200, 40, 180), z_mm=3.0))
    pose = CameraPose(distance_mm=450, elevation_deg=80, azimuth_deg=0)
    return (bench.render_scene(bench._scene(pose, (), pair), GEOMETRY),
            bench.render_scene(bench._scene(pose, seed=99), GEOMETRY))


@pytest.mark.parametrize("y_mm", [4.0, 8.0])
def test_the_pair_alone_is_never_read_a_fighter(y_mm):
    # main read both S6 with ok: true: the fighter behind was never what made the pair stand up.
    live, reference = _resting_pair_alone(y_mm)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, 0):
        assert not reading.ok or reading.occupied == (), (fighters, reading.occupied, reading.error)


def test_the_reach_is_asked_of_a_one_step_disc_nearer_a_tokens_size():
    cut = bases._size_cut(SETTINGS)
    assert bases._may_stand_up_by_a_token(23.3, 0.0, 0.0, SETTINGS)  # the pair, one step, 23.3 mm, nothing ahead
    assert bases._may_stand_up_by_a_token(cut + 0.5, 0.5, 0.0, SETTINGS)  # ringed: asked as before
    # Seed 100041's fighter, a 24.7 mm base one step from the board (nearer a base's size): not asked.
    assert not bases._may_stand_up_by_a_token(24.7, 0.0, 0.0, SETTINGS)
    assert not bases._may_stand_up_by_a_token(cut, 0.0, 0.0, SETTINGS)
    # More of it nearer the camera (a tall figure's head, spec seed 250134: 23.5 mm, 0.71 ahead): unsure already.
    assert not bases._may_stand_up_by_a_token(23.5, 0.0, 0.71, SETTINGS)


#: The pair's disc as measured: crisp, solid, one step, standing up, seen from so high that a figure stays over
#: its base (figure UNKNOWN).
PAIR = Blob(32.7, 1.1, 11.65, 0.10, 0.0, Evidence.UNKNOWN, (32.7, 1.1), 2, 1.0, stands_up=True)


def test_standing_up_within_a_resting_tokens_reach_is_no_figure():
    assert bases.classify(PAIR, SETTINGS) is Kind.FIGHTER  # standing up past it: the figure of a high camera
    assert bases.classify(bases.replace(PAIR, within_resting_reach=True), SETTINGS) is Kind.UNSURE
