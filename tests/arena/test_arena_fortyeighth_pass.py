"""Forty-eighth pass: a fighter on a space's corner whose base is the spaces' colour changes the view only
off the space (its base over the board, its figure leaning away from the camera): where change that no
base, figure or token explains holds the whole body of a fighter standing on a free space, the reading is
a doubt (the forty-fourth pass's blind spot 2, built by ``bench/arena_corner_sweep.py``: read away with
``ok: true`` on main). A hand over a covered marker is no such figure (spec scenes with one stay right).
See docs/arena-reader.md, "Forty-eighth pass"."""

from __future__ import annotations

import pytest

from arena_scenes import bench_module, line_9, render, scene, spec_scene
from vision.arena import read_arena
from vision.synth.arena_scene import CameraPose, Miniature

GEOMETRY = line_9()
NEW_DOUBT = "shows in change that no base, figure or token explains"


SWEEP = bench_module("arena_corner_sweep")


@pytest.mark.parametrize("label", [
    (35, 0, "S5", "back-right", "space"),
    (45, 0, "S5", "back-right", "space"),
    (60, 0, "S6", "back-right", "space"),
])
def test_a_lone_fighter_on_a_back_corner_is_a_doubt_not_an_empty_space(label):
    # Read on main as ok:true with no fighter (its base the spaces' colour, centred 15 mm off the
    # space's centre both ways: nothing on the space changed).
    (job,) = [j for j in SWEEP.jobs("alone") if j[1] == label]
    for count in (None, 1):
        reading, truth = SWEEP.read_one(job, with_count=count is not None)
        assert truth == (label[2],)
        assert not reading.ok, (count, reading.occupied)
    reading, _ = SWEEP.read_one(job)
    assert f"on {label[2]}'s outline {NEW_DOUBT}" in reading.error


def test_the_same_fighter_at_the_spaces_middle_is_still_read():
    # The figure of a fighter on a space, taken by its base, is explained: no doubt of it.
    pose = CameraPose(distance_mm=450, elevation_deg=45, azimuth_deg=0)
    fighter = Miniature(40.0, 0.0, base_mm=26.5, base_bgr=(40, 40, 160), figure_bgr=(160, 90, 90), figure_height_mm=26.0,
                        figure_width_mm=8.0)
    reading = read_arena(render(scene(pose, minis=(fighter,)), GEOMETRY), render(scene(pose, seed=99), GEOMETRY), GEOMETRY,
                         annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == ("S6",)


@pytest.mark.parametrize("seed", [580027, 580071, 580085])
def test_a_hand_over_a_covered_marker_is_no_figure_on_the_end_space(seed):
    # A hand over marker 11 (or 10) reaches past the kept-out square towards S9's (S1's) back corner:
    # a figure's body fits in its change. It runs up to the covered marker as a hand does: still ok.
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth


@pytest.mark.parametrize("seed", [250009, 250134, 250246, 100166, 330374, 330441])
def test_spec_scenes_the_dropped_rules_broke_read_as_before(seed):
    # The forty-fourth pass's rule (1) doubted the first five (a neighbour's figure over a space's
    # outline); 330441 has a fighter off the row right behind S9, its base cut by marker 11's kept-out
    # square and fitted by no disc: a body fits in its change, but that change does not meet S9 (and
    # has no body from the base's top up there). This rule is never the only doubt: ok and occupied
    # as before (250246 and 100166 are doubts on main, with a fighter there).
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    doubts = reading.error.split(": ", 1)[1].rstrip(".").split("; ") if reading.error else []
    assert not doubts or not all(NEW_DOUBT in d for d in doubts), reading.error
    assert not reading.ok or reading.occupied == truth
