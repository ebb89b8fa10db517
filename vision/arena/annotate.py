"""The evidence image: detected markers, projected space outlines, each fighter and its space."""

from __future__ import annotations

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry

_MARKER = (255, 160, 0)
_SPACE = (200, 200, 200)
_OCCUPIED = (0, 200, 0)
_FIGHTER = (0, 220, 255)
_OFF = (0, 0, 255)


def annotate_reading(image: np.ndarray, reading, geometry: BoardGeometry) -> np.ndarray:
    out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
    registration = reading.registration
    scale = max(1, round(max(out.shape[:2]) / 800))
    if registration is not None:
        for marker_id, quad in registration.corners.items():
            pts = np.round(quad).astype(np.int32)
            colour = _MARKER if marker_id in registration.markers_used else _OFF
            cv2.polylines(out, [pts], True, colour, 2 * scale, cv2.LINE_AA)
            _label(out, str(marker_id), tuple(pts[0]), colour, scale)
    if registration is not None and registration.ok:
        for space_id in geometry.spaces:
            outline = np.round(registration.project(geometry.space_corners(space_id))).astype(np.int32)
            colour = _OCCUPIED if space_id in reading.occupied else _SPACE
            cv2.polylines(out, [outline], True, colour, scale, cv2.LINE_AA)
            _label(out, space_id, tuple(outline[0]), colour, scale)
        for fighter in reading.fighters:
            x, y = fighter.board_mm
            ring = np.array([[x + 13 * np.cos(a), y + 13 * np.sin(a)] for a in np.linspace(0, 2 * np.pi, 24)])
            pts = np.round(registration.project(ring)).astype(np.int32)
            colour = _FIGHTER if fighter.space is not None else _OFF
            cv2.polylines(out, [pts], True, colour, 2 * scale, cv2.LINE_AA)
            centre = registration.project(np.array([[x, y - 16]]))[0]
            text = f"{fighter.space or 'off'}{'?' if fighter.guessed else ''} {fighter.confidence:.2f}"
            _label(out, text, (int(centre[0]) - 20 * scale, int(centre[1]) + 14 * scale), colour, scale)
    verdict = "OK" if reading.ok else f"NOT OK: {reading.error}"
    _label(out, verdict[:110], (8, 22 * scale), _OCCUPIED if reading.ok else _OFF, scale)
    return out


def _label(image, text, origin, colour, scale) -> None:
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, (0, 0, 0), 3 * scale, cv2.LINE_AA)
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour, scale, cv2.LINE_AA)
