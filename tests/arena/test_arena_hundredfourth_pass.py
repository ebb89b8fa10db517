"""The hundred-and-fourth pass: change on a free space that runs into a hand over a covered marker -- a negative result.

A hand over marker 10-13 comes in over the board's edge and covers the marker's kept-out square; the change it
makes is one region, which the reader passes over as the hand's (``hiding.reaches_covered_marker``). A small
fighter standing by it (on S9's right-hand edge under marker 11's hand, its base the spaces' colour) makes change
that joins that region: what is left of it on the space alone is under the 60 mm^2 an unexplained area needs, and
3305f32 reads the board empty with ``ok: true`` (the hundredth pass's probe). The rule tried, a doubt wherever a
hand's region covers over 20 mm^2 of a free space, took those away, but a hand alone spills 20-54 mm^2 on to S1's or
S9's back corner in 17 used scenes read right (and 88-97 mm^2 in others), where the fighter's part was 55-64 mm^2:
no margin, and it cost more right readings than it saved. It was taken out; these tests guard what it broke, and
hold the wrong readings as strict xfails. See docs/arena-reader.md, "Hundred-and-fourth pass"."""

from __future__ import annotations

import pytest

from arena_scenes import SPACE, line_9, read_both_ways, render, scene, spec_scene
from vision.arena import read_arena
from vision.synth.arena_scene import CameraPose, Miniature

GEOMETRY = line_9()


def _pose(elevation: float, azimuth: float) -> CameraPose:
    return CameraPose(distance_mm=550 if elevation >= 80 else 450, elevation_deg=elevation, azimuth_deg=azimuth)


def _small_fighter(space: str, dx: float, dy: float, base=SPACE) -> Miniature:
    """The corner sweep's small fighter (25 mm base, a 26 mm figure 8 mm wide), ``dx``, ``dy`` off the space's
    centre."""
    sx, sy = GEOMETRY.spaces[space]
    return Miniature(sx + dx, sy + dy, base_mm=25.0, base_bgr=base, figure_bgr=(160, 90, 90), figure_height_mm=26.0,
                     figure_width_mm=8.0)


def _read(pose: CameraPose, minis=(), hidden=(), seed=1, fighters=None):
    live = scene(pose, minis=minis, hidden=hidden, seed=seed)
    return read_arena(render(live, GEOMETRY), render(scene(pose, seed=99), GEOMETRY), GEOMETRY, annotate=False,
                      fighters=fighters)


@pytest.mark.xfail(strict=True, reason="found, not fixed: 3305f32 reads it ok: true with no fighter (no rule kept)")
@pytest.mark.parametrize("elevation, azimuth, dy", [(55, 0, 15.0), (55, 0, 0.0), (55, 25, 15.0)])
def test_a_small_fighter_whose_change_joins_a_hands_is_not_read_away(elevation, azimuth, dy):
    # The other three of the hundredth pass's six (its tests hold the first three): read ok: true with no fighter;
    # the fighter's change on S9 outside the hand's region is under 60 mm^2, the rest joins the hand's.
    reading = _read(_pose(elevation, azimuth), minis=(_small_fighter("S9", 15.0, dy),), hidden=(11,))
    assert len(reading.markers_found) == 3
    assert not reading.ok or reading.occupied == ("S9",), reading.occupied


@pytest.mark.parametrize("elevation, azimuth, marker, seed", [(55, 0, 11, 1), (55, -25, 11, 2), (80, 0, 10, 1),
                                                              (55, 25, 12, 1), (35, -25, 13, 2)])
def test_a_hand_alone_that_keeps_off_the_spaces_is_read_empty(elevation, azimuth, marker, seed):
    # A hand over a covered marker whose change stays off every space (or grazes one) says nothing of them.
    reading = _read(_pose(elevation, azimuth), hidden=(marker,), seed=seed)
    assert len(reading.markers_found) == 3
    assert reading.ok and reading.occupied == (), reading.error


@pytest.mark.parametrize("seed", [900004, 900220, 930020, 950130])
def test_a_hands_spill_on_an_end_space_alone_is_read_right(seed):
    # Used scenes whose hand over marker 10 or 11 spills 38-54 mm^2 on to S1's or S9's back corner, nothing else
    # there: read right with ok: true with and without the count. The rule tried here made each a doubt.
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert reading.ok and reading.occupied == truth, (fighters, reading.error)
