"""The hundred-and-seventh pass: the camera family -- a JPEG frame's chroma is coarse.

The ninety-ninth pass's hunt read its ``camera:jpeg`` kind (quality 30-75) right 22 times of 72 without the count.
Read again with the JPEG's luma kept and its chroma made exact, those scenes read right almost every time; with
its chroma kept and its luma exact, as badly as JPEG: the cost is the chroma. JPEG stores chroma at half resolution
(4:2:0) and quantises it coarsely in 16 x 16 px blocks, so round every edge it rings a block's width out, in the
reference and the live frame each its own way; the reader's colour-shift threshold (``CHROMA_CHANGE``, 0.10) takes
that ringing for change. ``chroma_change_for`` measures, once per reference, how much fine detail the frame's
chroma carries against its luma's; where the chroma lost it (JPEG, YUV 4:2:0) a colour shift must clear brightness's
threshold (``LUMA_CHANGE``). See docs/arena-reader.md, "Hundred-and-seventh pass"."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from vision.arena import read_arena
from vision.arena.reader import prepare_reference
from vision.arena.topdown import CHROMA_CHANGE, LUMA_CHANGE, chroma_change_for
from vision.synth.arena_scene import Look, random_match_scene, render_scene

from arena_scenes import BOARD, POSES, line_9, mini, render, scene


@pytest.fixture(scope="module")
def geometry():
    return line_9()


def _jpeg(image: np.ndarray, quality: int, *, subsampled: bool = True) -> np.ndarray:
    params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    if not subsampled:
        params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
    return cv2.imdecode(cv2.imencode(".jpg", image, params)[1], cv2.IMREAD_COLOR)


def _hunt_frames(seed: int, geometry):
    reference, live, truth = random_match_scene(np.random.default_rng(seed), geometry, hunt="camera")
    return render_scene(live, geometry), render_scene(reference, geometry), truth, len(live.miniatures), live.look


# --- the measure: half-resolution chroma, and only that ---------------------------------------------------------

@pytest.mark.parametrize("quality", [30, 50, 75, 90])
def test_a_jpeg_frames_chroma_is_coarse(geometry, quality):
    frame = render(scene(POSES[0], minis=[mini(40)]), geometry)
    assert chroma_change_for(frame) == CHROMA_CHANGE
    assert chroma_change_for(_jpeg(frame, quality)) == LUMA_CHANGE
    # Without 4:2:0 its chroma is still quantised past its fine detail (the hunt's scenes so compressed read
    # hardly better); and a camera's uncompressed YUV 4:2:0 frame has lost it too.
    assert chroma_change_for(_jpeg(frame, quality, subsampled=False)) == LUMA_CHANGE
    assert chroma_change_for(cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420), cv2.COLOR_YUV2BGR_I420)) == LUMA_CHANGE


def test_full_resolution_chroma_is_not_coarse_whatever_the_frame(geometry):
    """Frames whose channels are sampled alike keep the colour-shift threshold: small, large, out of focus (before
    the sensor's noise, as a lens is), grey."""
    base = scene(POSES[1], minis=[mini(-40)])
    for size in ((640, 480), (800, 600), (1280, 720)):
        framed = dataclasses.replace(base, pose=dataclasses.replace(base.pose, image_size=size))
        assert chroma_change_for(render(framed, geometry)) == CHROMA_CHANGE, size
    assert chroma_change_for(render(dataclasses.replace(base, look=Look(defocus=1.8)), geometry)) == CHROMA_CHANGE
    frame = render(base, geometry)
    assert chroma_change_for(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)) == CHROMA_CHANGE


def test_the_hunts_other_camera_kinds_keep_the_threshold(geometry):
    """The hunt's defocus, 640 x 480 and 1280 x 720 frames (the seeds of 1000000-1000019 that draw them)."""
    kinds = set()
    for seed in range(1000000, 1000020):
        live, reference, _, _, look = _hunt_frames(seed, geometry)
        kind = look.label.split(":")[1]
        kinds.add(kind)
        expected = LUMA_CHANGE if kind == "jpeg" else CHROMA_CHANGE
        assert chroma_change_for(reference) == expected, seed
        assert chroma_change_for(live) == expected, seed
    assert kinds == {"jpeg", "defocus", "640x480", "1280x720"}


def test_the_prepared_reference_carries_its_cameras_threshold(geometry):
    """Measured once, on the reference (a property of the camera), and kept when the camera is followed."""
    reference = render(scene(POSES[0], seed=99), geometry)
    assert prepare_reference(reference, geometry).chroma_change == CHROMA_CHANGE
    prepared = prepare_reference(_jpeg(reference, 60), geometry)
    assert prepared.chroma_change == LUMA_CHANGE
    frame = _jpeg(render(scene(POSES[0], minis=[mini(40)]), geometry), 60)
    moved = dataclasses.replace(prepared.registration, unmoved=False)
    assert prepared.following(frame, moved).chroma_change == LUMA_CHANGE


# --- what the rule could cost: a fighter that differs from the board in colour more than in brightness ----------

def _off_the_board_in_colour(shift: float, axis) -> tuple[int, int, int]:
    """A colour whose log ratio to the board's is a pure colour shift of ``shift`` (no change of the mean log)."""
    a = np.array(axis, float)
    a -= a.mean()
    a /= np.linalg.norm(a)
    return tuple(int(round((c + 10) * math.exp(shift * x) - 10)) for c, x in zip(BOARD, a))


@pytest.mark.parametrize("shift", [0.12, 0.16])
@pytest.mark.parametrize("axis", [(1, 0, -1), (1, -2, 1)])
@pytest.mark.parametrize("pose", POSES[:2], ids=["55up", "40up"])
def test_a_fighter_the_boards_brightness_in_a_jpeg_frame_is_never_read_away(geometry, shift, axis, pose):
    """Base and figure a colour shift of 0.12-0.16 off the board (over the old threshold, under the new), no brightness
    change: the figure's shading still shows it, so it is read on S6 or a doubt, never the board empty."""
    colour = _off_the_board_in_colour(shift, axis)
    reference = _jpeg(render(scene(pose, seed=99), geometry), 50)
    live = _jpeg(render(scene(pose, minis=[mini(40, 0, base=colour, figure=colour)]), geometry), 50)
    for fighters in (None, 1):
        reading = read_arena(live, reference, geometry, annotate=False, fighters=fighters)
        assert not reading.ok or reading.occupied == ("S6",), (fighters, reading.occupied)


# --- the hunt's JPEG scenes ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1000042, 1000062])
def test_a_jpeg_scene_main_doubted_reads_right(geometry, seed):
    """Doubted on d9f4367 with and without the count (the ringing round a token's rim taken for change); now read
    right, ``ok``, both ways."""
    live, reference, truth, count, look = _hunt_frames(seed, geometry)
    assert look.label == "camera:jpeg"
    for fighters in (None, count):
        reading = read_arena(live, reference, geometry, annotate=False, fighters=fighters)
        assert reading.ok, (fighters, reading.error)
        assert reading.occupied == truth
