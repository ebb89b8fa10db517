"""Thirty-eighth pass (cost, docs/arena-reader.md): the covered-marker check worked out round the
change and round each marker's square, the outline rays' "seen" in one pass, index clamps without
``np.clip``, a disc's coverage by counts. Each must answer exactly as the thirty-fourth pass's code
did: that code is kept here word for word as the reference, and compared on random input that
reaches every branch (the sweeps assert they did) and on a read of a scene with a covered marker."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from arena_scenes import bench_module, line_9
from vision.arena import bases, hiding, reader
from vision.arena.bases import Blob, Evidence
from vision.arena.hiding import MIN_HAND_CONTACT_MM, _TOUCH_MM, marker_keep_out, search_mask
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

GEOMETRY = line_9()
VIEW = BoardView.of(GEOMETRY)
SEARCH = search_mask(VIEW, GEOMETRY)
CAMERAS = (CameraPosition((0.0, -350.0, 300.0), 800.0), CameraPosition((-260.0, -120.0, 180.0), 700.0),
           CameraPosition((150.0, 40.0, 500.0), 900.0))


# --- the thirty-fourth pass's code, word for word -------------------------------------------------


def _old_contact_across_mm(region, view, rect, camera) -> float:
    x0, y0, x1, y1 = rect
    outline = np.zeros(region.shape, np.uint8)
    (u0, v0), (u1, v1) = view.to_px(x0, y1), view.to_px(x1, y0)
    cv2.rectangle(outline, (int(round(u0)) - 1, int(round(v0)) - 1), (int(round(u1)), int(round(v1))), 1, 1)
    reach = int(math.ceil(_TOUCH_MM * view.px_per_mm))
    near = cv2.dilate(region.astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    vs, us = np.nonzero(near & outline)
    if len(us) == 0:
        return 0.0
    ax, ay = camera.away((x0 + x1) / 2, (y0 + y1) / 2)
    across = (us * ay + vs * ax) / view.px_per_mm  # (u, v) . (ay, -ax) with v pointing down (-y)
    return float(across.max() - across.min())


def _old_reaches_covered_marker(region, view, geometry, markers_found, camera):
    for marker_id in geometry.markers:
        if marker_id in markers_found:
            continue
        if _old_contact_across_mm(region, view, marker_keep_out(geometry, marker_id), camera) >= MIN_HAND_CONTACT_MM:
            return marker_id
    return None


def _old_fighters_at_covered_markers(bases_, mask, view, camera, geometry, markers_found) -> list[str]:
    if len(markers_found) >= len(geometry.markers) or not bases_:
        return []
    _, regions = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    doubts = []
    for base in bases_:
        u, v = (int(round(c)) for c in view.to_px(*base.peak_mm))  # (its widest point: in its region)
        label = regions[min(max(v, 0), regions.shape[0] - 1), min(max(u, 0), regions.shape[1] - 1)]
        if label == 0:
            continue
        marker_id = _old_reaches_covered_marker(regions == label, view, geometry, markers_found, camera)
        if marker_id is not None:
            doubts.append(f"the change at ({base.x_mm:.0f}, {base.y_mm:.0f}) mm runs up to marker {marker_id}, "
                          "which is covered: a hand's edge or a fighter?")
    return doubts


def _old_outline_seen(map_u, map_v, shape, search):
    h, w = shape
    ui, vi = np.round(map_u).astype(int), np.round(map_v).astype(int)
    on_view = (ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)
    return on_view.all(axis=1) & search[np.clip(vi, 0, h - 1), np.clip(ui, 0, w - 1)].all(axis=1)


def _old_disc_coverage(mask, view, x, y, r, search=None) -> float:
    if r <= 0:
        return 0.0
    u, v = view.to_px(x, y)
    rp = r * view.px_per_mm
    h, w = mask.shape
    u0, u1 = max(0, int(u - rp)), min(w, int(u + rp) + 2)
    v0, v1 = max(0, int(v - rp)), min(h, int(v + rp) + 2)
    if u0 >= u1 or v0 >= v1:
        return 0.0
    vv, uu = np.arange(v0, v1)[:, None], np.arange(u0, u1)[None, :]
    disc = (uu - u) ** 2 + (vv - v) ** 2 <= rp * rp
    if not disc.any():
        return 0.0
    if search is not None:
        seen = disc & search[v0:v1, u0:u1]
        if seen.sum() >= 0.5 * disc.sum():
            disc = seen
    return float(mask[v0:v1, u0:u1][disc].mean())


# --- helpers ----------------------------------------------------------------------------------------


def _random_mask(rng, shape, things: int) -> np.ndarray:
    """Discs and strips of change anywhere on the view (off its edges too, and over the markers)."""
    mask = np.zeros(shape, np.uint8)
    h, w = shape
    for _ in range(things):
        if rng.random() < 0.6:
            cv2.circle(mask, (int(rng.integers(-20, w + 20)), int(rng.integers(-20, h + 20))), int(rng.integers(2, 30)),
                       1, -1)
        else:
            x, y = int(rng.integers(-20, w)), int(rng.integers(-20, h))
            cv2.rectangle(mask, (x, y), (x + int(rng.integers(1, 80)), y + int(rng.integers(1, 30))), 1, -1)
    return mask


def _blob_at(x: float, y: float) -> Blob:
    return Blob(x, y, 13.0, 0.3, 0.0, Evidence.YES, (x, y), 1, 1.0, 0.0, False)


# --- the tests --------------------------------------------------------------------------------------


def test_contact_with_a_square_as_over_the_whole_view():
    """Random regions against every marker's kept-out square (at the view's corners: partly off the
    view) and random rectangles anywhere, off the view too; contacts of 0, under and over a hand's."""
    rng = np.random.default_rng(38)
    shape = VIEW.size[::-1]
    rects = [marker_keep_out(GEOMETRY, m) for m in GEOMETRY.markers]
    hw, hh = VIEW.width_mm / 2, VIEW.height_mm / 2
    kinds = {"none": 0, "some": 0, "hand": 0}
    for trial in range(150):
        region = _random_mask(rng, shape, int(rng.integers(0, 6))).astype(bool)
        camera = CAMERAS[trial % len(CAMERAS)]
        if trial % 2:
            rect = rects[trial % len(rects)]
        else:
            x0, y0 = rng.uniform(-hw - 40, hw + 10), rng.uniform(-hh - 40, hh + 10)
            rect = (x0, y0, x0 + rng.uniform(1, 70), y0 + rng.uniform(1, 70))
        if trial % 3 == 0:  # change over the square and round it, as a hand's, or over a stretch of it
            grow = rng.uniform(-10, 4)
            rows, cols = VIEW.rect_mask(rect[0] - grow, rect[1] - grow, rect[2] + grow, rect[3] + grow)
            region[rows, cols] = True
        ours = hiding._contact_across_mm(region, VIEW, rect, camera)
        assert ours == _old_contact_across_mm(region, VIEW, rect, camera), (trial, rect)
        kinds["none" if ours == 0 else "hand" if ours >= MIN_HAND_CONTACT_MM else "some"] += 1
    assert all(count >= 5 for count in kinds.values()), kinds


