"""Seventy-sixth pass (cost, docs/arena-reader.md): the token checks' chain. A disc's faint ring, skirt and
side ring walk the arc facing the camera once (``bases._FacingArc``); the side ring's rays all at once
(``_side_rims``); the tint check answers no as soon as one of the grid's first bare places matches the disc's
band (``_matched_on_bare_board``). Each is meant to answer exactly as the code it replaced: the old walk
(``_camera_facing_rays``, kept) and the old per-ray loop (kept here) are the reference, compared bit for bit
on drawn and random values and on the cost bench's scenes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from arena_scenes import cost_bench_scenes
from vision.arena import bases, read_arena
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

VIEW = BoardView(120.0, 90.0, 2.0)
#: Wide enough for the tint check's grid over bare board (``_TINT_NULL_PLACES``).
WIDE_VIEW = BoardView(240.0, 160.0, 2.0)
#: Cameras low and high, in front, to the side and behind (centre mm, focal px).
CAMERAS = (CameraPosition((0.0, -350.0, 300.0), 800.0), CameraPosition((-260.0, -120.0, 180.0), 700.0),
           CameraPosition((150.0, 240.0, 600.0), 900.0))


def _old_side_rims(inside, seen, dark, steps, r, apart, widest):
    """``_base_side_round``'s per-ray loop as it was (the seventy-first pass)."""
    rims = np.zeros(len(inside))
    found = np.zeros(len(inside), bool)
    for i in range(len(inside)):
        out = np.flatnonzero(~inside[i] & (steps >= r / 2))
        if not len(out):
            continue
        start = out[0]
        clear = np.flatnonzero(np.convolve(~dark[i, start:], np.ones(apart), "valid") == apart)
        if not len(clear):
            continue
        run = np.flatnonzero(dark[i, start + clear[0]:])
        if not len(run):
            continue
        first = start + clear[0] + run[0]
        ends = np.flatnonzero(~dark[i, first:])
        if not len(ends) or ends[0] > widest:
            continue
        last = first + ends[0]
        if inside[i, start:last].any() or not seen[i, start:last].all():
            continue
        rims[i] = steps[first]
        found[i] = True
    return rims, found


def test_side_rims_of_all_rays_at_once_are_the_loops():
    rng = np.random.default_rng(76)
    steps = np.arange(0, bases._BASE_RING_RAY_MM, bases._RAY_STEP_MM)
    rays, samples = len(bases._BASE_RING_ARC), len(steps)
    found = 0
    for trial in range(2000):
        p_inside, p_unseen, p_dark = rng.uniform(0.02, 0.9, 3)
        if trial % 2:  # a changed stretch from the centre out, as a disc's
            inside = np.arange(samples)[None] < rng.integers(0, samples + 1, rays)[:, None]
            inside |= rng.random((rays, samples)) < p_inside / 10
        else:
            inside = rng.random((rays, samples)) < p_inside
        seen = rng.random((rays, samples)) >= p_unseen / 5
        dark = rng.random((rays, samples)) < p_dark
        r, apart, widest = rng.uniform(1, 14), int(rng.integers(1, 5)), int(rng.integers(0, 20))
        old = _old_side_rims(inside, seen, dark, steps, r, apart, widest)
        new = bases._side_rims(inside, seen, dark, steps, r, apart, widest)
        assert new[0].dtype == old[0].dtype and np.array_equal(new[0], old[0]) and np.array_equal(new[1], old[1])
        found += int(old[1].sum())
    assert found > 1000  # (rims found, not only rays without one)


