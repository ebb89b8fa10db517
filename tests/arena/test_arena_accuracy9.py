"""Ninth accuracy pass: a fighter's top seen from high above is no token, a stacked pair of
tokens is no fighter (see docs/arena-reader.md, "Ninth pass")."""

from __future__ import annotations

import numpy as np
import pytest

from arena_scenes import SPACE, empty, line_9, render, scene, stacked_pair, token
from vision.arena import read_arena
from vision.synth.arena_scene import CameraPose, Miniature, make_camera, random_match_scene, render_scene

GEOMETRY = line_9()


def _never_wrong_when_ok(seed: int, *, touching_tokens: bool) -> None:
    reference, live, truth = random_match_scene(np.random.default_rng(seed), GEOMETRY, touching_tokens=touching_tokens)
    image, empty_image = render_scene(live, GEOMETRY), render_scene(reference, GEOMETRY)
    for count in (None, len(live.miniatures)):
        reading = read_arena(image, empty_image, GEOMETRY, annotate=False, fighters=count)
        assert not reading.ok or reading.occupied == truth, (seed, count, reading.occupied, truth)


@pytest.mark.parametrize("seed, touching_tokens", [(110350, False), (5555, False), (110104, True), (110528, True)])
def test_a_fighters_top_seen_from_high_above_is_never_read_as_a_token(seed, touching_tokens):
    # Cameras 76-79 degrees up; a base near the board's colour, its figure's top a crisp
    # 16-19 mm disc. Read on main as "no fighter there" with ok:true (the first three).
    _never_wrong_when_ok(seed, touching_tokens=touching_tokens)


def _read(pose: CameraPose, **things):
    return read_arena(render(scene(pose, **things), GEOMETRY), empty(GEOMETRY, pose), GEOMETRY, annotate=False)


@pytest.mark.parametrize("elevation, azimuth", [(76, -15), (78, 0), (80, 15)])
def test_a_base_the_colour_of_its_space_seen_from_high_above_is_a_fighter_or_a_doubt(elevation, azimuth):
    pose = CameraPose(distance_mm=500, elevation_deg=elevation, azimuth_deg=azimuth)
    fighter = Miniature(-40, 3.0, base_mm=26.5, base_bgr=SPACE, figure_bgr=(200, 60, 160), figure_height_mm=35.0,
                        figure_width_mm=17.0)
    reading = _read(pose, minis=(fighter,))
    assert not reading.ok or reading.occupied == ("S4",), (reading.occupied, reading.error)


@pytest.mark.parametrize("elevation", [76, 80])
def test_a_lone_token_seen_from_high_above_is_still_a_token(elevation):
    # The faint rim looked for in front of a token-sized disc is not found round a flat token.
    pose = CameraPose(distance_mm=500, elevation_deg=elevation, azimuth_deg=10)
    reading = _read(pose, tokens=(token(40, 3.0, 17.0, (200, 60, 160)),))
    assert reading.ok, reading.error
    assert reading.occupied == ()


@pytest.mark.parametrize("azimuth, x, angle", [
    (-20, 40, 45), (-20, -40, 135), (0, -80, 90), (0, -40, 135), (20, -80, 90), (20, 40, 45), (20, -40, 135),
])
def test_two_stacked_tokens_are_not_a_fighter_by_the_upper_ones_edge(azimuth, x, angle):
    # 55 degrees up: the pair fits a disc just under a base's size, and the upper token's edge,
    # behind it, looked like a figure there; each read as a fighter with ok:true before this
    # pass. A figure stands up further than any flat thing's top could show.
    pose = CameraPose(distance_mm=450, elevation_deg=55, azimuth_deg=azimuth)
    reading = _read(pose, tokens=stacked_pair(x, angle))
    assert not reading.ok or reading.occupied == (), (reading.occupied, reading.error)


def test_a_stacked_token_is_drawn_on_the_one_under_it():
    pose = CameraPose(distance_mm=450, elevation_deg=80, azimuth_deg=0)
    lower, upper = stacked_pair(0, 0)
    stacked = render(scene(pose, tokens=(lower, upper)), GEOMETRY).astype(int)
    alone = render(scene(pose, tokens=(lower,)), GEOMETRY).astype(int)
    # Inside both discs, the upper token's top (green 40) shows, not the lower one's (green 150).
    u, v = make_camera(pose, GEOMETRY).project(np.array([[upper.x_mm, upper.y_mm, upper.z_mm + upper.thickness_mm]]))[0]
    u, v = int(round(u)), int(round(v))
    assert alone[v, u, 1] - stacked[v, u, 1] > 60
