"""A space a fighter taken stands on hides no other fighter (see docs/arena-reader.md, "A space a fighter
taken stands on hides no other").

The rules let no two fighters share a space ("You cannot end your movement in a space containing another
fighter"), and whichever of the two stood there, ``occupied`` would name that space: the doubt "the fighter
at (x, y) may hide a fighter on S" with a fighter taken on S cannot change the answer. The fighter count
settled it before (``reader._with_fighter_count``); now it goes without the count too. Behind a fighter, a
space no fighter taken stands on stays a doubt.
"""

from __future__ import annotations

import pytest

from arena_scenes import line_9, spec_scene
from vision.arena import read_arena

GEOMETRY = line_9()


@pytest.mark.parametrize("seed", [
    930111,  # one fighter on S4, its own figure covering the back of S4
    950105,  # a fighter off the row in front of S3, S3's fighter behind its figure
    930192,  # the same before S2
])
def test_a_fighter_behind_a_figure_on_a_taken_space_is_no_doubt(seed):
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth
    # With the count as before.
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    assert reading.ok and reading.occupied == truth, (reading.occupied, reading.error)


@pytest.mark.parametrize("seed, space", [
    (950196, "S3"),  # a fighter off the row in front of S3, S2's fighter beside it: S3 is nobody's
    (910229, "S3"),  # the same; S9's own fighter covering the back of S9 is no doubt now
])
def test_behind_a_figure_a_space_no_fighter_taken_stands_on_stays_a_doubt(seed, space):
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok
    assert f"may hide a fighter on {space}" in reading.error
    assert reading.error.count("may hide a fighter") == 1, reading.error
