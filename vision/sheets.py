"""Printable sheets at exact physical size: the tower build mat and the arena marker sheet.

Both are drawn in millimetres and rasterised at ``dpi``; :func:`save_sheet` writes a PNG with
its DPI recorded and a PDF whose page is the sheet's physical size.  Markers are ArUco
``DICT_4X4_50``; the black square of a marker is its printed size, with white all around.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.tower.settings import TowerSettings

A4_LANDSCAPE_MM = (297.0, 210.0)
_DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
_MARKER_IDS = 50


class SheetError(ValueError):
    """A layout or option that cannot be printed."""


class _Sheet:
    """A white page addressed in millimetres from its centre (x right, y up, i.e. away from the camera)."""

    def __init__(self, size_mm: tuple[float, float], dpi: int):
        if isinstance(dpi, bool) or not isinstance(dpi, int) or not 72 <= dpi <= 1200:
            raise SheetError(f"dpi must be a whole number from 72 to 1200, got {dpi!r}")
        self.size_mm, self.dpi = size_mm, dpi
        self.image = Image.new("L", (self.px(size_mm[0]), self.px(size_mm[1])), 255)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, mm: float) -> int:
        return int(round(mm * self.dpi / 25.4))

    def point(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        return self.px(x_mm + self.size_mm[0] / 2), self.px(self.size_mm[1] / 2 - y_mm)

    def marker(self, marker_id: int, centre_mm: tuple[float, float], size_mm: float) -> None:
        side = self.px(size_mm)
        image = Image.fromarray(cv2.aruco.generateImageMarker(_DICT, marker_id, side))
        cx, cy = self.point(*centre_mm)
        self.image.paste(image, (cx - side // 2, cy - side // 2))

    def text(self, x_mm: float, y_mm: float, text: str, size_mm: float, anchor: str = "mm") -> None:
        font = ImageFont.load_default(size=max(self.px(size_mm), 6))
        self.draw.text(self.point(x_mm, y_mm), text, fill=0, font=font, anchor=anchor)

    def line(self, a: tuple[float, float], b: tuple[float, float], width_mm: float = 0.3) -> None:
        self.draw.line([self.point(*a), self.point(*b)], fill=0, width=max(self.px(width_mm), 1))


def render_build_mat(dpi: int = 300, settings: TowerSettings = TowerSettings()) -> Image.Image:
    """The tower build mat (A4 landscape): markers left and right of the marked build spot."""
    sheet = _Sheet(A4_LANDSCAPE_MM, dpi)
    left, right = settings.marker_ids
    offset, size = settings.marker_offset_mm, settings.marker_mm
    sheet.marker(left, (-offset, 0.0), size)
    sheet.marker(right, (offset, 0.0), size)
    # The build spot: a ring one cube wide and short ticks, thin so a cube hides it.
    r = settings.cube_mm * 0.7
    spot = [sheet.point(-r, r), sheet.point(r, -r)]
    sheet.draw.ellipse(spot, outline=0, width=max(sheet.px(0.3), 1))
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        sheet.line((dx * r * 1.3, dy * r * 1.3), (dx * r * 2.0, dy * r * 2.0))
    quiet = size / 2 + 12
    sheet.text(0, quiet + 20, "Knockdown Referee - tower build mat", 6)
    sheet.text(0, quiet + 11, "Print at 100 % (no fit to page). Lay flat; build the tower on the ring.", 3.5)
    sheet.text(-offset, -quiet, f"marker {left}", 3.5)
    sheet.text(offset, -quiet, f"marker {right}", 3.5)
    # A 50 mm ruler to check the print scale.
    y = -quiet - 20
    sheet.line((-25, y), (25, y), 0.4)
    for x in range(-25, 26, 10):
        sheet.line((x, y), (x, y + 3), 0.3)
    sheet.text(0, y - 5, "50 mm", 3.5)
    sheet.text(0, -A4_LANDSCAPE_MM[1] / 2 + 12, "camera side: the tower camera stands here, facing the ring", 4.5)
    return sheet.image


def _pair(key: str, value: Any) -> tuple[float, float]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
    ):
        raise SheetError(f"{key} must be two numbers [x, y] in millimetres, got {value!r}")
    return float(value[0]), float(value[1])


def _positive(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise SheetError(f"{key} must be a positive number of millimetres, got {value!r}")
    return float(value)


def render_arena_markers(layout: Mapping[str, Any], dpi: int = 300) -> Image.Image:
    """The arena marker sheet for a parsed arena layout (board size, markers, space outlines)."""
    if not isinstance(layout, Mapping):
        raise SheetError(f"arena layout must be a table, got {layout!r}")
    if "board_mm" not in layout:
        raise SheetError("arena layout has no board_mm (the board size [width, depth] in mm)")
    width, depth = _pair("board_mm", layout["board_mm"])
    if width <= 0 or depth <= 0 or width > 2000 or depth > 2000:
        raise SheetError(f"board_mm must be positive and at most 2000 mm, got {layout['board_mm']!r}")
    markers = layout.get("markers")
    if not isinstance(markers, list) or not markers:
        raise SheetError(f"arena layout needs a [[markers]] list, got {markers!r}")
    sheet = _Sheet((width, depth), dpi)
    seen: set[int] = set()
    for n, marker in enumerate(markers):
        where = f"markers[{n}]"
        if not isinstance(marker, Mapping):
            raise SheetError(f"{where} must be a table, got {marker!r}")
        marker_id = marker.get("id")
        if isinstance(marker_id, bool) or not isinstance(marker_id, int) or not 0 <= marker_id < _MARKER_IDS:
            raise SheetError(f"{where}.id must be a DICT_4X4_50 id 0-49, got {marker_id!r}")
        if marker_id in seen:
            raise SheetError(f"{where}.id {marker_id!r} is used twice")
        seen.add(marker_id)
        x, y = _pair(f"{where}.board_mm", marker.get("board_mm"))
        size = _positive(f"{where}.size_mm", marker.get("size_mm"))
        if abs(x) + size / 2 > width / 2 or abs(y) + size / 2 > depth / 2:
            raise SheetError(
                f"{where} (id {marker_id!r}) at {marker.get('board_mm')!r} with size {size!r} mm "
                f"does not fit on the {width:g} x {depth:g} mm board"
            )
        sheet.marker(marker_id, (x, y), size)
    space_mm = layout.get("space_mm")
    for n, space in enumerate(layout.get("spaces", []) or []):
        if not isinstance(space, Mapping):
            raise SheetError(f"spaces[{n}] must be a table, got {space!r}")
        x, y = _pair(f"spaces[{n}].board_mm", space.get("board_mm"))
        if space_mm is not None:
            half = _positive("space_mm", space_mm) / 2
            a, b = sheet.point(x - half, y + half), sheet.point(x + half, y - half)
            sheet.draw.rectangle([a, b], outline=0, width=max(sheet.px(0.4), 1))
        sheet.text(x, y, str(space.get("id", "")), 4)
    name = str(layout.get("name", layout.get("id", "arena")))
    sheet.text(0, -depth / 2 + 6, f"{name} - print at 100 %; front edge", 3.5)
    return sheet.image


def save_sheet(image: Image.Image, out: str | Path, dpi: int = 300) -> list[Path]:
    """Write ``<out>.png`` (DPI recorded) and ``<out>.pdf`` (exact page size); returns both paths."""
    out = Path(out)
    stem = out.with_suffix("") if out.suffix.lower() in (".png", ".pdf") else out
    png, pdf = stem.with_name(stem.name + ".png"), stem.with_name(stem.name + ".pdf")
    png.parent.mkdir(parents=True, exist_ok=True)
    image.save(png, dpi=(dpi, dpi))
    # One bit per pixel keeps the marker edges sharp (a greyscale PDF page would be JPEG-compressed).
    image.point(lambda v: 255 if v >= 128 else 0).convert("1").save(pdf, "PDF", resolution=float(dpi))
    return [png, pdf]


def sheet_pixels(image: Image.Image) -> np.ndarray:
    """The sheet as a BGR array (for checks and previews)."""
    return cv2.cvtColor(np.asarray(image.convert("L")), cv2.COLOR_GRAY2BGR)
