"""Forty-fifth pass (cost, docs/arena-reader.md): the fade measure of a token-sized disc seen from high
above (``_fades_slower_than_it_rises``) worked out for all its rays at once. It must answer exactly as
the forty-first pass's ray-by-ray loop did: that loop is kept here word for word as the reference, and
compared to the bit on random rays that reach every branch (the sweep asserts they did) and on drawn
scores read through the whole measure. And the middles of rims found off their seeds, fitted again
all in one batch where they were fitted one by one: the same fits (the old loop kept here too)."""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

import arena_scenes
from test_arena_thirtieth_pass import CAMERA, VIEW, drawn_score
from vision.arena import bases, read_arena
from vision.arena.pose import CameraPosition

GEOMETRY = arena_scenes.line_9()
STEPS = np.arange(0, bases._BASE_RING_RAY_MM, bases._SKIRT_STEP_MM)


# --- the forty-first pass's code, word for word ----------------------------------------------------


def _old_longer_fades(profiles, steps, r, quiet):
    longer = []
    for profile in profiles:
        top = float(np.median(profile[steps < r / 2]))
        below_half = np.flatnonzero(profile < top / 2)
        if top < 4 * quiet or not len(below_half):
            continue  # no clear edge on this ray
        half = below_half[0]
        outside = np.flatnonzero(profile[half:] < 2 * quiet)
        inside = np.flatnonzero(profile[:half] > top - 2 * quiet)
        if not len(outside) or not len(inside):
            continue  # the change runs on out of the ray, or never rose clear of the noise
        longer.append((outside[0] * bases._SKIRT_STEP_MM) - (half - inside[-1]) * bases._SKIRT_STEP_MM)
    return longer


def _old_fades_slower_than_it_rises(smooth, quiet, view, camera, x, y, r):
    _, steps, _, _, profiles = bases._camera_facing_rays(smooth, view, camera, x, y, bases._SKIRT_STEP_MM)
    longer = _old_longer_fades(profiles, steps, r, quiet)
    return len(longer) >= len(profiles) / 2 and float(np.median(longer)) >= bases._SKIRT_MM


def _why_skipped(profile, steps, r, quiet):
    """Which of the old loop's branches a ray takes (for the sweep's coverage)."""
    top = float(np.median(profile[steps < r / 2]))
    if top < 4 * quiet:
        return "faint"
    below_half = np.flatnonzero(profile < top / 2)
    if not len(below_half):
        return "never falls"
    half = below_half[0]
    if not len(np.flatnonzero(profile[half:] < 2 * quiet)):
        return "runs on"
    if not len(np.flatnonzero(profile[:half] > top - 2 * quiet)):
        return "never rose"
    return "measured"


def random_rays(rng, rays=19):
    """Rays like the smoothed change out from a disc's centre: a top, a blurred edge at a random
    distance, sometimes a fainter skirt or a step, a tail into the board's noise; some start low (the
    disc's centre off its change), some never fall (the change runs on), some are faint throughout."""
    samples = len(STEPS)
    profiles = np.empty((rays, samples), np.float32)
    for k in range(rays):
        top, edge = rng.uniform(0.05, 9.0), rng.uniform(1.0, 22.0)
        blur, skirt_mm, skirt = rng.uniform(0.3, 2.5), rng.uniform(0.0, 6.0), rng.uniform(0.0, 0.6) * top
        profile = top / (1 + np.exp((STEPS - edge) / blur)) + skirt * (STEPS < edge + skirt_mm)
        kind = rng.integers(6)
        if kind == 0:
            profile[: rng.integers(1, 20)] = rng.uniform(0.0, 0.3)  # starts low
        elif kind == 1:
            profile = np.maximum(profile, top * rng.uniform(0.5, 1.0))  # runs on out of the ray
        elif kind == 2:
            profile[rng.integers(samples):] = top  # something else further out
        profile += np.abs(rng.normal(0.0, rng.uniform(0.0, 0.3), samples))
        if kind == 3:
            profile = np.round(profile * 4) / 4  # ties: samples right at a threshold
        profiles[k] = profile
    return profiles


