"""Fiftieth pass: a token-sized disc seen from high above, which size alone would call a token and round
which neither a wide faint ring nor a faint skirt shows, is no token where a faint colour of its own lies in
front of it, over the band where a figure's base would stand: averaged over that band, less the disc's own
colour (its blur) and less a shadow, more than the same band shows anywhere on bare board (fresh 610173:
a yellow figure's shoulders over a base the colour of its space, read as a token, a wrong ``ok``).
See docs/arena-reader.md, "Fiftieth pass"."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, line_9, spec_scene
from test_arena_thirtieth_pass import CAMERA, VIEW
from vision.arena import bases, reader, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import _LOG_OFFSET, DifferenceByRows

GEOMETRY = line_9()
SETTINGS = ArenaSettings()
SEED = 610173

#: 610173's S6 fighter as measured: its yellow figure's shoulders (17.9 mm wide, 35 mm tall, seen from 76
#: degrees, leaning 2.5 mm towards the camera, so its body hides under them) fitted a crisp solid 19.8 mm
#: disc, no figure seen behind it, not standing up, 20 mm across, its far outline 2 mm past its rim.
TOP = Blob(40.3, 9.1, 9.9, 0.08, 0.0, Evidence.UNKNOWN, (40.0, 9.0), 1, 1.0, short_behind_mm=-2.04, across_mm=20.0)

# --- the band in front, on drawn views (1 px a mm, the camera in front: the arc facing it is -y) --------

SHAPE = (int(VIEW.height_mm * VIEW.px_per_mm), int(VIEW.width_mm * VIEW.px_per_mm))
#: 610173's board (BGR), its figure's top as lit, and a base close to the board's colour as lit.
BOARD = (196, 50, 42)
YELLOW_TOP = (82, 234, 219)
NEAR_BOARD_BASES = [(209, 55, 42), (200, 52, 39)]


def _layer(x, y, r):
    layer = np.zeros(SHAPE, np.float32)
    # (In sixteenths of a pixel, as the thirtieth pass's drawn scores.)
    cv2.circle(layer, tuple(int(round(16 * c)) for c in VIEW.to_px(x, y)), int(round(16 * r * VIEW.px_per_mm)), 1.0,
               -1, cv2.LINE_AA, shift=4)
    return layer[..., None]


def tinted_in_front(board, things, x, y, r, *, noise=2.7, blur=1.2, seed=0):
    """Is the disc at (x, y), radius ``r``, tinted in front, in a drawn top-down view: ``things`` are
    ("disc", x, y, r, bgr) painted in order, or ("shade", x, y, r, factor) darkening every channel; the
    live view blurred (the lens) and both views noisy (grey levels), smoothed as a view is."""
    rng = np.random.default_rng(seed)
    reference = np.empty(SHAPE + (3,), np.float32)
    reference[:] = board
    live = reference.copy()
    for kind, tx, ty, tr, what in things:
        layer = _layer(tx, ty, tr)
        live = live * (1 - layer) + np.array(what, np.float32) * layer if kind == "disc" else live * (1 - (1 - what) * layer)
    live = cv2.GaussianBlur(live, (0, 0), blur) + rng.normal(0, noise, live.shape).astype(np.float32)
    reference = reference + rng.normal(0, noise, reference.shape).astype(np.float32)
    live, reference = (np.clip(cv2.blur(v, (3, 3)), 0, 255).astype(np.float32) for v in (live, reference))
    relit_log = np.log(reference + _LOG_OFFSET).astype(np.float32)
    difference = DifferenceByRows(live, relit_log, np.zeros(SHAPE, np.float32))
    mask = (np.abs(np.log(live + _LOG_OFFSET) - relit_log).max(axis=2) > 0.25).astype(np.uint8)
    _, regions = cv2.connectedComponents(mask, connectivity=8)
    u, v = (int(round(c)) for c in VIEW.to_px(x, y))
    check = bases._TintInFrontCheck(difference, mask, np.ones(SHAPE, bool))
    return check.in_front(VIEW, CAMERA, x, y, r, int(regions[v, u]), regions, [])


@pytest.mark.parametrize("base", NEAR_BOARD_BASES)
@pytest.mark.parametrize("noise", [1.5, 2.7, 5.0])
@pytest.mark.parametrize("seed", range(2))
def test_a_base_close_to_the_boards_colour_in_front_of_a_figures_top_tints_the_band(base, noise, seed):
    # A 25.4 mm base, its centre 4 mm in front of a 20 mm top (towards the camera), 3-9 % off the board's
    # colour in a channel: no pixel of it stands out of a noisy board, the band's mean does.
    things = [("disc", 40, -4, 12.7, base), ("disc", 40, 0, 10, YELLOW_TOP)]
    assert tinted_in_front(BOARD, things, 40, 0, 10, noise=noise, seed=seed)


@pytest.mark.parametrize("board, token", [(BOARD, YELLOW_TOP), ((200, 210, 220), (30, 20, 160))])
@pytest.mark.parametrize("blur", [1.2, 2.0, 3.0])
@pytest.mark.parametrize("seed", range(2))
def test_a_lone_token_is_not_tinted_in_front_by_its_own_blur(board, token, blur, seed):
    # The lens mixes a vivid token's colour into the board round it: that is its own colour, left out.
    assert not tinted_in_front(board, [("disc", 40, 0, 10, token)], 40, 0, 10, blur=blur, seed=seed)


@pytest.mark.parametrize("seed", range(2))
def test_a_shadow_in_front_of_a_token_does_not_tint_the_band(seed):
    things = [("shade", 40, -4, 14, 0.7), ("disc", 40, 0, 10, YELLOW_TOP)]
    assert not tinted_in_front(BOARD, things, 40, 0, 10, seed=seed)


def test_a_base_the_very_colour_of_the_board_is_not_seen():
    # The limit: a base the board's very colour leaves nothing to average; the disc is read as before.
    things = [("disc", 40, -4, 12.7, BOARD), ("disc", 40, 0, 10, YELLOW_TOP)]
    assert not tinted_in_front(BOARD, things, 40, 0, 10)


# --- the rule in classify ----------------------------------------------------------------------------

def test_a_crisp_solid_top_seen_from_high_above_is_a_token_by_size_alone_and_unsure_tinted_in_front():
    assert bases.classify(TOP, SETTINGS) is Kind.TOKEN
    assert bases.classify(replace(TOP, tinted_in_front=True), SETTINGS) is Kind.UNSURE


# --- the seed, and a real token that stays one ---------------------------------------------------------

def test_610173_is_never_a_wrong_ok():
    assert_never_wrong_when_ok([SEED], GEOMETRY)


def test_610173_without_the_count_is_a_doubt_at_the_figures_top():
    live, reference, _, _ = spec_scene(SEED, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok
    # The doubt is the S6 fighter's (its top near (40, 9) mm), not something elsewhere.
    assert "(40, 9) mm may be a token or a base" in reading.error, reading.error


def _discs_of(seed, monkeypatch, **options):
    found = []

    def spy(*args, **kwargs):
        blobs = find_blobs(*args, **kwargs)
        found.extend(blobs)
        return blobs

    find_blobs = reader.find_blobs
    monkeypatch.setattr(reader, "find_blobs", spy)
    live, reference, truth, _ = spec_scene(seed, GEOMETRY, **options)
    return read_arena(live, reference, GEOMETRY, annotate=False), truth, found


def test_610173s_real_token_seen_from_as_high_stays_a_token(monkeypatch):
    # The 16 mm green token on S1's side (3 mm thick) in the same view: its band is bare board.
    _, _, found = _discs_of(SEED, monkeypatch)
    token = min(found, key=lambda b: np.hypot(b.x_mm + 120.3, b.y_mm - 6.6))
    assert np.hypot(token.x_mm + 120.3, token.y_mm - 6.6) < 1.0
    assert not token.tinted_in_front
    assert bases.classify(token, SETTINGS) is Kind.TOKEN


def test_a_vivid_token_seen_from_high_above_is_still_read_right(monkeypatch):
    # 600021 (used): a 19.3 mm red token seen from 79 degrees on a dark board, the real token whose band
    # measured closest to its bare board's most on 600000-600299; read ok and right, S1 and S8.
    reading, truth, found = _discs_of(600021, monkeypatch)
    assert reading.ok, reading.error
    assert reading.occupied == truth
    token = min(found, key=lambda b: np.hypot(b.x_mm + 43.8, b.y_mm - 2.4))
    assert bases.classify(token, SETTINGS) is Kind.TOKEN and not token.tinted_in_front
