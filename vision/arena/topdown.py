"""The top-down board view: images warped into the board frame, and what changed in them.

The reader compares the live image and the empty reference *in the board frame*, so the two
images never need to line up pixel for pixel. Lighting may differ between them (evening,
a lamp): a smooth per-channel gain field is fitted robustly and removed before comparing.
"""

from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass, field

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
#: A channel whose relit reference, clipped or not, differs by less than this (log) was not clipped.
_EXACT_RANGE = 0.01
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

    def warp(self, image: np.ndarray, board_to_image: np.ndarray, *, in_scratch: bool = False) -> np.ndarray:
        """The image resampled into the top-down board view (BGR, of the image's depth);
        ``in_scratch``: in this thread's scratch array (see :class:`Scratch`)."""
        image_to_view = self.board_to_view @ np.linalg.inv(board_to_image)
        out = scratch("warped", self.size[::-1] + image.shape[2:], image.dtype) if in_scratch else None
        view = cv2.warpPerspective(image, image_to_view, self.size, dst=out, flags=cv2.INTER_AREA,
                                   borderMode=cv2.BORDER_REPLICATE)
        if view.ndim == 2:
            view = cv2.cvtColor(view, cv2.COLOR_GRAY2BGR)
        return view

    def rect_mask(self, x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        """Array slices (rows, cols) of a board-mm rectangle, clipped to the view."""
        w, h = self.size
        u0, v0 = self.to_px(min(x0, x1), max(y0, y1))
        u1, v1 = self.to_px(max(x0, x1), min(y0, y1))
        # (math.ceil: the same whole number as int(np.ceil()), without a numpy call on a lone number)
        return slice(max(0, int(v0)), min(h, math.ceil(v1))), slice(max(0, int(u0)), min(w, math.ceil(u1)))


class Scratch(threading.local):
    """View-sized arrays reused from one read to the next, one set per thread.

    A read makes a few dozen temporaries the size of the view. Made afresh each time, the
    memory they took is mostly handed back to the system between reads, and the next read
    pays a page fault for every 4 KB it writes again (some 1,800 a read at 800x600: on a busy
    2-core box a third of the read's CPU time, in the kernel). Only a temporary that is used
    up within the function that fills it may live here; what a function returns is its own.
    """

    def __init__(self):
        self._arrays: dict[tuple, np.ndarray] = {}

    def __call__(self, name: str, shape: tuple[int, ...], dtype=np.float32) -> np.ndarray:
        """The array for ``name`` of this shape and type (its contents are left from the last use)."""
        key = (name, tuple(shape), np.dtype(dtype))
        array = self._arrays.get(key)
        if array is None:
            array = self._arrays[key] = np.empty(shape, dtype)
        return array


scratch = Scratch()


#: What :func:`per_mask` worked out, by the mask's id and then by name; an entry lives as long as
#: its mask (a finalizer drops it when the mask is collected, before its id can be reused).
_PER_MASK: dict[int, dict[str, object]] = {}


def per_mask(mask: np.ndarray, what: str, make):
    """``make(mask)``, worked out once per read-only mask that owns its memory (the prepared
    reference's search mask, the same for every read); afresh for any other, which may change.

    Kept for as long as the mask lives, not among the last few masks: a reader with references
    made and dropped between its reads (the CLI prepares one per call) pushed the live
    reference's out of a short list, and every read after that worked them out again.
    ``make``'s result must not hold the mask (it would never be collected)."""
    if mask.flags.writeable or mask.base is not None:
        return make(mask)
    key = id(mask)
    kept = _PER_MASK.get(key)
    if kept is None:
        kept = _PER_MASK.setdefault(key, {})
        if kept == {}:
            weakref.finalize(mask, _PER_MASK.pop, key, None)
    value = kept.get(what)
    if value is None:
        value = kept[what] = make(mask)
    return value


#: The light smoothing against sensor noise: what ``cv2.GaussianBlur(float view, (0, 0), 1.0)`` uses.
_SMOOTHING = cv2.getGaussianKernel(9, 1.0, cv2.CV_32F)


@dataclass(frozen=True)
class SmoothView:
    """A top-down view, lightly smoothed against sensor noise, its logarithm, and that on the
    lighting fit's coarse grid (a reference's is computed once, when it is prepared)."""

    bgr: np.ndarray
    log: np.ndarray
    coarse_log: np.ndarray | None = None
    raw: np.ndarray | None = field(default=None, repr=False, compare=False)  # the view before smoothing

    @classmethod
    def of(cls, view: np.ndarray, *, in_scratch: bool = False) -> "SmoothView":
        """``in_scratch``: in this thread's scratch arrays (a live view used up within one read;
        the next one made so overwrites it)."""
        out = (lambda name: scratch(name, view.shape[:2] + (3,))) if in_scratch else (lambda name: None)
        if view.dtype == np.uint8:
            # The same Gaussian (sigma 1, 9 taps) straight from bytes to float: a third of the
            # cost of converting the view and blurring the floats.
            smooth = cv2.sepFilter2D(view, cv2.CV_32F, _SMOOTHING, _SMOOTHING, dst=out("smooth"),
                                     borderType=cv2.BORDER_REFLECT_101)
        else:
            smooth = cv2.GaussianBlur(view.astype(np.float32), (0, 0), 1.0, dst=out("smooth"))
        log = cv2.log(cv2.add(smooth, _LOG_OFFSET, dst=out("log")), dst=out("log"))
        return cls(smooth, log, _coarse(log), view)


@dataclass(frozen=True)
class Change:
    """What changed between reference and live view, once the lighting change is removed."""

    score: np.ndarray  # >= 1 means "something is here" (colour or brightness clearly changed)
    unshaded: np.ndarray  # the same, but darkening counts for nothing (a shadow is all darkening)
    #: Largest per-channel difference in grey levels (linear: for outlines): an array, or from
    #: :func:`change_between` worked out by rows when asked (see :class:`DifferenceByRows`).
    linear: "np.ndarray | DifferenceByRows"

    @property
    def difference(self) -> np.ndarray:
        """The linear difference over the whole view."""
        return self.linear if isinstance(self.linear, np.ndarray) else self.linear.rows(0, self.linear.shape[0])


#: Rows of the view :class:`DifferenceByRows` works out together. A band of 16 rows of an even
#: width starts a multiple of 32 values (and of 64 bytes) into the view, so every cv2 pass over
#: it meets each value at the same place in its SIMD loop, and tail, as a pass over the whole view.
_DIFFERENCE_BAND_ROWS = 16


class DifferenceByRows:
    """:func:`change_between`'s linear difference, worked out band by band of rows as asked for.

    Only the rim fits' and outline rays' samples read it (some 25 % of the view, round the change):
    the rest is never worked out. Per pixel the very same operations as over the whole view (see
    ``_DIFFERENCE_BAND_ROWS``), so the values are the same to the bit. It reads the live view it
    was made from when asked: made from a live view in scratch, it is used up within the read too.
    """

    def __init__(self, live_bgr: np.ndarray, relit_log: np.ndarray, luma: np.ndarray, *, finish=None,
                 out: np.ndarray | None = None):
        self._inputs = (live_bgr, relit_log, luma)
        self.shape = luma.shape
        h, w = self.shape
        self._band = _DIFFERENCE_BAND_ROWS if w % 2 == 0 else h  # (an odd width: the whole view at once)
        self._finish = finish
        self._values = np.empty(self.shape, np.float32) if out is None else out
        self._done = np.zeros(-(-h // self._band), bool)

    def then(self, finish, out: np.ndarray | None = None) -> "DifferenceByRows":
        """The difference with ``finish(values, rows)`` applied to each band as it is worked out
        (per pixel only: it is given the band's rows of the view), into ``out`` if given."""
        return DifferenceByRows(*self._inputs, finish=finish, out=out)

    def rows(self, start: int, stop: int) -> np.ndarray:
        """The view-sized array with (at least) rows ``start`` to ``stop`` - 1 worked out."""
        h = self.shape[0]
        first, last = max(0, start) // self._band, -(-min(h, stop) // self._band)
        todo = np.flatnonzero(~self._done[first:last])
        if len(todo):
            # From the first band not yet worked out to the last, at once (any done between them
            # comes out the same again): one set of passes, not one per band.
            rows = slice((first + todo[0]) * self._band, min(h, (first + todo[-1] + 1) * self._band))
            self._work_out(rows)
            self._done[first + todo[0]:first + todo[-1] + 1] = True
        return self._values

    def colours(self) -> tuple[np.ndarray, np.ndarray]:
        """Over the whole view: the live colour and the reference's under the new light, each with the
        change's log offset added as its logarithm has it (so their ratio is the exponent of the change's
        per-channel log ratio, on either OpenCV: 4.x adds a lone number to the first channel only)."""
        live_bgr, relit_log, _ = self._inputs
        return cv2.add(live_bgr, _LOG_OFFSET), cv2.exp(relit_log)

    def _work_out(self, rows: slice) -> None:
        live_bgr, relit_log, luma = (array[rows] for array in self._inputs)
        # change_between's passes for the outline, on these rows. A shadow's darkening is taken out
        # first (the reference dimmed as much as this pixel, up to a shadow's worth), or a shadow
        # beside a base would widen it.
        shade = cv2.exp(np.clip(luma, -DARKENING_CHANGE, 0.0))
        relit = cv2.subtract(cv2.exp(relit_log), _LOG_OFFSET)  # the reference under the new light, clipped
        shaded = cv2.multiply(relit, cv2.cvtColor(shade, cv2.COLOR_GRAY2BGR))
        difference = _channel_max(cv2.absdiff(live_bgr, shaded, dst=shaded))
        self._values[rows] = difference if self._finish is None else self._finish(difference, rows)


def change_between(live: SmoothView, reference: SmoothView, usable: np.ndarray) -> Change:
    """Per-pixel change; ``usable`` marks pixels that may be used to estimate the lighting."""
    # Temporaries in scratch arrays (see Scratch): the very same operations, into reused memory.
    # (The relit reference and the luma are the change's own: its difference reads them later.)
    shape = live.log.shape
    colour, grey = (lambda name: scratch(name, shape)), (lambda name: scratch(name, shape[:2]))
    if _saturates(live, usable):
        ratio, predicted = _censored_ratio(live, reference, usable)
    else:
        predicted = _under_new_light(reference, _lighting_field(live, reference, usable))
        ratio = cv2.subtract(live.log, predicted, dst=colour("ratio"))
    luma = cv2.transform(ratio, _MEAN_OF_CHANNELS)
    chroma_sq = cv2.subtract(cv2.transform(cv2.multiply(ratio, ratio, dst=colour("squares")), _SUM_OF_CHANNELS,
                                           dst=grey("sum of squares")),
                             cv2.multiply(luma, luma, scale=3.0, dst=grey("luma squared")), dst=grey("chroma squared"))
    tint = cv2.sqrt(cv2.max(chroma_sq, 0.0, dst=grey("tint")), dst=grey("tint"))  # (numpy's: twice the time)
    np.multiply(tint, 1 / CHROMA_CHANGE, out=tint)
    # Shadows only darken, keeping the colour: darkening needs more to count than brightening.
    # (Not clipped at 0 first: the tint never is below it, so the maxima below come out the same.)
    brightening = np.multiply(luma, 1 / LUMA_CHANGE, out=grey("brightening"))
    darkening = np.multiply(luma, -1 / DARKENING_CHANGE, out=grey("darkening"))
    unshaded = np.maximum(tint, brightening)
    score = np.maximum(unshaded, darkening)
    # The outline is found on the linear difference, worked out only where it is read.
    return Change(score, unshaded, DifferenceByRows(live.bgr, predicted, luma))


_MEAN_OF_CHANNELS = np.full((1, 3), 1 / 3, np.float32)
_SUM_OF_CHANNELS = np.ones((1, 3), np.float32)


#: Share of the usable view at the sensor's top from which the lamp, not a white thing on the
#: board, is taken to saturate: a white token or die is a few hundred pixels, and the fit
#: trims it like anything else new; a bright board or its spaces clipping are thousands.
_SATURATED_SHARE = 0.01


def _saturates(live: SmoothView, usable: np.ndarray) -> bool:
    # The smoothing is a weighted mean: bytes all under the top (by a level, for the weights'
    # rounding) stay under it smoothed. A pass over bytes costs a fraction of one over floats.
    if live.raw is not None and live.raw.dtype == np.uint8 and int(live.raw.max()) < _SATURATED - 1:
        return False
    if float(live.bgr.max()) < _SATURATED:  # one cheap pass: mostly nothing is at the top
        return False
    at_top = cv2.compare(_channel_max(live.bgr), _SATURATED, cv2.CMP_GE)
    return cv2.countNonZero(cv2.bitwise_and(at_top, usable.view(np.uint8))) >= _SATURATED_SHARE * usable.size


def _censored_ratio(live: SmoothView, reference: SmoothView, usable: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The log ratio of live to relit reference where some of the live view is at the sensor's
    top (a lamp switched on with the exposure locked), and the relit reference as the sensor
    would show it.

    A channel at the top reads only "this bright or brighter": the lighting fit takes it as
    a lower bound. The live view was clipped before it was smoothed, so the reference is
    relit, clipped and smoothed the same way. A channel's ratio then lies between the live
    pixel against that (clipped as the reference would be: next to a board past the top, a
    dark line's blur into the board is cut short) and against the unclipped relit
    reference (a shadow or something dark took it under the top), and it takes the value
    in that range nearest the ratio of the pixel's channels that nothing clipped round, or
    nearest 0. So a channel at the top where the relit reference is too is no change in
    that channel and the pixel is judged on its other channels; a shadow over a clipped
    board is darker, not another colour; a white figure on a bright board is still change
    (its other channels, or a channel brighter than the reference predicts, show it).
    """
    # The level as a full scalar, one per channel: OpenCV 5.1 takes a bare number against a
    # many-channel array as (level, 0, 0, 0), so every green and red channel read "at the top"
    # (5.0 and 4.11 compared each channel with the level); as cv2.min below is given its level.
    at_top = cv2.compare(live.bgr, (_SATURATED,) * 4, cv2.CMP_GE)  # 255 per channel at the top
    log_gain = _light_field_image(reference.log.shape[:2], _lighting_field(live, reference, usable, at_top))
    unclipped = cv2.add(reference.log, log_gain)
    clipped = _relit_as_seen(reference, log_gain, unclipped)
    # Below the top the ratio lies between these two: the live pixel clipped as the relit
    # reference is (against that), or unclipped (a shadow took it under the top: against
    # the unclipped reference). Each channel takes the value in its range nearest the ratio
    # of the channels whose range is a point (none clipped round them), or nearest 0.
    low = cv2.subtract(live.log, unclipped)
    high = cv2.subtract(live.log, clipped)
    exact = cv2.compare(cv2.subtract(high, low), (_EXACT_RANGE,) * 4, cv2.CMP_LT) > 0  # (per channel: as at_top)
    exact_sum = cv2.transform(np.where(exact, high, np.float32(0)), np.ones((1, 3), np.float32))
    exact_count = cv2.transform(exact.view(np.uint8), np.ones((1, 3), np.float32)).astype(np.float32)
    settled = (exact_sum / np.maximum(exact_count, np.float32(1)))[..., None]
    return np.minimum(np.maximum(settled, low), high), clipped


def _relit_as_seen(reference: SmoothView, log_gain: np.ndarray, unclipped: np.ndarray) -> np.ndarray:
    """The log of the reference under the new light as the sensor shows it: relit before
    smoothing, clipped at the top, smoothed (the reference's unsmoothed view is needed)."""
    if reference.raw is None or reference.raw.dtype != np.uint8:
        return cv2.min(unclipped, (_LOG_SATURATED,) * 4)
    relit = cv2.multiply(cv2.add(reference.raw.astype(np.float32), _LOG_OFFSET), cv2.exp(log_gain))
    relit = cv2.min(cv2.subtract(relit, _LOG_OFFSET), (255.0,) * 4)
    smooth = cv2.sepFilter2D(relit, cv2.CV_32F, _SMOOTHING, _SMOOTHING, borderType=cv2.BORDER_REFLECT_101)
    return cv2.log(cv2.add(smooth, _LOG_OFFSET))


#: The lighting is fitted on a coarse grid: it varies slowly, and that is much cheaper.
_LIGHT_CELL_PX = 8


def _coarse(image: np.ndarray) -> np.ndarray:
    """``image`` averaged over the lighting fit's cells."""
    h, w = image.shape[:2]
    return cv2.resize(image, (w // _LIGHT_CELL_PX, h // _LIGHT_CELL_PX), interpolation=cv2.INTER_AREA)


def _lighting_field(
    live: SmoothView, reference: SmoothView, usable: np.ndarray, at_top: np.ndarray | None = None
) -> np.ndarray:
    """A smooth (bilinear in log space) per-channel gain field, fitted robustly.

    Returned as its coefficients, (4, 3): per channel c0 + c1 u + c2 v + c3 u v, with u and
    v from -0.5 to 0.5 across the view; see :func:`_under_new_light`.

    Most of the board is unchanged between reference and live image, so a trimmed
    least-squares fit of the log ratio follows the light and ignores the miniatures. The
    fit is made on the coarse grid (cell means of the logs: the mean of a difference is the
    difference of the means), so the full-size log ratio is never formed.

    ``at_top`` (per channel, nonzero where the live view is at the sensor's top) makes a
    cell touching the top in a channel a lower bound in that channel, not a sample (see
    :func:`_censored_fit`). Leaving whole pixels out instead lost every channel of a bright
    board's clipped half, and the field, fitted on the other half, ran wild.
    """
    live_coarse = _coarse(live.log) if live.coarse_log is None else live.coarse_log
    reference_coarse = _coarse(reference.log) if reference.coarse_log is None else reference.coarse_log
    coarse = live_coarse - reference_coarse
    vs, us, cells, design = per_mask(usable, "lighting cells", _lighting_cells)
    # (the cells by their index in the flat grid: a gather of rows, where coarse[vs, us] pairs
    # up two index arrays first, for the very same values)
    samples = np.take(coarse.reshape(-1, coarse.shape[-1]), cells, axis=0).astype(np.float64)
    if len(samples) < 50:
        gain = np.median(cv2.subtract(live.log, reference.log).reshape(-1, 3), axis=0)
        return np.vstack([gain, np.zeros((3, 3))])
    if at_top is not None:
        bounded = (_coarse(at_top) > 0)[vs, us]
        if bounded.any():
            return _censored_fit(design, samples, bounded)
    inliers = None  # at first every cell: the design and samples as they are (design[all] is a copy of it)
    coefficients = np.zeros((4, 3))
    for _ in range(3):
        chosen, chosen_samples = (design, samples) if inliers is None else (design[inliers], samples[inliers])
        coefficients = np.linalg.solve(chosen.T @ chosen + _RIDGE, chosen.T @ chosen_samples)
        residual = _channel_max(np.abs(samples - design @ coefficients))
        kept = residual < _trim_spread(residual)
        if kept.sum() < 50:
            break
        # The same cells kept again: the next round would fit them to the same coefficients,
        # bit for bit, and keep the same cells (most fits settle in two rounds).
        if kept.all() if inliers is None else np.array_equal(kept, inliers):
            break
        inliers = kept
    return coefficients


#: The lighting fit's ridge: keeps the normal equations solvable where the cells lie on a line.
_RIDGE = 1e-9 * np.eye(4)
_RIDGE.flags.writeable = False


def _lighting_cells(usable: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The lighting fit's cells wholly usable (rows, columns on the coarse grid, and their index
    in the grid's row-major order) and their design matrix (1, u, v, u v), read-only."""
    h, w = usable.shape
    cell = _LIGHT_CELL_PX
    keep = _coarse(usable.astype(np.float32)) > 0.99
    vs, us = np.nonzero(keep)
    cells = np.flatnonzero(keep)  # (the same cells in the same order as vs, us)
    u = (us + 0.5) * cell / w - 0.5
    v = (vs + 0.5) * cell / h - 0.5
    design = np.column_stack([np.ones_like(u), u, v, u * v])
    for array in (vs, us, cells, design):
        array.flags.writeable = False
    return vs, us, cells, design


def _trim_spread(residual: np.ndarray) -> float:
    """The residual beyond which a cell is not the board: 2.5 robust sigmas, at least 0.03."""
    return max(0.03, 2.5 * 1.4826 * float(np.partition(residual, len(residual) // 2)[len(residual) // 2]))


def _censored_fit(design: np.ndarray, samples: np.ndarray, bounded: np.ndarray) -> np.ndarray:
    """:func:`_lighting_field`'s fit where some cells' channels are lower bounds (``bounded``).

    Per channel, the fit takes the cells below the top, and the bounds the field last fell
    short of, as samples; bounds the field clears say nothing (a squared hinge, fitted by
    Newton steps on the bounds it falls short of). A cell is trimmed by
    its channels below the top (the brightest cells cannot trim the bounds of darker ones,
    such as spaces clipping in one channel under a lamp that lifts the board past the top),
    or, at the top in all three, by how far the field falls short of it. A channel with too
    few samples keeps its field (at first flat, at the median of its cells).
    """
    known = ~bounded
    all_bounded = bounded.all(axis=1)
    # A channel mostly at the top cannot show how the light varies across the board (its
    # bounds, mostly along the row of spaces, leave the rest free to run wild): it takes that
    # from the channels that can (a lamp changes the light's colour, less its shape) and fits
    # only its own level. With none to take it from, the light is taken as even.
    level_only = known.mean(axis=0) < 0.5
    active = known.copy()
    inliers = np.ones(len(samples), bool)
    outer = np.einsum("nk,nl->nkl", design, design).reshape(len(design), 16)  # each cell's design outer product
    coefficients = np.zeros((4, 3))
    coefficients[0] = np.median(samples, axis=0)
    for _ in range(8):
        weights = (active & inliers[:, None]).astype(np.float64)
        # Per channel normal equations, as einsum: numpy's @ would hand them to spinning BLAS threads.
        normal = np.einsum("nc,nm->cm", weights, outer).reshape(3, 4, 4) + 1e-9 * np.eye(4)
        solved = np.linalg.solve(normal, np.einsum("nk,nc->ck", design, weights * samples)[..., None])[..., 0]
        counted = weights.sum(axis=0)
        coefficients = np.where(counted >= 20, solved.T, coefficients)
        if level_only.any():
            shape = coefficients[1:, ~level_only].mean(axis=1) if not level_only.all() else np.zeros(3)
            across = np.einsum("nk,k->n", design[:, 1:], shape)
            for c in np.flatnonzero(level_only & (counted >= 20)):
                level = float(np.einsum("n,n", weights[:, c], samples[:, c] - across)) / counted[c]
                coefficients[:, c] = (level, *shape)
        fitted = np.einsum("nk,kc->nc", design, coefficients)
        short = samples - fitted
        falling_short = known | (short > 0)
        residual = np.where(known, np.abs(short), 0.0)
        residual[all_bounded] = np.maximum(short[all_bounded], 0.0)
        residual = _channel_max(residual)
        kept = residual < _trim_spread(residual)
        if kept.sum() < 50 or (np.array_equal(falling_short, active) and np.array_equal(kept, inliers)):
            break
        active, inliers = falling_short, kept
    return coefficients


def _under_new_light(reference: SmoothView, coefficients: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The reference's log plus the lighting field (see :func:`_lighting_field`), clipped
    where the sensor clips (into ``out``, if given)."""
    log_gain = _light_field_image(reference.log.shape[:2], coefficients, scratch("log gain", reference.log.shape))
    return cv2.min(cv2.add(reference.log, log_gain, dst=log_gain), (_LOG_SATURATED,) * 4, dst=out)


def _light_field_image(shape: tuple[int, int], coefficients: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The lighting field's log gain per pixel and channel.

    One ``cv2.transform`` of a fixed (u, v, u v) image per channel. Not as a matrix
    product: numpy's @ and cv2.gemm both hand it to OpenBLAS threads, which spin for far
    more CPU than the product costs.
    """
    h, w = shape
    return cv2.transform(_field_basis(h, w), np.column_stack([coefficients[1:].T, coefficients[0]]), dst=out)


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
    if values.ndim == 3:
        # An image: split into scratch planes first (numpy's maximum of strided channels costs
        # some 7 times as much as a split and two cv2.max of whole planes).
        planes = [scratch(f"channel {k}", values.shape[:2], values.dtype) for k in range(3)]
        planes = cv2.split(values, planes)  # (into them, when they fit)
        return cv2.max(cv2.max(planes[0], planes[1], dst=planes[0]), planes[2])
    return np.maximum(np.maximum(values[..., 0], values[..., 1]), values[..., 2])
