"""The ninety-eighth pass: what the ninety-fifth left of a token pair before a fighter on a base the board's colour.

With the count, a disc taken as a fighter by its ring (``classify``'s ``_ringed_base``: a faint ring round a stronger
middle, standing up), its figure not seen joined to it, with change standing apart behind it: that change is no
figure of its own (a figure rises from its base's middle as one body), and it may be the fighter counted
(``bases._figures_apart_behind_unseen_figures``). Without the count such change is a fighter off the row, which the
spec allows, or nothing: the disc's own look decides, and the ninety-fifth pass's strict xfail stands there.
And change that meets a covered marker as a hand over it does is no figure standing apart (used 920138:
``bases._a_hand_over_a_covered_marker``). See docs/arena-reader.md, "Ninety-eighth pass"."""

from __future__ import annotations

import cv2
import numpy as np

from arena_scenes import line_9, read_stacked_tokens, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
VIEW = BoardView.of(GEOMETRY)
#: The camera of the ``gap-behind`` scenes 61 degrees up, 20 degrees to the left (as the reader places it).
CAMERA = CameraPosition((-74.3, -205.6, 393.4), 900.0)
NEW_DOUBT = "may be a token stack, and what stands apart behind it"
#: The ``gap-behind-board`` pose whose pair is a fighter by its look (25.2 mm, tiered 0.52, standing up).
RINGED_PAIR = (67, 20, 11.0, 90, 3.0, True, "board")


def _disc(figure, x=40.0, y=8.0, diameter=25.2, ringed=True):
    """A crisp disc on S6: ringed as the pair is (tiered 0.52, coverage 0.68, standing up), or solid and flat."""
    tiered, coverage = (0.52, 0.68) if ringed else (0.0, 1.0)
    return Blob(x, y, diameter / 2, 0.38, tiered, figure, (x, y), 1, coverage, stands_up=ringed)


def _mask(*discs):
    mask = np.zeros((int(VIEW.height_mm * VIEW.px_per_mm), int(VIEW.width_mm * VIEW.px_per_mm)), np.uint8)
    for x, y, r in discs:
        centre = tuple(int(round(c)) for c in VIEW.to_px(x, y))
        cv2.circle(mask, centre, int(round(r * VIEW.px_per_mm)), 255, -1)
    return mask


def test_a_fighter_by_its_ring_with_change_apart_behind_is_doubted():
    # A ringed disc on S6 whose figure is not seen (from high up it stays inside the base), a figure's worth of
    # change 31 mm behind it off the row, bare board between: either may be the one fighter counted.
    disc, mask = _disc(Evidence.UNKNOWN), _mask((40, 8, 13), (44, 39, 8))
    doubts = bases._figures_apart_behind_unseen_figures([disc], [], [], mask, VIEW, GEOMETRY, CAMERA)
    assert len(doubts) == 1 and NEW_DOUBT in doubts[0]


def test_a_fighter_whose_figure_is_seen_or_taken_for_the_count_is_not_asked_here():
    mask = _mask((40, 8, 13), (44, 39, 8))
    # Its figure seen joined to it: a fighter, whatever stands behind it.
    seen = _disc(Evidence.YES)
    assert bases._figures_apart_behind_unseen_figures([seen], [], [], mask, VIEW, GEOMETRY, CAMERA) == []
    # Solid and flat, taken on its size (no ring): a fighter whatever stands behind it (900229, 900243, 995346).
    solid = _disc(Evidence.UNKNOWN, diameter=27.0, ringed=False)
    assert bases._figures_apart_behind_unseen_figures([solid], [], [], mask, VIEW, GEOMETRY, CAMERA) == []
    # Taken for the count: the ninety-fifth pass's rule asks it (once).
    stand_in = _disc(Evidence.UNKNOWN)
    assert bases._figures_apart_behind_unseen_figures([stand_in], [stand_in], [], mask, VIEW, GEOMETRY, CAMERA) == []


def test_a_ringed_token_pair_before_a_dull_fighter_is_doubted_with_the_count():
    # Read S6 with ok: true by b733625 (classify's _ringed_base, no stand-in); the fighter's figure stands apart
    # behind the pair, off the row.
    reading, truth = read_stacked_tokens("gap-behind-board", RINGED_PAIR, with_count=True)
    assert truth == () and not reading.ok, reading.occupied
    assert NEW_DOUBT in reading.error


def test_without_the_count_it_is_never_asked(monkeypatch):
    # A fighter off the row is allowed without the count: the change apart says nothing of the disc.
    def asked(*args):
        raise AssertionError("asked without the count")

    monkeypatch.setattr(bases, "_figures_apart_behind_unseen_figures", asked)
    read_stacked_tokens("gap-behind-board", RINGED_PAIR, with_count=False)


def test_a_hand_over_a_covered_marker_is_no_figure_apart(monkeypatch):
    # Used 920138 (S8, 63 degrees up): the count's stand-in on S8, and a crescent of change round covered
    # marker 11's kept-out square, 57 mm behind it, off every space. A doubt after the ninety-fifth pass,
    # right now; with every marker found the same crescent would still be something standing apart.
    calls = []
    rule = bases._change_apart_from

    def spying(*args, **kwargs):
        calls.append((args, kwargs))
        return rule(*args, **kwargs)

    monkeypatch.setattr(bases, "_change_apart_from", spying)
    live, reference, truth, count = spec_scene(920138, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    assert reading.ok and reading.occupied == truth, reading.error
    ((args, kwargs),) = calls
    assert 11 not in kwargs["markers_found"]
    assert rule(*args, **kwargs) is None
    behind = rule(*args, markers_found=tuple(GEOMETRY.markers))
    assert behind is not None and GEOMETRY.space_at(*behind) is None


def test_with_one_fighter_short_of_the_count_what_stands_apart_may_be_the_missing_one(monkeypatch):
    # Used 920013: two fighters, one on S8 taken by its look (its figure not seen), the other off the row behind it,
    # where change stands apart. The disc is not in question: the count has room for what stands behind.
    def asked(*args):
        raise AssertionError("asked with the count not met")

    monkeypatch.setattr(bases, "_figures_apart_behind_unseen_figures", asked)
    live, reference, truth, count = spec_scene(920013, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    assert not reading.ok or reading.occupied == truth
    assert NEW_DOUBT not in (reading.error or "")


def test_a_solid_fighter_taken_on_its_size_is_not_asked():
    # Used 900229, 900243, 995346 (61-74 degrees up): crisp, solid base-sized discs (coverage 1.0, no ring), figure
    # not seen, change apart behind them; asked as the ringed pair is, each was a right reading lost.
    for seed in (900243, 995346):
        live, reference, truth, count = spec_scene(seed, GEOMETRY)
        reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
        assert reading.ok and reading.occupied == truth, (seed, reading.error)
