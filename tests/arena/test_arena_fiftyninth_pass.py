"""Fifty-ninth pass: two fighters one right behind the other on the line away from the camera, seen from so
high that a figure stays over its base (the fifty-third pass's doubt group A; see docs/arena-reader.md,
"Fifty-ninth pass").

``_one_behind_the_other``: the disc in front, standing up, is left unsure by the base right behind it
(``_figure_is_a_base_behind``: that base may be what its standing up is), and the base behind by the change
in front of it (the front one's figure). Where the disc in front is apart from the base behind by more than
fitting error, and a base by its size alone *with* the checks a disc not standing up gets (crisp, solid, one
step from the board, round both ways: ``pinched_alone_mm``), and the base behind stands up by itself with the
change in front of it all on the front disc or where its figure shows, the two are two fighters.

A pair of tokens fitted base-sized with a fighter a few mm behind it (``bench/arena_stacked_tokens.py --set
gap-behind``) fits within fitting error of that fighter's base (-1.8 to 1.0 mm apart, 61 degrees up, though
3 mm apart on the table): a rim fitted against a touching disc may have taken in part of it, so its size is no
evidence there; without the "apart" condition the rule read seven such scenes S6 with ok: true (six of the 70
``gap-behind`` scenes it was tried on, 61 degrees up, and one of ``resting-behind``).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.arena.arena_scenes import bench_module, read_both_ways, spec_scene
from vision.arena import bases, load_geometry, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import render_scene

SETTINGS = ArenaSettings()
#: In front of the board and above it (some 70 degrees up at x 40): away from the camera is +y.
CAMERA = CameraPosition(centre_mm=(40.0, -150.0, 420.0), focal_px=800.0)
VIEW = BoardView(440, 160, 3.0)
GAP_MM = 6.4  # (fresh 670076: the two fits 6.4 mm apart)

#: Fresh 670076 as measured (67 degrees up): a crisp solid 26.9 mm disc standing up, round both ways, and a
#: crisp solid 27.5 mm base behind it, its far outline running on, unsure only by 0.62 of the band ahead.
FRONT = Blob(40.0, 0.0, 13.45, 0.08, 0.0, Evidence.UNKNOWN, (40.0, 0.0), 1, 1.0, stands_up=True,
             pinched_alone_mm=0.03)
_BEHIND_Y = FRONT.radius_mm + 13.75 + GAP_MM


def _ahead(x_offsets) -> tuple:
    """Changed points of the band in front of the base behind, at these offsets across."""
    near = _BEHIND_Y - 13.75
    return tuple((40.0 + dx, near - d) for dx in x_offsets for d in (1.0, 6.0, 8.0))


BEHIND = Blob(40.0, _BEHIND_Y, 13.75, 0.13, 0.0, Evidence.UNKNOWN, (40.0, _BEHIND_Y), 1, 1.0, ahead=0.62,
              short_behind_mm=-5.1, runs_on_behind=True,
              ahead_points=_ahead(range(-6, 7)), ahead_looked=63)


def _seen(behind: Blob = BEHIND):
    """The change: both discs, and the front one's figure joining them (its top over the gap)."""
    w, h = VIEW.size
    mask = np.zeros((h, w), np.uint8)
    for blob in (FRONT, behind):
        u, v = VIEW.to_px(blob.x_mm, blob.y_mm)
        cv2.circle(mask, (round(u), round(v)), round(blob.radius_mm * VIEW.px_per_mm), 1, -1)
    u0, v0 = VIEW.to_px(FRONT.x_mm - 7.0, behind.y_mm)
    u1, v1 = VIEW.to_px(FRONT.x_mm + 7.0, FRONT.y_mm)
    cv2.rectangle(mask, (round(u0), round(v0)), (round(u1), round(v1)), 1, -1)
    return mask, VIEW, None


def _one_behind(front: Blob = FRONT, behind: Blob = BEHIND):
    return bases._one_behind_the_other(front, [front, behind], CAMERA, SETTINGS, _seen(behind))


def test_the_measured_discs_are_group_a():
    # Each unsure by the other: the front one by the base behind it, carrying its standing up on; the one
    # behind by the change in front of it.
    assert bases.classify(FRONT, SETTINGS) is Kind.FIGHTER
    assert bases._figure_is_a_base_behind(FRONT, [FRONT, BEHIND], CAMERA, SETTINGS, seen=_seen())
    assert bases.classify(BEHIND, SETTINGS) is Kind.UNSURE
    assert bases._a_fighter_but_for_change_in_front(BEHIND, SETTINGS)


def test_two_fighters_one_right_behind_the_other():
    assert _one_behind() is BEHIND


