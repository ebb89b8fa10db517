"""The sixty-fifth pass (cost): the capped difference worked out by windows round each seed's rays
(bands of rows cut in tiles of columns), not by whole rows, to the bit.

The old code is kept here word for word (the thirty-second pass's ``DifferenceByRows`` and
``_along_rays``, their finish given the band's rows), and the new one is compared with it on drawn
and rendered inputs."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from arena_scenes import line_9, spec_scene
from vision.arena import bases, prepare_reference, read_arena, topdown
from vision.arena.registration import register
from vision.arena.topdown import (_LOG_OFFSET, _MEAN_OF_CHANNELS, DARKENING_CHANGE, DifferenceByRows, SmoothView,
                                  _channel_max, _lighting_field, _under_new_light)

GEOMETRY = line_9()


class OldDifferenceByRows:
    """``topdown.DifferenceByRows`` before this pass, word for word (but its name)."""

    def __init__(self, live_bgr, relit_log, luma, *, finish=None, out=None):
        self._inputs = (live_bgr, relit_log, luma)
        self.shape = luma.shape
        h, w = self.shape
        self._band = topdown._DIFFERENCE_BAND_ROWS if w % 2 == 0 else h  # (an odd width: the whole view at once)
        self._finish = finish
        self._values = np.empty(self.shape, np.float32) if out is None else out
        self._done = np.zeros(-(-h // self._band), bool)

    def then(self, finish, out=None):
        return OldDifferenceByRows(*self._inputs, finish=finish, out=out)

    def rows(self, start, stop):
        h = self.shape[0]
        first, last = max(0, start) // self._band, -(-min(h, stop) // self._band)
        todo = np.flatnonzero(~self._done[first:last])
        if len(todo):
            rows = slice((first + todo[0]) * self._band, min(h, (first + todo[-1] + 1) * self._band))
            self._work_out(rows)
            self._done[first + todo[0]:first + todo[-1] + 1] = True
        return self._values

    def colours(self):  # (unchanged by this pass)
        live_bgr, relit_log, _ = self._inputs
        return cv2.add(live_bgr, _LOG_OFFSET), cv2.exp(relit_log)

    def _work_out(self, rows):
        live_bgr, relit_log, luma = (array[rows] for array in self._inputs)
        shade = cv2.exp(np.clip(luma, -DARKENING_CHANGE, 0.0))
        relit = cv2.subtract(cv2.exp(relit_log), _LOG_OFFSET)
        shaded = cv2.multiply(relit, cv2.cvtColor(shade, cv2.COLOR_GRAY2BGR))
        difference = _channel_max(cv2.absdiff(live_bgr, shaded, dst=shaded))
        self._values[rows] = difference if self._finish is None else self._finish(difference, rows)


def _old_along_rays(difference, map_u, map_v):
    """``bases._along_rays`` before this pass, word for word (but its name and the old class)."""
    if isinstance(difference, OldDifferenceByRows):
        difference = difference.rows(int(math.floor(float(map_v.min()))) - 1, int(math.floor(float(map_v.max()))) + 3)
    return cv2.remap(difference, map_u, map_v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def _old_capped(difference, mask):
    """``bases._capped_difference`` of a difference by rows before this pass (into an array of its own)."""
    return difference.then(lambda values, rows: cv2.copyTo(values, mask[rows], dst=cv2.min(values, bases._QUIET_DIFFERENCE * 4)),
                           out=np.empty(mask.shape, np.float32))


def _inputs(rng, h=160, w=440):
    """A live view, a relit reference's log and the luma, drawn: lumas both sides of a shadow's
    darkening and of 0, logs up to the sensor's top."""
    live = rng.uniform(0, 255, (h, w, 3)).astype(np.float32)
    predicted = rng.uniform(np.log(10.0), np.log(265.0), (h, w, 3)).astype(np.float32)
    luma = rng.uniform(-1.0, 0.5, (h, w)).astype(np.float32)
    luma[rng.random((h, w)) < 0.05] = rng.choice(np.array([0.0, -DARKENING_CHANGE, -0.0], np.float32))
    return live, predicted, luma


