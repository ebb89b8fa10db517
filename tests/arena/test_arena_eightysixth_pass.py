"""Eighty-sixth pass: the eighty-fourth pass's foot rule (``_figure_rising_out_of_its_foot``) brought onto main.

A figure's foot fitted as a token-sized disc is read as its fighter only where that fighter's base went unfitted:
where a base-sized disc overlaps the foot, the base was fitted and the fighter is read by it (``_in_a_fitted_base``
clears ``rises_out``). Without that, fresh 350159's foot, fitted 9 mm inside its base (fitted 25.4 mm on its far
part, off every space but reaching over S4), was taken first as nearer the camera and pushed the base out of the
reading, and with it the twenty-fourth pass's doubt. 900003, the best reading's old doubt, is read ok and right
with the rule (see docs/arena-reader.md, "Eighty-sixth pass")."""

from __future__ import annotations

import pytest

from arena_scenes import line_9, read_both_ways, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence

GEOMETRY = line_9()


def _disc(x: float, y: float, diameter: float) -> Blob:
    return Blob(x, y, diameter / 2, 0.3, 0.0, Evidence.YES, (x, y), 1, 1.0, stands_up=True)


def test_two_touching_fighters_the_best_reading_tests_once_used_are_read_right():
    # 900003: S3's fighter sure; S4's foot fitted 20 mm, its figure running on out of it: a fighter now.
    live, reference, truth, count = spec_scene(900003, GEOMETRY)
    assert truth == ("S3", "S4")
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert reading.ok and reading.occupied == truth, (fighters, reading.error)


def test_a_foot_is_in_a_fitted_base_only_where_a_base_sized_disc_overlaps_it():
    foot = _disc(0.0, 0.0, 9.0)
    base_over_it = _disc(1.0, 8.0, 25.4)  # 350159's: the foot 8 mm off the base's centre
    base_apart = _disc(0.0, 30.0, 26.0)  # behind it, not overlapping: _base_in_its_run's to judge
    token_over_it = _disc(1.0, 8.0, 20.0)  # no base: a figure's top is often fitted so
    assert bases._in_a_fitted_base(foot, [foot, base_over_it])
    assert not bases._in_a_fitted_base(foot, [foot, base_apart, token_over_it])
    assert not bases._in_a_fitted_base(base_over_it, [base_over_it])  # never itself


@pytest.mark.parametrize("fighters", [None, 2])
def test_without_the_guard_the_foot_inside_its_base_hides_the_twenty_fourth_doubt(monkeypatch, fighters):
    # What the guard keeps: with it dropped, 350159's foot is taken and the base off every space is left out.
    live, reference, truth, count = spec_scene(350159, GEOMETRY)
    assert truth == ("S4",) and count == 2
    doubt = "is off every space but its base reaches over one"
    assert doubt in read_arena(live, reference, GEOMETRY, annotate=False, fighters=fighters).error
    monkeypatch.setattr(bases, "_in_a_fitted_base", lambda blob, discs: False)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=fighters)
    assert not reading.ok and doubt not in reading.error


@pytest.mark.parametrize("seed", [920123, 950091])
def test_a_figure_top_behind_a_fighter_fitted_under_a_base_size_is_no_third_fighter(seed):
    # 920123: S3's fighter fitted 23.4 mm; its figure's top, 13.9 mm, 33 mm behind and beside it, ran on as
    # one body and was read as a fighter off every space (ok true without the count, a doubt with it).
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    assert count == 2
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert reading.ok and reading.occupied == truth, (fighters, reading.error)
        assert len(reading.fighters) == count, reading.fighters
