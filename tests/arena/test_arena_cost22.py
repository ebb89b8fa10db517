"""Twenty-first pass made cheap (docs/arena-reader.md, "Twenty-first pass"): the circles of the
spec's base radii through a wide fit's rim points are fitted all at once, one row per radius. Each
row must be the circle the plain fit of that one radius finds (the twenty-first pass's
``_circle_of_radius``, kept here as the reference): the same centre to far below a pixel, the same
rms, and None where it gave none. And the twenty-second pass: the board's noise level worked out
once per read reads as each stage working it out itself."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena_scenes import line_9, spec_scene
from vision.arena import bases, read_arena
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
VIEW = BoardView(440, 160, 3.0)
CENTRE = (10.0, 5.0)
#: Far below anything a reading shows (board_mm to 0.1 mm): only the order of a sum may differ.
SAME_MM = 1e-9


def _plain_circle(fitted, xs, ys, valid, view, radius_mm):
    """One radius's circle as the twenty-first pass fitted it, one radius at a time."""
    ppm = view.px_per_mm
    px, py = xs[valid], ys[valid]
    if len(px) < bases._SHORT_ARC_MIN_POINTS:
        return None
    cu, cv = (c / ppm for c in view.to_px(fitted[0], fitted[1]))
    mx, my = px.mean(), py.mean()
    toward = math.hypot(cu - mx, cv - my) or 1.0
    cx, cy = mx + (cu - mx) / toward * radius_mm, my + (cv - my) / toward * radius_mm
    keep = np.ones(len(px), bool)
    for _ in range(2):
        for _ in range(bases._SHORT_ARC_STEPS):
            dx, dy = px[keep] - cx, py[keep] - cy
            dist = np.maximum(np.hypot(dx, dy), 1e-6)
            residual = dist - radius_mm
            jx, jy = -dx / dist, -dy / dist
            a, b, c = float(jx @ jx), float(jx @ jy), float(jy @ jy)
            gx, gy = float(jx @ residual), float(jy @ residual)
            det = a * c - b * b
            if abs(det) < 1e-9:
                return None
            step_x, step_y = (c * gx - b * gy) / det, (a * gy - b * gx) / det
            cx, cy = cx - step_x, cy - step_y
            if math.hypot(step_x, step_y) < 0.01:
                break
        off = np.abs(np.hypot(px - cx, py - cy) - radius_mm)
        keep = off < max(1.0, 2.5 * float(np.median(off[keep])))
        if keep.sum() < bases._SHORT_ARC_MIN_POINTS:
            return None
    rms = float(np.sqrt(np.mean(off[keep] ** 2)))
    x, y = view.to_mm(cx * ppm, cy * ppm)
    return x, y, radius_mm, rms, fitted[4]


def _assert_as_plain(fitted, xs, ys, valid, view) -> list:
    """Every radius's circle as the plain fit's; the plain circles."""
    rowed = bases._circles_of_radii(fitted, xs, ys, valid, view, bases._BASE_RADII_MM)
    plain = [_plain_circle(fitted, xs, ys, valid, view, r) for r in bases._BASE_RADII_MM]
    assert len(rowed) == len(plain)
    for ours, theirs in zip(rowed, plain):
        assert (ours is None) == (theirs is None), (ours, theirs)
        if theirs is not None:
            assert ours[2] == theirs[2] and ours[4] == theirs[4]
            assert max(abs(p - q) for p, q in zip(ours[:2] + ours[3:4], theirs[:2] + theirs[3:4])) < SAME_MM
    return plain


def _view_mm(x: float, y: float) -> tuple[float, float]:
    u, v = VIEW.to_px(x, y)
    return u / VIEW.px_per_mm, v / VIEW.px_per_mm


def _rim(rng):
    """Rim points of a random arc round CENTRE (some rays without a rim, some far off it), and a
    wide fit of them: what ``find_blobs`` sets aside, and worse."""
    cu, cv = _view_mm(*CENTRE)
    radius = rng.uniform(11.0, 19.0)
    half = rng.uniform(20.0, 90.0)
    rays = 21
    angles = np.radians(90.0 + np.linspace(-half, half, rays))
    r = radius + rng.normal(0.0, rng.uniform(0.02, 0.6), rays)
    outliers = rng.random(rays) < rng.uniform(0.0, 0.3)
    r[outliers] += rng.uniform(-6.0, 6.0, outliers.sum())
    valid = rng.random(rays) > rng.uniform(0.0, 0.7)
    wide = (CENTRE[0] + rng.normal(0, 2), CENTRE[1] + rng.uniform(0, 6), radius + 3, 0.3, float(rng.random()))
    return wide, cu + r * np.cos(angles), cv + r * np.sin(angles), valid, bool((outliers & valid).any())