def test_contact_reaches_as_far_from_each_side_as_before():
    """A lone changed pixel just within reach of each side of a square's outline, and one just past it."""
    shape = VIEW.size[::-1]
    rect = (-60.0, -30.0, -10.0, 20.0)  # well inside the view
    (u0, v0), (u1, v1) = VIEW.to_px(rect[0], rect[3]), VIEW.to_px(rect[2], rect[1])
    left, top, right, bottom = int(round(u0)) - 1, int(round(v0)) - 1, int(round(u1)), int(round(v1))
    reach = int(math.ceil(_TOUCH_MM * VIEW.px_per_mm))
    middle_u, middle_v = (left + right) // 2, (top + bottom) // 2
    for extra, touches in ((0, True), (1, False)):
        for v, u in ((top - reach - extra, middle_u), (bottom + reach + extra, middle_u),
                     (middle_v, left - reach - extra), (middle_v, right + reach + extra)):
            region = np.zeros(shape, bool)
            region[v, u] = True
            ours = hiding._contact_across_mm(region, VIEW, rect, CAMERAS[0])
            assert ours == _old_contact_across_mm(region, VIEW, rect, CAMERAS[0])
            assert (ours > 0) == touches, (v, u, extra)


def test_covered_marker_doubts_as_with_the_whole_view_labelled():
    """Random masks and bases (their widest point in a region, on bare board, off the view), with
    one or two markers covered: the same doubts; an empty mask gives none."""
    rng = np.random.default_rng(3834)
    shape = VIEW.size[::-1]
    hw, hh = VIEW.width_mm / 2, VIEW.height_mm / 2
    markers = sorted(GEOMETRY.markers)
    doubted = 0
    for trial in range(120):
        mask = _random_mask(rng, shape, int(rng.integers(0, 8)))
        if trial % 3 == 0:  # change running up to a corner's square, as a hand's would
            x0, y0, x1, y1 = marker_keep_out(GEOMETRY, markers[trial % len(markers)])
            rows, cols = VIEW.rect_mask(x0 - 5, y0 - 5, x1 + 5, y1 + 5)
            mask[rows, cols] = 1
        mask &= SEARCH.view(np.uint8)
        covered = set(rng.choice(markers, int(rng.integers(1, 3)), replace=False).tolist())
        found = tuple(m for m in markers if m not in covered)
        bases_ = [_blob_at(rng.uniform(-hw - 5, hw + 5), rng.uniform(-hh - 5, hh + 5)) for _ in range(rng.integers(1, 4))]
        vs, us = np.nonzero(mask)
        if len(us):  # and one standing in the change
            k = int(rng.integers(len(us)))
            bases_.append(_blob_at(*VIEW.to_mm(float(us[k]), float(vs[k]))))
        camera = CAMERAS[trial % len(CAMERAS)]
        ours = reader._fighters_at_covered_markers(bases_, mask, VIEW, camera, GEOMETRY, found)
        assert ours == _old_fighters_at_covered_markers(bases_, mask, VIEW, camera, GEOMETRY, found), trial
        doubted += bool(ours)
    assert doubted >= 5
    empty = np.zeros(shape, np.uint8)
    assert reader._fighters_at_covered_markers([_blob_at(0.0, 0.0)], empty, VIEW, CAMERAS[0], GEOMETRY, (10,)) == []


