"""Seventy-second pass: a token-sized disc seen from high above, which size alone would call a token and round
which no wide faint ring, no faint skirt, no tint in front and no long shadow shows, is no token where a thin
ring of darker change lies round it on the arc facing the camera, apart from its outline, whose inner edge fits
a circle a base's size round it: the side of a base the colour of its space round a figure's foot (fresh
880000: a short dark figure over a base the colour of its space, only darker, straddling the space's outline,
69 degrees up, read as a token: a wrong ``ok: true`` without the fighter count).
See docs/arena-reader.md, "Seventy-second pass"."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from arena_scenes import answers_of, line_9, spec_scene
from vision.arena import bases, read_arena
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, Token, render_scene

GEOMETRY = line_9()
SEED = 880000


def _asked(run):
    """What ``bases._base_side_round`` answered, each time it was asked, while ``run()`` ran."""
    return answers_of(bases, "_base_side_round", run)


def test_880000s_figure_is_no_token_by_its_bases_side():
    # The token on the S3/S4 gap is asked too and shows no ring; the S6 disc (the figure and the base's
    # crescent over the board) is the one the rule makes unsure.
    live, reference, _, _ = spec_scene(SEED, GEOMETRY)
    seen, reading = _asked(lambda: read_arena(live, reference, GEOMETRY, annotate=False))
    assert seen == [False, True]
    assert not reading.ok
    assert "(56, -3) mm may be a token or a base" in (reading.error or "")


# --- the class, drawn: a short dark figure over a base the colour of its space, a shade darker ---

BOARD, SPACE = (150, 170, 185), (120, 140, 160)


def _scene(pose, minis=(), tokens=(), shadow=0.0, light=(-0.1, 0.4)):
    return Scene(pose=pose, miniatures=tuple(minis), tokens=tuple(tokens), board_bgr=BOARD, space_bgr=SPACE,
                 lighting=Lighting(noise=2.0, shadow=shadow, light_dir=light), seed=3, board_seed=7)


def _short_dark_fighter(x=40.0, y=-3.0):
    return Miniature(x, y, base_mm=25.2, base_height_mm=3.0, base_bgr=tuple(int(c * 0.95) for c in SPACE),
                     figure_bgr=(126, 65, 109), figure_height_mm=28.0, figure_width_mm=12.6, lean_mm=(1.6, -2.8))


@pytest.mark.parametrize("elevation, azimuth", list(itertools.product((67, 74, 80), (-12, 10))))
def test_a_short_dark_fighter_on_a_base_its_spaces_colour_is_never_read_wrong(elevation, azimuth):
    # Under a diffuse light (no shadow): on main (67, 10) and (74, -12) read ok with no fighter.
    pose = CameraPose(distance_mm=420, elevation_deg=elevation, azimuth_deg=azimuth)
    reading = read_arena(render_scene(_scene(pose, [_short_dark_fighter()]), GEOMETRY),
                         render_scene(_scene(pose), GEOMETRY), GEOMETRY, annotate=False)
    assert not reading.ok or reading.occupied == ("S6",), reading.occupied


@pytest.mark.parametrize("elevation", [67, 74, 80])
@pytest.mark.parametrize("offset", [3.0, 7.0])
def test_a_token_resting_on_one_its_spaces_colour_is_never_a_fighter(elevation, offset):
    # A lower token the spaces' colour has a top that colour and a darker side, as such a base has, but a
    # token's size: its side is no base's (passes on main too: a guard).
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=-12)
    lower = Token(40.0, 0.0, 22.0, 3.0, tuple(int(c * 0.95) for c in SPACE))
    upper = Token(40.0 + offset, 0.0, 20.0, 3.0, (126, 65, 109), z_mm=3.0)
    reading = read_arena(render_scene(_scene(pose, tokens=[lower, upper]), GEOMETRY),
                         render_scene(_scene(pose), GEOMETRY), GEOMETRY, annotate=False)
    assert not reading.ok or reading.occupied == (), reading.occupied


@pytest.mark.parametrize("elevation", [55, 67, 80])
@pytest.mark.parametrize("bgr", [(30, 150, 220), (40, 40, 50), tuple(int(c * 0.95) for c in SPACE)])
def test_a_lone_token_is_read_a_token(elevation, bgr):
    # A token (vivid, dark, or the spaces' colour a shade darker) on S5 beside a fighter on S7, under a lamp
    # whose light falls towards the camera: its side and nothing past it (passes on main too: a guard).
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=10)
    fighter = Miniature(80.0, 0.0, base_mm=26.5, base_bgr=(40, 40, 160), figure_bgr=(90, 160, 90))
    live = _scene(pose, [fighter], [Token(0.0, 0.0, 20.0, 3.0, bgr)], shadow=0.3, light=(0.1, -0.4))
    reading = read_arena(render_scene(live, GEOMETRY), render_scene(_scene(pose), GEOMETRY), GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == ("S7",)


# --- the measure itself, on a drawn brightness change ---

VIEW = BoardView(200.0, 120.0, 2.0)
CAMERA = CameraPosition((0.0, -400.0, 600.0), 800.0)
LEVEL = -0.02


def _drawn(disc_r=8.0, ring=(12.8, 14.3), ring_centre=(1.0, -1.0), ring_arc=None, tail_mm=0.0):
    """A dark disc at (0, 0) (a figure's top, -0.3), its own dark tail ``tail_mm`` wide past its outline, and
    a dark ring (-0.08) ``ring`` (inner, outer radius, mm) round ``ring_centre``, over ``ring_arc`` (degrees
    either side of the way to the camera) or all round: (luma, mask, search)."""
    w, h = (int(round(s * VIEW.px_per_mm)) for s in (VIEW.width_mm, VIEW.height_mm))
    u, v = np.meshgrid(np.arange(w), np.arange(h))
    x, y = VIEW.to_mm(u, v)
    d = np.hypot(x, y)
    luma = np.where(d <= disc_r + tail_mm, -0.02 - 0.01 * (d > disc_r), 0.0).astype(np.float32)
    luma[d <= disc_r] = -0.3
    if ring is not None:
        cx, cy = ring_centre
        dr = np.hypot(x - cx, y - cy)
        band = (dr >= ring[0]) & (dr <= ring[1])
        if ring_arc is not None:
            towards = math.atan2(-CAMERA.away(0.0, 0.0)[1], -CAMERA.away(0.0, 0.0)[0])
            off = np.angle(np.exp(1j * (np.arctan2(y - cy, x - cx) - towards)), deg=True)
            band &= np.abs(off) <= ring_arc
        luma[band] = -0.08
    mask = (d <= disc_r).astype(np.uint8)
    return luma, mask, np.ones(mask.shape, bool)


def _rings(**drawn):
    luma, mask, search = _drawn(**drawn)
    return bases._base_side_round(luma, LEVEL, mask, search, VIEW, CAMERA, 0.0, 0.0, 8.0, ArenaSettings())


def test_a_thin_dark_ring_at_a_bases_radius_round_a_disc_is_a_bases_side():
    assert _rings()
    assert _rings(tail_mm=1.5)  # past the disc's own dark tail (a dark figure's blur)


def test_dark_change_touching_the_outline_is_no_bases_side():
    # A token's own side, or its shadow towards the camera: dark from its outline on, nothing apart from it.
    assert not _rings(ring=None, tail_mm=5.0)
    assert not _rings(ring=(8.0, 14.3))


def test_a_ring_of_a_tokens_size_is_no_bases_side():
    # A lower token's side (22 mm) round one resting on it.
    assert not _rings(ring=(11.0, 12.5), ring_centre=(0.0, 0.0))


def test_a_dark_arc_on_one_side_is_no_ring_round_the_disc():
    # Something dark beside the disc (a base's side next to a token lying against it) covers a few rays only.
    assert not _rings(ring_arc=30)


def test_a_wide_dark_band_is_no_bases_side():
    # A shadow falling round the disc from something else is wider than a base's side.
    assert not _rings(ring=(12.0, 24.0))
