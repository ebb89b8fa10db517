"""Tenth accuracy pass: where no fighter can stand unseen, hiding and unexplained-change doubts go.

The rules are tested on hand-drawn change masks (a top-down view at the reader's scale), so
they hold whatever the stack renders; the spec scenes only check the safety property.
"""

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.arena import read_arena
from vision.arena.bases import _room_for_one_more
from vision.arena.hiding import BODY_HEIGHTS_MM, FigureCover
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView

from tests.arena.arena_scenes import POSES, assert_never_wrong_when_ok, empty, mini, render, scene

#: A camera in front of the board, 45 degrees up: a figure 25 mm tall leans some 26 mm away.
CAMERA = CameraPosition(centre_mm=(0.0, -350.0, 350.0), focal_px=800.0)
S5 = (0.0, 0.0)


def _view(geometry) -> BoardView:
    return BoardView.of(geometry)


def _blank(view: BoardView) -> np.ndarray:
    w, h = view.size
    return np.zeros((h, w), np.uint8)


def _paint_disc(mask, view, x, y, radius_mm):
    u, v = view.to_px(x, y)
    cv2.circle(mask, (int(round(u)), int(round(v))), int(round(radius_mm * view.px_per_mm)), 1, -1)


def _paint_figure(mask, view, x, y, *, height_mm=40.0, half_width_mm=6.0, camera=CAMERA):
    """A figure standing at (x, y), as the top-down view shows it: a band leaning away from the camera."""
    for z in np.arange(0.0, height_mm + 0.1, 1.0):
        lx, ly = camera.lean(x, y, z)
        _paint_disc(mask, view, x + lx, y + ly, half_width_mm)


def test_an_empty_view_has_room_for_no_fighter(geometry):
    # (S1 and S9 lean towards the markers, where nothing is looked at: see the last test.)
    view = _view(geometry)
    cover = FigureCover(_blank(view), view, geometry, CAMERA)
    assert not any(cover.room(*geometry.spaces[f"S{i}"]) for i in range(2, 9))


def test_a_figure_standing_anywhere_on_a_space_leaves_room_there(geometry):
    view = _view(geometry)
    for x, y in [(0.0, 0.0), (14.0, -15.0), (-16.0, 16.0)]:  # not only at the centre
        mask = _blank(view)
        _paint_figure(mask, view, x, y)
        cover = FigureCover(mask, view, geometry, CAMERA)
        assert cover.room(*S5, by_base=False), (x, y)
        assert cover.room(*S5), (x, y)
        places = cover.places(*S5, by_base=False)
        assert np.hypot(places[:, 0] - x, places[:, 1] - y).min() <= 1.5, (x, y)


def test_a_figure_hidden_behind_another_leaves_room_behind_it(geometry):
    # A tall, wide figure in front of S5 (off the row) covers where a fighter on S5 would show.
    view = _view(geometry)
    mask = _blank(view)
    _paint_disc(mask, view, 0.0, -40.0, 13.0)
    _paint_figure(mask, view, 0.0, -40.0, height_mm=60.0, half_width_mm=10.0)
    cover = FigureCover(mask, view, geometry, CAMERA)
    assert cover.room(*S5, solids=[(0.0, -40.0, 13.0)], by_base=False)


def test_a_place_whose_base_would_overlap_a_base_seen_is_no_room(geometry):
    # The same figure, its own base the only place its change could come from: a base seen there.
    view = _view(geometry)
    mask = _blank(view)
    _paint_disc(mask, view, 0.0, 0.0, 13.0)
    _paint_figure(mask, view, 0.0, 0.0)
    cover = FigureCover(mask, view, geometry, CAMERA)
    assert cover.room(*S5)
    assert not cover.room(*S5, solids=[(0.0, 0.0, 13.0)])


