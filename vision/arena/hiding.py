"""Could a fighter stand on a space unseen, hidden behind another fighter's figure?

A fighter in front of the row (or of a space) leans its figure, in the top-down view, over the
spaces behind it: change there is that figure, so a base hidden behind it cannot be told
apart. This module proves, where the picture allows, that no fighter can be there at all.

A hidden fighter stands with its centre anywhere on the space (fighters need not stand at
the centre), on a base at least ``MIN_BASE_MM`` across, with a figure at least
``MIN_FIGURE_MM`` tall on top. Two things rule a place out:

- its base would overlap something solid already seen there (a taken fighter's base, the
  front fighter's own, a flat token): two solids cannot stand in one place. (Were the one
  seen not what it was taken for, the space would still hold something where it was seen.)
- its figure's body would show unchanged board: the figure stands over its base's middle,
  and a point of its body ``z`` mm up shows in the top-down view displaced away from the
  camera by ``camera.lean(z)``. Hidden behind another figure, that point shows the other
  figure, and in plain view its own: either way it changed. This holds at every height of
  the body, from above the legs (which may stand apart, the board showing between them) to
  ``MIN_FIGURE_MM``: one unchanged point anywhere along it rules the place out.
"""

from __future__ import annotations

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


def room_for_a_figure(mask: np.ndarray, view: BoardView, geometry: BoardGeometry, camera: CameraPosition,
                      sx: float, sy: float, *, solids=()) -> bool:
    """Could a fighter stand anywhere on the space centred at (sx, sy) with its figure unseen?

    ``solids`` are (x_mm, y_mm, radius_mm) of things seen standing or lying on the board
    (bases, tokens): no base stands where it would overlap one.
    """
    return len(hiding_places(mask, view, geometry, camera, sx, sy, solids=solids)) > 0


def hiding_places(mask: np.ndarray, view: BoardView, geometry: BoardGeometry, camera: CameraPosition,
                  sx: float, sy: float, *, solids=()) -> np.ndarray:
    """The centres (board mm, N x 2, ``HIDE_GRID_MM`` apart) on the space at (sx, sy) where a
    fighter could stand unseen (see :func:`room_for_a_figure`)."""
    half = geometry.space_mm / 2
    steps = np.arange(-half, half + 0.01, HIDE_GRID_MM)
    cx, cy = (grid.ravel() for grid in np.meshgrid(sx + steps, sy + steps))
    free = np.ones(len(cx), bool)
    for x, y, radius in solids:
        free &= np.hypot(cx - x, cy - y) >= radius + MIN_BASE_MM / 2 - SOLID_OVERLAP_MM
    if not free.any():
        return np.zeros((0, 2))  # every place on the space is taken by something seen
    cx, cy = cx[free], cy[free]
    h, w = mask.shape
    # Where a body could show: change a body's width across (the mask less a body's half width
    # all round), then as far as it may lean.
    body = _disc(BODY_HALF_WIDTH_MM * view.px_per_mm)
    grown = cv2.dilate(cv2.erode(mask, body), _disc(HIDE_TOP_MM * view.px_per_mm))
    hidden = np.ones(len(cx), bool)  # every height checked so far changed
    for height in BODY_HEIGHTS_MM:
        lx, ly = camera.lean(cx, cy, height)
        u = np.round((cx + lx + view.width_mm / 2) * view.px_per_mm).astype(int)
        v = np.round((view.height_mm / 2 - (cy + ly)) * view.px_per_mm).astype(int)
        outside = (u < 0) | (u >= w) | (v < 0) | (v >= h)
        # A figure showing off the view proves nothing there: that height rules nothing out.
        changed = outside.copy()
        changed[~outside] = grown[v[~outside], u[~outside]] > 0
        hidden &= changed
    return np.column_stack([cx[hidden], cy[hidden]])


def _disc(radius_px: float) -> np.ndarray:
    reach = int(round(radius_px))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
