"""The hundred-and-third pass: a token with another just behind it, read as a fighter rising out of its foot.

The hunt's 1000250 (``camera:640x480``): two ~19.7 mm tokens 4.8 mm apart, 57 degrees up, no fighter. The token in
front stands up by the one behind, and its change runs on out of its far rim with no dip (``_rises_out_of_it``), so
it was a fighter on S2, ``ok: true``. A dip shows only where the gap between them spans enough pixels of what sees
it, the camera's image or the top-down view, whichever has fewer per board mm; tokens may lie at any gap, so what
runs on out of a disc is a figure only past where a token lying behind it at a gap too narrow to see could show
(``_past_a_token_behind``). See docs/arena-reader.md, "Hundred-and-third pass"."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from vision.arena import read_arena
from vision.arena.bases import _past_a_token_behind, _px_per_mm_away
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import random_match_scene, render_scene

SEED = 1000250  # the hunt's wrong ok: true (camera:640x480)


def _pair_scene(geometry, size, gap_mm=None):
    """1000250's scene in a ``size`` frame; ``gap_mm``: the token behind moved along the pair's line to lie that far
    from the one in front (rim to rim)."""
    reference, live, truth = random_match_scene(np.random.default_rng(SEED), geometry, hunt="camera")
    assert truth == () and len(live.tokens) == 2
    if gap_mm is not None:
        front, behind = live.tokens
        dx, dy = behind.x_mm - front.x_mm, behind.y_mm - front.y_mm
        apart = (front.diameter_mm + behind.diameter_mm) / 2 + gap_mm
        scale = apart / math.hypot(dx, dy)
        behind = dataclasses.replace(behind, x_mm=front.x_mm + dx * scale, y_mm=front.y_mm + dy * scale)
        live = dataclasses.replace(live, tokens=(front, behind))
    frame = lambda s: dataclasses.replace(s, pose=dataclasses.replace(s.pose, image_size=size))  # noqa: E731
    return frame(reference), frame(live)


@pytest.mark.parametrize("size", [(640, 480), (720, 540), (800, 600), (960, 720)])
def test_the_token_pair_is_no_fighter_in_any_frame(size, geometry):
    # Main read it as a fighter on S2, ok: true, at 640 x 480 to 760 x 570 and again at 960 x 720 (a doubt only at
    # 800-880 px wide): the dip between the tokens is lost in the camera's pixels or the view's own.
    reference, live = _pair_scene(geometry, size)
    live_image, reference_image = render_scene(live, geometry), render_scene(reference, geometry)
    for fighters in (None, 0):
        reading = read_arena(live_image, reference_image, geometry, annotate=False, fighters=fighters)
        assert not reading.ok or reading.occupied == (), (size, fighters)


@pytest.mark.parametrize("gap_mm", [0.5, 2.0, 3.5])
@pytest.mark.parametrize("size", [(640, 480), (800, 600)])
def test_a_token_just_behind_another_at_any_gap_is_no_fighter(gap_mm, size, geometry):
    reference, live = _pair_scene(geometry, size, gap_mm)
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, annotate=False)
    assert not reading.ok or reading.occupied == (), (gap_mm, size)


def test_the_gap_too_narrow_to_see_is_scaled_to_the_pixels():
    view = BoardView(600.0, 400.0)
    near = CameraPosition((0.0, -300.0, 400.0), 400.0)  # 0.64 px per mm away at the board's centre
    far = CameraPosition((0.0, -600.0, 800.0), 400.0)  # twice as far: half the pixels
    close = CameraPosition((0.0, -150.0, 200.0), 400.0)  # twice as close: the view's 1 px per mm is the coarser
    assert _px_per_mm_away(view, near, 0.0, 0.0) == pytest.approx(400.0 * 400.0 / 500.0 ** 2)
    assert _px_per_mm_away(view, far, 0.0, 0.0) == pytest.approx(_px_per_mm_away(view, near, 0.0, 0.0) / 2)
    assert _px_per_mm_away(view, close, 0.0, 0.0) == view.px_per_mm
    # The same lean (the same angle) from further off: only the gap too narrow to see grows.
    assert _past_a_token_behind(view, far, 0.0, 0.0, 10.0) > _past_a_token_behind(view, near, 0.0, 0.0, 10.0)
    # Past a largest token and its thickest top's lean, whatever the pixels.
    assert _past_a_token_behind(view, close, 0.0, 0.0, 10.0) > 10.0 + 22.0 + 6.0 * 150.0 / 200.0
