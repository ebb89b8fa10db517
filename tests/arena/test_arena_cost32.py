"""The thirty-second pass (cost): the lighting fit with fewer passes, to the bit, and what is worked
out per search mask kept for as long as the mask lives."""

from __future__ import annotations

import gc
import weakref

import cv2
import numpy as np
import pytest

from arena_scenes import line_9, spec_scene
from vision.arena import bases, prepare_reference, topdown
from vision.arena.registration import register
from vision.arena.topdown import (_LOG_OFFSET, _MEAN_OF_CHANNELS, DARKENING_CHANGE, Change, DifferenceByRows, SmoothView,
                                  _channel_max, _lighting_cells, _lighting_field, _trim_spread, _under_new_light,
                                  change_between, per_mask)

GEOMETRY = line_9()


def _lighting_field_before(live, reference, usable, rounds=3):
    """The twenty-eighth pass's fit (its un-censored path), word for word but for the cells' names;
    ``rounds``: where its loop is cut (it ran three)."""
    coarse = live.coarse_log - reference.coarse_log
    vs, us, _, design = _lighting_cells(usable)
    samples = coarse[vs, us].astype(np.float64)
    inliers = np.ones(len(samples), bool)
    coefficients = np.zeros((4, 3))
    for _ in range(rounds):
        chosen = design[inliers]
        coefficients = np.linalg.solve(chosen.T @ chosen + 1e-9 * np.eye(4), chosen.T @ samples[inliers])
        residual = _channel_max(np.abs(samples - design @ coefficients))
        inliers = residual < _trim_spread(residual)
        if inliers.sum() < 50:
            break
    return coefficients


def _views(rng, things: int, spread: float):
    """A board and the same board under a smooth new light (plus noise), with ``things`` patches
    of another colour on it: log views as the fit sees them."""
    h, w = 160, 440
    board = rng.uniform(60, 200, (h, w, 3)).astype(np.float32)
    vv, uu = np.mgrid[:h, :w]
    slope_u, slope_v = rng.normal(0, 0.15, 2)
    gain = np.exp(rng.normal(0, 0.2, 3) + (slope_u * (uu / w - 0.5) + slope_v * (vv / h - 0.5))[..., None])
    lit = (board * gain + rng.normal(0, spread, board.shape)).astype(np.float32)
    for _ in range(things):
        u, v, r = rng.integers(0, w), rng.integers(0, h), rng.integers(5, 40)
        lit[max(0, v - r):v + r, max(0, u - r):u + r] = rng.uniform(0, 255, 3)
    return SmoothView.of(np.clip(lit, 0, 255)), SmoothView.of(board)


def _usable(rng, kind: str):
    usable = np.ones((160, 440), bool)
    if kind == "holes":
        usable[rng.integers(0, 150):, :rng.integers(10, 200)] = False
    elif kind == "few":
        usable[:] = False
        usable[:64, :80] = True  # 80 cells: the fit may keep under 50 and stop
    usable.flags.writeable = False
    return usable


def test_the_lighting_fit_is_the_fit_before_to_the_bit():
    rng = np.random.default_rng(32)
    rounds = {"settled early": 0, "three rounds": 0}
    for case in range(120):
        live, reference = _views(rng, things=int(rng.integers(0, 12)), spread=float(rng.choice([0.0, 1.0, 6.0])))
        usable = _usable(rng, ("all", "holes", "few")[case % 3])
        before = _lighting_field_before(live, reference, usable)
        now = _lighting_field(live, reference, usable)
        assert now.dtype == before.dtype and now.shape == before.shape
        assert now.tobytes() == before.tobytes(), case
        # Did this case stop before the third round? (the same fit with the loop cut at two rounds)
        two = _lighting_field_before(live, reference, usable, rounds=2)
        rounds["settled early" if two.tobytes() == now.tobytes() else "three rounds"] += 1
    assert rounds["settled early"] >= 10 and rounds["three rounds"] >= 10, rounds


def test_the_cells_by_flat_index_are_the_cells_by_row_and_column():
    rng = np.random.default_rng(3)
    usable = _usable(rng, "holes")
    vs, us, cells, design = _lighting_cells(usable)
    grid = rng.normal(size=(20, 55, 3)).astype(np.float32)
    assert np.array_equal(grid.reshape(-1, 3)[cells], grid[vs, us]) and len(cells) == len(design)
    assert not any(a.flags.writeable for a in (vs, us, cells, design))


