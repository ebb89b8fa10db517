"""Ninety-second pass: a lone fighter on a space's back corner read away (``bench/arena_corner_sweep.py``'s
``alone-back``: 14 of 216 scenes read ``ok: true`` with nothing on the board on main 8b64de6, without the
count, 35 and 45 degrees up). Its base is the spaces' colour, so only its figure and the outline under its
base change; the forty-eighth pass's body test (``_figures_past_the_outlines``) finds the figure there, but
was kept from it two ways:

- the figure's top fitted as a 9-11 mm disc, taken for a token (flat, a solid) or for the foot of a fighter
  off the row (its corridor explaining the change behind it): no token or base is fitted that narrow, so
  such a disc is left out of what the body test is told is explained (``_but_for_figure_parts``);
- on S9's back-right corner (and S1's back-left) the figure leans into a marker's kept-out square, where
  nothing is looked at: a body may run on there (as ``FigureCover`` takes it), not stand there, and not
  into the square of a covered marker a hand is over.

See docs/arena-reader.md, "Ninety-second pass"."""

from __future__ import annotations

import numpy as np
import pytest

from arena_scenes import bench_module, line_9, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence
from vision.arena.hiding import search_mask
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
SWEEP = bench_module("arena_corner_sweep")
NEW_DOUBT = "shows in change that no base, figure or token explains"


@pytest.mark.parametrize("label", [
    (45, -25, "S5", "back-right", "space"),  # the top a 9.6 mm "token"
    (35, -25, "S2", "back-right", "space"),  # the same, 35 degrees up
    (45, -25, "S4", "back-right", "space"),  # the top a 9.4 mm disc standing off the row: an off-row "foot"
    (35, 25, "S7", "back-right", "space"),  # both: a "foot" and a "token" on one figure
    (35, 0, "S9", "back-right", "space"),  # the figure leaning into marker 11's kept-out square
    (45, 25, "S9", "back-right", "space"),
    (35, 25, "S1", "back-left", "space"),  # ... into marker 10's
])
def test_a_lone_fighter_on_a_back_corner_is_never_read_away(label):
    # main 8b64de6 reads each ok:true with no fighter; with the count they were doubts already.
    (job,) = [j for j in SWEEP.jobs("alone") if j[1] == label]
    reading, truth = SWEEP.read_one(job)
    assert truth == (label[2],)
    assert not reading.ok, reading.occupied
    assert f"on {label[2]}'s outline {NEW_DOUBT}" in reading.error
    counted, _ = SWEEP.read_one(job, with_count=True)
    assert not counted.ok, counted.occupied


def _disc(x, y, diameter, *, stands_up=False):
    return Blob(x, y, diameter / 2, 0.3, 0.0, Evidence.PARTIAL, (x, y), 1, 1.0, stands_up=stands_up)


def test_the_body_test_leaves_out_discs_narrower_than_any_token():
    # A 9.6 mm "token" and a 10.3 mm standing disc are parts of a figure: they explain nothing to the
    # body test, and no place is ruled out by them as by a solid. A 15 mm token (fitted 14.8) stays.
    view = BoardView.of(GEOMETRY)
    w, h = view.size
    mask = np.zeros((h, w), np.uint8)
    camera = CameraPosition((0.0, -318.0, 318.0), 800.0)
    top, foot, token = _disc(25.4, 35.0, 9.6), _disc(-47.7, 39.4, 10.3, stands_up=True), _disc(100.0, 0.0, 14.8)
    explained = bases._explained_mask(mask, view, camera, [foot], [top, token])
    solids = [(d.x_mm, d.y_mm, d.radius_mm) for d in (top, token)]
    things, kept_solids, kept_explained = bases._but_for_figure_parts(mask, view, camera, [], [foot], [top, token],
                                                                      solids, explained)
    assert things == []
    assert kept_solids == [(token.x_mm, token.y_mm, token.radius_mm)]
    assert (kept_explained == bases._explained_mask(mask, view, camera, [], [token])).all()
    # Nothing that narrow: all as given, the same objects.
    things, kept_solids, kept_explained = bases._but_for_figure_parts(mask, view, camera, [], [], [token], solids[1:],
                                                                      explained)
    assert things == [] and kept_solids == solids[1:] and kept_explained is explained


def _figure_strip(view, camera, x, y, heights, half_width=4.0):
    """A change mask holding a figure's body standing at (x, y) between two heights (mm), where looked at."""
    mask = np.zeros((view.size[1], view.size[0]), np.uint8)
    for z in np.arange(heights[0], heights[1] + 0.01, 0.5):
        lx, ly = camera.lean(x, y, z)
        u, v = view.to_px(x + lx, y + ly)
        r = int(round(half_width * view.px_per_mm))
        mask[max(int(v) - r, 0):int(v) + r + 1, max(int(u) - r, 0):int(u) + r + 1] = 1
    return mask & search_mask(view, GEOMETRY)


def test_a_body_may_run_on_into_a_kept_out_square():
    # A figure on S9's back-right corner, 45 degrees up, its upper part where marker 11's kept-out
    # square cuts it off: a figure on S9, if nothing is taken as looked at there; none as on main.
    view = BoardView.of(GEOMETRY)
    camera = CameraPosition((0.0, -318.0, 318.0), 800.0)
    mask = _figure_strip(view, camera, 175.0, 15.0, (0.0, 30.0))
    explained = np.zeros_like(mask)
    found = bases._figures_past_the_outlines(mask, view, GEOMETRY, camera, [], [], explained,
                                             looked_at=search_mask(view, GEOMETRY))
    assert [space for space, _ in found] == ["S9"]
    everywhere = np.ones(mask.shape, bool)
    assert bases._figures_past_the_outlines(mask, view, GEOMETRY, camera, [], [], explained, looked_at=everywhere) == []


def test_but_a_body_does_not_stand_where_nothing_is_looked_at():
    # A camera so low that a body's foot on S9's back corner, 5 mm up, shows inside marker 11's kept-out
    # square: a little change on S9 is no figure standing unseen there.
    view = BoardView.of(GEOMETRY)
    camera = CameraPosition((175.0, -200.0, 80.0), 800.0)
    assert camera.lean(178.0, 18.0, 5.0)[1] + 18.0 > GEOMETRY.markers[11][1] - 24.0  # (in the square)
    mask = np.zeros((view.size[1], view.size[0]), np.uint8)
    mask[view.rect_mask(170.0, 10.0, 177.0, 17.0)] = 1
    assert bases._figures_past_the_outlines(mask, view, GEOMETRY, camera, [], [], np.zeros_like(mask),
                                            looked_at=search_mask(view, GEOMETRY)) == []


def test_no_body_runs_on_into_the_square_of_a_marker_a_hand_is_over():
    # Used 900031: a hand over marker 11 (not found), part of its change explained by S8's figure, leaves
    # a piece on S9's back corner that holds a body up to 16 mm and then runs into marker 11's square:
    # the hand is there, no figure. Read right as on main (the rule's first form doubted it).
    live, reference, truth, _ = spec_scene(900031, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert 11 not in reading.markers_found
    assert reading.ok, reading.error
    assert reading.occupied == truth == ("S8",)