def test_all_radii_at_once_fit_each_as_alone_on_random_arcs():
    rng = np.random.default_rng(22)
    outcomes = {"none": 0, "circle": 0, "dropped": 0}
    for _ in range(300):
        wide, xs, ys, valid, far_off = _rim(rng)
        circles = _assert_as_plain(wide, xs, ys, valid, VIEW)
        for circle in circles:
            outcomes["none" if circle is None else "circle"] += 1
        outcomes["dropped"] += far_off and any(circle is not None for circle in circles)
    # The sweep reaches circles, circles that fail (too few points, too few kept) and far-off points.
    assert min(outcomes.values()) >= 30, outcomes


def test_points_all_in_one_place_fit_no_circle():
    cu, cv = _view_mm(*CENTRE)
    xs, ys, valid = np.full(10, cu), np.full(10, cv + 13.0), np.ones(10, bool)
    wide = (CENTRE[0], CENTRE[1], 17.0, 0.2, 0.0)
    assert _assert_as_plain(wide, xs, ys, valid, VIEW) == [None, None, None]
    assert bases._circles_of_radii(wide, xs, ys, valid, VIEW, bases._BASE_RADII_MM) == [None, None, None]


def test_too_few_points_fit_no_circle():
    cu, cv = _view_mm(*CENTRE)
    angles = np.radians(np.linspace(60, 120, 21))
    xs, ys = cu + 13.0 * np.cos(angles), cv + 13.0 * np.sin(angles)
    valid = np.zeros(21, bool)
    valid[:bases._SHORT_ARC_MIN_POINTS - 1] = True
    assert bases._circles_of_radii((*CENTRE, 17.0, 0.2, 0.0), xs, ys, valid, VIEW, bases._BASE_RADII_MM) == [None] * 3


@pytest.mark.parametrize("seed", [300257, 300367, 300525, 300279])
def test_the_touching_pairs_rims_fit_as_alone(seed, monkeypatch):
    """The rims the rule meets in the twenty-first pass's seeds (spied on in a read)."""
    live, reference, _, _ = spec_scene(seed, GEOMETRY)
    rims, rule = [], bases._base_on_short_arc

    def recording(fitted, xs, ys, valid, view):
        rims.append((fitted, xs, ys, valid, view))
        return rule(fitted, xs, ys, valid, view)

    monkeypatch.setattr(bases, "_base_on_short_arc", recording)
    read_arena(live, reference, GEOMETRY, annotate=False)
    for fitted, xs, ys, valid, view in rims:
        _assert_as_plain(fitted, xs, ys, valid, view)
    assert rims, "the rule met no wide fit beside a crisp base in this seed"


@pytest.mark.parametrize("seed", [300000, 300024])
def test_the_board_noise_is_worked_out_once_and_reads_as_twice(seed, monkeypatch):
    """A token-sized disc standing up needs the board's noise as the mask did: the reader works it
    out once and hands it to both. Passing none (each works it out itself, as before) reads the same."""
    from vision.arena import reader

    live, reference, _, _ = spec_scene(seed, GEOMETRY)
    levels, plain_level = [], bases._noise_level
    apart, plain_apart = [], bases._apart_behind

    def counting(score, search):
        levels.append(score)
        return plain_level(score, search)

    def looking_apart(*args):
        apart.append(True)
        return plain_apart(*args)

    monkeypatch.setattr(bases, "_noise_level", counting)
    monkeypatch.setattr(bases, "_apart_behind", looking_apart)
    once = read_arena(live, reference, GEOMETRY, annotate=False)
    once_levels = len(levels)
    assert apart, "no token-sized disc stood up in this seed: the noise was needed once anyway"
    levels.clear()
    monkeypatch.setattr(reader, "board_noise", lambda change, search: None)
    twice = read_arena(live, reference, GEOMETRY, annotate=False)
    assert once.to_json() == twice.to_json()
    assert once_levels == len(levels) - 1  # (the front rim check's own level on its smoothed score, as many)
