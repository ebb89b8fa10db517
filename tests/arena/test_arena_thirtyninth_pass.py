"""Thirty-ninth pass: a token-sized disc seen from high above, which size alone would call a token,
is no token where a fainter ring wider than any token shows round it: a figure's top over a base
close to the board's colour (fresh 480197, with touching tokens: its S8 fighter read as a token, a
wrong ``ok``). See docs/arena-reader.md, "Thirty-ninth pass"."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, line_9, spec_scene
from test_arena_thirtieth_pass import CAMERA, VIEW, drawn_score
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.settings import ArenaSettings

GEOMETRY = line_9()
SETTINGS = ArenaSettings()
SEED = 480197

#: 480197's S8 fighter as measured: its figure's pale top (14 mm wide, 31 mm tall, seen from 69
#: degrees), fitted a crisp solid 15.4 mm disc 4.6 mm away from the camera off its base's centre,
#: no figure seen behind it (the camera too high), not standing up, no ring on its own rim.
TOP = Blob(128.0, -1.4, 7.7, 0.10, 0.0, Evidence.UNKNOWN, (128.0, -1.4), 1, 1.0, short_behind_mm=-2.3, across_mm=15.5)


def rings(discs, x, y, r, noise, seed=0):
    """(the faint ring round the disc at (x, y) is wider than a token, the base placed by it) on a drawn
    score, the ring's level over the noise worked out as the reader does."""
    smooth, mask = drawn_score(discs, noise=noise, seed=seed)
    quiet = max(bases._MIN_RING_SCORE, bases._RING_OVER_NOISE * bases._noise_level(smooth, np.ones(mask.shape, bool)))
    return (bases._faint_ring_round_a_top(smooth, quiet, mask, VIEW, CAMERA, x, y, r, SETTINGS),
            bases._faint_base_ring(smooth, quiet, mask, VIEW, CAMERA, x, y, r, SETTINGS))


# --- the ring, on drawn scores (1 px a mm, the camera in front: the arc facing it is -y) -----------

#: A 27 mm base just over the board's noise (0.65, as 480197's), a figure's top (score 6.4, 15.4 mm)
#: 4.6 mm off its centre away from the camera.
FIGURE_ON_A_FAINT_BASE = [(40, 0, 13.5, 0.65), (40, 4.6, 7.7, 6.4)]


@pytest.mark.parametrize("noise", [0.03, 0.15, 0.25])
def test_a_faint_base_round_a_figures_top_is_a_ring_wider_than_a_token(noise):
    wide, _ = rings(FIGURE_ON_A_FAINT_BASE, 40, 4.6, 7.7, noise)
    assert wide


@pytest.mark.parametrize("seed", range(3))
def test_on_a_noisy_board_the_ring_is_still_wider_than_a_token(seed):
    # 480197's board (its ring's level 0.33-0.39): the half-level outline of so faint a plateau lies out
    # in the noise, and the 27 mm base's ring fits 29-31 mm, at or past a base's size (no fighter is
    # then placed by it, by the thirtieth pass's rule): it is still wider than any token.
    wide, _ = rings(FIGURE_ON_A_FAINT_BASE, 40, 4.6, 7.7, 0.3, seed=seed)
    assert wide


@pytest.mark.parametrize("noise", [0.03, 0.25])
def test_a_lone_token_has_no_ring_round_it(noise):
    # A vivid 17.8 mm token (480197's S9 token): its own outline is the outermost step.
    assert rings([(40, 0, 8.9, 6.4)], 40, 0, 8.9, noise) == (False, None)


@pytest.mark.parametrize("noise", [0.03, 0.25, 0.3])
def test_a_faint_lower_token_round_a_vivid_one_is_no_wider_than_a_token(noise):
    # The largest token (22 mm) close to the board's colour with a vivid one resting on it, 3 mm off.
    for seed in range(3):
        assert rings([(40, 0, 11.0, 0.65), (40, 3, 8.0, 6.4)], 40, 3, 8.0, noise, seed=seed) == (False, None)


@pytest.mark.parametrize("noise", [0.03, 0.25])
def test_a_faint_base_beside_a_token_is_not_round_it(noise):
    # A vivid token lying against a fighter's faint base (touching tokens): the base is beside it.
    assert rings([(63.5, 0, 13.5, 0.65), (40, 0, 10.0, 6.4)], 40, 0, 10.0, noise) == (False, None)


# --- the rule in classify ----------------------------------------------------------------------------

def test_a_crisp_solid_top_seen_from_high_above_is_a_token_by_size_alone_and_unsure_with_a_wide_ring():
    assert bases.classify(TOP, SETTINGS) is Kind.TOKEN
    assert bases.classify(replace(TOP, wide_faint_ring=True), SETTINGS) is Kind.UNSURE


# --- the seed ------------------------------------------------------------------------------------------

def test_480197_is_never_a_wrong_ok():
    assert_never_wrong_when_ok([SEED], GEOMETRY, touching_tokens=True)


def test_480197_without_the_count_is_a_doubt_at_the_figures_top():
    live, reference, _, _ = spec_scene(SEED, GEOMETRY, touching_tokens=True)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok
    # The doubt is the S8 fighter's (its top near (128, -1) mm), not something elsewhere.
    assert "(128, -1) mm may be a token or a base" in reading.error, reading.error
