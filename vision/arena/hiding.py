"""Could a fighter stand on a space unseen, hidden behind another figure or not recognised?

A fighter in front of the row (or of a space) leans its figure, in the top-down view, over the
spaces behind it: change there is that figure, so a base hidden behind it cannot be told
apart. Elsewhere, change that no base, figure or token explains may be a fighter not
recognised. This module proves, where the picture allows, that no fighter can be there at all.

A fighter stands with its centre anywhere on the space (fighters need not stand at the
centre), on a base at least ``MIN_BASE_MM`` across, with a figure at least ``MIN_FIGURE_MM``
tall on top. A place is ruled out when:

- its base would overlap something solid already seen there (a taken fighter's base, the
  front fighter's own, a flat token): two solids cannot stand in one place. (Were the one
  seen not what it was taken for, the space would still hold something where it was seen.)
- or both of these show unchanged board:
  - its figure's body: the figure stands over its base's middle, and a point of its body
    ``z`` mm up shows in the top-down view displaced away from the camera by
    ``camera.lean(z)``. Hidden behind another figure, that point shows the other figure, and
    in plain view its own: either way it changed. This holds at every height of the body,
    from above the legs (which may stand apart, the board showing between them) to
    ``MIN_FIGURE_MM``: one unchanged point anywhere along it rules the figure out;
  - its base's half facing the camera (no figure can hide it but one in front of it, which
    changes it too). A base may be close in colour to the board and show nothing: then its
    figure shows. Only a figure close to the board's colour on such a base shows nothing at
    all, and nothing can be read of it.
"""

from __future__ import annotations

import math
from functools import cached_property

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry
from vision.arena.pose import CameraPosition
from vision.arena.topdown import BoardView

#: A figure is at least this tall (mm): its projection shows this high up, away from the camera.
MIN_FIGURE_MM = 25.0
#: The smallest base the spec allows (mm across).
MIN_BASE_MM = 25.0
#: Two solids' fitted outlines may overlap this much (mm) from fitting error, not more.
SOLID_OVERLAP_MM = 3.0
#: A hidden fighter is looked for at points this far apart (mm); its body may lean this far (mm)
#: off the line up from its base's middle, and is at least twice this wide (mm): wherever it
#: shows, a disc that wide changed (its own colour, or the figure in front of it).
HIDE_GRID_MM = 2.0
HIDE_TOP_MM = 3.0
BODY_HALF_WIDTH_MM = 2.0
#: The heights (mm) of a figure's body checked: above the legs, up to the least figure's top.
BODY_HEIGHTS_MM = (13.0, 16.0, 19.0, 22.0, MIN_FIGURE_MM)
#: Points (radius mm, angle from the camera's side) of a base's half facing the camera, inside
#: the smallest base by more than the places' spacing.
_BASE_POINTS = np.array([(0.0, 0.0)] + [(r, math.radians(a)) for r in (5.0, 10.5) for a in range(-90, 91, 30)])
#: Margin (mm) kept clear round each marker: a hand over a marker is no fighter.
MARKER_KEEP_OUT_MM = 4.0
#: How near (mm) change must come to a covered marker's kept-out square to be taken as running up to it.
_TOUCH_MM = 2.0
#: A hand over a marker covers its whole kept-out square (48 mm across here); what of it lies on the
#: board meets that square, across the line of sight, wider than the widest base (see
#: ``reaches_covered_marker``). A figure is taken to be no wider than that.
MIN_HAND_CONTACT_MM = 28.0
#: A base is read apart from the cover over a marker when what joins its change to that cover is
#: narrower than the base's own change by more than this (mm, in half width): the outline's blur
#: and the mask's pixel steps, not a fighter's shape (see ``joined_by_a_neck``).
NECK_MARGIN_MM = 2.0
#: The view's rim (px) where the board's own edge flickers with registration error.
_EDGE_PX = 2


