"""Twenty-sixth pass (cost, docs/arena-reader.md): the rim rays' distances, the circle fits and the
front-rim check's level worked out with fewer numpy calls must give what the plain ones gave, to
the last bit. The plain ones (the twenty-fifth pass's ``_rim_distances``, ``_robust_circles`` and
``_base_rim_level``, word for word) are kept here as the reference; each is compared on random input
that reaches every branch (the sweeps assert they did) and on what a read hands them (spied on)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena_scenes import line_9, spec_scene
from vision.arena import bases, read_arena

GEOMETRY = line_9()


def _plain_rim_distances(profiles: np.ndarray, inside: np.ndarray):
    """The twenty-fifth pass's ``_rim_distances``, word for word (constants from ``bases``)."""
    rays, samples = profiles.shape
    index = np.arange(samples)[None, :]
    outside = inside == 0
    has_out = outside.any(axis=1)
    first_out = np.where(has_out, outside.argmax(axis=1), samples - 1)
    quiet = (profiles < bases._QUIET_DIFFERENCE) & (index >= first_out[:, None])
    end = np.where(quiet.any(axis=1), quiet.argmax(axis=1), samples - 1)
    # Back in from the quiet end past the tail, to the last sample still above the noise.
    loud = (profiles >= bases._QUIET_DIFFERENCE) & (index <= end[:, None])
    top = np.where(loud.any(axis=1), samples - 1 - loud[:, ::-1].argmax(axis=1), 0)
    # Then inwards while climbing; the plateau starts where the climb stops.
    rise = np.zeros_like(profiles)
    rise[:, 1:] = profiles[:, :-1] - profiles[:, 1:]
    climbing = rise >= np.maximum(bases._RAMP_MIN_RISE, bases._RAMP_MIN_FRACTION * profiles)
    flat = ~climbing & (index <= top[:, None])
    level_at = np.where(flat.any(axis=1), samples - 1 - flat[:, ::-1].argmax(axis=1), 0)
    rows = np.arange(rays)
    level = profiles[rows, level_at]
    half = level / 2
    below = (profiles < half[:, None]) & (index > level_at[:, None]) & (index < (end + 5)[:, None])
    found = has_out & below.any(axis=1)
    k = np.where(found, below.argmax(axis=1), 1)
    a, b = profiles[rows, k - 1], profiles[rows, k]
    t = np.where(a != b, (a - half) / np.where(a != b, a - b, 1), 0.5)
    distances = np.where(found, (k - 1 + t) * bases._RAY_STEP_MM, np.nan)
    strongest_inside = profiles.max(axis=1, where=index <= level_at[:, None], initial=0)  # profiles are >= 0
    return distances, level < bases._TIER_RATIO * strongest_inside


