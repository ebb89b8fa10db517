"""Seventy-first pass (a diagnosis, no rule): fresh 880000 reads ``ok: true`` with no fighter where one
stands on S6, without the fighter count. A short dark figure (28 mm) seen from 69 degrees over a 25.2 mm
base the colour of its space darkened 5-6 % evenly (no tint of its own) that reaches 3.9 mm past the
space's outline onto a darker board: the figure and the base's bright crescent over the board fit one
crisp solid 17.6 mm disc, figure ``UNKNOWN``, not standing up; no faint ring (the ring measures count no
darkening), no tint, no long shadow (a short figure's), so by size it is a token.
See docs/arena-reader.md, "Seventy-first pass"."""

from __future__ import annotations


from arena_scenes import line_9, spec_scene
from vision.arena import read_arena

GEOMETRY = line_9()
SEED = 880000


def test_880000_is_never_read_wrong_without_the_count():
    live, reference, truth, _ = spec_scene(SEED, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)


def test_880000_is_a_doubt_with_the_count():
    # The count sees one fighter missing: a doubt, never a wrong reading (passes on main too: a guard).
    live, reference, truth, count = spec_scene(SEED, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)
