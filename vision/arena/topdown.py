"""The top-down board view: images warped into the board frame, and what changed in them.

The reader compares the live image and the empty reference *in the board frame*, so the two
images never need to line up pixel for pixel. Lighting may differ between them (evening,
a lamp): a smooth per-channel gain field is fitted robustly and removed before comparing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry

#: Resolution of the top-down view. 1 px per mm resolves 25 mm bases with room to spare
#: and keeps the per-image cost small next to marker detection.
PX_PER_MM = 1.0
#: Offset added before taking logs so black pixels do not blow up the ratios.
_LOG_OFFSET = 10.0
#: Change thresholds in log-ratio units: a colour shift, or a brightness change.
CHROMA_CHANGE = 0.10
LUMA_CHANGE = 0.22


@dataclass(frozen=True)
class BoardView:
    """Maps board mm <-> top-down view px for one geometry."""

    width_mm: float
    height_mm: float
    px_per_mm: float = PX_PER_MM

    @classmethod
    def of(cls, geometry: BoardGeometry) -> "BoardView":
        return cls(*geometry.board_mm)

    @property
    def size(self) -> tuple[int, int]:
        return int(round(self.width_mm * self.px_per_mm)), int(round(self.height_mm * self.px_per_mm))

    @property
    def board_to_view(self) -> np.ndarray:
        s = self.px_per_mm
        return np.array([[s, 0, self.width_mm / 2 * s], [0, -s, self.height_mm / 2 * s], [0, 0, 1.0]])

    def to_mm(self, u: float, v: float) -> tuple[float, float]:
        return u / self.px_per_mm - self.width_mm / 2, self.height_mm / 2 - v / self.px_per_mm

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm + self.width_mm / 2) * self.px_per_mm, (self.height_mm / 2 - y_mm) * self.px_per_mm

    def warp(self, image: np.ndarray, board_to_image: np.ndarray) -> np.ndarray:
        """The image resampled into the top-down board view (float32 BGR)."""
        image_to_view = self.board_to_view @ np.linalg.inv(board_to_image)
        view = cv2.warpPerspective(image, image_to_view, self.size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        if view.ndim == 2:
            view = cv2.cvtColor(view, cv2.COLOR_GRAY2BGR)
        return view.astype(np.float32)

    def rect_mask(self, x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        """Array slices (rows, cols) of a board-mm rectangle, clipped to the view."""
        w, h = self.size
        u0, v0 = self.to_px(min(x0, x1), max(y0, y1))
        u1, v1 = self.to_px(max(x0, x1), min(y0, y1))
        return slice(max(0, int(v0)), min(h, int(np.ceil(v1)))), slice(max(0, int(u0)), min(w, int(np.ceil(u1))))


@dataclass(frozen=True)
class SmoothView:
    """A top-down view, lightly smoothed against sensor noise, and its logarithm."""

    bgr: np.ndarray
    log: np.ndarray

    @classmethod
    def of(cls, view: np.ndarray) -> "SmoothView":
        smooth = cv2.GaussianBlur(view, (0, 0), 1.0)
        return cls(smooth, np.log(smooth + _LOG_OFFSET))


@dataclass(frozen=True)
class Change:
    """What changed between reference and live view, once the lighting change is removed."""

    score: np.ndarray  # >= 1 means "something is here" (colour or brightness clearly changed)
    difference: np.ndarray  # largest per-channel difference in grey levels (linear: for outlines)


def change_between(live: SmoothView, reference: SmoothView, usable: np.ndarray) -> Change:
    """Per-pixel change; ``usable`` marks pixels that may be used to estimate the lighting."""
    ratio = live.log - reference.log
    lighting = _lighting_field(ratio, usable)
    ratio -= lighting
    luma = ratio.mean(axis=2)
    chroma = np.sqrt(((ratio - luma[..., None]) ** 2).sum(axis=2))
    score = np.maximum(chroma / CHROMA_CHANGE, np.abs(luma) / LUMA_CHANGE)
    relit = (reference.bgr + _LOG_OFFSET) * np.exp(lighting) - _LOG_OFFSET
    difference = np.abs(live.bgr - relit).max(axis=2)
    return Change(score, difference)


def _lighting_field(ratio: np.ndarray, usable: np.ndarray, *, step: int = 3) -> np.ndarray:
    """A smooth (planar in log space) per-channel gain field, fitted robustly.

    Most of the board is unchanged between reference and live image, so a trimmed
    least-squares fit of the log ratio follows the light and ignores the miniatures.
    """
    h, w = ratio.shape[:2]
    vs, us = np.mgrid[0:h:step, 0:w:step]
    keep = usable[0:h:step, 0:w:step]
    u = (us[keep] / w - 0.5).astype(np.float32)
    v = (vs[keep] / h - 0.5).astype(np.float32)
    design = np.column_stack([np.ones_like(u), u, v, u * v])
    samples = ratio[0:h:step, 0:w:step][keep]
    if len(samples) < 50:
        return np.broadcast_to(np.median(ratio.reshape(-1, 3), axis=0), ratio.shape)
    inliers = np.ones(len(samples), bool)
    coefficients = np.zeros((4, 3), np.float32)
    for _ in range(3):
        coefficients, *_ = np.linalg.lstsq(design[inliers], samples[inliers], rcond=None)
        residual = np.abs(samples - design @ coefficients).max(axis=1)
        spread = max(0.03, 2.5 * 1.4826 * float(np.median(residual)))
        inliers = residual < spread
        if inliers.sum() < 50:
            break
    uu = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
    vv = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
    return np.stack([c[0] + c[1] * uu + c[2] * vv + c[3] * uu * vv for c in coefficients.T], axis=2)
