"""Seventy-seventh pass (cost, docs/arena-reader.md): the circle fits and the marker patches with fewer
numpy calls. Cramer's rule for every circle at once from one table of its sums, minors and determinants
(``bases._cramer``); the circle fit's centring of x and y together, its sums scaled in one call, and no
re-selection of points after its last fit (``bases._robust_circles``); a marker patch's mean without
``np.mean``'s wrapper (``registration._MarkerPatch.is_unmoved``). Each is meant to give the very same bits
as the code it replaced: the old code is kept here as the reference and compared on random input and on
what the cost bench's reads hand it (spied on), and those reads must read the same with the old code put
back. (Tried and taken out, see the doc: the rim rays' directions and sample maps for every seed at once.)"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from arena_scenes import cost_bench_reads
from vision.arena import bases, read_arena, registration
from vision.arena.registration import STILL_GAIN, STILL_RESIDUAL, STILL_SHIFT_PX, to_gray


def _old_robust_circles(xs: np.ndarray, ys: np.ndarray, valid: np.ndarray) -> list:
    """The seventy-fourth pass's ``_robust_circles``, word for word."""
    rows = len(xs)
    counts = valid.sum(axis=1)
    active = counts >= 5
    if not active.any():
        return [None] * rows
    # Each row's latest circle (set while it is active), all rows at once: numpy scalars taken
    # one by one cost more than the fit itself.
    fitted = np.zeros(rows, bool)
    latest = np.zeros((4, rows))
    weights = valid.astype(np.float64)
    ox = (xs * weights).sum(axis=1) / np.maximum(counts, 1)
    oy = (ys * weights).sum(axis=1) / np.maximum(counts, 1)
    xs, ys = np.where(valid, xs - ox[:, None], 0.0), np.where(valid, ys - oy[:, None], 0.0)
    squares = xs * xs + ys * ys
    # (Cost, the twenty-sixth pass: some 20 points a circle, so numpy's per-call cost is the cost.
    # The eight sums in two calls, each row summed along its points as before; Cramer's rule with
    # the minors and products its four determinants share worked out once. The same operations on
    # the same operands: the same circles, to the last bit.)
    points = np.stack([xs, ys, squares])
    keep = valid.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(3):
            n = keep.sum(axis=1)
            active &= n >= 5
            if not active.any():
                break
            kept_points = points * keep
            sx, sy, sq = kept_points.sum(axis=2)
            sxx, syy, sxy, sxq, syq = (kept_points[_OLD_FIRST_FACTOR] * kept_points[_OLD_SECOND_FACTOR]).sum(axis=2)
            det, cx, cy, c = _old_cramer(((4 * sxx, 4 * sxy, 2 * sx), (4 * syy, 2 * sy), n.astype(np.float64)),
                                         (2 * sxq, 2 * syq, sq))
            active &= np.abs(det) >= 1e-9
            r2 = c + cx**2 + cy**2
            fitted &= ~(active & (r2 <= 0))
            active &= r2 > 0
            r = np.sqrt(np.maximum(r2, 0.0))
            residual = np.where(valid, np.abs(np.hypot(xs - cx[:, None], ys - cy[:, None]) - r[:, None]), np.inf)
            kept = np.where(keep, residual, 0.0)
            rms = np.sqrt((kept * kept).sum(axis=1) / n)
            fitted |= active
            np.copyto(latest, (cx + ox, cy + oy, r, rms), where=active)
            ordered = np.sort(np.where(keep, residual, np.inf), axis=1)
            median = ordered[np.arange(rows), np.minimum(n // 2, ordered.shape[1] - 1)]
            new_keep = residual < np.maximum(1.0, 2.5 * median)[:, None]
            active &= ~(new_keep == keep).all(axis=1)
            keep = np.where(active[:, None], new_keep, keep)
    return [tuple(circle) if ok else None for ok, circle in zip(fitted.tolist(), latest.T.tolist())]


#: (the seventy-fourth pass's)
_OLD_FIRST_FACTOR, _OLD_SECOND_FACTOR = [0, 1, 0, 0, 1], [0, 1, 1, 2, 2]


def _old_cramer(upper, rhs):
    """The seventy-fourth pass's ``_cramer``, word for word."""
    (m00, m01, m02), (m11, m12), m22 = upper
    r0, r1, r2 = rhs
    # The 2x2 minors, each shared by two of the four determinants, or one's negative another's.
    a = m11 * m22 - m12 * m12
    b = m01 * m22 - m12 * m02
    c = m01 * m12 - m11 * m02
    e = r1 * m22 - m12 * r2
    g = m01 * r2 - r1 * m02
    p, q = r1 * m12, m11 * r2
    det = m00 * a - m01 * b + m02 * c
    return (det, (r0 * a - m01 * e + m02 * (p - q)) / det, (m00 * e - r0 * b + m02 * g) / det,
            (m00 * (q - p) - m01 * g + r0 * c) / det)


def _old_is_unmoved(self, image: np.ndarray) -> bool:
    """The seventy-fourth pass's ``_MarkerPatch.is_unmoved``, word for word."""
    x0, y0, x1, y1 = self.box
    values = to_gray(image[y0:y1, x0:x1]).ravel().astype(np.float64)
    values -= values.mean()
    gain = float(np.einsum("i,i", values, self.centred)) / self.energy
    if not STILL_GAIN[0] <= gain <= STILL_GAIN[1]:
        return False
    residual = values - gain * self.centred
    projected = np.einsum("ki,i->k", self.gradients, residual).reshape(4, 2)
    shifts = -np.einsum("qij,qj->qi", self.inverses, projected) / gain
    if float((shifts * shifts).sum(axis=1).max()) > STILL_SHIFT_PX**2:
        return False
    residual += gain * np.einsum("k,ki->i", shifts.ravel(), self.gradients)
    return float(np.einsum("i,i", residual, residual)) / len(residual) <= STILL_RESIDUAL**2


def _arcs(rng, rows: int, points: int):
    """Rows of rim points on random arcs, with noise, points far off and rows with few valid points;
    now and then a row all in one place or on a line (no circle)."""
    angles = rng.uniform(-3, 3, (rows, 1)) + np.linspace(-1, 1, points)[None, :] * rng.uniform(0.1, 3.1, (rows, 1))
    r = rng.uniform(4, 30, (rows, 1)) + rng.normal(0, rng.uniform(0.001, 1.0), (rows, points))
    far = rng.random((rows, points)) < 0.15
    r[far] += rng.uniform(-10, 10, far.sum())
    xs = rng.uniform(-250, 250, (rows, 1)) + r * np.cos(angles)
    ys = rng.uniform(-100, 100, (rows, 1)) + r * np.sin(angles)
    valid = rng.random((rows, points)) < rng.uniform(0.1, 1.0, (rows, 1))
    odd = rng.random(rows)
    xs[odd < 0.04] = 100.0
    ys[odd < 0.04] = 50.0
    ys[(odd >= 0.04) & (odd < 0.08)] = 80.0
    return xs, ys, valid


def test_circle_fits_as_before_on_random_arcs():
    rng = np.random.default_rng(7707)
    reached = {"circle": 0, "none": 0}
    for k in range(600):
        xs, ys, valid = _arcs(rng, int(rng.integers(1, 25)), int(rng.choice([3, 5, 6, 8, 13, 21, 29])))
        if k % 5 == 0:
            xs, ys = xs.astype(np.float32), ys.astype(np.float32)  # (the old fit worked in float64 from the start)
        circles = bases._robust_circles(xs, ys, valid)
        assert circles == _old_robust_circles(xs, ys, valid)  # every number equal
        for circle in circles:
            reached["none" if circle is None else "circle"] += 1
    assert min(reached.values()) >= 300, reached


def test_cramer_as_before_to_the_bit():
    rng = np.random.default_rng(7708)
    for scale in (1e-6, 1.0, 1e3, 1e8):
        m = rng.normal(size=(3, 3, 200)) * scale
        m = m + m.transpose(1, 0, 2)
        m[:, :, :5] = 0.0  # singular: det 0, the solution inf or NaN alike
        m[2, 2, 5:10] = rng.integers(5, 22, 5)  # as the fit's (the count of points)
        rhs = rng.normal(size=(3, 200)) * scale
        upper = ((m[0, 0], m[0, 1], m[0, 2]), (m[1, 1], m[1, 2]), m[2, 2])
        with np.errstate(divide="ignore", invalid="ignore"):
            new, old = bases._cramer(upper, tuple(rhs)), _old_cramer(upper, tuple(rhs))
        assert len(new) == len(old) == 4
        for a, b in zip(new, old):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)


def test_patch_mean_is_numpys():
    rng = np.random.default_rng(7710)
    for n in [1, 7, 8, 9, 127, 128, 129, 1431, 2520, 3541, 4416, 9001]:
        for values in (rng.integers(0, 256, n).astype(np.float64), rng.normal(120.0, 40.0, n)):
            assert np.add.reduce(values) / values.size == values.mean()


@pytest.fixture(scope="module")
def bench_reads(geometry):
    return cost_bench_reads(geometry, 4)


def test_the_bench_reads_hand_the_circle_fits_what_the_old_one_gave(bench_reads, geometry, monkeypatch):
    """Every circle fit of the cost bench's live reads, as the old code gives it."""
    fits = []
    robust_circles = bases._robust_circles

    def circles_spy(xs, ys, valid):
        new = robust_circles(xs, ys, valid)
        assert new == _old_robust_circles(xs, ys, valid)
        fits.append(len(xs))
        return new

    monkeypatch.setattr(bases, "_robust_circles", circles_spy)
    for _, frame, reference in bench_reads:
        read_arena(frame, reference, geometry, annotate=False)
    assert len(fits) >= 12 and sum(fits) >= 100, fits


def test_the_marker_patches_judge_as_before(bench_reads):
    """Each patch of the followed and unmoved references against its frame, that frame with noise, and
    that frame shifted by a quarter and a half pixel (a moved camera): the same answer as the old test."""
    answers = {True: 0, False: 0}
    rng = np.random.default_rng(7711)
    for name, frame, reference in bench_reads:
        still = reference.still_markers(frame)
        if name.endswith("nudged") or still is None:
            continue
        noisy = np.clip(frame + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
        frames = [frame, noisy] + [cv2.warpAffine(frame, np.float32([[1, 0, d], [0, 1, 0]]), frame.shape[1::-1])
                                   for d in (0.25, 0.5)]
        for patch in still.patches.values():
            for image in frames:
                answer = patch.is_unmoved(image)
                assert answer == _old_is_unmoved(patch, image)
                answers[answer] += 1
    assert min(answers.values()) >= 10, answers


def test_the_bench_reads_read_as_with_the_old_code(bench_reads, geometry, monkeypatch):
    new = [read_arena(frame, reference, geometry, annotate=False).to_json() for _, frame, reference in bench_reads]
    monkeypatch.setattr(bases, "_robust_circles", _old_robust_circles)
    monkeypatch.setattr(registration._MarkerPatch, "is_unmoved", _old_is_unmoved)
    old = [read_arena(frame, reference, geometry, annotate=False).to_json() for _, frame, reference in bench_reads]
    assert new == old