def test_what_a_read_only_mask_gave_is_kept_while_many_other_masks_come_and_go():
    calls = []

    def count(mask):
        calls.append(1)
        return np.flatnonzero(mask)

    kept = np.zeros((20, 30), bool)
    kept[2:5, 1:9] = True
    kept.flags.writeable = False
    first = per_mask(kept, "test cells 32", count)
    for k in range(40):  # as the CLI's references: a new search mask each call, dropped after it
        other = np.zeros((20, 30), bool)
        other[k % 20, :] = True
        other.flags.writeable = False
        assert np.array_equal(per_mask(other, "test cells 32", count), np.flatnonzero(other))
        del other
    assert per_mask(kept, "test cells 32", count) is first and len(calls) == 41


def test_a_mask_is_not_held_by_what_was_worked_out_from_it():
    mask = np.ones((20, 30), bool)
    mask.flags.writeable = False
    per_mask(mask, "test cells 32", np.flatnonzero)
    alive = weakref.ref(mask)
    before = len(topdown._PER_MASK)
    del mask
    gc.collect()
    assert alive() is None and len(topdown._PER_MASK) == before - 1


@pytest.mark.parametrize("what", ["noise samples", "lighting cells"])
def test_a_new_mask_at_a_dropped_masks_address_is_worked_out_afresh(what):
    made = []
    for k in range(30):  # a mask's memory and id are often reused at once by the next one
        mask = np.zeros((160, 440), bool)
        mask[:, k:] = True
        mask.flags.writeable = False
        made.append(id(mask))
        value = per_mask(mask, what, lambda m: np.flatnonzero(m)[::5])
        assert np.array_equal(value, np.flatnonzero(mask)[::5])
        del mask
    assert len(set(made)) < len(made)  # (the sweep did meet a reused id)


# --- The linear difference worked out by rows where it is read -------------------------------------


def _difference_before(live_bgr, predicted, luma):
    """The twenty-eighth pass's lines of change_between, word for word (into arrays of their own)."""
    shade = cv2.exp(np.clip(luma, -DARKENING_CHANGE, 0.0))
    relit = cv2.subtract(cv2.exp(predicted), _LOG_OFFSET)
    shaded = cv2.multiply(relit, cv2.cvtColor(shade, cv2.COLOR_GRAY2BGR))
    return _channel_max(cv2.absdiff(live_bgr, shaded, dst=shaded))


def _inputs(rng, h=160, w=440):
    """A live view, a relit reference's log and the luma, as change_between hands them on: random,
    with lumas both sides of a shadow's darkening and of 0, logs up to the sensor's top."""
    live = rng.uniform(0, 255, (h, w, 3)).astype(np.float32)
    predicted = rng.uniform(np.log(10.0), np.log(265.0), (h, w, 3)).astype(np.float32)
    luma = rng.uniform(-1.0, 0.5, (h, w)).astype(np.float32)
    luma[rng.random((h, w)) < 0.05] = rng.choice(np.array([0.0, -DARKENING_CHANGE, -0.0], np.float32))
    return live, predicted, luma


def _read_inputs(seed):
    """What change_between of a spec scene's read works from (the live view, relit reference, luma)."""
    live_image, reference_image, _, _ = spec_scene(seed, GEOMETRY)
    prepared = prepare_reference(reference_image, GEOMETRY)
    registration = register(live_image, GEOMETRY)
    live = SmoothView.of(prepared.view.warp(live_image, registration.homography))
    predicted = _under_new_light(prepared.smooth, _lighting_field(live, prepared.smooth, prepared.search))
    luma = cv2.transform(cv2.subtract(live.log, predicted), _MEAN_OF_CHANNELS)
    return live.bgr, predicted, luma


def _bits(array):
    return np.ascontiguousarray(array).view(np.uint8)


@pytest.mark.parametrize("case", range(8))
def test_rows_worked_out_as_asked_are_the_whole_views_difference(case):
    rng = np.random.default_rng(320 + case)
    inputs = _read_inputs(300008 + case) if case < 3 else _inputs(rng, *((160, 440) if case < 6 else (97, 250)))
    whole = _difference_before(*inputs)
    by_rows = DifferenceByRows(*inputs, out=np.full(whole.shape, np.nan, np.float32))
    h = whole.shape[0]
    asked = np.zeros(h, bool)
    for _ in range(6):  # bands asked for in any order, overlapping, past the view's edges
        start = int(rng.integers(-5, h))
        stop = start + int(rng.integers(1, 50))
        values = by_rows.rows(start, stop)
        asked[max(0, start):max(0, min(h, stop))] = True
        assert np.array_equal(_bits(values[asked]), _bits(whole[asked]))
    assert np.array_equal(_bits(by_rows.rows(0, h)), _bits(whole))
    change_whole = Change(np.zeros(whole.shape, np.float32), np.zeros(whole.shape, np.float32), DifferenceByRows(*inputs))
    assert np.array_equal(_bits(change_whole.difference), _bits(whole))


