"""Printed sheets: markers where the spec puts them, at exact physical size."""

import re

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.sheets import SheetError, render_arena_markers, render_build_mat, save_sheet, sheet_pixels

DPI = 100  # small renders keep the tests fast; the maths is the same at 300
LINE_9 = {
    "id": "line-9",
    "board_mm": [440, 160],
    "space_mm": 36,
    "spaces": [{"id": "S1", "board_mm": [-160, 0]}, {"id": "S5", "board_mm": [0, 0]}],
    "markers": [
        {"id": 10, "board_mm": [-195, 55], "size_mm": 30},
        {"id": 11, "board_mm": [195, 55], "size_mm": 30},
        {"id": 12, "board_mm": [195, -55], "size_mm": 30},
        {"id": 13, "board_mm": [-195, -55], "size_mm": 30},
    ],
}


def _markers(image: Image.Image) -> dict[int, np.ndarray]:
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(sheet_pixels(image))
    return {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel(), strict=True)} if ids is not None else {}


def _mm(px: float) -> float:
    return px * 25.4 / DPI


def test_build_mat_markers_are_30mm_and_60mm_either_side_of_the_spot():
    image = render_build_mat(dpi=DPI)
    assert image.size == (round(297 * DPI / 25.4), round(210 * DPI / 25.4))
    found = _markers(image)
    assert set(found) == {0, 1}
    left, right = found[0].mean(axis=0), found[1].mean(axis=0)
    assert left[0] < right[0]  # marker 0 on the left as seen from the camera side
    assert _mm(right[0] - left[0]) == pytest.approx(120, abs=0.6)
    side = np.linalg.norm(found[0][1] - found[0][0])
    assert _mm(side) == pytest.approx(30, abs=0.6)
    # The spot lies halfway between the markers: the page centre.
    assert _mm((left[0] + right[0]) / 2) == pytest.approx(297 / 2, abs=0.6)


def test_saved_png_records_its_dpi_and_pdf_has_the_physical_page_size(tmp_path):
    paths = save_sheet(render_build_mat(dpi=DPI), tmp_path / "mat.pdf", dpi=DPI)
    assert [p.name for p in paths] == ["mat.png", "mat.pdf"]
    with Image.open(paths[0]) as png:
        assert png.info["dpi"] == pytest.approx((DPI, DPI), abs=0.01)
    box = re.search(rb"/MediaBox \[ *0 0 ([\d.]+) ([\d.]+) *\]", paths[1].read_bytes())
    width_pt, height_pt = float(box.group(1)), float(box.group(2))
    assert width_pt / 72 * 25.4 == pytest.approx(297, abs=0.3)
    assert height_pt / 72 * 25.4 == pytest.approx(210, abs=0.3)


def test_arena_markers_sit_at_their_board_positions():
    image = render_arena_markers(LINE_9, dpi=DPI)
    assert image.size == (round(440 * DPI / 25.4), round(160 * DPI / 25.4))
    found = _markers(image)
    assert set(found) == {10, 11, 12, 13}
    for marker in LINE_9["markers"]:
        cx, cy = found[marker["id"]].mean(axis=0)
        x_mm, y_mm = _mm(cx) - 220, 80 - _mm(cy)
        assert (x_mm, y_mm) == pytest.approx(tuple(marker["board_mm"]), abs=0.6)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"board_mm": None}, "board_mm"),
        ({"board_mm": [440]}, "board_mm"),
        ({"markers": []}, "markers"),
        ({"markers": [{"id": 99, "board_mm": [0, 0], "size_mm": 30}]}, r"markers\[0\]\.id"),
        ({"markers": [{"id": 3, "board_mm": [210, 0], "size_mm": 30}]}, "does not fit"),
        ({"markers": [{"id": 3, "board_mm": [0, 0], "size_mm": -1}]}, "size_mm"),
        ({"markers": [{"id": 3, "board_mm": [0, 0], "size_mm": 20}, {"id": 3, "board_mm": [50, 0], "size_mm": 20}]},
         "twice"),
    ],
)
def test_bad_layouts_are_refused_by_field(change, message):
    layout = {**LINE_9, **change}
    if change.get("board_mm", 0) is None:
        del layout["board_mm"]
    with pytest.raises(SheetError, match=message):
        render_arena_markers(layout, dpi=DPI)


def test_bad_dpi_is_refused():
    with pytest.raises(SheetError, match="dpi"):
        render_build_mat(dpi=10)