def test_flat_change_is_no_room_unless_a_base_fits_in_it(geometry):
    # Something flat, no figure on it: a base-sized disc may be a base whose figure is the
    # board's colour (room); a token seen (a solid) or a thin strip is nothing that stands.
    view = _view(geometry)
    base_sized = _blank(view)
    _paint_disc(base_sized, view, 0.0, 0.0, 13.0)
    assert FigureCover(base_sized, view, geometry, CAMERA).room(*S5)
    # From high above (a figure leans little), a body next to the token would show off it.
    high = CameraPosition(centre_mm=(0.0, -150.0, 450.0), focal_px=800.0)
    token = _blank(view)
    _paint_disc(token, view, 0.0, 0.0, 9.0)
    assert not FigureCover(token, view, geometry, high).room(*S5, solids=[(0.0, 0.0, 9.0)])
    strip = _blank(view)
    u0, v0 = view.to_px(-18.0, 18.0)
    cv2.rectangle(strip, (int(u0), int(v0)), (int(u0) + int(36 * view.px_per_mm), int(v0) + 3), 1, -1)
    assert not FigureCover(strip, view, geometry, CAMERA).room(*S5)


def test_a_figure_too_thin_for_a_body_is_no_room(geometry):
    # Change a line's width along where a body would show (a card's edge, a shadow's rim).
    view = _view(geometry)
    mask = _blank(view)
    _paint_figure(mask, view, 0.0, 0.0, half_width_mm=0.5)
    assert not FigureCover(mask, view, geometry, CAMERA).room(*S5, by_base=False)


def test_a_body_showing_over_a_marker_is_not_ruled_out(geometry):
    # Round the markers nothing is looked at: a figure on S1's back corner leaning there proves
    # nothing absent. (Seen from the right, it leans over marker 10, top left.)
    view = _view(geometry)
    camera = CameraPosition(centre_mm=(150.0, -250.0, 250.0), focal_px=800.0)
    x, y = geometry.spaces["S1"]
    top = camera.lean(x - 16, y + 16, max(BODY_HEIGHTS_MM))
    mx, my, _ = geometry.markers[10]
    assert math.hypot(x - 16 + top[0] - mx, y + 16 + top[1] - my) < 25  # the premise: it shows there
    cover = FigureCover(_blank(view), view, geometry, camera)
    assert cover.room(x, y, by_base=False)
    assert not cover.room(*geometry.spaces["S5"], by_base=False)


def test_unexplained_change_is_a_doubt_only_near_a_space_a_fighter_could_stand_on(geometry):
    # A figure standing on S7 (not taken for a fighter): change next to it may be that fighter,
    # change on S4 may not (no fighter on S7 could reach it, and none stands nearer).
    view = _view(geometry)
    high = CameraPosition(centre_mm=(0.0, -200.0, 450.0), focal_px=800.0)
    mask = _blank(view)
    _paint_figure(mask, view, 80.0, 0.0, camera=high)
    cover = FigureCover(mask, view, geometry, high)
    near, far = (70.0, 10.0, 5.0), (-40.0, 0.0, 5.0)
    assert _room_for_one_more(cover, geometry, high, ArenaSettings(), [], near)
    assert not _room_for_one_more(cover, geometry, high, ArenaSettings(), [], far)
    # ... and with that fighter's base seen there, nothing else can stand on S7.
    assert not _room_for_one_more(cover, geometry, high, ArenaSettings(), [(80.0, 0.0, 13.0)], near)


def test_a_flood_of_change_with_a_base_taken_is_a_doubt_the_count_does_not_settle(geometry):
    # Every space's print reads another colour (a light the gain field cannot follow: it lit
    # the spaces, not the board): nine places of change nothing explains. The one fighter,
    # off the row, is found; told there is one fighter, the count must not settle the rest.
    live = render(replace(scene(POSES[0], minis=[mini(80, -45)]), space_bgr=(150, 120, 160)), geometry)
    reading = read_arena(live, empty(geometry), geometry, annotate=False, fighters=1)
    assert not reading.ok
    assert "change in 9 places that no base, figure or token explains (the light may have changed)" in reading.error
    without_the_count = read_arena(live, empty(geometry), geometry, annotate=False)
    assert not without_the_count.ok


#: Spec scenes whose only doubt without the count this pass settled (hiding: 140042, 140126,
#: 140151; unexplained change: 140080). Some sit near a threshold (another stack's rounding
#: may tip one back into a doubt), so each is held to the safety property, and only half of
#: them to being answered.
SETTLED = [140042, 140126, 140151, 140080]


def test_spec_scenes_settled_in_this_pass_are_never_wrong_when_ok(geometry):
    answered = assert_never_wrong_when_ok(SETTLED, geometry)
    assert answered[False] >= len(SETTLED) // 2, answered
