"""Twenty-seventh pass (cost, docs/arena-reader.md): the difference capped off the change, by cv2's
min and masked copy, must be what numpy's minimum and ``copyto(..., where=mask > 0)`` gave, to the
last bit. The plain one (the twenty-sixth pass's two lines in ``find_blobs``, word for word) is kept
here as the reference; compared on random input and on what a read hands it (spied on)."""

from __future__ import annotations

import numpy as np
import pytest

from arena_scenes import line_9, spec_scene
from vision.arena import bases, read_arena
from vision.arena.topdown import scratch

GEOMETRY = line_9()


def _plain_capped_difference(difference: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The twenty-sixth pass's capped difference, word for word (into a scratch array of its own)."""
    capped = np.minimum(difference, bases._QUIET_DIFFERENCE * 4,
                        out=scratch("plain capped difference", mask.shape, difference.dtype))
    np.copyto(capped, difference, where=mask > 0)
    return capped


def test_capped_difference_as_plain_on_random_views():
    """Differences below, at and above the cap (its float32 neighbours too), zeros, on masks empty,
    full and random; the sweep asserts both the cap and the masked copy decided some pixels."""
    rng = np.random.default_rng(27)
    cap = np.float32(bases._QUIET_DIFFERENCE * 4)
    edges = np.array([0.0, cap, np.nextafter(cap, np.float32(0)), np.nextafter(cap, np.float32(np.inf)), 255.0],
                     np.float32)
    capped_off, copied_over = 0, 0
    for trial in range(60):
        h, w = (160, 440) if trial % 2 else tuple(rng.integers(1, 60, 2))
        difference = rng.uniform(0, 120, (h, w)).astype(np.float32)
        spots = rng.random((h, w)) < 0.2
        difference[spots] = rng.choice(edges, spots.sum())
        mask = [np.zeros((h, w), np.uint8), np.ones((h, w), np.uint8),
                (rng.random((h, w)) < rng.uniform(0.05, 0.9)).astype(np.uint8)][trial % 3]
        before = difference.copy()
        ours = bases._capped_difference(difference, mask).copy()
        assert np.array_equal(difference, before)  # the difference itself is left as it was
        plain = _plain_capped_difference(difference, mask)
        assert ours.dtype == plain.dtype == np.float32 and ours.shape == plain.shape
        np.testing.assert_array_equal(ours, plain)
        capped_off += int(((mask == 0) & (difference > cap)).sum())
        copied_over += int(((mask > 0) & (difference > cap)).sum())
    assert capped_off > 0 and copied_over > 0


def test_capped_difference_leaves_its_input_alone():
    difference = np.full((20, 30), 100.0, np.float32)
    mask = np.zeros((20, 30), np.uint8)
    mask[5:10, 5:10] = 1
    capped = bases._capped_difference(difference, mask)
    assert (difference == 100.0).all()
    assert (capped[5:10, 5:10] == 100.0).all() and capped[0, 0] == np.float32(bases._QUIET_DIFFERENCE * 4)


@pytest.mark.parametrize("seed", [300008, 300019])
def test_a_reads_capped_difference_as_plain(seed, monkeypatch):
    """What a read hands it (spied on): as the plain one, and the reading as with the plain one put back."""
    live, reference, _, count = spec_scene(seed, GEOMETRY)
    handed, ours = [], bases._capped_difference

    def spy(difference, mask):
        handed.append((_whole(difference).copy(), mask.copy()))
        return ours(difference, mask)

    monkeypatch.setattr(bases, "_capped_difference", spy)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count).to_json()
    assert handed
    for difference, mask in handed:
        assert mask.dtype == np.uint8 and mask.any()
        np.testing.assert_array_equal(ours(difference, mask), _plain_capped_difference(difference, mask))
    monkeypatch.setattr(bases, "_capped_difference", lambda difference, mask: _plain_capped_difference(_whole(difference), mask))
    assert read_arena(live, reference, GEOMETRY, annotate=False, fighters=count).to_json() == reading


def _whole(difference):
    """A read hands the difference by rows since the thirty-second pass (see DifferenceByRows): all of it."""
    return difference if isinstance(difference, np.ndarray) else difference.rows(0, difference.shape[0])
