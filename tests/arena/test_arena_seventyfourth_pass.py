"""Seventy-fourth pass (cost, docs/arena-reader.md): the long-shadow check's bare-board median taken once
and, with the noise quartile, found among the values near it (``bases._order_statistics``, ``_median``);
Blob copies without ``dataclasses.replace``; ``rect_mask`` by ``math.ceil``; no ``np.unique`` for a space
no change meets. Each is meant to give the very same bits as the code it replaced: the old lines are kept
here as the reference and compared on random and adversarial values, and whole reads of the cost bench's
scenes check that every median and quartile the reader takes is numpy's."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from arena_scenes import cost_bench_scenes
from vision.arena import bases, read_arena
from vision.arena.topdown import BoardView


def _same(a, b) -> bool:
    """The same value, type and dtype (NaN equal to NaN)."""
    return type(a) is type(b) and a.dtype == b.dtype and (a == b or (np.isnan(a) and np.isnan(b)))


def _values(rng, n, kind, dtype):
    x = rng.normal(0.0, 0.02, n).astype(dtype)
    if kind == "ties":
        x = np.round(x * 50).astype(dtype)
    elif kind == "constant":
        x[:] = 0.5
    elif kind == "nan":
        x[rng.integers(0, n, 3)] = np.nan
    elif kind == "inf":
        x[rng.integers(0, n, max(1, n // 10))] = -np.inf
    elif kind == "descending":
        x = np.sort(x)[::-1].copy()
    return x


KINDS = ("normal", "ties", "constant", "nan", "inf", "descending")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", (np.float32, np.float64))
def test_median_is_numpys_to_the_bit(kind, dtype):
    rng = np.random.default_rng(74)
    sizes = [1, 2, 3, 4094, 4095, 4096, 4097, 4098] + [int(n) for n in rng.integers(4096, 70000, 25)]
    for n in sizes:
        x = _values(rng, n, kind, dtype)
        assert _same(bases._median(x.copy()), np.median(x)), (kind, n)


@pytest.mark.parametrize("kind", KINDS)
def test_order_statistics_are_the_partitions(kind):
    rng = np.random.default_rng(740)
    for n in [4096, 4097, 9000, 12_345, 60_000]:
        x = _values(rng, n, kind, np.float32)
        for ranks in [(0,), (n - 1,), (3 * n // 4,), (n // 2 - 1, n // 2), (n // 2,)]:
            found = bases._order_statistics(x, ranks)
            if kind == "nan":
                assert found is None  # a value that does not compare: the caller partitions all
            elif found is not None:
                assert np.array_equal(found, np.partition(x, ranks)[list(ranks)]), (kind, n, ranks)
                assert found.dtype == x.dtype


def test_order_statistics_leave_few_values_and_a_missed_sample_to_the_partition():
    rng = np.random.default_rng(7400)
    assert bases._order_statistics(rng.random(4095).astype(np.float32), (2047,)) is None
    # Every sampled value (every 16th) far above the rest: the sample's range misses the median.
    x = rng.random(16_000).astype(np.float32)
    x[::bases._NARROWING_STRIDE] += 100.0
    assert bases._order_statistics(x, (8000,)) is None
    assert _same(bases._median(x.copy()), np.median(x))


def test_noise_level_is_the_partitions_quartile():
    rng = np.random.default_rng(7401)
    search = np.ones((160, 440), bool)
    search[:, :30] = False
    search.flags.writeable = False
    for _ in range(5):
        score = np.abs(rng.normal(0.0, 0.3, search.shape)).astype(np.float32)
        values = score.ravel()[np.flatnonzero(search)[::5]]
        old = float(np.partition(values, 3 * len(values) // 4)[3 * len(values) // 4])  # the old line
        assert bases._noise_level(score, search) == old


def test_blob_copies_are_dataclasses_replace():
    assert not hasattr(bases.Blob, "__post_init__")  # (bases.replace does not call __init__: none to skip)
    blob = bases.Blob(1.0, -2.0, 12.5, 0.3, 0.1, bases.Evidence.UNKNOWN, (1.0, -1.5), 3, 0.9, ahead=0.2)
    for changes in ({}, {"ahead": 0.0}, {"stands_up": False}, {"x_mm": 5.0, "radius_mm": 13.0, "figure_only": True},
                    {"figure": bases.Evidence.NO, "stands_up": False}):
        old, new = dataclasses.replace(blob, **changes), bases.replace(blob, **changes)
        assert type(new) is bases.Blob and new == old and vars(new) == vars(old) and hash(new) == hash(old)
        assert new is not blob
    with pytest.raises(TypeError):
        bases.replace(blob, radius=3.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        bases.replace(blob, ahead=0.0).ahead = 1.0


def test_rect_mask_is_the_old_slices():
    view = BoardView(440.0, 160.0)
    w, h = view.size
    rng = np.random.default_rng(7402)
    for _ in range(2000):
        x0, x1 = sorted(rng.uniform(-260, 260, 2))
        y0, y1 = sorted(rng.uniform(-100, 100, 2))
        if rng.random() < 0.3:
            x0, y0 = float(np.round(x0)), float(np.round(y0))  # whole mm: on a pixel's edge
        for cast in (float, np.float64, np.float32):
            a, b, c, d = (cast(v) for v in (x0, y0, x1, y1))
            u0, v0 = view.to_px(min(a, c), max(b, d))
            u1, v1 = view.to_px(max(a, c), min(b, d))
            old = (slice(max(0, int(v0)), min(h, int(np.ceil(v1)))), slice(max(0, int(u0)), min(w, int(np.ceil(u1)))))
            assert view.rect_mask(a, b, c, d) == old


@pytest.fixture(scope="module")
def bench_scenes(geometry):
    """The cost bench's first four 800x600 scenes, each with the reference prepared and the frame that
    follows the first read."""
    return cost_bench_scenes(geometry)


def test_whole_reads_take_numpys_medians_and_quartiles(bench_scenes, geometry, monkeypatch):
    """Every median and noise quartile the reader takes on the bench's scenes is numpy's (the live path:
    the first read, then the frame that follows it), and the narrowed search is what finds them."""
    asked = {"median": 0, "narrowed": 0}
    median, order_statistics = bases._median, bases._order_statistics

    def checked_median(values):
        expected = np.median(values)
        found = median(values)
        assert _same(found, expected)
        asked["median"] += 1
        return found

    def checked_order_statistics(values, ranks):
        found = order_statistics(values, ranks)
        if found is not None:
            assert np.array_equal(found, np.partition(values, ranks)[list(ranks)])
            asked["narrowed"] += 1
        return found

    monkeypatch.setattr(bases, "_median", checked_median)
    monkeypatch.setattr(bases, "_order_statistics", checked_order_statistics)
    for live, prepared, following in bench_scenes:
        first = read_arena(live, prepared, geometry, annotate=False)
        followed = prepared.following(live, first.registration) if first.registration is not None else prepared
        read_arena(following, followed, geometry, annotate=False, fighters=2)
    assert asked["narrowed"] >= 8  # (the noise quartile of every read, at least)
    assert asked["median"] >= 2  # (the long-shadow check: asked on the bench's scenes with a token)


def test_whole_reads_are_the_same_with_the_old_medians(bench_scenes, geometry, monkeypatch):
    """The readings of the bench's scenes with ``_median`` and ``_order_statistics`` put back to numpy's
    own (the old code's) are the new code's, JSON for JSON."""
    def reads():
        out = []
        for live, prepared, following in bench_scenes:
            first = read_arena(live, prepared, geometry, annotate=False)
            followed = prepared.following(live, first.registration) if first.registration is not None else prepared
            out += [first.to_json(), read_arena(following, followed, geometry, annotate=False, fighters=2).to_json()]
        return out

    new = reads()
    monkeypatch.setattr(bases, "_median", np.median)
    monkeypatch.setattr(bases, "_order_statistics", lambda values, ranks: None)
    assert reads() == new


def test_no_change_meets_a_space_finds_no_figure(geometry):
    """A view whose only change lies off every space: no space's window holds a label, none is looked at."""
    view = BoardView.of(geometry)
    w, h = view.size
    mask = np.zeros((h, w), np.uint8)
    mask[2:12, 5:15] = 1  # a corner of the view, away from the row of spaces
    explained = np.zeros_like(mask)
    from vision.arena.pose import CameraPosition

    camera = CameraPosition((0.0, -400.0, 500.0), 800.0)
    assert bases._figures_past_the_outlines(mask, view, geometry, camera, [], [], explained) == []


def _difference_and_mask(image, prepared):
    """The capped difference (worked out by rows, as a read has it) and the change mask of ``image``."""
    from vision.arena.topdown import SmoothView, change_between

    live = SmoothView.of(prepared.view.warp(image, prepared.registration.homography))
    change = change_between(live, prepared.smooth, prepared.search)
    mask = bases.change_mask(change, prepared.search)
    return change, mask


def _same_outline(a, b):
    return np.array_equal(a[0], b[0], equal_nan=True) and np.array_equal(a[1], b[1])


def test_outline_rays_walked_together_are_each_set_walked_alone(bench_scenes, geometry):
    """``_outlines`` of two sets of directions, in one call, gives each set what its own call gives, to the
    bit: on the bench's scenes' own change (the capped difference worked out by rows, each call on a fresh
    one: nothing worked out yet, as in a read), at discs round the change and off it, and on drawn differences."""
    rng = np.random.default_rng(7403)
    camera = bench_scenes[0][1].camera
    checked = 0
    for live, prepared, _ in bench_scenes:
        view = prepared.view
        change, mask = _difference_and_mask(live, prepared)
        vs, us = np.nonzero(mask)
        for k in range(6):
            if len(us) and k < 4:
                i = rng.integers(len(us))
                x, y = view.to_mm(float(us[i]), float(vs[i]))
            else:
                x, y = rng.uniform(-200, 200), rng.uniform(-70, 70)
            r = rng.uniform(6.0, 14.0)
            sets = {"short": bases._far_side_angles(camera, x, y), "across": bases._across_angles(camera, x, y),
                    "pinched": bases._PINCH_RAY_ANGLES}
            for first, second in (("short", "across"), ("pinched", "short")):
                together = bases._outlines(bases._capped_difference(change.linear, mask), mask, view,
                                           x, y, r, prepared.search, **{first: sets[first], second: sets[second]})
                for name in (first, second):
                    alone = bases._outline_distances(bases._capped_difference(change.linear, mask), mask,
                                                     view, x, y, r, sets[name], prepared.search)
                    assert _same_outline(together[name], alone), (name, x, y, r)
                    checked += 1
    # Drawn: a plain array, as the tests' drawn scores are.
    view = BoardView(440.0, 160.0)
    w, h = view.size
    for _ in range(20):
        difference = np.abs(rng.normal(0, 20, (h, w))).astype(np.float32)
        mask = (rng.random((h, w)) < 0.3).astype(np.uint8)
        search = np.ones((h, w), bool)
        x, y, r = rng.uniform(-200, 200), rng.uniform(-70, 70), rng.uniform(6.0, 14.0)
        a, b = bases._far_side_angles(camera, x, y), bases._across_angles(camera, x, y)
        together = bases._outlines(difference, mask, view, x, y, r, search, short=a, across=b)
        assert _same_outline(together["short"], bases._outline_distances(difference, mask, view, x, y, r, a, search))
        assert _same_outline(together["across"], bases._outline_distances(difference, mask, view, x, y, r, b, search))
    assert checked >= 64