def test_not_within_fitting_error_of_each_other():
    # A token pair fitted base-sized against a fighter's base just behind it (gap-behind: -1.8 to 1.0 mm).
    for gap in (-1.8, 0.0, 1.0, 2.9):
        y = FRONT.radius_mm + 13.75 + gap
        near = replace(BEHIND, y_mm=y, peak_mm=(40.0, y),
                       ahead_points=tuple((px, py - GAP_MM + gap) for px, py in BEHIND.ahead_points))
        assert _one_behind(behind=near) is None, gap


@pytest.mark.parametrize("change", [
    dict(pinched_alone_mm=None),  # (not measured)
    dict(pinched_alone_mm=0.9),  # a base's size one way only
    dict(tiered=0.5),  # a fainter ring: not one step
    dict(coverage=0.95),  # not all of its disc changed
    dict(fit_error_mm=0.7),  # not crisp
    dict(figure=Evidence.YES),  # seen from lower: a figure's evidence of its own, not asked here
])
def test_not_unless_the_front_disc_is_a_base_by_its_size_alone(change):
    assert _one_behind(front=replace(FRONT, **change)) is None


@pytest.mark.parametrize("change", [
    dict(runs_on_behind=False),  # neither standing up nor running on: no figure of its own shows
    dict(tiered=0.5),  # a figure's foot in a faint ring, not a clear solid base
    dict(ahead_points=_ahead((-20, -19, -18, -17, -16, 16, 17, 18, 19, 20))),  # change ahead off the front one's figure
])
def test_not_unless_the_one_behind_is_a_base_but_for_the_front_ones_figure(change):
    assert _one_behind(behind=replace(BEHIND, **change)) is None


def test_without_the_change_joined_nothing_is_asked():
    # (Bare board between them: the front disc is not unsure by the base behind at all, the fifty-third pass.)
    mask, view, _ = _seen()
    mask[:] = 0
    assert not bases._figure_is_a_base_behind(FRONT, [FRONT, BEHIND], CAMERA, SETTINGS, seen=(mask, view, None))


# --- spec and built scenes --------------------------------------------------------------------------------

def test_670076_now_read_right_without_the_count(geometry):
    # A fighter off the row in front of S4's, 6.4 mm apart, 67 degrees up: a doubt on `main`.
    live, reference, truth, _ = spec_scene(670076, geometry)
    reading = read_arena(live, reference, geometry, ArenaSettings(), annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth


#: ``gap-behind`` scenes (the pair 3 mm in front of the fighter, 61 degrees up) and one of ``resting-behind``
#: that the rule without its "apart" condition read S6 with ok: true (each a doubt on `main`).
TOUCHING_FITS = [
    ("gap-behind", (61, -20, 11.0, 180, 3.0, True)), ("gap-behind", (61, 20, 5.0, 45, 3.0, True)),
    ("gap-behind", (61, -20, 5.0, 0, 3.0, False)), ("gap-behind", (61, -20, 5.0, 180, 3.0, False)),
    ("gap-behind", (61, -20, 11.0, 0, 3.0, False)), ("gap-behind", (61, 20, 5.0, 0, 3.0, False)),
    ("resting-behind", (61, -20, 11.0, 180, False)),
]


@pytest.mark.parametrize("which, label", TOUCHING_FITS)
def test_a_pair_fitted_against_a_fighter_just_behind_is_never_read_as_one(which, label):
    bench = bench_module("arena_stacked_tokens")
    (job,) = [j for j in bench.jobs(which) if j[1] == label]
    _, _, pose, minis, tokens, truth = job
    geometry = load_geometry(bench.LAYOUT)
    live = render_scene(bench._scene(pose, minis, tokens), geometry)
    reference = render_scene(bench._scene(pose, seed=99), geometry)
    for fighters, reading in read_both_ways(live, reference, geometry, len(minis)):
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied, reading.error)


#: `main`'s own wrong reading in ``gap-behind``, left as it was by this pass (the rule is not asked: the pair
#: does not stand up): two vivid 22 mm tokens 5 mm apart across the line to the camera, a fighter 4.5 mm
#: behind them off the row, 67 degrees up. Alone the pair is pinched 1.9 mm (a doubt); with the fighter's
#: change joined to its far side the pinched check, which takes the longer of the two rays each way, sees
#: 0.25 mm, and the pair is a base by its size alone: S6, ok: true. (22 such scenes without the count.)
def test_a_pair_with_a_fighter_a_few_mm_behind_is_never_read_as_one():
    bench = bench_module("arena_stacked_tokens")
    (job,) = [j for j in bench.jobs("gap-behind") if j[1] == (67, -20, 5.0, 0, 4.5, False)]
    _, _, pose, minis, tokens, truth = job
    geometry = load_geometry(bench.LAYOUT)
    reading = read_arena(render_scene(bench._scene(pose, minis, tokens), geometry),
                         render_scene(bench._scene(pose, seed=99), geometry), geometry, annotate=False)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)
