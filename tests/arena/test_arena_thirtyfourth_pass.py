"""Thirty-fourth pass: change that runs up to a covered marker (one not found) may be the edge of
the hand over it, cut off by the square kept out round the marker: a fighter read from it is a
doubt (see docs/arena-reader.md, "Thirty-fourth pass"). Fresh seed 440017 (no fighter on any
space, marker 11 under a hand) was read on `main` as ok with a fighter on S9."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from arena_scenes import bench_module
from vision.arena import load_geometry
from vision.arena.hiding import marker_keep_out, reaches_covered_marker
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

ROOT = Path(__file__).resolve().parents[2]
GEOMETRY = load_geometry(ROOT / "assistant" / "boxes" / "data" / "arenas" / "line-9.toml")
VIEW = BoardView.of(GEOMETRY)
#: In front of the board and above it: away from it is about +y.
CAMERA = CameraPosition(centre_mm=(0.0, -350.0, 300.0), focal_px=800.0)


def _region_beside(marker_id: int, gap_mm: float, width_mm: float) -> np.ndarray:
    """A changed strip ``width_mm`` wide (in x) and 10 mm deep, ``gap_mm`` in front of (towards the
    camera from) the middle of a marker's kept-out square: as a hand over it would leave."""
    x0, y0, x1, y1 = marker_keep_out(GEOMETRY, marker_id)
    region = np.zeros(VIEW.size[::-1], bool)
    middle = (x0 + x1) / 2
    rows, cols = VIEW.rect_mask(middle - width_mm / 2, y0 - gap_mm - 10, middle + width_mm / 2, y0 - gap_mm)
    region[rows, cols] = True
    return region


def test_the_hand_over_marker_11_is_never_a_fighter_on_s9():
    seed, verdict, truth, occupied, error, markers = bench_module("arena_accuracy").run_one((440017, False, False))
    assert truth == () and markers == 3  # (the premise: no fighter on a space, one marker covered)
    assert verdict != "WRONG", (occupied, error)
    assert verdict == "doubt" and "marker 11" in error


def test_with_the_count_it_stays_a_doubt():
    seed, verdict, truth, occupied, error, markers = bench_module("arena_accuracy").run_one((440017, True, False))
    assert verdict == "doubt", (occupied, error)


def test_change_running_up_to_a_covered_marker_wider_than_a_base_is_found():
    found = tuple(m for m in GEOMETRY.markers if m != 11)
    assert reaches_covered_marker(_region_beside(11, 0.5, 40.0), VIEW, GEOMETRY, found, CAMERA) == 11


def test_change_beside_a_found_marker_well_apart_or_as_narrow_as_a_figure_is_not():
    every = tuple(GEOMETRY.markers)
    assert reaches_covered_marker(_region_beside(11, 0.5, 40.0), VIEW, GEOMETRY, every, CAMERA) is None
    found = tuple(m for m in GEOMETRY.markers if m != 11)
    assert reaches_covered_marker(_region_beside(11, 8.0, 40.0), VIEW, GEOMETRY, found, CAMERA) is None
    # A figure leaning away from the camera onto the square meets it only as wide as itself.
    assert reaches_covered_marker(_region_beside(11, 0.5, 15.0), VIEW, GEOMETRY, found, CAMERA) is None