def _plain_robust_circles(xs: np.ndarray, ys: np.ndarray, valid: np.ndarray) -> list:
    """The twenty-fifth pass's ``_robust_circles``, word for word: Cramer's rule as four ``_det3``."""
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
    keep = valid.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(3):
            n = keep.sum(axis=1)
            active &= n >= 5
            if not active.any():
                break
            x, y, q = xs * keep, ys * keep, squares * keep
            sx, sy, sq = x.sum(axis=1), y.sum(axis=1), q.sum(axis=1)
            sxx, syy, sxy = (x * x).sum(axis=1), (y * y).sum(axis=1), (x * y).sum(axis=1)
            sxq, syq = (x * q).sum(axis=1), (y * q).sum(axis=1)
            normal = ((4 * sxx, 4 * sxy, 2 * sx), (4 * sxy, 4 * syy, 2 * sy), (2 * sx, 2 * sy, n.astype(np.float64)))
            rhs = (2 * sxq, 2 * syq, sq)
            det = _det3(normal)
            active &= np.abs(det) >= 1e-9
            cx, cy, c = (_det3(_with_column(normal, k, rhs)) / det for k in range(3))
            r2 = c + cx**2 + cy**2
            fitted &= ~(active & (r2 <= 0))
            active &= r2 > 0
            r = np.sqrt(np.maximum(r2, 0.0))
            residual = np.where(valid, np.abs(np.hypot(xs - cx[:, None], ys - cy[:, None]) - r[:, None]), np.inf)
            kept = np.where(keep, residual, 0.0)
            rms = np.sqrt((kept * kept).sum(axis=1) / n)
            fitted |= active
            latest[:, active] = np.stack([cx + ox, cy + oy, r, rms])[:, active]
            ordered = np.sort(np.where(keep, residual, np.inf), axis=1)
            median = ordered[np.arange(rows), np.minimum(n // 2, ordered.shape[1] - 1)]
            new_keep = residual < np.maximum(1.0, 2.5 * median)[:, None]
            active &= ~(new_keep == keep).all(axis=1)
            keep = np.where(active[:, None], new_keep, keep)
    return [tuple(circle) if ok else None for ok, circle in zip(fitted.tolist(), latest.T.tolist())]


def _det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _with_column(m, k: int, column):
    """The 3x3 ``m`` with column ``k`` replaced (Cramer's rule)."""
    return tuple(tuple(column[i] if j == k else m[i][j] for j in range(3)) for i in range(3))


def _plain_base_rim_level(score, regions, own_region: int, view, camera, x: float, y: float,
                    r: float) -> float:
    """The twenty-fifth pass's ``_base_rim_level``, word for word (constants from ``bases``)."""
    cx, cy, cz = camera.centre_mm
    heights = np.arange(bases.MIN_FIGURE_MM, bases.MAX_FIGURE_MM + 1.0, 2.0)
    shrink = 1.0 / (1.0 + heights / np.maximum(cz - heights, 1e-6))
    ax, ay = camera.away(x, y)
    lateral = np.array([-bases._FIGURE_LEAN_MM, 0.0, bases._FIGURE_LEAN_MM])
    # Base centres: the point each height's top leans from, give or take the figure's own lean.
    bx = (cx + (x - cx) * shrink)[:, None] - ay * lateral[None, :]
    by = (cy + (y - cy) * shrink)[:, None] + ax * lateral[None, :]
    bx, by = bx.ravel()[:, None, None, None], by.ravel()[:, None, None, None]
    angles = (math.atan2(-ay, -ax) + bases._RING_ARC)[None, None, :, None]
    radii = (np.array(bases._BASE_RADII_MM)[None, :, None, None]
             + np.array([-bases._RING_WIDTH_MM, 0.0, bases._RING_WIDTH_MM])[None, None, None, :])
    px, py = bx + np.cos(angles) * radii, by + np.sin(angles) * radii
    u, v = (np.round(c).astype(int) for c in view.to_px(px, py))
    h, w = score.shape
    inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
    # Some 8,000 points: looked up by flat index (np.take), several times cheaper than by (row, column).
    at = np.clip(v, 0, h - 1) * w + np.clip(u, 0, w - 1)
    region = np.take(regions, at)
    values = np.where(inside & ((region == 0) | (region == own_region)), np.take(score, at), 0.0).max(axis=3)
    # The disc's own blurred outline is no rim: points on it are not looked at.
    usable = (np.hypot(px - x, py - y) > r + 2.5).all(axis=3) & inside.all(axis=3)
    looked = usable.sum(axis=2)
    values = np.where(usable, values, np.inf)
    # The level reached on all but (1 - bases._MIN_RING_SHARE) of the looked-at arc.
    k = np.floor((1 - bases._MIN_RING_SHARE) * looked).astype(int)
    level = np.take_along_axis(np.sort(values, axis=2), np.minimum(k, values.shape[2] - 1)[..., None], axis=2)[..., 0]
    level = np.where(looked >= len(bases._RING_ARC) // 2, level, 0.0)
    return float(level.max())


def _profiles(rng, rays: int, samples: int):
    """Ray profiles as ``_rim_points`` samples them (a blurred step down to the board, on a plateau
    or a fainter ring round something stronger, with noise) mixed with plain noise, and their
    change-mask samples (inside first, then out; some rays never leave it, some never enter)."""
    index = np.arange(samples)[None, :]
    edge = rng.uniform(-5, samples + 5, (rays, 1))
    strong = rng.uniform(5, 120, (rays, 1))
    ring = np.where(rng.random((rays, 1)) < 0.4, rng.uniform(0.2, 0.9, (rays, 1)), 1.0)
    inner = rng.uniform(0, samples, (rays, 1))
    level = np.where(index < inner, strong, strong * ring)
    ramp = 1 / (1 + np.exp((index - edge) / rng.uniform(0.3, 3.0, (rays, 1))))
    profiles = level * ramp + rng.normal(0, rng.uniform(0, 4), (rays, 1)) * rng.random((rays, samples))
    plain = rng.random(rays) < 0.15
    profiles[plain] = rng.uniform(0, 40, (plain.sum(), samples))
    profiles = np.maximum(profiles, 0).astype(np.float32)
    profiles[rng.random((rays, samples)) < 0.03] = 0  # exact zeros, and plateaus with equal neighbours
    inside = np.where(index < edge + rng.normal(0, 2, (rays, 1)), 255, 0).astype(np.uint8)
    inside[rng.random(rays) < 0.1] = 255
    return profiles, inside


def test_rim_distances_as_plain_on_random_rays():
    rng = np.random.default_rng(26)
    reached = {"found": 0, "none": 0, "tiered": 0, "plain": 0}
    for _ in range(200):
        profiles, inside = _profiles(rng, int(rng.integers(1, 80)), int(rng.integers(3, 90)))
        distances, tiered = bases._rim_distances(profiles, inside)
        plain_distances, plain_tiered = _plain_rim_distances(profiles, inside)
        np.testing.assert_array_equal(distances, plain_distances)  # (NaN where NaN, else bit for bit)
        np.testing.assert_array_equal(tiered, plain_tiered)
        found = np.isfinite(plain_distances)
        reached["found"] += int(found.sum())
        reached["none"] += int((~found).sum())
        reached["tiered"] += int((plain_tiered & found).sum())
        reached["plain"] += int((~plain_tiered & found).sum())
    assert min(reached.values()) >= 100, reached


def test_rim_distances_of_rays_all_alike():
    """Rays that never leave the change, never enter it, are flat, or all zero."""
    for samples in (3, 5, 58):
        for profile in (np.zeros(samples), np.full(samples, 30.0), np.linspace(60, 0, samples)):
            for inside in (np.full(samples, 255), np.zeros(samples)):
                p = np.stack([profile, profile[::-1]]).astype(np.float32)
                m = np.stack([inside, inside]).astype(np.uint8)
                np.testing.assert_array_equal(bases._rim_distances(p, m)[0], _plain_rim_distances(p, m)[0])
                np.testing.assert_array_equal(bases._rim_distances(p, m)[1], _plain_rim_distances(p, m)[1])


def test_sample_ranges_are_the_comparisons_they_stand_for():
    for samples in (1, 7, 58):
        up_to, from_ = bases._sample_ranges(samples)
        index = np.arange(samples)
        assert up_to.shape == from_.shape == (samples + 5, samples)
        for e in range(samples + 5):
            np.testing.assert_array_equal(up_to[e], index <= e)
            np.testing.assert_array_equal(from_[e], index >= e)
        assert not up_to.flags.writeable and not from_.flags.writeable


def _arcs(rng, rows: int, points: int):
    """Rows of rim points on random arcs (noise, points far off, some rows with few valid points),
    and now and then a row all in one place or on a line (no circle)."""
    angles = rng.uniform(-1, 1, (rows, 1)) + np.linspace(-1, 1, points)[None, :] * rng.uniform(0.2, 2.0, (rows, 1))
    r = rng.uniform(6, 20, (rows, 1)) + rng.normal(0, rng.uniform(0.01, 0.8), (rows, points))
    far = rng.random((rows, points)) < 0.15
    r[far] += rng.uniform(-8, 8, far.sum())
    xs = rng.uniform(0, 440, (rows, 1)) + r * np.cos(angles)
    ys = rng.uniform(0, 160, (rows, 1)) + r * np.sin(angles)
    valid = rng.random((rows, points)) < rng.uniform(0.15, 1.0, (rows, 1))
    odd = rng.random(rows)
    xs[odd < 0.05] = 100.0
    ys[odd < 0.05] = 50.0
    ys[(odd >= 0.05) & (odd < 0.1)] = 80.0
    return xs, ys, valid


def test_circle_fits_as_plain_on_random_arcs():
    rng = np.random.default_rng(2626)
    reached = {"circle": 0, "none": 0}
    for _ in range(300):
        xs, ys, valid = _arcs(rng, int(rng.integers(1, 25)), int(rng.integers(3, 30)))
        circles = bases._robust_circles(xs, ys, valid)
        assert circles == _plain_robust_circles(xs, ys, valid)  # every number equal
        for circle in circles:
            reached["none" if circle is None else "circle"] += 1
    assert min(reached.values()) >= 100, reached


def test_cramer_solves_the_symmetric_system():
    rng = np.random.default_rng(3)
    m = rng.normal(size=(3, 3, 50))
    m = m + m.transpose(1, 0, 2)
    rhs = rng.normal(size=(3, 50))
    det, *solution = bases._cramer(((m[0, 0], m[0, 1], m[0, 2]), (m[1, 1], m[1, 2]), m[2, 2]), tuple(rhs))
    full = tuple(tuple(m[i, j] for j in range(3)) for i in range(3))
    assert np.array_equal(det, _det3(full))
    for k in range(3):
        assert np.array_equal(solution[k], _det3(_with_column(full, k, tuple(rhs))) / det)
    expected = np.linalg.solve(m.transpose(2, 0, 1), rhs.T[..., None])[..., 0]
    np.testing.assert_allclose(np.stack(solution, axis=1), expected, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("seed", [300008, 300019])
def test_a_reads_rays_and_circles_as_plain(seed, monkeypatch):
    """What a read hands the three (spied on; in these seeds a token-sized disc also asks the front-rim
    check): each as the plain one, and the reading as with the plain ones put in their place."""
    live, reference, _, _ = spec_scene(seed, GEOMETRY)
    rays, circles, rims = [], [], []
    ours_rays, ours_circles, ours_rim = bases._rim_distances, bases._robust_circles, bases._base_rim_level

    def rays_spy(profiles, inside):
        rays.append((profiles.copy(), inside.copy()))
        return ours_rays(profiles, inside)

    def circles_spy(xs, ys, valid):
        circles.append((xs.copy(), ys.copy(), valid.copy()))
        return ours_circles(xs, ys, valid)

    def rim_spy(*args):
        rims.append(tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args))
        return ours_rim(*args)

    monkeypatch.setattr(bases, "_rim_distances", rays_spy)
    monkeypatch.setattr(bases, "_robust_circles", circles_spy)
    monkeypatch.setattr(bases, "_base_rim_level", rim_spy)
    reading = read_arena(live, reference, GEOMETRY, annotate=False).to_json()
    assert len(rays) >= 2 and len(circles) >= 1 and len(rims) >= 1
    for args in rims:
        assert ours_rim(*args) == _plain_base_rim_level(*args)
    for profiles, inside in rays:
        for ours, plain in zip(ours_rays(profiles, inside), _plain_rim_distances(profiles, inside)):
            np.testing.assert_array_equal(ours, plain)
    for xs, ys, valid in circles:
        assert ours_circles(xs, ys, valid) == _plain_robust_circles(xs, ys, valid)
    monkeypatch.setattr(bases, "_rim_distances", _plain_rim_distances)
    monkeypatch.setattr(bases, "_robust_circles", _plain_robust_circles)
    monkeypatch.setattr(bases, "_base_rim_level", _plain_base_rim_level)
    assert read_arena(live, reference, GEOMETRY, annotate=False).to_json() == reading


def test_front_rim_level_as_plain_anywhere(monkeypatch):
    """The front-rim level as the plain one for discs anywhere on the view (at its edges too, where
    some rim points fall off it), of any size, on random scores and regions; the camera and view
    those of a read that asks it (300008)."""
    live, reference, _, _ = spec_scene(300008, GEOMETRY)
    asked, ours = [], bases._base_rim_level
    monkeypatch.setattr(bases, "_base_rim_level", lambda *args: asked.append(args) or ours(*args))
    read_arena(live, reference, GEOMETRY, annotate=False)
    _, _, _, view, camera, *_ = asked[0]
    rng = np.random.default_rng(5)
    h, w = asked[0][0].shape
    levels = set()
    for _ in range(200):
        score = rng.uniform(0, 3, (h, w)).astype(np.float32)
        regions = rng.integers(0, 3, (h, w)).astype(np.int32)
        x, y = rng.uniform(-230, 230), rng.uniform(-90, 90)
        args = (score, regions, int(rng.integers(0, 3)), view, camera, x, y, rng.uniform(2, 20))
        level = ours(*args)
        assert level == _plain_base_rim_level(*args)
        levels.add(level > 0)
    assert levels == {True, False}
