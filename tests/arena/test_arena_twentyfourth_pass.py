"""Twenty-fourth pass: a fighter read off every space while its base reaches over one is a doubt.

Fresh seed 350159 (told 2 fighters): a fighter on S4 with a base close to the board's colour,
seen from 35 degrees up. Its near rim barely changed, so the rim fit took its far part and the
figure's foot: a clear 25.4 mm disc 12 mm away from the camera, its centre 3.4 mm past S4's far
edge. On `main` that fighter was read off every space and ``occupied`` came out empty: a wrong
``ok: true``. The count was not the cause: without it the same placement carried no doubt of its
own (the reading was refused only for a token by the other fighter), and the count rightly
settled those. Now a fighter off every space whose base still reaches over a space (its centre
less than its radius from the outline) is a doubt, count or not (see docs/arena-reader.md,
"Twenty-fourth pass").
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, line_9, spec_scene
from vision.arena import read_arena
from vision.arena.bases import Blob, Evidence
from vision.arena.pose import CameraPosition
from vision.arena.reader import _decide
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
SETTINGS = ArenaSettings()
#: Straight in front of the board, 45 degrees up.
CAMERA = CameraPosition(centre_mm=(0.0, -350.0, 350.0), focal_px=800.0)
ALL_MARKERS = SimpleNamespace(markers_found=(10, 11, 12, 13), markers_used=(10, 11, 12, 13))


def test_the_fresh_scene_read_wrong_on_main_is_never_wrong_when_ok():
    assert_never_wrong_when_ok([350159], GEOMETRY)


def test_the_fresh_scene_names_the_fighter_off_every_space_with_and_without_the_count():
    live, reference, truth, count = spec_scene(350159, GEOMETRY)
    assert truth == ("S4",) and count == 2
    for fighters in (count, None):
        reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=fighters)
        assert not reading.ok
        assert "is off every space but its base reaches over one" in reading.error


def _clear_base(x: float, y: float) -> Blob:
    """A crisp 26 mm disc with its figure: a clear base."""
    return Blob(x, y, 13.0, 0.2, 0.0, Evidence.YES, (x, y), 1, 1.0)


def _read(*blobs: Blob, fighters: int | None):
    view = BoardView.of(GEOMETRY)
    width, height = view.size
    nothing_else = np.zeros((height, width), np.uint8)
    return _decide(list(blobs), nothing_else, view, CAMERA, ALL_MARKERS, GEOMETRY, SETTINGS, fighters)


@pytest.mark.parametrize("fighters", [None, 2])
@pytest.mark.parametrize("y", [20.0, 21.4, 30.0])
def test_a_fighter_off_every_space_whose_base_reaches_over_one_is_a_doubt(y, fighters):
    # S4 spans y -18..18; a 13 mm radius base centred up to 31 mm out still covers part of it.
    reading = _read(_clear_base(-120.0, 0.0), _clear_base(-42.4, y), fighters=fighters)
    assert not reading.ok
    assert "(-42, " in reading.error and "off every space but its base reaches over one" in reading.error


@pytest.mark.parametrize("fighters", [None, 2])
def test_a_fighter_clear_of_every_space_is_still_read_off_the_spaces(fighters):
    # Centred 16 mm past S4's far edge, more than its radius: its base covers no space.
    reading = _read(_clear_base(-120.0, 0.0), _clear_base(-40.0, 34.0), fighters=fighters)
    assert reading.ok, reading.error
    assert reading.occupied == ("S2",)
    assert [f.space for f in reading.fighters] == ["S2", None]


def test_a_fighter_well_on_a_space_is_read_on_it():
    reading = _read(_clear_base(-120.0, 0.0), _clear_base(-40.0, 9.0), fighters=2)
    assert reading.ok, reading.error
    assert reading.occupied == ("S2", "S4")
