"""Sixtieth pass: a ringed disc fitted between the sizes, seen from high above, is fitted again by its
faint ring alone (see docs/arena-reader.md, "Sixtieth pass").

A fainter ring round something stronger is the rim of one faint disc, and its own rim points fit that
disc's size: a base's (25-28 mm) round its figure's foot, or a token's (at most 22 mm) under a vivid token
resting on it off its centre. The whole fit mixes in the rays that are one step from the board (the
figure's top, or the upper token's own rim) and can land between the sizes either way. Where the ring
alone fits a crisp base-sized disc and a figure would stay over it (figure ``UNKNOWN``), that disc is the
one judged (``_faint_ring_base``); else nothing changes.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from arena_scenes import bench_module, spec_scene
from vision.arena import bases, load_geometry, read_arena
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import render_scene

SETTINGS = ArenaSettings()
VIEW = BoardView(440, 160, 3.0)
#: In front of the board and high above it (some 77 degrees up at x 40): away from the camera is +y.
HIGH = CameraPosition(centre_mm=(40.0, -100.0, 450.0), focal_px=800.0)
#: In front and low (some 37 degrees up): a figure shows well behind its base.
LOW = CameraPosition(centre_mm=(40.0, -400.0, 300.0), focal_px=800.0)
FAINT, STRONG = 40.0, 160.0
SEARCH = np.ones(VIEW.size[::-1], bool)


def _drawn(faint_disc, strong_discs):
    """The difference (blurred as a lens blurs it) and its change mask: a faint disc (x, y, r) and
    strong ones over it."""
    w, h = VIEW.size
    diff = np.zeros((h, w), np.float32)
    for (x, y, r), level in [(faint_disc, FAINT)] + [(d, STRONG) for d in strong_discs]:
        u, v = VIEW.to_px(x, y)
        cv2.circle(diff, (round(u), round(v)), round(r * VIEW.px_per_mm), level, -1)
    diff = cv2.GaussianBlur(diff, (0, 0), 1.5)
    return diff, (diff > 8).astype(np.uint8)


def _seed():
    u, v = VIEW.to_px(40.0, 0.0)
    return round(u), round(v)


def _ring_base(diff, mask, camera=HIGH):
    return bases._faint_ring_base(diff, mask, VIEW, _seed(), camera, SETTINGS.base_mm / 2, SETTINGS, SEARCH)


#: A 25.8 mm base close to the board's colour, its figure's foot and top (strong) over it, from high above.
BASE = ((40.0, 0.0, 12.9), [(40.0, 0.0, 7.0), (40.0, 8.0, 7.0), (40.0, 16.0, 7.0)])


def test_a_base_round_its_figure_is_fitted_by_its_faint_ring():
    ring = _ring_base(*_drawn(*BASE))
    assert ring is not None
    x, y, r, error = ring
    assert 25.0 <= 2 * r <= 27.0 and error <= bases.CRISP_RIM_MM
    assert math.hypot(x - 40.0, y) < 1.0


@pytest.mark.parametrize("upper", [(40.0, 10.0, 11.0), (40.0, 11.0, 11.0), (46.0, 8.0, 11.0), (40.0, 9.0, 7.5)],
                         ids=["22mm-10off", "22mm-11off", "22mm-diagonal", "15mm-9off"])
def test_a_token_resting_off_centre_on_a_faint_one_is_not(upper):
    # The faint ring is the lower token's rim: a token's size, under the cut, however the pair fits.
    assert _ring_base(*_drawn((40.0, 0.0, 11.0), [upper])) is None


def test_not_seen_from_low():
    # From lower, a figure shows behind its base: the whole fit and its figure evidence stand.
    assert _ring_base(*_drawn(*BASE), camera=LOW) is None


def test_not_a_ring_wider_than_a_base():
    assert _ring_base(*_drawn((40.0, 0.0, 16.5), [(40.0, 0.0, 7.0), (40.0, 8.0, 7.0)])) is None


def test_without_a_fainter_ring_nothing_is_fitted():
    diff, mask = _drawn((40.0, 0.0, 12.9), [(40.0, 0.0, 12.9)])  # one vivid disc: one step all round
    assert bases._faint_ring_fit(diff, mask, VIEW, _seed(), HIGH, SETTINGS.base_mm / 2) is None


def test_670187_now_read_right_without_the_count(geometry):
    # S5's fighter, 68 degrees up, a 25.6 mm base 20 from the board's colour: fitted 24.7 mm (ringed
    # 0.71, standing up within a resting token's reach), its faint ring alone 26.7 mm. On main a doubt.
    live, reference, truth, _ = spec_scene(670187, geometry)
    reading = read_arena(live, reference, geometry, SETTINGS, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth


#: Group B and C of the fifty-third pass, and the scenes this pass looked at: never a wrong reading.
@pytest.mark.parametrize("seed", [670126, 670216, 670202, 670085, 670151, 670181, 670197])
@pytest.mark.parametrize("count", [False, True], ids=["no-count", "count"])
def test_the_other_scenes_of_groups_b_and_c_are_never_wrong(geometry, seed, count):
    live, reference, truth, fighters = spec_scene(seed, geometry)
    reading = read_arena(live, reference, geometry, SETTINGS, annotate=False, fighters=fighters if count else None)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)


STACKED = bench_module("arena_stacked_tokens")
#: ``resting-wide`` scenes whose pair (a vivid 22 mm token 9-11 mm off a faint 22 mm one, away from the
#: camera) fits 23.4-23.6 mm, ringed 0.71-0.9, standing up within a resting token's reach: group B's look.
RESTING_STANDING = [(74, 0, 9.0, 22.0, 90), (74, 20, 9.0, 22.0, 90), (74, 20, 11.0, 22.0, 90), (80, 20, 11.0, 22.0, 90)]


@pytest.mark.parametrize("label", RESTING_STANDING, ids=str)
@pytest.mark.parametrize("count", [False, True], ids=["no-count", "count"])
def test_a_resting_pair_that_looks_like_group_b_is_never_a_fighter(label, count):
    job = next(j for j in STACKED.jobs("resting-wide") if j[1] == label)
    kind, _, pose, minis, tokens, truth = job
    geometry = load_geometry(STACKED.LAYOUT)
    live = render_scene(STACKED._scene(pose, minis, tokens), geometry)
    reference = render_scene(STACKED._scene(pose, seed=99), geometry)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=0 if count else None)
    assert not reading.fighters or not reading.ok, reading.fighters
    assert not reading.ok or reading.occupied == truth


def test_a_resting_pair_whose_ring_alone_fits_wide_is_not_refitted(monkeypatch):
    # ``resting`` 61 degrees up, a 20 mm token 5 mm off a faint 22 mm one: its ring alone fits 25.6 mm
    # (a short front arc), but that disc is pinched 2.6 mm across: no base is.
    taken = []
    real = bases._faint_ring_base

    def spy(*args, **kwargs):
        found = real(*args, **kwargs)
        taken.append(found)
        return found

    monkeypatch.setattr(bases, "_faint_ring_base", spy)
    job = next(j for j in STACKED.jobs("resting") if j[1] == (61, 0, 5.0, 45))
    _, _, pose, minis, tokens, truth = job
    geometry = load_geometry(STACKED.LAYOUT)
    reading = read_arena(render_scene(STACKED._scene(pose, minis, tokens), geometry),
                         render_scene(STACKED._scene(pose, seed=99), geometry), geometry, annotate=False)
    assert taken and not any(taken)
    assert not reading.ok or reading.occupied == truth