class FigureCover:
    """Where a hidden figure's body could show in one change mask: made once per reading (and
    worked out only if asked).

    ``mask`` is the change mask of the board view, and ``looked_at`` where it looks for change
    (the reader's :func:`search_mask`, made for this view and layout if not given): round the
    markers and on the view's rim it is no change because nothing there is looked at, so a
    body showing there is not ruled out.
    """

    def __init__(self, mask: np.ndarray, view: BoardView, geometry: BoardGeometry, camera: CameraPosition, *,
                 looked_at: np.ndarray | None = None):
        self.view, self.geometry, self.camera = view, geometry, camera
        self._change = mask
        self._looked_at = search_mask(view, geometry) if looked_at is None else looked_at
        self._rooms: dict = {}

    @cached_property
    def _not_looked_at(self) -> np.ndarray:
        return ~self._looked_at

    @cached_property
    def cover(self) -> np.ndarray:
        """Where a body could show: change a body's width across (the mask less a body's half
        width all round), then as far as the body may lean; and wherever nothing is looked at.

        A body may run on where nothing is looked at (round a marker, off the view's rim): there
        it counts as changed before the body's width is taken off, or a body whose middle shows
        just outside would lose the part of it inside and be ruled out (180419)."""
        body = _disc(BODY_HALF_WIDTH_MM * self.view.px_per_mm)
        seen_or_not = np.maximum(self._change, self._not_looked_at.view(np.uint8))
        grown = cv2.dilate(cv2.erode(seen_or_not, body), _disc(HIDE_TOP_MM * self.view.px_per_mm))
        return (grown > 0) | self._not_looked_at

    @cached_property
    def mask(self) -> np.ndarray:
        """Where something changed, or nothing is looked at."""
        return (self._change > 0) | self._not_looked_at

    def room(self, sx: float, sy: float, *, solids=(), by_base: bool = True) -> bool:
        """Could a fighter stand anywhere on the space centred at (sx, sy), unseen or not
        recognised, with this change?

        ``solids`` are (x_mm, y_mm, radius_mm) of things seen standing or lying on the board
        (bases, tokens): no base stands where it would overlap one. ``by_base=False`` looks
        for its figure only: behind another figure, a fighter whose figure is the board's
        colour shows nothing of itself (its base's change would be the other figure's), and
        no reading could tell it there.
        """
        # Asked again for the same space by each unexplained area near it: worked out once.
        key = (sx, sy, by_base, tuple(tuple(solid) for solid in solids))
        if key not in self._rooms:
            self._rooms[key] = len(self.places(sx, sy, solids=solids, by_base=by_base)) > 0
        return self._rooms[key]

    def places(self, sx: float, sy: float, *, solids=(), by_base: bool = True) -> np.ndarray:
        """The centres (board mm, N x 2, ``HIDE_GRID_MM`` apart) on the space at (sx, sy) where
        a fighter could stand (see :meth:`room`)."""
        half = self.geometry.space_mm / 2
        steps = np.arange(-half, half + 0.01, HIDE_GRID_MM)
        cx, cy = (grid.ravel() for grid in np.meshgrid(sx + steps, sy + steps))
        free = np.ones(len(cx), bool)
        for x, y, radius in solids:
            free &= np.hypot(cx - x, cy - y) >= radius + MIN_BASE_MM / 2 - SOLID_OVERLAP_MM
        cx, cy = cx[free], cy[free]
        # Every height of the body at once (one row per height): per-call costs dominate.
        lx, ly = np.array([self.camera.lean(cx, cy, height) for height in BODY_HEIGHTS_MM]).transpose(1, 0, 2)
        hidden = self._changed(self.cover, cx + lx, cy + ly).all(axis=0)
        if not by_base or hidden.all():
            return np.column_stack([cx[hidden], cy[hidden]])
        # A figure close to the board's colour shows nothing, but then its base shows: all of
        # the half of it facing the camera changed (no figure hides that half).
        ax, ay = self.camera.away(sx, sy)
        angles = math.atan2(-ay, -ax) + _BASE_POINTS[:, 1:2]
        dx, dy = _BASE_POINTS[:, 0:1] * np.cos(angles), _BASE_POINTS[:, 0:1] * np.sin(angles)
        rest = ~hidden  # only the places the figure did not already leave possible
        possible = hidden.copy()
        possible[rest] = self._changed(self.mask, cx[rest] + dx, cy[rest] + dy).all(axis=0)
        return np.column_stack([cx[possible], cy[possible]])

    def _changed(self, image: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``image`` at board points (mm); off the view counts as changed (nothing is known)."""
        h, w = image.shape
        u, v = (np.round(c).astype(int) for c in self.view.to_px(x, y))
        outside = (u < 0) | (u >= w) | (v < 0) | (v >= h)
        return image[np.clip(v, 0, h - 1), np.clip(u, 0, w - 1)] | outside


def search_mask(view: BoardView, geometry: BoardGeometry) -> np.ndarray:
    """Where change is looked for: on the board, away from the markers (a hand over one is no
    fighter) and the view's rim. The reader's one definition, made once per reference."""
    w, h = view.size
    mask = np.ones((h, w), bool)
    mask[:_EDGE_PX, :] = mask[-_EDGE_PX:, :] = False
    mask[:, :_EDGE_PX] = mask[:, -_EDGE_PX:] = False
    for marker_id in geometry.markers:
        mask[view.rect_mask(*marker_keep_out(geometry, marker_id))] = False
    return mask


def marker_keep_out(geometry: BoardGeometry, marker_id: int) -> tuple[float, float, float, float]:
    """The board-mm rectangle (x0, y0, x1, y1) kept out of the search round a marker: the
    square, its quiet zone and a margin."""
    x, y, size = geometry.markers[marker_id]
    half = size / 2 + size / 6 + MARKER_KEEP_OUT_MM
    return x - half, y - half, x + half, y + half


def reaches_covered_marker(region: np.ndarray, view: BoardView, geometry: BoardGeometry,
                           markers_found: tuple[int, ...], camera: CameraPosition) -> int | None:
    """The marker not found that a changed region (bool mask) meets as a hand over it would, if any.

    A marker not found is covered, by a hand most often. The hand covers the whole square kept
    out round it, and what of it lies on the board is cut off there by the search mask: it has
    no shape of its own to read (its edge can fit a disc a base's size with a "figure" behind
    it). It meets the square across the line of sight wider than a base. A figure beside the
    marker, leaning away from the camera onto it in the top-down view (or hiding it in the
    image), meets it only as wide as itself; along the line of sight it may run far."""
    return next(iter(markers_reached(region, view, geometry, markers_found, camera)), None)


def markers_reached(region: np.ndarray, view: BoardView, geometry: BoardGeometry, markers_found: tuple[int, ...],
                    camera: CameraPosition) -> list[int]:
    """Every marker not found that a changed region meets as a hand over it would (see
    :func:`reaches_covered_marker`, which names the first and says why)."""
    return [marker_id for marker_id in geometry.markers if marker_id not in markers_found
            and _contact_across_mm(region, view, marker_keep_out(geometry, marker_id), camera) >= MIN_HAND_CONTACT_MM]


def base_apart_from_cover(region: np.ndarray, view: BoardView, geometry: BoardGeometry, marker_id: int,
                          x_mm: float, y_mm: float) -> np.ndarray | None:
    """The base's own part of a changed region that runs up to covered marker ``marker_id``, if the
    base at (x_mm, y_mm) is joined to the marker's cover only through a neck narrower than itself;
    None if the change widens or keeps its width from the base all the way to the marker.

    Why: a hand or a card over a marker covers it whole and comes in over the board's edge from
    outside; what of it lies on the board is what spills out of that square, a convex outline (a
    palm, a card) cut by the square and by the board's edge. In a convex shape the distance to its
    outline never dips along the straight line between two points below the lesser of its values
    at the two ends: no part of a hand's outline, however it was fitted, is joined to the rest of
    the hand by anything narrower than itself, and the hand is at least as wide at the marker
    (it covers the square and more) as any base. A fighter standing apart from the hand, whose
    figure leans on to it or hides the marker, is joined to it by the figure's body, narrower
    than its base. The kept-out square counts as changed (the hand is over it).
    """
    x0, y0, x1, y1 = marker_keep_out(geometry, marker_id)
    square = np.zeros(region.shape, bool)
    square[view.rect_mask(x0, y0, x1, y1)] = True
    joined = region | square
    rows, cols = _window(joined)
    # (Padded with unchanged board: past the view's edge nothing is known to be changed.)
    inside = np.pad(joined[rows, cols], 1).astype(np.uint8)
    depth = cv2.distanceTransform(inside, cv2.DIST_L2, cv2.DIST_MASK_PRECISE) / view.px_per_mm
    u, v = (int(round(c)) for c in view.to_px(x_mm, y_mm))
    mu, mv = (int(round(c)) for c in view.to_px((x0 + x1) / 2, (y0 + y1) / 2))
    u, v, mu, mv = u - cols.start + 1, v - rows.start + 1, mu - cols.start + 1, mv - rows.start + 1
    h, w = depth.shape
    if not (0 <= v < h and 0 <= u < w and 0 <= mv < h and 0 <= mu < w) or not inside[v, u]:
        return None
    level = depth[v, u] - NECK_MARGIN_MM
    if level <= 0:
        return None
    _, parts = cv2.connectedComponents((depth >= level).view(np.uint8), connectivity=8)
    if parts[v, u] == 0 or parts[v, u] == parts[mv, mu]:
        return None
    # The base's own part: the places its width reaches from there (the opening's piece round it).
    reach = int(math.ceil(level * view.px_per_mm))
    own = cv2.dilate((parts == parts[v, u]).view(np.uint8), _disc(reach)).astype(bool) & inside.astype(bool)
    out = np.zeros(region.shape, bool)
    out[rows, cols] = own[1:-1, 1:-1]
    return out & region


def _window(mask: np.ndarray) -> tuple[slice, slice]:
    x, y, w, h = cv2.boundingRect(mask.view(np.uint8))
    return slice(y, y + h), slice(x, x + w)


def _contact_across_mm(region: np.ndarray, view: BoardView, rect: tuple[float, float, float, float],
                       camera: CameraPosition) -> float:
    """How wide (mm), across the line of sight, the stretch of a rectangle's outline is that a
    region comes within ``_TOUCH_MM`` of."""
    x0, y0, x1, y1 = rect
    (u0, v0), (u1, v1) = view.to_px(x0, y1), view.to_px(x1, y0)
    left, top, right, bottom = int(round(u0)) - 1, int(round(v0)) - 1, int(round(u1)), int(round(v1))
    reach = int(math.ceil(_TOUCH_MM * view.px_per_mm))
    # Worked out only round the rectangle (its outline, and ``reach`` round that: all the dilation
    # reads for the outline's pixels; past the view's edge it read nothing either), not the view.
    h, w = region.shape
    rows = slice(max(0, top - reach), min(h, bottom + reach + 1))
    cols = slice(max(0, left - reach), min(w, right + reach + 1))
    if rows.start >= rows.stop or cols.start >= cols.stop:
        return 0.0
    outline = np.zeros((rows.stop - rows.start, cols.stop - cols.start), np.uint8)
    cv2.rectangle(outline, (left - cols.start, top - rows.start), (right - cols.start, bottom - rows.start), 1, 1)
    near = cv2.dilate(region[rows, cols].astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    vs, us = np.nonzero(near & outline)
    if len(us) == 0:
        return 0.0
    vs, us = vs + rows.start, us + cols.start
    ax, ay = camera.away((x0 + x1) / 2, (y0 + y1) / 2)
    across = (us * ay + vs * ax) / view.px_per_mm  # (u, v) . (ay, -ax) with v pointing down (-y)
    return float(across.max() - across.min())


def _disc(radius_px: float) -> np.ndarray:
    reach = int(round(radius_px))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