def test_the_rays_measured_at_once_are_the_loops_to_the_bit():
    rng = np.random.default_rng(45)
    branches = set()
    verdicts = set()
    for _ in range(400):
        profiles = random_rays(rng)
        r = float(rng.choice([rng.uniform(2.0, 14.0), 0.1, 1.0, 12.0]))
        quiet = float(rng.choice([rng.uniform(0.05, 0.6), 0.1, 0.25]))
        old = np.array(_old_longer_fades(profiles, STEPS, r, quiet), np.float64)
        new = bases._longer_fades(profiles, STEPS, r, quiet)
        assert new.dtype == old.dtype and new.tobytes() == old.tobytes(), (r, quiet)
        branches |= {_why_skipped(profile, STEPS, r, quiet) for profile in profiles}
        if len(old) >= len(profiles) / 2:
            verdicts.add(float(np.median(old)) >= bases._SKIRT_MM)
    assert branches == {"faint", "never falls", "runs on", "never rose", "measured"}
    assert verdicts == {True, False}


def test_a_threshold_between_two_float32s_is_compared_as_the_loop_compared_it():
    # A ray's top less 2 quiet falls between two float32s: the loop compared the float32 samples with
    # that Python float rounded to float32, so a sample equal to the rounded value is not above it; a
    # float64 comparison would take it where the rounding went up.
    top = np.float32(3.0000002)
    quiet = next(q for q in (0.1 + 1e-9 * k for k in range(1000))
                 if float(np.float32(float(top) - 2 * q)) > float(top) - 2 * q)
    profiles = np.full((2, len(STEPS)), top, np.float32)
    profiles[:, 30:40] = np.float32(float(top) - 2 * quiet)  # "within 2 quiet of the top"? (not quite)
    profiles[:, 41:] = np.float32(float(top) / 2) - np.float32(0.01)
    profiles[:, 60:] = 0.05
    profiles[1, 40] = np.float32(float(top) / 2)  # right at the half level: not under it
    old = np.array(_old_longer_fades(profiles, STEPS, 8.0, quiet), np.float64)
    assert len(old) == 2
    assert bases._longer_fades(profiles, STEPS, 8.0, quiet).tobytes() == old.tobytes()


CAMERAS = (CAMERA, CameraPosition((60.0, -300.0, 900.0), 800.0), CameraPosition((-200.0, 250.0, 700.0), 700.0))


def test_the_measure_on_drawn_scores_answers_as_the_loop():
    rng = np.random.default_rng(4500)
    answers = set()
    for k in range(40):
        x, y, r = rng.uniform(20, 420), rng.uniform(15, 145), rng.uniform(6.0, 11.5)
        if k % 2:  # a token, perhaps with a faint base beside or under it, any camera
            discs = [(x + rng.uniform(-3, 3), y + rng.uniform(-3, 3), rng.uniform(12.5, 14.0), rng.uniform(0.2, 0.8))]
            discs = discs[: rng.integers(2)] + [(x, y, r, rng.uniform(2.0, 9.0))]
            camera = CAMERAS[int(rng.integers(len(CAMERAS)))]
        else:  # a figure's top over a base too faint for a ring (the forty-first pass's 485025), off its centre
            discs = [(x, y - rng.uniform(1.0, 2.5), rng.uniform(12.5, 14.0), rng.uniform(0.3, 0.5)), (x, y, r, rng.uniform(6.0, 9.0))]
            camera = CAMERA
        smooth, _ = drawn_score(discs, noise=float(rng.choice([0.03, 0.1, 0.2])), seed=int(rng.integers(1000)))
        quiet = max(bases._MIN_RING_SCORE, bases._RING_OVER_NOISE * bases._noise_level(smooth, np.ones(smooth.shape, bool)))
        old = _old_fades_slower_than_it_rises(smooth, quiet, VIEW, camera, x, y, r)
        assert bases._fades_slower_than_it_rises(smooth, quiet, VIEW, camera, x, y, r) is old
        answers.add(old)
    assert answers == {True, False}


# --- the middles fitted again in one batch ------------------------------------------------------------


