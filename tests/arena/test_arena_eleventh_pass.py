"""Eleventh pass: the unexplained-change areas and the figure cover, made cheaper, read the same.

The rules are checked on hand-drawn change masks (a top-down view at the reader's scale), so
they hold whatever the stack renders.
"""

import math

import cv2
import numpy as np
import pytest

from vision.arena import read_arena, reader
from vision.arena.bases import _UNEXPLAINED_AREA_MM2, _unexplained
from vision.arena.hiding import MARKER_KEEP_OUT_MM, FigureCover, search_mask
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import CameraPose

from tests.arena.arena_scenes import SPACE, empty, mini, render, scene

CAMERA = CameraPosition(centre_mm=(0.0, -350.0, 350.0), focal_px=800.0)


def _blank(view: BoardView) -> np.ndarray:
    w, h = view.size
    return np.zeros((h, w), np.uint8)


def _paint_rect(mask, view, x0, y0, x1, y1):
    """Fill the board rectangle [x0, x1] x [y0, y1] (mm) in the view."""
    rows, cols = view.rect_mask(x0, y0, x1, y1)
    mask[rows, cols] = 1


def _areas_the_long_way(mask, view, geometry):
    """What ``_unexplained`` must find with no base or token: each area of change on a space
    (opened by 3x3) of 60 mm2 or more, its centroid and farthest pixel, by the whole view."""
    near = np.zeros(mask.shape, bool)
    half = geometry.space_mm / 2
    for sx, sy in geometry.spaces.values():
        rows, cols = view.rect_mask(sx - half, sy - half, sx + half, sy + half)
        near[rows, cols] = True
    left = cv2.morphologyEx(((mask > 0) & near).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(left, connectivity=8)
    places = []
    for i in range(1, count):
        vs, us = np.nonzero(labels == i)
        if len(vs) < _UNEXPLAINED_AREA_MM2 * view.px_per_mm**2:
            continue
        cu, cv = us.mean(), vs.mean()
        places.append((*view.to_mm(cu, cv), float(np.hypot(us - cu, vs - cv).max()) / view.px_per_mm))
    return places


def test_an_unexplained_area_has_its_centre_and_reach(geometry):
    view = BoardView.of(geometry)
    mask = _blank(view)
    _paint_rect(mask, view, -10.0, -4.0, 10.0, 4.0)  # on S5: 20 x 8 mm
    [(x, y, reach)] = _unexplained(mask, view, geometry, CAMERA, [], [])
    assert math.hypot(x, y) < 1.0
    assert abs(reach - math.hypot(10.0, 4.0)) < 1.5


def test_change_off_the_spaces_or_too_small_is_not_an_unexplained_area(geometry):
    view = BoardView.of(geometry)
    mask = _blank(view)
    _paint_rect(mask, view, -10.0, -60.0, 10.0, -40.0)  # in front of the row
    _paint_rect(mask, view, 38.0, -2.0, 42.0, 2.0)  # on S6, 16 mm2
    assert _unexplained(mask, view, geometry, CAMERA, [], []) == []


def test_unexplained_areas_match_the_whole_view_count_in_order(geometry):
    # Many areas of every shape, on and off the spaces, touching the row's edges and the
    # board's: the same places in the same order as a count over the whole view.
    view = BoardView.of(geometry)
    w, h = view.size
    rng = np.random.default_rng(11)
    found = 0
    for _ in range(60):
        mask = _blank(view)
        for _ in range(int(rng.integers(1, 20))):
            centre = (int(rng.integers(0, w)), int(rng.integers(h // 2 - 30, h // 2 + 30)))
            cv2.circle(mask, centre, int(rng.integers(2, 14)), 1, -1)
        expected = _areas_the_long_way(mask, view, geometry)
        assert _unexplained(mask, view, geometry, CAMERA, [], []) == expected
        found += len(expected)
    assert found > 100  # the masks did hold areas to compare


def test_the_figure_cover_looks_only_where_the_reader_looks(geometry):
    # A figure on S1's back corner leaning over marker 10 (seen from the right): nothing is
    # looked at there, so it is not ruled out; told the whole view is looked at, it is.
    view = BoardView.of(geometry)
    camera = CameraPosition(centre_mm=(150.0, -250.0, 250.0), focal_px=800.0)
    x, y = geometry.spaces["S1"]
    assert FigureCover(_blank(view), view, geometry, camera).room(x, y, by_base=False)
    everywhere = np.ones(_blank(view).shape, bool)
    assert not FigureCover(_blank(view), view, geometry, camera, looked_at=everywhere).room(x, y, by_base=False)


def test_the_reader_and_the_cover_share_one_search_mask(geometry):
    view = BoardView.of(geometry)
    search = search_mask(view, geometry)
    assert reader._search_mask is search_mask
    # Round each marker: its square, its quiet zone and the keep-out margin are not looked at.
    for mx, my, size in geometry.markers.values():
        half = size / 2 + size / 6 + MARKER_KEEP_OUT_MM
        inside = view.to_px(mx + half - 1.0, my)
        outside = view.to_px(mx + half + 1.5, my) if mx < 0 else view.to_px(mx - half - 1.5, my)
        assert not search[int(inside[1]), int(inside[0])]
        assert search[int(outside[1]), int(outside[0])]
    assert search[view.size[1] // 2].sum() == view.size[0] - 4  # the rim: 2 px each side


def test_a_space_asked_twice_gets_the_same_answer_and_solids_still_count(geometry):
    view = BoardView.of(geometry)
    mask = _blank(view)
    cv2.circle(mask, tuple(int(round(c)) for c in view.to_px(0.0, 0.0)), 13, 1, -1)
    cover = FigureCover(mask, view, geometry, CAMERA)
    assert cover.room(0.0, 0.0)
    assert cover.room(0.0, 0.0)
    assert not cover.room(0.0, 0.0, solids=[(0.0, 0.0, 13.0)])
    assert cover.room(0.0, 0.0)


#: Low cameras (35-40 degrees up) from either side, where the scene generator's hand over
#: marker 10 reaches onto S1's back corner.
_LOW_POSES = tuple(CameraPose(distance_mm=420, elevation_deg=elevation, azimuth_deg=azimuth)
                   for elevation, azimuth in ((35, -20), (35, 20), (40, -20), (40, 20)))


@pytest.mark.parametrize("pose", _LOW_POSES, ids=lambda p: f"el{p.elevation_deg}az{p.azimuth_deg}")
def test_a_fighter_under_a_hand_reaching_a_space_is_never_read_away(pose, geometry):
    # The "neither a base nor a token" doubt a hand over a covered marker raises on S1 is the
    # very doubt a fighter standing there under it raises (its base the space's colour, its
    # figure merged with the hand): settling the one would read the other as an empty S1.
    reference = empty(geometry, pose)
    fighter = mini(-170, 12, base=SPACE, figure=(60, 60, 200), height=30)
    for seed in (1, 2):
        live = render(scene(pose, minis=[fighter], hidden=(10,), seed=seed), geometry)
        reading = read_arena(live, reference, geometry, annotate=False)
        assert not reading.ok or reading.occupied == ("S1",), (seed, reading.occupied)
        hand_only = read_arena(render(scene(pose, hidden=(10,), seed=seed), geometry), reference, geometry,
                               annotate=False)
        assert not hand_only.ok or hand_only.occupied == (), (seed, hand_only.occupied)


def test_a_body_running_on_into_a_markers_keep_out_is_not_cut_off(geometry):
    # A figure on S1's back corner, seen from the left: its body leans across the edge of
    # marker 10's keep-out, where nothing is looked at. The part of it that is looked at is
    # narrower than a body; counted together with the part not looked at, it is one.
    view = BoardView.of(geometry)
    camera = CameraPosition(centre_mm=(-250.0, -250.0, 250.0), focal_px=800.0)
    search = search_mask(view, geometry)
    x, y = -178.0, 16.0
    mask = _blank(view)
    for z in np.arange(0.0, 40.0, 1.0):
        lx, ly = camera.lean(x, y, z)
        u, v = view.to_px(x + lx, y + ly)
        cv2.circle(mask, (int(round(u)), int(round(v))), int(round(2.5 * view.px_per_mm)), 1, -1)
    mask &= search.astype(np.uint8)  # the reader's change mask is blank where it does not look
    places = FigureCover(mask, view, geometry, camera, looked_at=search).places(*geometry.spaces["S1"], by_base=False)
    assert np.hypot(places[:, 0] - x, places[:, 1] - y).min() < 0.1