def _read_inputs(seed):
    """What change_between of a rendered spec scene's read works from (the live view, relit reference, luma)."""
    live_image, reference_image, _, _ = spec_scene(seed, GEOMETRY)
    prepared = prepare_reference(reference_image, GEOMETRY)
    registration = register(live_image, GEOMETRY)
    live = SmoothView.of(prepared.view.warp(live_image, registration.homography))
    predicted = _under_new_light(prepared.smooth, _lighting_field(live, prepared.smooth, prepared.search))
    luma = cv2.transform(cv2.subtract(live.log, predicted), _MEAN_OF_CHANNELS)
    return live.bgr, predicted, luma


def _bits(array):
    return np.ascontiguousarray(array).view(np.uint8)


def _case_inputs(case):
    rng = np.random.default_rng(650 + case)
    if case < 3:
        return rng, _read_inputs(300008 + 7 * case)
    shapes = [(160, 440), (160, 440), (240, 660), (97, 250), (40, 51), (33, 30), (320, 880)]
    return rng, _inputs(rng, *shapes[(case - 3) % len(shapes)])


@pytest.mark.parametrize("case", range(10))
def test_windows_worked_out_as_asked_are_the_old_whole_difference(case):
    """Windows asked for in any order, overlapping, past the view's edges, on rendered and drawn
    views (1, 1.5 and 2 px per mm, odd and narrow widths): where asked, the old code's values
    bit for bit; and then the whole view, by rows, too."""
    rng, inputs = _case_inputs(case)
    h, w = inputs[2].shape
    whole = OldDifferenceByRows(*inputs).rows(0, h).copy()
    windows = DifferenceByRows(*inputs, out=np.full((h, w), np.nan, np.float32))
    asked = np.zeros((h, w), bool)
    for _ in range(12):
        top, left = int(rng.integers(-5, h)), int(rng.integers(-5, w))
        bottom, right = top + int(rng.integers(1, 60)), left + int(rng.integers(1, 90))
        values = windows.window(top, bottom, left, right)
        asked[max(0, top):max(0, min(h, bottom)), max(0, left):max(0, min(w, right))] = True
        assert np.array_equal(_bits(values[asked]), _bits(whole[asked]))
    assert np.array_equal(_bits(windows.rows(0, h)), _bits(whole))


@pytest.mark.parametrize("case", range(6))
def test_the_capped_difference_by_windows_is_the_old_capped_difference(case):
    rng, inputs = _case_inputs(case)
    h, w = inputs[2].shape
    mask = (rng.random((h, w)) < 0.3).astype(np.uint8)
    old = _old_capped(OldDifferenceByRows(*inputs), mask).rows(0, h).copy()
    capped = bases._capped_difference(DifferenceByRows(*inputs), mask)
    top, left = h // 3, w // 4
    assert np.array_equal(_bits(capped.window(top, top + 20, left, left + 40)[top:top + 20, left:left + 40]),
                          _bits(old[top:top + 20, left:left + 40]))
    assert np.array_equal(_bits(capped.rows(0, h)), _bits(old))


def _seed_rays(rng, h, w, seeds, ppm=1.0, radius=14.0):
    """_rim_points' maps: per seed, 21 rays over a half circle, 0.5 mm steps to 2.2 radii (seed-major rows)."""
    us = rng.uniform(-10, w + 10, seeds)
    vs = rng.uniform(-10, h + 10, seeds)
    angles = rng.uniform(-np.pi, np.pi, seeds)[:, None] + bases._RAY_ANGLES[None, :]
    steps = np.arange(0, 2.2 * radius, bases._RAY_STEP_MM)
    du, dv = np.cos(angles), np.sin(angles)
    map_u = (us[:, None, None] + du[:, :, None] * steps[None, None, :] * ppm).astype(np.float32).reshape(-1, len(steps))
    map_v = (vs[:, None, None] + dv[:, :, None] * steps[None, None, :] * ppm).astype(np.float32).reshape(-1, len(steps))
    return map_u, map_v