def test_an_odd_width_is_worked_out_whole():
    rng = np.random.default_rng(7)
    inputs = _inputs(rng, 40, 51)
    by_rows = DifferenceByRows(*inputs, out=np.full((40, 51), np.nan, np.float32))
    assert not np.isnan(by_rows.rows(3, 4)).any()  # every row at once
    assert np.array_equal(_bits(by_rows.rows(0, 40)), _bits(_difference_before(*inputs)))


@pytest.mark.parametrize("seed", [300008, 300019])
def test_the_capped_difference_by_rows_is_the_capped_whole_difference(seed):
    inputs = _read_inputs(seed)
    whole = _difference_before(*inputs)
    rng = np.random.default_rng(seed)
    mask = (rng.random(whole.shape) < 0.3).astype(np.uint8)
    capped_whole = bases._capped_difference(whole, mask).copy()
    capped = bases._capped_difference(DifferenceByRows(*inputs), mask)
    assert np.array_equal(_bits(capped.rows(40, 90)[40:90]), _bits(capped_whole[40:90]))
    assert np.array_equal(_bits(capped.rows(0, 160)), _bits(capped_whole))


def test_rays_sample_by_rows_what_they_sample_of_the_whole_view():
    """Rays whose rows lie a hair under a whole row (rounded to 1/32 px, the next one), on rows, and
    off the view: sampled from rows worked out as asked (the rest NaN), the same as from the whole."""
    rng = np.random.default_rng(32)
    inputs = _inputs(rng)
    whole = _difference_before(*inputs)
    for trial in range(40):
        row = float(16 * rng.integers(0, 11) + rng.choice([-1, 0, 1]))  # at the edges of the bands worked out
        v = row + rng.choice([0.0, -1 / 64, -1 / 100, 1 / 64, 0.5, -0.999], (12, 30))
        u = rng.uniform(-5, 445, (12, 30))
        map_u, map_v = u.astype(np.float32), v.astype(np.float32)
        by_rows = DifferenceByRows(*inputs, out=np.full(whole.shape, np.nan, np.float32))
        sampled = bases._along_rays(by_rows, map_u, map_v)
        assert not np.isnan(sampled).any()
        assert np.array_equal(_bits(sampled), _bits(bases._along_rays(whole, map_u, map_v)))


def test_a_change_reads_its_own_difference_after_the_next_change():
    """change_between's difference is worked out when asked: from arrays of its own (and the live
    view it was given), not from scratch arrays the next change overwrites."""
    rng = np.random.default_rng(11)
    usable = np.ones((160, 440), bool)
    board = rng.uniform(60, 200, (160, 440, 3)).astype(np.float32)
    lit = board * np.float32(0.8)
    lit[60:80, 100:125] = (30, 200, 60)
    first = change_between(SmoothView.of(lit), SmoothView.of(board), usable)
    expected = change_between(SmoothView.of(lit), SmoothView.of(board), usable).difference.copy()
    other = board * np.float32(1.1)
    other[90:100, 300:325] = (200, 30, 60)
    change_between(SmoothView.of(other, in_scratch=True), SmoothView.of(board), usable).difference
    assert np.array_equal(_bits(first.difference), _bits(expected))


def test_rays_ask_for_every_row_their_samples_read(monkeypatch):
    """Bands of one row (rows worked out exactly as asked, the rest NaN): a sample a hair under a
    row is rounded to 1/32 px by OpenCV 4's remap and reads the row after next too."""
    monkeypatch.setattr(topdown, "_DIFFERENCE_BAND_ROWS", 1)
    rng = np.random.default_rng(33)
    inputs = _inputs(rng)
    for row in range(1, 158):
        v = (row + np.array([0.0, -1 / 64, -1 / 100, 1 / 64, 0.5, -0.999, 0.999]))[None, :].astype(np.float32)
        u = rng.uniform(0, 439, v.shape).astype(np.float32)
        sampled = bases._along_rays(DifferenceByRows(*inputs, out=np.full((160, 440), np.nan, np.float32)), u, v)
        assert not np.isnan(sampled).any(), row