def test_outline_rays_seen_as_before():
    """Rays on the view, off it, across the search mask's holes (the markers) and its rim."""
    rng = np.random.default_rng(3838)
    h, w = VIEW.size[::-1]
    seen_rays = unseen_rays = 0
    for trial in range(200):
        difference = rng.uniform(0, 40, (h, w)).astype(np.float32)
        mask = _random_mask(rng, (h, w), 4)
        x, y = rng.uniform(-VIEW.width_mm / 2 - 10, VIEW.width_mm / 2 + 10), rng.uniform(-VIEW.height_mm / 2 - 10,
                                                                                            VIEW.height_mm / 2 + 10)
        r = rng.uniform(3, 16)
        angles = rng.uniform(-np.pi, np.pi, int(rng.integers(1, 40)))
        search = SEARCH if trial % 4 else np.ones((h, w), bool)
        distances, seen = bases._outline_distances(difference, mask, VIEW, x, y, r, angles, search)
        u, v = VIEW.to_px(x, y)
        steps = np.arange(0, r + 8.0, bases._RAY_STEP_MM)
        map_u = (u + np.cos(angles)[:, None] * steps[None, :] * VIEW.px_per_mm).astype(np.float32)
        map_v = (v - np.sin(angles)[:, None] * steps[None, :] * VIEW.px_per_mm).astype(np.float32)
        old = _old_outline_seen(map_u, map_v, (h, w), search)
        assert seen.dtype == old.dtype == bool
        np.testing.assert_array_equal(seen, old)
        seen_rays += int(old.sum())
        unseen_rays += int((~old).sum())
    assert seen_rays > 100 and unseen_rays > 100


@pytest.mark.parametrize("dtype", [np.int64, np.intp, np.int32])
def test_clamped_is_clip(dtype):
    rng = np.random.default_rng(7)
    values = rng.integers(-500, 900, (50, 37)).astype(dtype)
    for last in (0, 1, 159, 439):
        ours = bases._clamped(values, last)
        assert ours.dtype == np.clip(values, 0, last).dtype
        np.testing.assert_array_equal(ours, np.clip(values, 0, last))


def test_disc_coverage_as_before():
    """Discs anywhere (off the view, at its edges, radius 0 or less), with and without the search
    mask (mostly seen or not), on 0/1 masks of uint8 and bool."""
    rng = np.random.default_rng(3801)
    shape = VIEW.size[::-1]
    branches = {"zero": 0, "seen": 0, "whole disc": 0}
    for trial in range(400):
        mask = _random_mask(rng, shape, 25)
        if trial % 5 == 0:
            mask = mask.astype(bool)
        x = rng.uniform(-VIEW.width_mm / 2 - 20, VIEW.width_mm / 2 + 20)
        y = rng.uniform(-VIEW.height_mm / 2 - 20, VIEW.height_mm / 2 + 20)
        if trial % 4 == 0:  # over a marker's square, which the search leaves out
            mx, my, _ = GEOMETRY.markers[sorted(GEOMETRY.markers)[trial % len(GEOMETRY.markers)]]
            x, y = mx + rng.uniform(-15, 15), my + rng.uniform(-15, 15)
        r = rng.uniform(-1, 16) if trial % 7 else 0.3
        search = None if trial % 3 == 0 else SEARCH
        ours = bases._disc_coverage(mask, VIEW, x, y, r, search)
        old = _old_disc_coverage(mask, VIEW, x, y, r, search)
        assert ours == old and type(ours) is float, (trial, ours, old)
        if search is not None and old:
            u0, v0 = (int(c) for c in VIEW.to_px(x, y))
            branches["seen" if SEARCH[min(max(v0, 0), shape[0] - 1), min(max(u0, 0), shape[1] - 1)] else "whole disc"] += 1
        branches["zero"] += old == 0.0
    assert all(count >= 5 for count in branches.values()), branches


def test_a_read_with_a_covered_marker_gives_the_old_doubts(monkeypatch):
    """Thirty-fourth pass scene 440017 (marker 11 under a hand): what the read hands the check gives
    the same doubts as the old check, and the reading is the one with the old check put back."""
    bench = bench_module("arena_accuracy")
    seen = []
    ours_check = reader._fighters_at_covered_markers

    def spy(*args):
        seen.append((args, ours_check(*args)))
        return seen[-1][1]

    monkeypatch.setattr(reader, "_fighters_at_covered_markers", spy)
    ours = bench.run_one((440017, False, False))
    assert seen and any(answer for _, answer in seen)  # (the premise: the check found the hand)
    for args, answer in seen:
        assert answer == _old_fighters_at_covered_markers(*args)
    monkeypatch.setattr(reader, "_fighters_at_covered_markers", _old_fighters_at_covered_markers)
    assert bench.run_one((440017, False, False)) == ours
