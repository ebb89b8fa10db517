"""A lamp that saturates the camera (exposure locked): clipping is no change, a miniature still is.

Light is multiplicative and the sensor clips at 255: under a brighter lamp a bright board or its
spaces read 255 in a channel, while the reference relit by the fitted light predicts more. That
channel is no change there (the pixel is judged on its other channels), the lighting fit takes it
as a lower bound, and a channel mostly at the top takes the light's shape from the others. A white
or bright figure over the bright board is still change, and no fighter vanishes.
"""

import cv2
import numpy as np
import pytest

from vision.arena import read_arena
from vision.arena.topdown import SmoothView, change_between
from vision.synth.arena_scene import Lighting, Miniature, Scene, render_scene

from tests.arena.arena_scenes import POSES, assert_read_right_with_the_count, mini, spec_scene

#: The spaces' green clips under the lamp (the lead's seed 100358: spaces 123, 236, 212; gain 1.17).
GREEN_BOARD = ((104, 199, 214), (123, 236, 212))
GREEN_LAMP = Lighting(gain=1.17, tint_bgr=(0.78, 0.99, 1.01), gradient=0.12, gradient_angle_deg=40, shadow=0.2,
                      light_dir=(0.1, 0.7), noise=5.0)
#: The board's red is far past the top everywhere and the spaces' just (seed 100083).
RED_BOARD = ((170, 99, 233), (128, 73, 174))
RED_LAMP = Lighting(gain=1.28, tint_bgr=(0.96, 0.97, 1.2), gradient=-0.3, gradient_angle_deg=44, shadow=0.2,
                    light_dir=(0.3, 0.6), noise=3.0)
TWO = (mini(-40), mini(0))  # on S4 and S5
WHITE = (Miniature(-120, 0, base_mm=26.5, base_bgr=(235, 240, 245), figure_bgr=(240, 240, 240), figure_height_mm=40),
         mini(80))  # a white fighter on S2, another on S7


def _images(geometry, pose, colours, lamp, minis):
    board, space = colours

    def scene(minis_, lighting, seed):
        return Scene(pose=pose, miniatures=tuple(minis_), lighting=lighting, board_bgr=board, space_bgr=space,
                     seed=seed, board_seed=7)

    return render_scene(scene(minis, lamp, 5), geometry), render_scene(scene((), Lighting(noise=2.0), 99), geometry)


@pytest.mark.parametrize("pose", POSES, ids=lambda p: f"{p.elevation_deg:g}deg")
@pytest.mark.parametrize("colours, lamp", [(GREEN_BOARD, GREEN_LAMP), (RED_BOARD, RED_LAMP)], ids=["green", "red"])
def test_a_lamp_that_saturates_the_spaces_reads_right_and_ok(geometry, pose, colours, lamp):
    live, reference = _images(geometry, pose, colours, lamp, TWO)
    assert (live.reshape(-1, 3) == 255).any(axis=0).sum() >= 1  # the lamp does clip
    reading = read_arena(live, reference, geometry, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == ("S4", "S5")


@pytest.mark.parametrize("pose", POSES, ids=lambda p: f"{p.elevation_deg:g}deg")
def test_a_white_fighter_on_the_bright_board_under_the_lamp_is_still_seen(geometry, pose):
    live, reference = _images(geometry, pose, GREEN_BOARD, GREEN_LAMP, WHITE)
    reading = read_arena(live, reference, geometry, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == ("S2", "S7")
    assert any(f.space == "S2" for f in reading.fighters)


@pytest.mark.parametrize("seed", [100358, 100083, 100105, 100352])
def test_spec_scenes_whose_lamp_saturated_the_spaces_read_right(geometry, seed):
    assert_read_right_with_the_count(seed, geometry)
    live, reference, truth, _ = spec_scene(seed, geometry)
    reading = read_arena(live, reference, geometry, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth


def _clipped(view: np.ndarray) -> np.ndarray:
    return np.clip(view, 0, 255).astype(np.uint8)


def test_clipping_is_no_change_and_bright_or_dark_things_on_the_clipped_board_are():
    rng = np.random.default_rng(3)
    h, w = 160, 440
    texture = cv2.GaussianBlur(rng.normal(0, 6, (h, w)).astype(np.float32), (0, 0), 4.0)
    board = np.float32([104, 199, 214]) + texture[..., None]
    for left in range(22, 400, 40):
        board[62:98, left : left + 36] = (123, 236, 212)  # a row of spaces, brighter in green
        board[62:98, left + 36 : left + 38] = (62, 140, 128)  # a dark outline between two
    us = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :, None]
    vs = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None, None]
    gain = np.exp(np.float32([-0.1, 0.16, 0.17]) + 0.12 * us + 0.1 * vs)  # green and red past the top
    lit = (board + 10) * gain - 10
    assert (lit[..., 1] > 262).mean() > 0.05 and (lit[..., 2] > 255).mean() > 0.2
    lit[20:40, 100:125] = (250, 252, 250)  # a white figure
    lit[20:40, 300:325] = (120, 255, 255)  # a bright one, clipping as the board does but bluer
    lit[120:140, 200:225] = np.float32([104, 199, 214]) * 0.6  # something dark (a shadow's worth and more)
    lit[70:150, 340:430] *= 0.75  # a shadow over spaces and board past the top: darker, not another colour
    usable = np.ones((h, w), bool)
    reference = SmoothView.of(_clipped(board))
    change = change_between(SmoothView.of(_clipped(lit)), reference, usable)
    for rows, cols in ((slice(24, 36), slice(104, 121)), (slice(24, 36), slice(304, 321)), (slice(124, 136), slice(204, 221))):
        assert change.score[rows, cols].min() >= 1.0, (rows, cols)
    away = np.ones((h, w), bool)
    away[66:154, 336:434] = False
    for rows, cols in ((slice(10, 50), slice(90, 135)), (slice(10, 50), slice(290, 335)), (slice(110, 150), slice(190, 235))):
        away[rows, cols] = False
    assert change.score[away].max() < 0.3
    assert change.unshaded[74:146, 344:426].max() < 0.3  # in the shadow (the edge is blurred)
