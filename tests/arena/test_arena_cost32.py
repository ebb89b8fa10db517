"""The thirty-second pass (cost): the lighting fit with fewer passes, to the bit, and what is worked
out per search mask kept for as long as the mask lives."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from vision.arena import topdown
from vision.arena.topdown import SmoothView, _channel_max, _lighting_cells, _lighting_field, _trim_spread, per_mask


def _lighting_field_before(live, reference, usable):
    """The twenty-eighth pass's fit (its un-censored path), word for word but for the cells' names."""
    coarse = live.coarse_log - reference.coarse_log
    vs, us, _, design = _lighting_cells(usable)
    samples = coarse[vs, us].astype(np.float64)
    inliers = np.ones(len(samples), bool)
    coefficients = np.zeros((4, 3))
    for _ in range(3):
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
        two = _with_rounds(live, reference, usable, 2)
        rounds["settled early" if two.tobytes() == now.tobytes() else "three rounds"] += 1
    assert rounds["settled early"] >= 10 and rounds["three rounds"] >= 10, rounds


def _with_rounds(live, reference, usable, n):
    coarse = live.coarse_log - reference.coarse_log
    vs, us, _, design = _lighting_cells(usable)
    samples = coarse[vs, us].astype(np.float64)
    inliers = np.ones(len(samples), bool)
    coefficients = np.zeros((4, 3))
    for _ in range(n):
        chosen = design[inliers]
        coefficients = np.linalg.solve(chosen.T @ chosen + 1e-9 * np.eye(4), chosen.T @ samples[inliers])
        residual = _channel_max(np.abs(samples - design @ coefficients))
        inliers = residual < _trim_spread(residual)
        if inliers.sum() < 50:
            break
    return coefficients


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
