"""Tower camera calibration: mat markers, scale, table plane and the cube colours.

Takes one frame showing the build mat with one light and one heavy cube on the build spot.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np

from vision.tower.geometry import MatNotVisible, detect_mat_markers, mat_geometry
from vision.tower.judge import VIEW_PX_PER_MM, SideView, _white_sample_points
from vision.tower.settings import TowerSettings


class CalibrationError(ValueError):
    """The calibration shot cannot be used (say what to fix)."""


#: Heights checked (a fighter may hold many wounds; the boxes bring 25 of each colour).
TALLEST_TOWER_CHECKED = 50
#: A Knockdown Test tower this tall is common enough that the view should hold it.
ADVISED_TOWER_CUBES = 10


@dataclasses.dataclass(frozen=True)
class TowerCalibration:
    markers_seen: tuple[int, ...]
    px_per_mm: float  # image scale at the build spot
    camera_distance_mm: float
    camera_elevation_deg: float
    focal_px: float
    table_homography: tuple[tuple[float, ...], ...]  # mat (x, y) mm -> image px
    light_rgb: tuple[int, int, int]
    heavy_rgb: tuple[int, int, int]
    settings: TowerSettings  # the input settings with the learned colours
    # Cubes a straight tower on the build spot can have before its top leaves the picture.
    tallest_tower_cubes: int

    def to_mapping(self) -> dict[str, Any]:
        """The ``[vision.tower]`` keys to write back into the config (the learned colours and
        ``tallest_tower_cubes``, which the live flow warns with)."""
        return self.settings.to_mapping()

    def describe(self) -> list[str]:
        """What was measured, one line each (for the CLI)."""
        return [
            f"markers seen: {', '.join(str(i) for i in self.markers_seen)}",
            f"scale at the build spot: {self.px_per_mm:.2f} px/mm",
            f"camera: {self.camera_distance_mm:.0f} mm away, {self.camera_elevation_deg:.1f} deg above the table, "
            f"focal length {self.focal_px:.0f} px",
            f"light cube colour: RGB {self.light_rgb}",
            f"heavy cube colour: RGB {self.heavy_rgb}",
            self._tallest_tower_line(),
        ]

    def _tallest_tower_line(self) -> str:
        line = f"the picture holds a tower up to {self.tallest_tower_cubes} cubes tall on the build spot"
        if self.tallest_tower_cubes < ADVISED_TOWER_CUBES:
            # The judge cannot count what leaves the picture: such a tower is left to the referee.
            line += (f" (fewer than {ADVISED_TOWER_CUBES}: a taller tower leaves the picture and the referee judges"
                     " it; move the camera back)")
        return line


def tallest_tower_in_view(geometry, frame_size: tuple[int, int], cube_mm: float) -> int:
    """How many cubes a straight tower on the build spot may have with all of its top corners
    still in a picture of ``frame_size`` (width, height): the judge cannot count cubes past the
    picture's edge (a tower cut there reads "uncertain")."""
    width, height = frame_size
    half = cube_mm / 2
    for cubes in range(1, TALLEST_TOWER_CHECKED + 1):
        top = np.array([(x, y, cubes * cube_mm) for x in (-half, half) for y in (-half, half)])
        px = geometry.project(top)
        if not ((px >= 0).all() and (px[:, 0] <= width - 1).all() and (px[:, 1] <= height - 1).all()):
            return cubes - 1
    return TALLEST_TOWER_CHECKED


def calibrate_tower(frame: np.ndarray, settings: TowerSettings = TowerSettings()) -> TowerCalibration:
    """Measure the set-up from one frame: the mat, and one light + one heavy cube on the build spot."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CalibrationError(f"calibration frame must be a BGR uint8 image, got {type(frame).__name__}")
    markers = detect_mat_markers(frame, settings)
    try:
        geometry = mat_geometry(markers, (frame.shape[1], frame.shape[0]), settings)
    except MatNotVisible as exc:
        raise CalibrationError(
            f"{exc}; markers seen: {sorted(markers)!r}. Lay the build mat flat with both markers "
            f"{settings.marker_ids!r} in view"
        ) from exc
    cube = settings.cube_mm
    view = SideView(geometry, -cube / 2, (-3 * cube, 3 * cube), (-0.5 * cube, 2.5 * cube))
    white_idx = _white_sample_points(geometry, settings, frame.shape)
    white = np.maximum(np.percentile(frame[white_idx].astype(np.float32), 80, axis=0), 8.0)
    img = view.warp(frame).astype(np.float32) / white
    # Cube pixels: the front faces between the table line and one cube up, clearly not mat white.
    rows = slice(view.row(0.85 * cube), view.row(0.15 * cube))
    face = img[rows].reshape(-1, 3)
    total = face.sum(axis=1)
    spread = face.max(axis=1) - face.min(axis=1)
    is_cube = (spread > 0.12 * np.maximum(total / 3, 0.05)) | (total / 3 < 0.5)
    pixels = face[is_cube]
    if len(pixels) < 0.5 * (cube * VIEW_PX_PER_MM) ** 2:
        raise CalibrationError("no cubes found on the build spot: put one light and one heavy cube on it")
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3)
    _, labels, _ = cv2.kmeans(pixels.astype(np.float32), 2, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    groups = [pixels[labels.ravel() == k] for k in range(2)]
    if min(len(g) for g in groups) < 0.2 * (cube * VIEW_PX_PER_MM) ** 2:
        raise CalibrationError("found only one cube colour on the build spot: put one light and one heavy cube on it")
    # Median colour of each group, scaled so that the marker quiet-zone white is 255.
    colours = [np.median(g, axis=0)[::-1] * 255.0 for g in groups]
    light, heavy = sorted(colours, key=lambda c: -float(c.sum()))
    light_rgb = tuple(int(v) for v in np.clip(np.round(light), 0, 255))
    heavy_rgb = tuple(int(v) for v in np.clip(np.round(heavy), 0, 255))
    tallest = tallest_tower_in_view(geometry, (frame.shape[1], frame.shape[0]), cube)
    if tallest < 1:
        # Not even one cube's top is in the picture: the judge could count nothing.
        raise CalibrationError("the picture cuts off the top of a single cube on the build spot: "
                               "move the camera back or aim it higher")
    learned = dataclasses.replace(settings, light_rgb=light_rgb, heavy_rgb=heavy_rgb, tallest_tower_cubes=tallest)
    return TowerCalibration(
        markers_seen=tuple(sorted(markers)),
        px_per_mm=geometry.px_per_mm_at_spot(),
        camera_distance_mm=geometry.distance_mm,
        camera_elevation_deg=geometry.elevation_deg,
        focal_px=float(geometry.k[0, 0]),
        table_homography=tuple(tuple(float(v) for v in row) for row in geometry.table_h),
        light_rgb=light_rgb,
        heavy_rgb=heavy_rgb,
        settings=learned,
        tallest_tower_cubes=tallest,
    )
