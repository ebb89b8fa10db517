"""Fifty-first pass: the reader on OpenCV 5.1. There ``cv2.compare`` takes a bare number against a
many-channel array as the scalar (v, 0, 0, 0): green and red were compared with 0, so where the lamp
clips the view every green and red channel read "at the top" and the lighting fit took them all as
lower bounds (270401: the board's noise 0.22, not 0.13, the faint ring of a base the board's colour
lost, S8 read empty with ok: true). The levels are now full scalars, one per channel, as ``cv2.min``
is given its level; these tests hold on any OpenCV, by playing 5.1's binding on the one in use
(see docs/arena-reader.md, "Fifty-first pass")."""

from __future__ import annotations

import numbers

import cv2
import numpy as np
import pytest

from arena_scenes import line_9, spec_scene
from vision.arena import read_arena, topdown
from vision.arena.topdown import SmoothView, change_between

GEOMETRY = line_9()


class _Binding51:
    """``cv2`` as OpenCV 5.1's binding answers ``compare``: a bare number is (v, 0, 0, 0)."""

    def __getattr__(self, name):
        return getattr(cv2, name)

    @staticmethod
    def compare(src1, src2, cmpop, *args, **kwargs):
        if isinstance(src2, numbers.Real) and np.ndim(src1) == 3 and np.shape(src1)[2] > 1:
            # Channel by channel (a one-channel compare takes a bare number alike on every OpenCV;
            # a tuple is not read per channel by 5.0's): the first against it, the others against 0.
            levels = [float(src2)] + [0.0] * (src1.shape[2] - 1)
            return np.dstack([cv2.compare(np.ascontiguousarray(src1[..., c]), level, cmpop)
                              for c, level in enumerate(levels)])
        return cv2.compare(src1, src2, cmpop, *args, **kwargs)


def test_the_stand_in_answers_as_opencv_51_does():
    values = np.full((4, 4, 3), 100.0, np.float32)
    assert _Binding51.compare(values, 250.0, cv2.CMP_GE)[0, 0].tolist() == [0, 255, 255]
    assert cv2.compare(values, (250.0,) * 4, cv2.CMP_GE)[0, 0].tolist() == [0, 0, 0]  # (any OpenCV: per channel)


def _lamp_clipping_blue_only():
    """A flat board whose blue alone reaches the sensor's top over a corner (views of 160 x 440)."""
    h, w = 160, 440
    rng = np.random.default_rng(51)
    board = np.float32([200, 150, 120]) + rng.normal(0, 2, (h, w, 3)).astype(np.float32)
    lit = board.copy()
    lit[:, :80, 0] = 255.0  # blue clips over a corner (far over 1 % of the view); green and red do not
    return SmoothView.of(np.clip(lit, 0, 255).astype(np.uint8)), SmoothView.of(np.clip(board, 0, 255).astype(np.uint8))


def test_only_the_channels_at_the_top_are_taken_as_lower_bounds(monkeypatch):
    live, reference = _lamp_clipping_blue_only()
    seen, fit = [], topdown._lighting_field

    def recording(live_, reference_, usable_, at_top=None):
        seen.append(None if at_top is None else at_top.copy())
        return fit(live_, reference_, usable_, at_top)

    monkeypatch.setattr(topdown, "_lighting_field", recording)
    monkeypatch.setattr(topdown, "cv2", _Binding51())
    change_between(live, reference, np.ones(live.log.shape[:2], bool))
    assert seen and seen[0] is not None, "the view did not count as clipped: the censored path was not taken"
    expected = np.where(live.bgr >= topdown._SATURATED, 255, 0).astype(np.uint8)
    assert np.array_equal(seen[0], expected)
    assert not seen[0][..., 1:].any()  # green and red are nowhere near the top


def test_the_change_of_a_clipped_view_is_the_same_under_51s_binding(monkeypatch):
    live, reference = _lamp_clipping_blue_only()
    usable = np.ones(live.log.shape[:2], bool)
    plain = change_between(live, reference, usable)
    monkeypatch.setattr(topdown, "cv2", _Binding51())
    as_51 = change_between(live, reference, usable)
    assert np.array_equal(plain.score, as_51.score)
    assert np.array_equal(plain.unshaded, as_51.unshaded)


@pytest.mark.parametrize("fighters", [False, True])
def test_270401_reads_the_same_under_51s_binding_and_is_no_wrong_ok(fighters, monkeypatch):
    live, reference, truth, count = spec_scene(270401, GEOMETRY)
    kwargs = dict(annotate=False, fighters=count if fighters else None)
    plain = read_arena(live, reference, GEOMETRY, **kwargs)
    monkeypatch.setattr(topdown, "cv2", _Binding51())
    as_51 = read_arena(live, reference, GEOMETRY, **kwargs)
    assert as_51.to_json() == plain.to_json()
    assert not as_51.ok or as_51.occupied == truth  # (the fighter on S8, its base the board's colour)


@pytest.mark.parametrize("seed", [300525, 100358, 100083])
def test_spec_scenes_under_a_clipping_lamp_read_the_same_under_51s_binding(seed, monkeypatch):
    # 300525: two touching fighters (one read short on 5.1); 100358, 100083: the spaces clip.
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    plain = read_arena(live, reference, GEOMETRY, annotate=False)
    monkeypatch.setattr(topdown, "cv2", _Binding51())
    as_51 = read_arena(live, reference, GEOMETRY, annotate=False)
    assert as_51.to_json() == plain.to_json()
    assert not as_51.ok or as_51.occupied == truth