@pytest.mark.parametrize("case", range(10))
def test_rays_sample_by_windows_what_the_old_rays_sample(case):
    """Each seed's rays worked out in their own window (the rest NaN): not a NaN sampled, and the same
    samples as the old code's by rows."""
    rng, inputs = _case_inputs(case)
    h, w = inputs[2].shape
    for _ in range(4):
        map_u, map_v = _seed_rays(rng, h, w, int(rng.integers(1, 9)), ppm=w / 440)
        old = _old_along_rays(OldDifferenceByRows(*inputs), map_u, map_v)
        windows = DifferenceByRows(*inputs, out=np.full((h, w), np.nan, np.float32))
        new = bases._along_rays(windows, map_u, map_v, rays_per_window=len(bases._RAY_ANGLES))
        assert not np.isnan(new).any()
        assert np.array_equal(_bits(new), _bits(old))
        # and one window round all the rays (the other callers), the same
        new = bases._along_rays(DifferenceByRows(*inputs, out=np.full((h, w), np.nan, np.float32)), map_u, map_v)
        assert np.array_equal(_bits(new), _bits(old))


def test_rays_a_hair_under_a_tiles_column_read_it_worked_out():
    """Samples at the tiles' column edges and a hair under them (OpenCV 4 rounds to 1/32 px: the next
    column is read), worked out in windows of their own: no NaN read, the old samples."""
    rng = np.random.default_rng(65)
    inputs = _inputs(rng)
    old_whole = OldDifferenceByRows(*inputs)
    for column in range(1, 439):
        u = (column + np.array([0.0, -1 / 64, -1 / 100, 1 / 64, 0.5, -0.999, 0.999]))[None, :].astype(np.float32)
        v = rng.uniform(0, 159, u.shape).astype(np.float32)
        sampled = bases._along_rays(DifferenceByRows(*inputs, out=np.full((160, 440), np.nan, np.float32)), u, v)
        assert not np.isnan(sampled).any(), column
        assert np.array_equal(_bits(sampled), _bits(_old_along_rays(old_whole, u, v))), column


def test_seeds_far_apart_leave_the_board_between_them_unworked():
    """Two seeds at the board's two ends: the columns between their windows are not worked out
    (the old code worked out whole rows)."""
    rng = np.random.default_rng(66)
    inputs = _inputs(rng)
    steps = np.arange(0, 2.2 * 14.0, bases._RAY_STEP_MM)
    angles = np.concatenate([bases._RAY_ANGLES - np.pi / 2] * 2)  # both facing down the view
    us = np.repeat([40.0, 400.0], len(bases._RAY_ANGLES))
    map_u = (us[:, None] + np.cos(angles)[:, None] * steps[None, :]).astype(np.float32)
    map_v = (80.0 - np.sin(angles)[:, None] * steps[None, :]).astype(np.float32)
    windows = DifferenceByRows(*inputs, out=np.full((160, 440), np.nan, np.float32))
    bases._along_rays(windows, map_u, map_v, rays_per_window=len(bases._RAY_ANGLES))
    values = windows.rows(0, 0)  # nothing more asked
    assert np.isnan(values[:, 128:320]).all()
    assert not np.isnan(values[80:100, 30:50]).any() and not np.isnan(values[80:100, 390:410]).any()


@pytest.mark.parametrize("seed", [300008, 300019, 300031])
@pytest.mark.parametrize("fighters", [False, True])
def test_a_read_is_the_old_codes_read(seed, fighters, monkeypatch):
    """Rendered spec scenes read with the new windows and with the old code put back: the same JSON."""
    live, reference, _, count = spec_scene(seed, GEOMETRY)
    prepared = prepare_reference(reference, GEOMETRY)

    def read():
        result = read_arena(live, prepared, GEOMETRY, annotate=False, fighters=count if fighters else None)
        return json.dumps(result.to_json(), sort_keys=True)

    new = read()
    plain_capped = bases._capped_difference
    monkeypatch.setattr(topdown, "DifferenceByRows", OldDifferenceByRows)
    monkeypatch.setattr(bases, "DifferenceByRows", OldDifferenceByRows)
    old_rays = []
    monkeypatch.setattr(bases, "_along_rays", lambda difference, map_u, map_v, rays_per_window=None:
                        old_rays.append(isinstance(difference, OldDifferenceByRows)) or _old_along_rays(difference, map_u, map_v))
    monkeypatch.setattr(bases, "_capped_difference", lambda difference, mask: (
        _old_capped(difference, mask) if isinstance(difference, OldDifferenceByRows) else plain_capped(difference, mask)))
    assert read() == new
    assert any(old_rays)  # (the old code was read)
