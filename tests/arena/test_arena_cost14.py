"""The fourteenth pass's cheaper paths give what the plain ones gave.

- A read's temporaries live in per-thread scratch arrays: what a read returns is its own (a
  later read does not overwrite it), and reads in two threads at once read as one by one.
- The front-rim check of a token-sized disc works its ring level out only when a rim reaches
  the floor under it, and answers as the plain comparison does.
- Holes are filled and a channel's maximum taken as before.
"""

import threading

import cv2
import numpy as np

from vision.arena import prepare_reference, read_arena
from vision.arena.bases import (_MIN_RING_SCORE, _RING_OVER_NOISE, _FrontRimCheck, _base_rim_level, _fill_holes,
                                _noise_level)
from vision.arena.pose import camera_position
from vision.arena.topdown import BoardView, SmoothView, _channel_max, change_between
from vision.synth.arena_scene import Lighting

from tests.arena.arena_scenes import POSES, empty, mini, render, scene, token

EVENING = Lighting(gain=0.7, tint_bgr=(0.85, 0.95, 1.1), gradient=0.15, noise=3.0)


def _board_and_lit(seed: int, thing_at: tuple[int, int]):
    rng = np.random.default_rng(seed)
    board = cv2.GaussianBlur(rng.uniform(60, 200, (160, 440, 3)).astype(np.float32), (0, 0), 3.0)
    lit = board * np.float32(0.8)
    u, v = thing_at
    lit[v:v + 20, u:u + 25] = (30, 200, 60)
    return board, lit


def test_a_change_is_its_own_after_the_next_one_is_worked_out():
    usable = np.ones((160, 440), bool)
    board, lit = _board_and_lit(1, (100, 60))
    first = change_between(SmoothView.of(lit), SmoothView.of(board), usable)
    kept = [first.score.copy(), first.unshaded.copy(), first.difference.copy()]
    other_board, other_lit = _board_and_lit(2, (300, 90))
    second = change_between(SmoothView.of(other_lit, in_scratch=True), SmoothView.of(other_board), usable)
    assert second.score[95, 310] >= 1.0 and second.score[65, 110] < 1.0  # the second thing, not the first
    for before, now in zip(kept, (first.score, first.unshaded, first.difference)):
        assert np.array_equal(before, now)
    assert first.score[65, 110] >= 1.0


def test_a_live_view_in_scratch_is_the_same_view():
    board, lit = _board_and_lit(3, (200, 70))
    plain, scratched = SmoothView.of(lit), SmoothView.of(lit, in_scratch=True)
    assert np.array_equal(plain.bgr, scratched.bgr) and np.array_equal(plain.log, scratched.log)
    assert np.array_equal(plain.coarse_log, scratched.coarse_log)


def test_reads_in_two_threads_at_once_read_as_one_by_one(geometry):
    prepared = prepare_reference(empty(geometry), geometry)
    frames = [render(scene(minis=[mini(-80, 0), mini(40, 0)], tokens=[token(0, 0)], seed=21), geometry),
              render(scene(minis=[mini(120, 0)], lighting=EVENING, seed=22), geometry)]
    alone = [read_arena(f, prepared, geometry, annotate=False).to_json() for f in frames]
    assert alone[0]["occupied"] == ["S3", "S6"] and alone[1]["occupied"] == ["S8"]
    together: dict[int, list] = {0: [], 1: []}
    start = threading.Barrier(2)

    def reads(k: int) -> None:
        start.wait()
        for _ in range(6):
            together[k].append(read_arena(frames[k], prepared, geometry, annotate=False).to_json())

    threads = [threading.Thread(target=reads, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together[0] == [alone[0]] * 6 and together[1] == [alone[1]] * 6


def _ring_scene(geometry):
    """A score map with a faint arc where a base's front rim would be, in front of a token."""
    pose = POSES[2]  # 75 degrees up: a figure's top stays near its base
    view = BoardView.of(geometry)
    reference = prepare_reference(empty(geometry, pose), geometry)
    camera = camera_position(reference.registration.homography, reference.image_size)
    rng = np.random.default_rng(5)
    score = rng.uniform(0.0, 0.08, view.size[::-1]).astype(np.float32)
    return view, camera, score


def test_the_front_rim_check_answers_as_the_plain_comparison(geometry):
    view, camera, score = _ring_scene(geometry)
    search = np.ones(score.shape, bool)
    regions = np.zeros(score.shape, np.int32)
    x, y, r = 40.0, 0.0, 9.0
    answers = []
    for rim_score in (0.0, 0.05, 0.3, 2.0):  # no rim, one under the floor, a faint one, a clear one
        marked = score.copy()
        ax, ay = camera.away(x, y)
        for radius in np.arange(10.0, 16.0, 0.5):  # an arc round every base centre the check tries
            for angle in np.radians(np.linspace(-70, 70, 40)):
                for shift in np.arange(0.0, 25.0, 1.0):  # the base's centre, towards the camera
                    bx, by = x - ax * shift + np.cos(np.arctan2(-ay, -ax) + angle) * radius, \
                        y - ay * shift + np.sin(np.arctan2(-ay, -ax) + angle) * radius
                    u, v = (int(round(c)) for c in view.to_px(bx, by))
                    if 0 <= v < marked.shape[0] and 0 <= u < marked.shape[1] and np.hypot(bx - x, by - y) > r + 3:
                        marked[v, u] = max(marked[v, u], rim_score)
        smooth = cv2.blur(marked, (3, 3))
        plain = (_base_rim_level(smooth, regions, 0, view, camera, x, y, r)
                 >= max(_MIN_RING_SCORE, _RING_OVER_NOISE * _noise_level(smooth, search)))
        check = _FrontRimCheck(marked, search, regions)
        answer = check.shows(0, view, camera, x, y, r)
        assert answer == plain
        answers.append(answer)
        # The ring level is worked out only for a rim at or over the floor.
        assert (check._ring_level is None) == (_base_rim_level(smooth, regions, 0, view, camera, x, y, r) < _MIN_RING_SCORE)
    assert answers == [False, False, True, True]


def test_holes_are_filled_and_open_shapes_left():
    mask = np.zeros((60, 80), np.uint8)
    cv2.circle(mask, (20, 30), 12, 1, 3)  # a ring: its middle is a hole
    cv2.ellipse(mask, (60, 30), (12, 12), 0, 40, 320, 1, 3)  # a C: open to the board
    filled = _fill_holes(mask)
    assert filled.dtype == np.uint8 and set(np.unique(filled)) == {0, 1}
    assert filled[30, 20] == 1 and filled[30, 60] == 0
    assert np.array_equal(filled[mask > 0], np.ones(int((mask > 0).sum()), np.uint8))
    assert filled[0, 0] == 0 and filled.sum() > mask.sum()


def test_the_channel_maximum_of_an_image_is_numpys():
    rng = np.random.default_rng(9)
    for dtype in (np.float32, np.uint8):
        image = (rng.uniform(0, 255, (37, 53, 3))).astype(dtype)
        assert np.array_equal(_channel_max(image), image.max(axis=2))
        assert np.array_equal(_channel_max(image[:, :, ::-1].copy()), image.max(axis=2))
    samples = rng.uniform(-1, 1, (200, 3))
    assert np.array_equal(_channel_max(samples), samples.max(axis=1))