@pytest.mark.parametrize("camera", CAMERAS)
def test_the_arc_walked_once_is_each_walk_of_the_old_rays(camera):
    """Every step's samples of a float image (bilinear) and of a mask (nearest) along the shared arc (walked at
    the fine step) and along a check's own (at its step) are what ``_camera_facing_rays`` and its ``cv2.remap``
    gave each check, bit for bit, at discs inside the view, near its edges and off it."""
    rng = np.random.default_rng(int(camera.focal_px))
    h, w = (int(round(s * VIEW.px_per_mm)) for s in (VIEW.height_mm, VIEW.width_mm))
    image = cv2.blur(rng.normal(0, 1, (h, w)).astype(np.float32), (3, 3))
    mask = (rng.random((h, w)) < 0.3).astype(np.uint8)
    search = rng.random((h, w)) < 0.9
    for _ in range(40):
        x, y = rng.uniform(-VIEW.width_mm / 2 - 10, VIEW.width_mm / 2 + 10), rng.uniform(-VIEW.height_mm / 2 - 10,
                                                                                        VIEW.height_mm / 2 + 10)
        fine, coarse = bases._FacingArc(VIEW, camera, x, y), bases._FacingArc(VIEW, camera, x, y, bases._RAY_STEP_MM)
        for arc, step in ((fine, bases._RAY_STEP_MM), (fine, bases._SKIRT_STEP_MM), (coarse, bases._RAY_STEP_MM)):
            angles, steps, map_u, map_v, profiles = bases._camera_facing_rays(image, VIEW, camera, x, y, step)
            assert np.array_equal(arc.angles, angles) and np.array_equal(arc.steps(step), steps)
            walked = arc.along(image, step)
            assert walked.dtype == profiles.dtype and np.array_equal(walked.view(np.uint32), profiles.view(np.uint32))
            for m in (mask, search.astype(np.uint8)):
                old = cv2.remap(m, map_u, map_v, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
                assert np.array_equal(arc.along(m, step, nearest=True), old)
            assert np.array_equal(arc.along(search.view(np.uint8), step, nearest=True),
                                  cv2.remap(search.astype(np.uint8), map_u, map_v, cv2.INTER_NEAREST,
                                            borderMode=cv2.BORDER_CONSTANT, borderValue=0))


def _tint_scene(rng, camera, discs):
    """A noisy board with a vivid top at each disc (x, y, r, based): where ``based``, over a base 3-9 % off the
    board's colour in a channel, its centre 4 mm nearer the camera (a figure's top over its base, as the
    fiftieth pass draws it). Live and relit colours, their tint (as ``_TintInFrontCheck`` makes it), and the
    bare board (8 px clear of anything drawn)."""
    h, w = (int(round(s * WIDE_VIEW.px_per_mm)) for s in (WIDE_VIEW.height_mm, WIDE_VIEW.width_mm))
    relit = (np.array([150, 170, 185], np.float32) + rng.normal(0, 2.0, (h, w, 3))).astype(np.float32)
    live = relit + rng.normal(0, 2.0, (h, w, 3)).astype(np.float32)
    drawn = np.zeros((h, w), np.uint8)
    for x, y, r, based in discs:
        ax, ay = camera.away(x, y)
        for cx, cy, cr, colour in ([(x - 4 * ax, y - 4 * ay, 12.7, (150, 170, 185) * rng.uniform(0.91, 1.09, 3))]
                                   if based else []) + [(x, y, r, (30, 150, 220))]:
            u, v = (int(round(c)) for c in WIDE_VIEW.to_px(cx, cy))
            radius = int(round(cr * WIDE_VIEW.px_per_mm))
            cv2.circle(live, (u, v), radius, tuple(float(c) for c in colour), -1)
            cv2.circle(drawn, (u, v), radius + 8, 1, -1)
    live = cv2.GaussianBlur(live, (0, 0), 1.0)
    ratio = cv2.divide(live, relit) - np.float32(1.0)
    tint = ratio - cv2.transform(ratio, np.full((3, 3), 1 / 3, np.float32))
    return live, relit, tint, drawn == 0


def test_the_tint_check_answers_as_it_did_with_the_whole_grid(monkeypatch):
    """``_tinted_in_front`` with the early match answers as it did measuring the whole grid every time, on
    drawn boards with tops over faint bases and alone; the early match is what answers most of them, and
    some answers are yes."""
    rng = np.random.default_rng(760)
    match = bases._matched_on_bare_board
    early = []
    monkeypatch.setattr(bases, "_matched_on_bare_board", lambda *a: early.append(match(*a)) or early[-1])
    answers = []
    for scene in range(12):
        camera = CAMERAS[scene % len(CAMERAS)]
        discs = [(x, y, rng.uniform(8, 10.5), k % 2 == 0)
                 for k, (x, y) in enumerate([(-80, -40), (0, -40), (80, -40), (-80, 40), (0, 40), (80, 40)])]
        live, relit, tint, bare = _tint_scene(rng, camera, discs)
        h, w = bare.shape
        regions, search = np.zeros((h, w), np.int32), np.ones((h, w), bool)
        for x, y, r, _ in discs:
            args = (live, relit, tint, bare, search, WIDE_VIEW, camera, x, y, r, 0, regions, [])
            new = bases._tinted_in_front(*args)
            with monkeypatch.context() as m:
                m.setattr(bases, "_matched_on_bare_board", lambda *a: False)
                old = bases._tinted_in_front(*args)
            assert bool(new) == bool(old), (scene, x, y, r)
            answers.append(bool(old))
    assert sum(early) >= len(early) // 3 and any(answers) and not all(answers), (sum(early), len(early), sum(answers))


def test_a_place_matching_the_band_answers_no_only_past_the_spare():
    """A place measuring the disc's level to the bit, or less than ``_TINT_MATCH_SPARE`` over it, is no
    early answer (the whole grid decides); a level of 0 is matched by any place."""
    own = np.array([1.0, -1.0, 0.0]) / np.sqrt(2.0)
    tint = np.zeros((20, 20, 3), np.float32)
    tint[..., 2] = 0.01  # (its part off ``own``: 0.01)
    bare = np.ones((20, 20), bool)
    gu, gv = np.arange(2, 18, 4), np.arange(2, 18, 4)
    du, dv = np.array([-1, 0, 1]), np.array([0, 1, -1])
    left = float(bases._tint_left(np.array([0.0, 0.0, 0.01], np.float32), own))
    assert not bases._matched_on_bare_board(np.float64(left), own, bare, tint, gu, gv, du, dv)
    assert not bases._matched_on_bare_board(np.float64(left * (1 - bases._TINT_MATCH_SPARE / 2)), own, bare, tint,
                                            gu, gv, du, dv)
    assert bases._matched_on_bare_board(np.float64(left * (1 - 2 * bases._TINT_MATCH_SPARE)), own, bare, tint,
                                        gu, gv, du, dv)
    assert bases._matched_on_bare_board(np.float64(0.0), own, ~bare, tint, gu, gv, du, dv)
    assert not bases._matched_on_bare_board(np.float64(1e-6), own, ~bare, tint, gu, gv, du, dv)  # (no bare place)


@pytest.fixture(scope="module")
def bench_scenes(geometry):
    """The cost bench's first four 800x600 scenes, each with the reference prepared and the frame that
    follows the first read."""
    return cost_bench_scenes(geometry)


def test_whole_reads_ask_the_chain_and_answer_as_the_old_walks(bench_scenes, geometry, monkeypatch):
    """On the bench's scenes (the first read and the one that follows, with the count), every check of the
    chain that took the disc's shared arc answers as it does on a walk of its own (the shared walk hands each
    check its own image's samples, whichever check walked them first), and every tint answer is the whole
    grid's."""
    asked = {"arc": 0, "tint": 0}

    def checked(name):
        original = getattr(bases, name)

        def check(*args):
            answer = original(*args)
            if isinstance(args[-1], bases._FacingArc):
                assert answer == original(*args[:-1]), name
                asked["arc"] += 1
            return answer
        return check

    tinted = bases._tinted_in_front

    def checked_tint(*args):
        answer = tinted(*args)
        with monkeypatch.context() as m:
            m.setattr(bases, "_matched_on_bare_board", lambda *a: False)
            assert bool(tinted(*args)) == bool(answer)
        asked["tint"] += 1
        return answer

    for name in ("_faint_ring_round_a_top", "_fades_slower_than_it_rises", "_base_side_round"):
        monkeypatch.setattr(bases, name, checked(name))
    monkeypatch.setattr(bases, "_tinted_in_front", checked_tint)
    for live, prepared, following in bench_scenes:
        first = read_arena(live, prepared, geometry, annotate=False)
        followed = prepared.following(live, first.registration) if first.registration is not None else prepared
        read_arena(following, followed, geometry, annotate=False, fighters=2)
    assert asked["arc"] >= 6 and asked["tint"] >= 2  # (the bench's scenes with a plain token)
