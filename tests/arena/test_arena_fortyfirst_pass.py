"""Forty-first pass: a token-sized disc seen from high above, which size alone would call a token and
round which no wide faint ring shows, is no token where its change fades out past its rim slower than
it rises inside: something faint and wider lies round it, a base close to the board's colour under a
figure's top (fresh 485025, with touching tokens: its S7 fighter read as a token, a wrong ``ok``).
See docs/arena-reader.md, "Forty-first pass"."""

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
SEED = 485025

#: 485025's S7 fighter as measured: its figure's shoulders (19.7 mm wide, 28 mm tall, seen from 77
#: degrees), fitted a crisp solid 22.2 mm disc 1.8 mm off its base's centre, no figure seen behind it,
#: not standing up, no ring round it.
TOP = Blob(75.1, 6.9, 11.1, 0.11, 0.1, Evidence.UNKNOWN, (81.0, 4.0), 1, 1.0, short_behind_mm=-0.57, across_mm=22.3)


def skirt(discs, x, y, r, noise, seed=0):
    """(the change of the disc at (x, y) fades slower than it rises, a wide faint ring round it) on a
    drawn score, the level over the noise worked out as the reader does."""
    smooth, mask = drawn_score(discs, noise=noise, seed=seed)
    quiet = max(bases._MIN_RING_SCORE, bases._RING_OVER_NOISE * bases._noise_level(smooth, np.ones(mask.shape, bool)))
    return (bases._fades_slower_than_it_rises(smooth, quiet, VIEW, CAMERA, x, y, r),
            bases._faint_ring_round_a_top(smooth, quiet, mask, VIEW, CAMERA, x, y, r, SETTINGS))


# --- the skirt, on drawn scores (1 px a mm, the camera in front: the arc facing it is -y) ----------

#: A 26.6 mm base faint over the board (0.4), a figure's shoulders (score 8.5, 22.2 mm) 1.8 mm off its
#: centre away from the camera: too faint and too close to the top for a ring.
FIGURE_ON_A_FAINTER_BASE = [(40, 0, 13.3, 0.4), (40, 1.8, 11.1, 8.5)]


@pytest.mark.parametrize("noise", [0.03, 0.1])
@pytest.mark.parametrize("seed", range(2))
def test_a_base_too_faint_for_a_ring_round_a_figures_top_makes_it_fade_slower(noise, seed):
    assert skirt(FIGURE_ON_A_FAINTER_BASE, 40, 1.8, 11.1, noise, seed=seed) == (True, False)


@pytest.mark.parametrize("noise", [0.03, 0.1, 0.2, 0.3])
@pytest.mark.parametrize("token", [(11.0, 8.5), (8.9, 6.4), (7.5, 3.0)])
def test_a_lone_token_fades_as_it_rises(noise, token):
    # The largest token (22 mm) as vivid as 485025's top, 480197's 17.8 mm token, a dull 15 mm one.
    radius, level = token
    for seed in range(2):
        assert skirt([(40, 0, radius, level)], 40, 0, radius, noise, seed=seed) == (False, False)


@pytest.mark.parametrize("noise", [0.03, 0.1, 0.25])
def test_a_faint_base_beside_a_token_does_not_make_it_fade_slower(noise):
    # A vivid token lying against a fighter's faint base (touching tokens): the base is on few rays.
    assert skirt([(63.5, 0, 13.5, 0.65), (40, 0, 10.0, 6.4)], 40, 0, 10.0, noise) == (False, False)


# --- the rule in classify ----------------------------------------------------------------------------

def test_a_crisp_solid_top_seen_from_high_above_is_a_token_by_size_alone_and_unsure_with_a_faint_skirt():
    assert bases.classify(TOP, SETTINGS) is Kind.TOKEN
    assert bases.classify(replace(TOP, faint_skirt=True), SETTINGS) is Kind.UNSURE


# --- the seed ------------------------------------------------------------------------------------------

def test_485025_is_never_a_wrong_ok():
    assert_never_wrong_when_ok([SEED], GEOMETRY, touching_tokens=True)


def test_485025_without_the_count_is_a_doubt_at_the_figures_top():
    live, reference, _, _ = spec_scene(SEED, GEOMETRY, touching_tokens=True)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok
    # The doubt is the S7 fighter's (its top near (75, 7) mm), not something elsewhere.
    assert "(75, 7) mm may be a token or a base" in reading.error, reading.error
