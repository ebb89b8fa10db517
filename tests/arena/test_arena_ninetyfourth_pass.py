"""The ninety-fourth pass: with the count, a fighter's base fitted a little small (a crisp rim just past the
token/base cut, inside the margin where size alone is not trusted) may stand in for the fighter the count says
is missing (``bases._just_past_the_cut``). See docs/arena-reader.md, "Ninety-fourth pass"."""

from __future__ import annotations

import math

import pytest

from arena_scenes import assert_read_right_with_the_count, line_9, spec_scene
from vision.arena import bases, read_arena, reader
from vision.arena.settings import ArenaSettings

GEOMETRY = line_9()
SETTINGS = ArenaSettings()
#: Used spec seeds, seen from high above: (the fighter left untaken, its base fitted 24.6-24.8 mm, crisp).
CASES = {900183: (74.0, -5.0), 910023: (35.0, 3.0), 920192: (85.0, -4.0), 950249: (3.0, 8.0)}


def _blobs(seed, monkeypatch):
    """The discs ``select_bases`` was given reading the scene with the count."""
    seen = {}
    rule = reader.select_bases

    def spying(blobs, *args, **kwargs):
        seen["blobs"] = blobs
        return rule(blobs, *args, **kwargs)

    monkeypatch.setattr(reader, "select_bases", spying)
    live, reference, _, count = spec_scene(seed, GEOMETRY)
    read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    return seen["blobs"]


@pytest.mark.parametrize("seed", sorted(CASES))
def test_the_base_fitted_small_stands_in_with_the_count(seed):
    # On 2b651d2 each was "the camera sees 1 fighter(s) where 2 stand" (one fighter standing alone: sees 0 of 1).
    assert_read_right_with_the_count(seed, GEOMETRY)


@pytest.mark.parametrize("seed", sorted(CASES))
def test_the_disc_is_just_past_the_cut(seed, monkeypatch):
    blobs = _blobs(seed, monkeypatch)
    x, y = CASES[seed]
    disc = min(blobs, key=lambda b: math.hypot(b.x_mm - x, b.y_mm - y))
    cut = bases._size_cut(SETTINGS)
    assert cut <= disc.diameter_mm < cut + bases.SIZE_MARGIN_MM
    assert bases._just_past_the_cut(disc, SETTINGS) and not bases._base_like(disc, SETTINGS)
    # Not below the cut (nearer the largest token), not a ragged rim, not where a figure is ruled out.
    assert not bases._just_past_the_cut(bases.replace(disc, radius_mm=(cut - 0.2) / 2), SETTINGS)
    assert not bases._just_past_the_cut(bases.replace(disc, fit_error_mm=bases.CRISP_RIM_MM + 0.1), SETTINGS)
    assert not bases._just_past_the_cut(bases.replace(disc, figure=bases.Evidence.NO), SETTINGS)


@pytest.mark.parametrize("seed", sorted(CASES))
def test_without_the_count_nothing_is_said_that_was_not(seed):
    # The rule is on the count's path only: without it the reading is a doubt, as it was.
    live, reference, _, _ = spec_scene(seed, GEOMETRY)
    assert not read_arena(live, reference, GEOMETRY, annotate=False).ok
