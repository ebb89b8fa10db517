"""The hundred-and-sixth pass: the light model on dark, textured printed art.

A camera's value is near linear in light past the sensor's black level (a gamma only changes the
factor), so a lamp scales each channel by one factor at every level. The reader fits and applies the
light on log(v + 10): under a gain of 0.6 a channel at 5 levels falls 0.14 in log and one at 85 levels
0.44, so on dark, textured art one gain comes out as a per-pixel tint over the chroma threshold. The
pass's rule (5213972: the fit on the log of the cells' mean values past a 1-level offset, the reference
relit as gain x v before the change's log(v + 10)) was taken out (348481f): it helps the hunt's board
family but flips marginal fits elsewhere and turns pinned spec scene 12393 into a doubt. The tests that
show the bend are strict xfails until a light model takes a gain as one factor; the others guard.
See docs/arena-reader.md, "Hundred-and-sixth pass"."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.arena.bases import board_noise, change_mask
from vision.arena.reader import prepare_reference, register
from vision.arena.topdown import SmoothView, change_between
from vision.synth.arena_scene import random_match_scene, render_scene

SHAPE = (240, 400)

#: What the light model's log offset does to a lamp on dark art (the pass's rule was taken out).
BENT = pytest.mark.xfail(strict=True, reason="the light is fitted and applied on log(v + 10): a gain is bent "
                                             "into a tint on dark, textured art (hundred-and-sixth pass)")


def _dark_art(seed: int, low: float = 3.0, high: float = 90.0) -> np.ndarray:
    """Printed art, dark and textured: each channel its own blotches (about 30 and 6 px) from
    ``low`` to ``high`` levels, so the colour varies from pixel to pixel."""
    rng = np.random.default_rng(seed)
    planes = []
    for _ in range(3):
        art = np.zeros(SHAPE, np.float32)
        for size, weight in ((30, 1.0), (6, 0.5)):
            blotches = rng.random((SHAPE[0] // size + 2, SHAPE[1] // size + 2)).astype(np.float32)
            art += weight * cv2.resize(blotches, SHAPE[::-1], interpolation=cv2.INTER_CUBIC)
        art = (art - art.min()) / (art.max() - art.min())
        planes.append(low + (high - low) * art)
    return np.dstack(planes)


def _seen(linear: np.ndarray, seed: int, noise: float = 2.0) -> np.ndarray:
    """As the camera gives it: sensor noise, clipped and rounded to bytes."""
    noisy = linear + np.random.default_rng(seed).normal(0.0, noise, linear.shape)
    return np.clip(np.round(noisy), 0, 255).astype(np.uint8)


def _change(live: np.ndarray, reference: np.ndarray):
    usable = np.ones(SHAPE, bool)
    return change_between(SmoothView.of(live), SmoothView.of(reference), usable)


def _ramp(strength: float) -> np.ndarray:
    """A brightness ramp across the view, as a lamp off to one side gives (1 - s .. 1 + s)."""
    u = np.linspace(-1.0, 1.0, SHAPE[1], dtype=np.float32)
    return np.broadcast_to((1.0 + strength * u)[None, :, None], SHAPE + (1,))


@pytest.mark.parametrize("gain", [pytest.param((0.6, 0.6, 0.6), marks=BENT), pytest.param((0.5, 0.8, 1.2), marks=BENT),
                                  (1.3, 1.1, 0.9)])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_lamps_gain_on_dark_printed_art_is_no_change(gain, seed):
    art = _dark_art(seed)
    reference = _seen(art, seed + 10)
    live = _seen(art * np.float32(gain), seed + 20)
    score = _change(live, reference).score
    assert np.mean(score >= 1) < 0.002


@BENT
@pytest.mark.parametrize("strength", [0.2, 0.35])
def test_a_lamps_gain_ramp_on_dark_printed_art_is_no_change(strength):
    art = _dark_art(3)
    reference = _seen(art, 13)
    live = _seen(art * np.float32((0.6, 0.75, 0.9)) * _ramp(strength), 23)
    assert np.mean(_change(live, reference).score >= 1) < 0.002


@pytest.mark.parametrize("gain", [pytest.param((0.6, 0.6, 0.6), marks=BENT), pytest.param((0.5, 0.8, 1.2), marks=BENT),
                                  (1.3, 1.3, 1.3)])
def test_under_a_lamp_noise_on_near_black_art_fires_no_more_than_at_the_same_light(gain):
    # The change is still judged on log(v + 10), its allowance for noise in the dark: a lamp on
    # near-black art (0-12 levels, sensor noise 3) leaves about as much change as noise alone (a
    # dimmed channel's noise is a larger share of it; with log(v + 10) 0.52 and 0.47 against 0.38, with the
    # rule taken out 0.36 and 0.41).
    art = _dark_art(4, low=0.0, high=12.0)
    reference = _seen(art, 14, noise=3.0)
    same_light = np.mean(_change(_seen(art, 24, noise=3.0), reference).score >= 1)
    under_lamp = np.mean(_change(_seen(art * np.float32(gain), 24, noise=3.0), reference).score >= 1)
    assert under_lamp <= same_light + 0.04


@pytest.mark.parametrize("gain", [(1.0, 1.0, 1.0), pytest.param((0.6, 0.6, 0.6), marks=BENT),
                                  pytest.param((0.5, 0.8, 1.2), marks=BENT)])
@pytest.mark.parametrize("colour", [(40, 40, 160), (30, 110, 40), (200, 200, 200), (10, 12, 14)])
def test_a_thing_on_dark_art_still_shows_under_the_lamp(gain, colour):
    # A base or figure of its own colour (a dark one too) over the art: change under any lamp.
    art = _dark_art(5)
    reference = _seen(art, 15)
    scene = art.copy()
    rows, cols = slice(100, 130), slice(180, 210)
    scene[rows, cols] = np.float32(colour) * np.float32(0.8)  # (lit as the reference's art is)
    score = _change(_seen(scene * np.float32(gain), 25), reference).score
    inner = score[rows.start + 4:rows.stop - 4, cols.start + 4:cols.stop - 4]
    if colour == (10, 12, 14):
        # Near black on art from 3 to 90 levels: where the art was brighter than a few levels.
        bright = art[rows.start + 4:rows.stop - 4, cols.start + 4:cols.stop - 4].max(axis=2) > 30
        assert np.mean(inner[bright] >= 1) > 0.9
    else:
        assert np.mean(inner >= 1) > 0.9
    assert np.mean(np.delete(score, np.s_[90:140], axis=0) >= 1) < 0.002


def _board_change_share(seed: int, geometry, *, light_kept: bool) -> float:
    reference_scene, live_scene, _ = random_match_scene(np.random.default_rng(seed), geometry, hunt="board")
    if light_kept:
        lighting = dataclasses.replace(reference_scene.lighting, noise=live_scene.lighting.noise)
        live_scene = dataclasses.replace(live_scene, lighting=lighting)
    prepared = prepare_reference(render_scene(reference_scene, geometry), geometry)
    image = render_scene(live_scene, geometry)
    registration = register(image, geometry, expected=prepared.expected_markers(image),
                            still=prepared.still_markers(image))
    live = SmoothView.of(prepared.view.warp(image, registration.homography))
    change = change_between(live, prepared.smooth, prepared.search)
    mask = change_mask(change, prepared.search, board_noise(change, prepared.search))
    return float(np.mean(mask[prepared.search > 0] > 0))


@BENT
def test_hunt_1000036_the_lamp_on_painted_art_changes_no_more_than_the_reference_light(geometry):
    # board:painted, the live light 0.62 x (blue 0.84, green 0.96, red 1.12 of the reference's):
    # the change mask covers 17 % of the board (the light kept: 3.6 %; with the rule taken out 3.8 %).
    drawn = _board_change_share(1000036, geometry, light_kept=False)
    kept = _board_change_share(1000036, geometry, light_kept=True)
    assert drawn < kept + 0.01
