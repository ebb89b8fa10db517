"""Fifty-fourth pass (cost, docs/arena-reader.md): the bare-board measure of ``_tinted_in_front`` read
off strided slices of the view (``_band_on_grid``) instead of gathering every place's band points by
fancy indexing. It must give the same bits: the old two lines are kept here word for word as the
reference and compared on random views and bands shaped as the reader's are (the band's arc and
distances round a random disc, the grid's spacing), on both numpy stacks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.arena import bases


def _old_band(bare, tint, gu, gv, du, dv):
    """The fiftieth pass's code, word for word: the places whose band is all bare, and their mean tint."""
    pu = (gu[None, :, None] + du[None, None, :]).repeat(len(gv), axis=0).reshape(-1, len(du))
    pv = (gv[:, None, None] + dv[None, None, :]).repeat(len(gu), axis=1).reshape(-1, len(du))
    places = bare[pv, pu].all(axis=1)
    return places, tint[pv[places], pu[places]].mean(axis=1)


def _band(rng, h, w, px_per_mm):
    """Offsets (du, dv) of a band round a random disc, as ``_tinted_in_front`` makes them, and its grid."""
    r = rng.uniform(6.0, 12.0)
    facing = rng.uniform(-math.pi, math.pi)
    angles = facing + bases._RING_ARC[:, None]
    distances = (r + bases._TINT_BAND_MM)[None, :]
    dx, dy = (np.cos(angles) * distances).ravel(), (np.sin(angles) * distances).ravel()
    du = np.round(dx * px_per_mm).astype(int)
    dv = np.round(-dy * px_per_mm).astype(int)
    keep = rng.random(len(du)) < 0.85  # some points unusable (another region), as in a read
    keep[:2] = True
    du, dv = du[keep], dv[keep]
    step = max(1, int(round(bases._TINT_NULL_SPACING_MM * px_per_mm)))
    gu = np.arange(max(0, -int(du.min())), min(w, w - int(du.max())), step)
    gv = np.arange(max(0, -int(dv.min())), min(h, h - int(dv.max())), step)
    return gu, gv, step, du, dv


@pytest.mark.parametrize("seed", range(12))
def test_band_on_grid_gives_the_old_gathers_bits(seed):
    rng = np.random.default_rng(54000 + seed)
    px_per_mm = (1.0, 1.0, 1.5, 2.0)[seed % 4]
    h, w = int(160 * px_per_mm), int(440 * px_per_mm)
    # Tints spanning several octaves (faint board noise and strong colours), so that a different order
    # of the float32 additions would show in the last bits.
    tint = (rng.normal(0, 0.05, (h, w, 3)) * rng.choice([1.0, 7.0, 0.01], (h, w, 1))).astype(np.float32)
    bare = rng.random((h, w)) < (0.999, 0.99, 0.95)[seed % 3]
    gu, gv, step, du, dv = _band(rng, h, w, px_per_mm)
    assert len(gu) * len(gv) >= bases._TINT_NULL_PLACES
    old_places, old_mean = _old_band(bare, tint, gu, gv, du, dv)
    places, mean = bases._band_on_grid(bare, tint, gu, gv, step, du, dv)
    assert places.shape == (len(gv), len(gu)) and mean.shape == (len(gv), len(gu), 3)
    assert mean.dtype == old_mean.dtype
    assert np.array_equal(places.ravel(), old_places)
    assert old_places.sum() > 0
    assert mean.reshape(-1, 3)[places.ravel()].tobytes() == old_mean.tobytes()


def test_band_on_grid_leaves_its_inputs_alone():
    rng = np.random.default_rng(54100)
    tint = rng.normal(0, 0.05, (160, 440, 3)).astype(np.float32)
    bare = rng.random((160, 440)) < 0.98
    tint.flags.writeable = False
    bare.flags.writeable = False  # (would raise if written)
    gu, gv, step, du, dv = _band(rng, 160, 440, 1.0)
    bases._band_on_grid(bare, tint, gu, gv, step, du, dv)