def _old_disc_fits(difference, mask, view, camera, radius, seeds, counts):
    """a5ce165's find_blobs lines, word for word (``counts``: how often each branch was taken)."""
    h, w = mask.shape
    fits = []
    wide_rims: dict[int, tuple] = {}  # the rim points of each fit wider than any base
    reseeded: set[tuple[int, int]] = set()
    seeds = [(u, v) for u, v in seeds if 0 <= u < w and 0 <= v < h and mask[v, u]]
    rims = bases._rim_points(difference, mask, view, seeds, camera, radius) if seeds else None
    for k, ((u, v), fitted) in enumerate(zip(seeds, bases._fits_to(rims, view) if seeds else [])):
        peak = view.to_mm(u, v)
        if fitted is None:
            continue
        if math.hypot(peak[0] - fitted[0], peak[1] - fitted[1]) > 0.8 * fitted[2]:
            u, v = (int(round(c)) for c in view.to_px(fitted[0], fitted[1]))
            if (fitted[3] > bases.MAX_RIM_ERROR_MM or not (0 <= u < w and 0 <= v < h and mask[v, u])
                    or (u, v) in reseeded):
                counts["not fitted again"] += 1
                continue
            reseeded.add((u, v))
            peak = view.to_mm(u, v)
            fitted = bases._fit_near_rims(difference, mask, view, [(u, v)], camera, radius)[0]
            if (fitted is None or fitted[3] > bases.MAX_RIM_ERROR_MM or fitted[2] < bases.MIN_BLOB_RADIUS_MM
                    or math.hypot(peak[0] - fitted[0], peak[1] - fitted[1]) > 0.8 * fitted[2]):
                counts["fitted again, no disc"] += 1
                continue  # (a disc narrower than any seed may be is noise, as a seed would be)
            counts["fitted again, a disc"] += 1
        elif 2 * fitted[2] > bases.LARGEST_BASE_MM + bases.SIZE_MARGIN_MM and fitted[3] <= bases.MAX_RIM_ERROR_MM:
            wide_rims[len(fits)] = rims[0][k], rims[1][k], rims[2][k]  # see _split_touching_pairs
        x, y, r, error, tiered = fitted
        fits.append((x, y, r, error, tiered, peak, (u, v)))
    counts["middles in one read"] = max(counts["middles in one read"], len(reseeded))
    return fits, wide_rims


def _same_fits(new, old):
    (fits, wide), (old_fits, old_wide) = new, old
    assert fits == old_fits
    assert wide.keys() == old_wide.keys()
    for k in wide:
        assert all(a.dtype == b.dtype and a.tobytes() == b.tobytes() for a, b in zip(wide[k], old_wide[k]))


def _figure_blobs(rng):
    """A difference and change mask of random bases and tokens, some with a figure standing behind."""
    discs = []
    for _ in range(int(rng.integers(1, 6))):
        x, y, r = rng.uniform(-190, 190), rng.uniform(-60, 60), rng.uniform(7.0, 14.0)
        level = rng.uniform(20, 120)
        discs.append((x, y, r, level))
        if rng.random() < 0.6:  # a figure: narrower discs running on away from the camera, brighter
            for step in range(1, int(rng.integers(3, 8))):
                discs.append((x + rng.uniform(-1, 1), y + 3.0 * step, rng.uniform(4.0, 8.0), level * rng.uniform(1.0, 2.5)))
    return arena_scenes.drawn_discs(VIEW, discs)


def test_the_middles_fitted_together_give_the_fits_each_gave_alone():
    rng = np.random.default_rng(4545)
    counts = collections.Counter()
    for case in range(60):
        difference, mask = _figure_blobs(rng)
        vs, us = np.nonzero(mask)
        picks = rng.choice(len(us), size=min(len(us), 25), replace=False)
        seeds = [(int(us[i]), int(vs[i])) for i in picks] + [(-3, 5), (500, 20)]  # (two off the view)
        camera = CAMERAS[case % len(CAMERAS)]
        _same_fits(bases._disc_fits(difference, mask, VIEW, camera, 13.0, seeds),
                   _old_disc_fits(difference, mask, VIEW, camera, 13.0, seeds, counts))
    # The sweep fitted middles again, found discs and none there, and fitted several in one read.
    assert counts["not fitted again"] and counts["fitted again, no disc"] and counts["fitted again, a disc"]
    assert counts["middles in one read"] >= 3


@pytest.mark.parametrize("seed", [230019, 230028, 230044])
def test_a_reads_middles_fitted_together_are_the_fits_each_gave_alone(seed, monkeypatch):
    # Spec scenes whose read fits 5, 3 and 3 middles again: what the read hands _disc_fits.
    calls = []
    kept = bases._disc_fits

    def spy(*args):
        calls.append(args)
        return kept(*args)

    monkeypatch.setattr(bases, "_disc_fits", spy)
    live, reference, _, _ = arena_scenes.spec_scene(seed, GEOMETRY)
    read_arena(live, reference, GEOMETRY, annotate=False)
    assert calls
    counts = collections.Counter()
    for difference, mask, view, camera, radius, seeds in calls:
        _same_fits(kept(difference, mask, view, camera, radius, seeds),
                   _old_disc_fits(difference, mask, view, camera, radius, seeds, counts))
    assert counts["middles in one read"] >= 3
