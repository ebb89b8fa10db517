"""Calibrating the arena camera: the empty reference view, and how good its mapping is.

``calibrate_arena`` needs all four markers. It keeps the empty frame (the reference every
later reading is compared with) and reports the reprojection error at the space centres:
how far the space centres move between the mapping from all markers and the mappings from
every three of them. That is the uncertainty a reading inherits, in pixels and millimetres.
It also measures *drift*: how far the markers have moved since, seen through this mapping.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry
from vision.arena.reader import ArenaInputError, PreparedReference, check_image, prepare_reference
from vision.arena.registration import Registration, register

CALIBRATION_FILE = "arena-calibration.json"
REFERENCE_FILE = "arena-reference.png"


class CalibrationError(ValueError):
    """The empty frame cannot calibrate the arena (a marker hidden, or an inconsistent board)."""


@dataclass(frozen=True)
class ArenaCalibration:
    geometry: BoardGeometry
    reference_image: np.ndarray = field(repr=False)
    registration: Registration = field(repr=False)
    space_error_px: Mapping[str, float]
    space_error_mm: Mapping[str, float]

    @property
    def reprojection_px(self) -> float:
        """Root mean square over the spaces, pixels."""
        return float(np.sqrt(np.mean(np.square(list(self.space_error_px.values())))))

    @property
    def reprojection_mm(self) -> float:
        return float(np.sqrt(np.mean(np.square(list(self.space_error_mm.values())))))

    @property
    def reference(self) -> PreparedReference:
        """The reference ready for :func:`vision.arena.read_arena` (built once, then reused)."""
        cached = self.__dict__.get("_prepared")
        if cached is None:
            cached = prepare_reference(self.reference_image, self.geometry, registration=self.registration)
            object.__setattr__(self, "_prepared", cached)
        return cached

    def drift_mm(self, registration: Registration) -> float:
        """How far (mm, on the board) the markers seen now sit from where calibration saw them.

        Each marker corner found now is mapped back to the board through the *calibration*
        homography; a camera that has not moved puts it where it was. The worst marker counts.
        """
        image_to_board = np.linalg.inv(self.registration.homography)
        worst = 0.0
        for marker_id, corners in registration.corners.items():
            if marker_id not in self.geometry.markers:
                continue
            seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), image_to_board).reshape(-1, 2)
            shift = np.linalg.norm(seen - self.geometry.marker_corners(marker_id), axis=1).mean()
            worst = max(worst, float(shift))
        return worst

    def report(self) -> dict:
        return {
            "layout": self.geometry.layout_id,
            "markers": list(self.registration.markers_used),
            "reprojection_px": round(self.reprojection_px, 2),
            "reprojection_mm": round(self.reprojection_mm, 2),
            "spaces": {
                s: {"px": round(self.space_error_px[s], 2), "mm": round(self.space_error_mm[s], 2)}
                for s in self.geometry.spaces
            },
        }

    def save(self, directory: str | Path) -> Path:
        """Write the reference PNG and the JSON report with its homography; returns the JSON path."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(directory / REFERENCE_FILE), self.reference_image):
            raise OSError(f"could not write {str(directory / REFERENCE_FILE)!r}")
        data = self.report() | {"homography": self.registration.homography.tolist()}
        path = directory / CALIBRATION_FILE
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: str | Path, geometry: BoardGeometry) -> "ArenaCalibration":
        """Re-calibrate from the saved reference image (its markers are found again)."""
        image = cv2.imread(str(Path(directory) / REFERENCE_FILE), cv2.IMREAD_COLOR)
        if image is None:
            raise CalibrationError(f"no arena reference image in {str(directory)!r}")
        return calibrate_arena(image, geometry)


def calibrate_arena(empty_frame: np.ndarray, geometry: BoardGeometry) -> ArenaCalibration:
    """Calibrate from a frame of the empty board; every marker of the layout must be visible."""
    try:
        empty_frame = check_image(empty_frame, "empty frame")
    except ArenaInputError as exc:
        raise CalibrationError(str(exc)) from None
    registration = register(empty_frame, geometry)
    unseen = [m for m in sorted(geometry.markers) if m not in registration.markers_found]
    disagreeing = [m for m in registration.markers_found if m not in registration.markers_used]
    if not registration.ok or unseen or disagreeing:
        reasons = []
        if unseen:
            reasons.append(f"missing {', '.join(map(str, unseen))}")
        if disagreeing:
            reasons.append(f"{', '.join(map(str, disagreeing))} do not agree with the others")
        reason = "; ".join(reasons) or str(registration.error)
        raise CalibrationError(
            f"calibration needs all {len(geometry.markers)} markers {sorted(geometry.markers)!r} visible and consistent: {reason}"
        )
    errors_px, errors_mm = _space_errors(registration, geometry)
    return ArenaCalibration(geometry, empty_frame.copy(), registration, errors_px, errors_mm)


def _space_errors(registration: Registration, geometry: BoardGeometry):
    """Per space: the largest move of its centre between all markers and any three of them."""
    ids = list(registration.markers_used)
    centres = np.array(list(geometry.spaces.values()), np.float64)
    full = registration.project(centres)
    worst_px = np.zeros(len(centres))
    for subset in itertools.combinations(ids, len(ids) - 1):
        board = np.concatenate([geometry.marker_corners(m) for m in subset])
        image = np.concatenate([registration.corners[m] for m in subset])
        homography, _ = cv2.findHomography(board, image, 0)
        if homography is None:
            continue
        partial = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), homography).reshape(-1, 2)
        worst_px = np.maximum(worst_px, np.linalg.norm(partial - full, axis=1))
    # Pixels per mm at each space centre, from a 1 mm step along x and y.
    step_x = registration.project(centres + [1.0, 0.0]) - full
    step_y = registration.project(centres + [0.0, 1.0]) - full
    px_per_mm = (np.linalg.norm(step_x, axis=1) + np.linalg.norm(step_y, axis=1)) / 2
    names = list(geometry.spaces)
    return (
        {n: float(e) for n, e in zip(names, worst_px)},
        {n: float(e / s) for n, e, s in zip(names, worst_px, px_per_mm)},
    )
