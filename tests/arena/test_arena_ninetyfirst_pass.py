"""The ninety-first pass: with the count, a ringed disc standing where a clear base's own figure shows, one
body with it, is that fighter's figure top, not a foot the count lets pass as a fighter
(``bases._top_of_a_clear_base_figure``). See docs/arena-reader.md, "Ninety-first pass"."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena_scenes import assert_read_right_with_the_count, line_9, spec_scene
from vision.arena import bases, read_arena, reader
from vision.arena.settings import ArenaSettings

GEOMETRY = line_9()
SETTINGS = ArenaSettings()
#: Used spec seeds: (the clear base on a space, the ringed disc off the row 23-30 mm behind it: its figure's top).
CASES = {910188: ((-37.8, 5.2), (-40.5, 28.4)), 940098: ((-83.5, 9.2), (-89.4, 38.8))}


def _near(blobs, point):
    return min(blobs, key=lambda b: math.hypot(b.x_mm - point[0], b.y_mm - point[1]))


def _seen(seed, monkeypatch):
    """What ``select_bases`` was given reading the scene with the count: blobs, mask, view, camera, search."""
    seen = {}
    rule = reader.select_bases

    def spying(blobs, mask, view, geometry, camera, settings, **kwargs):
        seen.update(blobs=blobs, mask=mask, view=view, camera=camera, search=kwargs.get("search"))
        return rule(blobs, mask, view, geometry, camera, settings, **kwargs)

    monkeypatch.setattr(reader, "select_bases", spying)
    live, reference, _, count = spec_scene(seed, GEOMETRY)
    read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    return seen


@pytest.mark.parametrize("seed", sorted(CASES))
def test_the_base_not_its_figure_top_fills_the_count(seed):
    # On 8b64de6 both were doubts with the count: the top off the row taken, the base left as "a token or a base".
    assert_read_right_with_the_count(seed, GEOMETRY)
    # Without the count (the rule's path not taken) the best reading names the two bases, the top none.
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.occupied == truth and not any(f.space is None for f in reading.fighters)


@pytest.mark.parametrize("seed", sorted(CASES))
def test_the_disc_is_the_top_of_the_clear_base_figure(seed, monkeypatch):
    seen = _seen(seed, monkeypatch)
    base_at, top_at = CASES[seed]
    blobs, base, top = seen["blobs"], _near(seen["blobs"], base_at), _near(seen["blobs"], top_at)
    assert bases.is_clear_base(base, SETTINGS)
    args = (seen["mask"], seen["view"], seen["camera"], SETTINGS, seen["search"])
    assert bases._top_of_a_clear_base_figure(top, blobs, *args)
    assert not bases._top_of_a_clear_base_figure(base, blobs, *args)  # nothing clear stands in front of the base
    # A figure top needs its own clear base in front: not a base the reader doubts (no figure seen on it).
    doubted = [bases.replace(b, figure=bases.Evidence.NO) if b is base else b for b in blobs]
    assert not bases._top_of_a_clear_base_figure(top, doubted, *args)


@pytest.mark.parametrize("seed", sorted(CASES))
def test_bare_board_between_makes_it_something_apart(seed, monkeypatch):
    # A figure is one body with its base: where unchanged board cuts the line from the base's far rim to a
    # disc further back on it, what stands there is apart from that fighter (another one behind), not its
    # top. (The disc is moved 12 mm further away so that there is a stretch between them to cut.)
    seen = _seen(seed, monkeypatch)
    base_at, top_at = CASES[seed]
    blobs, base, top = seen["blobs"], _near(seen["blobs"], base_at), _near(seen["blobs"], top_at)
    view, camera = seen["view"], seen["camera"]
    ax, ay = camera.away(base.x_mm, base.y_mm)
    further = bases.replace(top, x_mm=top.x_mm + 12 * ax, y_mm=top.y_mm + 12 * ay)
    blobs = [further if b is top else b for b in blobs]
    cut = seen["mask"].copy()
    for along in np.arange(base.radius_mm, base.radius_mm + 6.0, 0.25):
        for across in np.arange(-15.0, 15.25, 0.25):
            u, v = view.to_px(base.x_mm + ax * along + ay * across, base.y_mm + ay * along - ax * across)
            cut[int(round(float(v))), int(round(float(u)))] = 0
    args = (camera, SETTINGS, seen["search"])
    assert bases._top_of_a_clear_base_figure(further, blobs, seen["mask"], view, *args)
    assert not bases._top_of_a_clear_base_figure(further, blobs, cut, view, *args)
