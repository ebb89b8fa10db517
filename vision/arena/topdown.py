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
_SATURATED = 250.0
_LOG_SATURATED = float(np.log(255.0 + _LOG_OFFSET))
#: Change thresholds in log-ratio units: a colour shift, or a brightness change.
CHROMA_CHANGE = 0.10
LUMA_CHANGE = 0.22
#: A shadow darkens by up to about a third; a miniature darker than that still counts.
DARKENING_CHANGE = 0.45


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
        """The image resampled into the top-down board view (BGR, of the image's depth)."""
        image_to_view = self.board_to_view @ np.linalg.inv(board_to_image)
        view = cv2.warpPerspective(image, image_to_view, self.size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        if view.ndim == 2:
            view = cv2.cvtColor(view, cv2.COLOR_GRAY2BGR)
        return view

    def rect_mask(self, x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        """Array slices (rows, cols) of a board-mm rectangle, clipped to the view."""
        w, h = self.size
        u0, v0 = self.to_px(min(x0, x1), max(y0, y1))
        u1, v1 = self.to_px(max(x0, x1), min(y0, y1))
        return slice(max(0, int(v0)), min(h, int(np.ceil(v1)))), slice(max(0, int(u0)), min(w, int(np.ceil(u1))))


#: The light smoothing against sensor noise: what ``cv2.GaussianBlur(float view, (0, 0), 1.0)`` uses.
_SMOOTHING = cv2.getGaussianKernel(9, 1.0, cv2.CV_32F)


@dataclass(frozen=True)
class SmoothView:
    """A top-down view, lightly smoothed against sensor noise, its logarithm, and that on the
    lighting fit's coarse grid (a reference's is computed once, when it is prepared)."""

    bgr: np.ndarray
    log: np.ndarray
    coarse_log: np.ndarray | None = None

    @classmethod
    def of(cls, view: np.ndarray) -> "SmoothView":
        if view.dtype == np.uint8:
            # The same Gaussian (sigma 1, 9 taps) straight from bytes to float: a third of the
            # cost of converting the view and blurring the floats.
            smooth = cv2.sepFilter2D(view, cv2.CV_32F, _SMOOTHING, _SMOOTHING, borderType=cv2.BORDER_REFLECT_101)
        else:
            smooth = cv2.GaussianBlur(view.astype(np.float32), (0, 0), 1.0)
        log = cv2.log(cv2.add(smooth, _LOG_OFFSET))
        return cls(smooth, log, _coarse(log))


@dataclass(frozen=True)
class Change:
    """What changed between reference and live view, once the lighting change is removed."""

    score: np.ndarray  # >= 1 means "something is here" (colour or brightness clearly changed)
    unshaded: np.ndarray  # the same, but darkening counts for nothing (a shadow is all darkening)
    difference: np.ndarray  # largest per-channel difference in grey levels (linear: for outlines)


def change_between(live: SmoothView, reference: SmoothView, usable: np.ndarray) -> Change:
    """Per-pixel change; ``usable`` marks pixels that may be used to estimate the lighting."""
    # Saturated pixels say nothing about the light: keep them out of its fit, and predict the
    # reference under the new light clipped the way the sensor clips.
    if float(live.bgr.max()) >= _SATURATED:  # one cheap pass: mostly nothing is
        usable = usable & (_channel_max(live.bgr) < _SATURATED)
    predicted = _under_new_light(reference, _lighting_field(live, reference, usable))
    ratio = cv2.subtract(live.log, predicted)
    luma = cv2.transform(ratio, np.full((1, 3), 1 / 3, np.float32))
    chroma_sq = cv2.subtract(cv2.transform(cv2.multiply(ratio, ratio), np.ones((1, 3), np.float32)),
                             cv2.multiply(luma, luma, scale=3.0))
    tint = np.sqrt(np.maximum(chroma_sq, 0)) * (1 / CHROMA_CHANGE)
    # Shadows only darken, keeping the colour: darkening needs more to count than brightening.
    brightening = np.maximum(luma, 0) * (1 / LUMA_CHANGE)
    darkening = np.maximum(-luma, 0) * (1 / DARKENING_CHANGE)
    unshaded = np.maximum(tint, brightening)
    score = np.maximum(unshaded, darkening)
    # The outline is found on the linear difference; a shadow's darkening is taken out of it
    # first (the reference dimmed as much as this pixel, up to a shadow's worth), or a
    # shadow beside a base would widen it.
    shade = cv2.exp(np.clip(luma, -DARKENING_CHANGE, 0.0))
    relit = cv2.subtract(cv2.exp(predicted), _LOG_OFFSET)  # the reference under the new light, clipped
    difference = _channel_max(cv2.absdiff(live.bgr, cv2.multiply(relit, cv2.cvtColor(shade, cv2.COLOR_GRAY2BGR))))
    return Change(score, unshaded, difference)


#: The lighting is fitted on a coarse grid: it varies slowly, and that is much cheaper.
_LIGHT_CELL_PX = 8


def _coarse(image: np.ndarray) -> np.ndarray:
    """``image`` averaged over the lighting fit's cells."""
    h, w = image.shape[:2]
    return cv2.resize(image, (w // _LIGHT_CELL_PX, h // _LIGHT_CELL_PX), interpolation=cv2.INTER_AREA)


def _lighting_field(live: SmoothView, reference: SmoothView, usable: np.ndarray) -> np.ndarray:
    """A smooth (bilinear in log space) per-channel gain field, fitted robustly.

    Returned as its coefficients, (4, 3): per channel c0 + c1 u + c2 v + c3 u v, with u and
    v from -0.5 to 0.5 across the view; see :func:`_under_new_light`.

    Most of the board is unchanged between reference and live image, so a trimmed
    least-squares fit of the log ratio follows the light and ignores the miniatures. The
    fit is made on the coarse grid (cell means of the logs: the mean of a difference is the
    difference of the means), so the full-size log ratio is never formed.
    """
    h, w = live.log.shape[:2]
    cell = _LIGHT_CELL_PX
    live_coarse = _coarse(live.log) if live.coarse_log is None else live.coarse_log
    reference_coarse = _coarse(reference.log) if reference.coarse_log is None else reference.coarse_log
    coarse = live_coarse - reference_coarse
    keep = _coarse(usable.astype(np.float32)) > 0.99
    vs, us = np.nonzero(keep)
    samples = coarse[vs, us].astype(np.float64)
    if len(samples) < 50:
        gain = np.median(cv2.subtract(live.log, reference.log).reshape(-1, 3), axis=0)
        return np.vstack([gain, np.zeros((3, 3))])
    u = (us + 0.5) * cell / w - 0.5
    v = (vs + 0.5) * cell / h - 0.5
    design = np.column_stack([np.ones_like(u), u, v, u * v])
    inliers = np.ones(len(samples), bool)
    coefficients = np.zeros((4, 3))
    for _ in range(3):
        chosen = design[inliers]
        coefficients = np.linalg.solve(chosen.T @ chosen + 1e-9 * np.eye(4), chosen.T @ samples[inliers])
        residual = _channel_max(np.abs(samples - design @ coefficients))
        spread = max(0.03, 2.5 * 1.4826 * float(np.partition(residual, len(residual) // 2)[len(residual) // 2]))
        inliers = residual < spread
        if inliers.sum() < 50:
            break
    return coefficients


def _under_new_light(reference: SmoothView, coefficients: np.ndarray) -> np.ndarray:
    """The reference's log plus the lighting field (see :func:`_lighting_field`), clipped
    where the sensor clips.

    The field is one ``cv2.transform`` of a fixed (u, v, u v) image per channel. Not as a
    matrix product: numpy's @ and cv2.gemm both hand it to OpenBLAS threads, which spin for
    far more CPU than the product costs.
    """
    h, w = reference.log.shape[:2]
    field = cv2.transform(_field_basis(h, w), np.column_stack([coefficients[1:].T, coefficients[0]]))
    return cv2.min(cv2.add(reference.log, field), (_LOG_SATURATED,) * 4)


_BASES: dict[tuple[int, int], np.ndarray] = {}


def _field_basis(h: int, w: int) -> np.ndarray:
    """(u, v, u v) per pixel of an h x w view, u and v from -0.5 to 0.5 (made once per size)."""
    basis = _BASES.get((h, w))
    if basis is None:
        u = np.broadcast_to((np.arange(w, dtype=np.float64) / w - 0.5)[None, :], (h, w))
        v = np.broadcast_to((np.arange(h, dtype=np.float64) / h - 0.5)[:, None], (h, w))
        basis = cv2.merge([u, v, u * v]).astype(np.float32)
        basis.flags.writeable = False
        _BASES[(h, w)] = basis
    return basis


def _channel_max(values: np.ndarray) -> np.ndarray:
    """Largest of the last axis's three channels (numpy's reduce over a short axis is slow)."""
    return np.maximum(np.maximum(values[..., 0], values[..., 1]), values[..., 2])
