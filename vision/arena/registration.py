"""Marker registration: find the board's ArUco markers and fit board mm -> image px.

Each image is registered by its own markers, so a nudged camera still reads correctly.
A homography is only trusted when its markers agree with each other (low reprojection
error relative to the markers' size in the image); otherwise the caller gets a clear reason.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Mapping

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry

#: The dictionary named by the product spec.
ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
#: Fewest markers that give a homography with redundancy to check it (12 corners, 8 unknowns).
MIN_MARKERS = 3
#: Largest corner reprojection error accepted, as a fraction of the marker's side in pixels.
MAX_ERROR_FRACTION = 0.08
#: ... but never demand better than this many pixels (detector noise on small markers).
MIN_ERROR_PX = 2.5

#: Frames wider than this are searched for markers at this width first (a marker of the
#: board is still some 30 px there), then refined at full size.
DETECT_WIDTH = 640

_DETECTORS: dict[tuple, cv2.aruco.ArucoDetector] = {}


def aruco_detector(min_perimeter_rate: float | None = None) -> cv2.aruco.ArucoDetector:
    """One shared detector with OpenCV's default parameters (the bench compares against it),
    or with this smallest marker perimeter (a share of the image's larger side)."""
    key = (ARUCO_DICTIONARY, min_perimeter_rate)
    detector = _DETECTORS.get(key)
    if detector is None:
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
        parameters = cv2.aruco.DetectorParameters()
        if min_perimeter_rate is not None:
            parameters.minMarkerPerimeterRate = min_perimeter_rate
        detector = cv2.aruco.ArucoDetector(dictionary, parameters)
        _DETECTORS[key] = detector
    return detector


def _look_again(grey: np.ndarray, corners: list, ids, geometry: BoardGeometry):
    seen = {} if ids is None else {int(i): q.reshape(4, 2) for i, q in zip(ids.ravel(), corners)}
    missing = [m for m in geometry.markers if m not in seen]
    if not missing:
        return corners, ids
    board_ids = [m for m in seen if m in geometry.markers]
    if len(board_ids) < MIN_MARKERS:
        return _detect(grey, 1.0)
    board = np.concatenate([geometry.marker_corners(m) for m in board_ids])
    image = np.concatenate([seen[m] for m in board_ids])
    homography, _ = cv2.findHomography(board, image, 0)
    if homography is None:
        return _detect(grey, 1.0)
    h, w = grey.shape
    extra_corners, extra_ids = [], []
    for marker_id in missing:
        x, y, size = geometry.markers[marker_id]
        around = np.array([[x + dx * size, y + dy * size] for dx in (-1, 1) for dy in (-1, 1)])
        box = cv2.perspectiveTransform(around.reshape(-1, 1, 2), homography).reshape(-1, 2)
        x0, y0 = np.floor(box.min(axis=0)).astype(int)
        x1, y1 = np.ceil(box.max(axis=0)).astype(int)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue  # off the frame
        found, found_ids, _ = aruco_detector().detectMarkers(np.ascontiguousarray(grey[y0:y1, x0:x1]))
        for quad, found_id in zip(found, [] if found_ids is None else found_ids.ravel()):
            if int(found_id) == marker_id:
                extra_corners.append(quad.reshape(1, 4, 2) + [x0, y0])
                extra_ids.append(marker_id)
    if not extra_ids:
        return corners, ids
    all_ids = np.array(([] if ids is None else ids.ravel().tolist()) + extra_ids).reshape(-1, 1)
    return corners + extra_corners, all_ids


#: Round each expected marker, its search window reaches this far past the marker's quiet
#: zone: a marker's side, or this share of the frame width if more (a nudged camera).
_NEAR_REACH_FRAME = 0.07


def _detect_near(image: np.ndarray, geometry: BoardGeometry, expected: np.ndarray, scale: float, *,
                 markers=None, reach_frame: float = _NEAR_REACH_FRAME):
    """Each layout marker (or each of ``markers``) searched for only in a window round where
    ``expected`` puts it, reaching a marker's side or ``reach_frame`` of the frame width past it.
    ``image`` is grey or BGR: of a BGR frame only the windows are made grey (and the whole
    frame only to refine the corners of a marker found).

    The windows are tiled side by side into one small image, searched in one call (each
    call has a fixed cost), and a marker counts only if found in its own window. Given
    ``markers``, the smallest marker looked for is the one a whole-frame search would find:
    the detector's default is a share of the image's size, and on a single small window it
    let through thousands of specks, which cost more than a whole-frame search.
    """
    h, w = image.shape[:2]
    windows = []
    wanted = geometry.markers if markers is None else markers
    for marker_id, (x, y, size) in ((m, geometry.markers[m]) for m in wanted):
        half = size / 2 + size / 6
        around = np.array([[x + dx * half, y + dy * half] for dx in (-1, 1) for dy in (-1, 1)], np.float64)
        box = cv2.perspectiveTransform(around.reshape(-1, 1, 2), expected).reshape(-1, 2)
        if not np.all(np.isfinite(box)):
            continue
        reach = max(_mean_side(box), reach_frame * w)
        x0, y0 = np.floor(box.min(axis=0) - reach).astype(int)
        x1, y1 = np.ceil(box.max(axis=0) + reach).astype(int)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 >= 16 and y1 - y0 >= 16:  # else off the frame
            windows.append((marker_id, x0, y0, x1, y1))
    if len(windows) < (MIN_MARKERS if markers is None else 1):
        return [], None
    gap = 8  # plain grey between windows: no marker can straddle two
    width = sum(x1 - x0 for _, x0, _, x1, _ in windows) + gap * (len(windows) + 1)
    height = max(y1 - y0 for _, _, y0, _, y1 in windows) + 2 * gap
    tiled = np.full((height, width), 128, np.uint8)
    places = []
    left = gap
    for marker_id, x0, y0, x1, y1 in windows:
        tiled[gap : gap + y1 - y0, left : left + x1 - x0] = to_gray(image[y0:y1, x0:x1])
        places.append((marker_id, left, x1 - x0, y1 - y0, x0 - left, y0 - gap))
        left += x1 - x0 + gap
    rate = None
    if markers is not None:
        rate = round(aruco_detector().getDetectorParameters().minMarkerPerimeterRate * max(h, w) / max(tiled.shape), 3)
    corners, ids = _detect(tiled, scale, rate)
    found_corners, found_ids = [], []
    for quad, found_id in zip(corners, [] if ids is None else ids.ravel()):
        quad = quad.reshape(4, 2)
        for marker_id, start, span, rows, dx, dy in places:
            inside = start <= quad[:, 0].min() and quad[:, 0].max() < start + span and quad[:, 1].max() < gap + rows
            if int(found_id) == marker_id and inside:
                found_corners.append(quad + np.array([dx, dy], np.float32))
                found_ids.append(marker_id)
    if not found_ids:
        return [], None
    if scale < 1.0:  # refined on the tiles, next to their grey gaps: refine on the frame itself
        grey = to_gray(image)
        found_corners = [_refine(grey, quad) for quad in found_corners]
    return [q.reshape(1, 4, 2) for q in found_corners], np.array(found_ids).reshape(-1, 1)


def _detect(grey: np.ndarray, scale: float, min_perimeter_rate: float | None = None):
    detector = aruco_detector(min_perimeter_rate)
    if scale == 1.0:
        corners, ids, _ = detector.detectMarkers(grey)
        return list(corners), ids
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids, _ = detector.detectMarkers(small)
    if ids is not None:
        corners = [_refine(grey, (quad.reshape(4, 2) + 0.5) / scale - 0.5) for quad in corners]
    return list(corners), ids


def _refine(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    side = _mean_side(quad)
    window = int(max(2, min(6, side / 12)))
    refined = cv2.cornerSubPix(grey, quad.astype(np.float32).reshape(-1, 1, 2), (window, window), (-1, -1), _SUBPIX_STOP)
    return refined.reshape(4, 2)


_SUBPIX_STOP = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)


def to_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect_markers(
    image: np.ndarray, geometry: BoardGeometry | None = None, *, expected: np.ndarray | None = None
) -> dict[int, np.ndarray]:
    """All DICT_4X4_50 markers in the image: id -> 4x2 corners (TL, TR, BR, BL) in px.

    Large frames are searched at reduced size first (the board's markers are big enough
    there), with the corners refined on the full frame. Given the layout, a marker of it not
    found that way is looked for again at full size: only where the others say it must be
    when three or more were found, else in the whole frame. An id seen twice is dropped: two
    candidates for one marker cannot both be right.

    ``expected`` (board mm -> image px, e.g. the calibration's mapping) says where the
    markers were: they are looked for only round there first, which costs a fraction of a
    whole-frame search. Unless three of them turn up there, the whole frame is searched.
    """
    grey = to_gray(image)
    scale = min(1.0, DETECT_WIDTH / grey.shape[1])
    corners, ids = [], None
    if expected is not None and geometry is not None:
        corners, ids = _detect_near(grey, geometry, expected, scale)
    if ids is None or len(ids) < MIN_MARKERS:
        # Not where they were (or no idea where): the whole frame. Every window was already
        # searched where the markers should be, so a search there again would find nothing.
        corners, ids = _detect(grey, scale)
        if scale < 1.0 and geometry is not None:
            corners, ids = _look_again(grey, list(corners), ids, geometry)
    found: dict[int, np.ndarray] = {}
    duplicated: set[int] = set()
    if ids is not None:
        for marker_id, quad in zip(ids.ravel().tolist(), corners):
            if marker_id in found:
                duplicated.add(marker_id)
            found[marker_id] = quad.reshape(4, 2).astype(np.float64)
    for marker_id in duplicated:
        del found[marker_id]
    return found


#: A marker counts as unmoved when each quarter of its patch sits within this (px) of where
#: the reference had it: well under the detector's own corner noise.
STILL_SHIFT_PX = 0.15
#: ... and what is left once the light change and that shift are taken out is sensor noise
#: (rms grey levels; a hand, a shadow edge or a card across the marker leaves far more).
STILL_RESIDUAL = 10.0
#: ... and the marker's contrast is still there: its grey levels scaled by this much at most
#: (a lamp or the evening changes it; a hand over it, gain ~0, does not pass).
STILL_GAIN = (0.4, 2.5)
#: Pixels round a marker's corners in its patch: its black edges against the quiet zone.
_STILL_MARGIN_PX = 3


@dataclass(frozen=True)
class _MarkerPatch:
    """One reference marker's grey patch, with what the unmoved test needs precomputed."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in the frame
    corners: np.ndarray  # 4x2, the reference's corners
    centred: np.ndarray  # grey levels less their mean (flat)
    energy: float  # centred @ centred
    gradients: np.ndarray  # (8, pixels): d/dx, d/dy of the grey levels, rows 2q, 2q + 1 only in quarter q
    inverses: np.ndarray  # (4, 2, 2): per quarter, the inverse of its gradients' normal matrix

    @classmethod
    def of(cls, image: np.ndarray, corners: np.ndarray) -> "_MarkerPatch | None":
        h, w = image.shape[:2]
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - _STILL_MARGIN_PX
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + _STILL_MARGIN_PX + 1
        if x0 < 1 or y0 < 1 or x1 > w - 1 or y1 > h - 1:
            return None  # at the frame's edge: left to the search
        around = to_gray(image[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1]).astype(np.float64)
        values = around[1:-1, 1:-1]
        gx = (around[1:-1, 2:] - around[1:-1, :-2]) / 2
        gy = (around[2:, 1:-1] - around[:-2, 1:-1]) / 2
        rows, cols = values.shape
        middle_row, middle_col = rows // 2, cols // 2
        gradients = np.zeros((8, rows, cols))
        inverses = np.zeros((4, 2, 2))
        quarters = ((slice(0, middle_row), slice(0, middle_col)), (slice(0, middle_row), slice(middle_col, cols)),
                    (slice(middle_row, rows), slice(0, middle_col)), (slice(middle_row, rows), slice(middle_col, cols)))
        for q, (r, c) in enumerate(quarters):
            gradients[2 * q][r, c], gradients[2 * q + 1][r, c] = gx[r, c], gy[r, c]
            pair = np.stack([gx[r, c].ravel(), gy[r, c].ravel()])
            normal = np.einsum("ki,li->kl", pair, pair)  # not @: see is_unmoved
            if np.trace(normal) == 0 or np.linalg.det(normal) <= 1e-6 * float(np.trace(normal)) ** 2:
                return None  # a quarter without edges both ways cannot show a shift
            inverses[q] = np.linalg.inv(normal)
        centred = values.ravel() - values.mean()
        energy = float(np.einsum("i,i", centred, centred))
        return cls((int(x0), int(y0), int(x1), int(y1)), corners.copy(), centred, energy, gradients.reshape(8, -1), inverses)

    def is_unmoved(self, image: np.ndarray) -> bool:
        # np.einsum, not @: on patches this size numpy hands @ to OpenBLAS threads, which
        # spin for far more CPU than the products cost.
        x0, y0, x1, y1 = self.box
        values = to_gray(image[y0:y1, x0:x1]).ravel().astype(np.float64)
        values -= np.add.reduce(values) / values.size  # values.mean(), less its Python wrapper
        gain = float(np.einsum("i,i", values, self.centred)) / self.energy
        if not STILL_GAIN[0] <= gain <= STILL_GAIN[1]:
            return False
        residual = values - gain * self.centred
        # residual ~ -gain * (gradient . shift): each quarter's least-squares shift, all at once.
        projected = np.einsum("ki,i->k", self.gradients, residual).reshape(4, 2)
        shifts = -np.einsum("qij,qj->qi", self.inverses, projected) / gain
        if float((shifts * shifts).sum(axis=1).max()) > STILL_SHIFT_PX**2:
            return False
        residual += gain * np.einsum("k,ki->i", shifts.ravel(), self.gradients)
        return float(np.einsum("i,i", residual, residual)) / len(residual) <= STILL_RESIDUAL**2


@dataclass(frozen=True)
class StillMarkers:
    """The reference's markers as it saw them, to tell cheaply whether a frame shows them unmoved.

    In a match the camera mostly stays where calibration put it: a marker's patch in the
    frame is then the reference's under another light. The test, per marker: the frame's
    grey levels are fitted as gain and offset of the reference's; each quarter of the patch
    (one corner in each) gets a Lucas-Kanade shift estimate, all of which must be under
    :data:`STILL_SHIFT_PX`; and what is left must be noise. When every marker the
    reference was registered by passes, its corners (so its very mapping) are reused: the
    live view is then warped exactly as the reference was. When three or more pass, the
    camera has not moved and the others are covered or shaded: see :func:`register`. A
    camera that moved leaves the frame to the usual search.

    The live watcher makes a new one from a frame registered by a search (a nudged camera
    stays nudged): ``registration`` is then that frame's, and the patches its.
    """

    patches: Mapping[int, _MarkerPatch]  # every marker the reference's mapping used, or none
    registration: "Registration | None" = None  # the reference's (or the frame's the patches were taken from)
    #: The mappings fitted again from some of the markers (see :func:`_still_registration`), by
    #: which markers, the frame size and the layout's markers.
    refits: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, image: np.ndarray, registration: "Registration") -> "StillMarkers":
        if not registration.ok or any(m not in registration.corners for m in registration.markers_used):
            return cls({})  # nothing to compare with: always search
        patches = {m: _MarkerPatch.of(image, registration.corners[m]) for m in registration.markers_used}
        if any(patch is None for patch in patches.values()):
            return cls({})  # a marker at the frame's edge cannot be checked: always search
        return cls(patches, registration)

    def unmoved(self, image: np.ndarray) -> dict[int, np.ndarray]:
        """Markers that ``image`` (the reference's size) shows where the reference had them: id -> corners."""
        return {m: patch.corners.copy() for m, patch in self.patches.items() if patch.is_unmoved(image)}

    def is_still(self, image: np.ndarray) -> bool:
        """Whether ``image`` shows every one of the reference's markers unmoved."""
        return bool(self.patches) and all(patch.is_unmoved(image) for patch in self.patches.values())


@dataclass(frozen=True)
class Registration:
    """The outcome of registering one image against the board geometry."""

    homography: np.ndarray | None  # board mm -> image px, or None when not trusted
    markers_found: tuple[int, ...]  # board markers detected (before the consistency check)
    markers_used: tuple[int, ...]
    corners: Mapping[int, np.ndarray] = field(default_factory=dict)  # detected board markers
    error_px: float = float("nan")  # worst corner reprojection error of the markers used
    error: str | None = None
    unmoved: bool = False  # taken as it was from markers seen unmoved (:class:`StillMarkers`), not searched for

    @property
    def ok(self) -> bool:
        return self.homography is not None

    def missing(self, geometry: BoardGeometry) -> tuple[int, ...]:
        return tuple(m for m in sorted(geometry.markers) if m not in self.markers_used)

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Board mm (N x 2) -> image px (N x 2)."""
        assert self.homography is not None, "project() needs a trusted registration"
        return cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), self.homography).reshape(-1, 2)


def register(
    image: np.ndarray,
    geometry: BoardGeometry,
    *,
    detected: Mapping[int, np.ndarray] | None = None,
    expected: np.ndarray | None = None,
    still: StillMarkers | None = None,
) -> Registration:
    """Fit and check board mm -> image px from the board's markers in ``image``.

    ``expected`` is where the markers were last seen (see :func:`detect_markers`). ``still``
    is how the reference saw them: a frame that shows every one of them unmoved is the
    reference's view, and gets its mapping with no search at all (see :class:`StillMarkers`);
    one that shows three or more unmoved looks for the others only where they were (see
    :func:`_still_registration`).
    """
    if detected is None and still is not None:
        unmoved = _still_registration(image, geometry, still)
        if unmoved is not None:
            return unmoved
    image_size = (image.shape[1], image.shape[0])
    all_found = detect_markers(image, geometry, expected=expected) if detected is None else dict(detected)
    corners = {m: q for m, q in all_found.items() if m in geometry.markers}
    found = tuple(sorted(corners))
    missing = [m for m in sorted(geometry.markers) if m not in corners]
    if len(found) < MIN_MARKERS:
        return Registration(
            None, found, (), corners,
            error=f"only {len(found)} of {len(geometry.markers)} markers visible (missing {_ids(missing)}); "
            f"at least {MIN_MARKERS} are needed to map the board",
        )
    # Try all markers first, then drop one at a time: a single misdetected marker must not
    # poison the mapping, but what remains must still be at least MIN_MARKERS.
    best: tuple[np.ndarray, tuple[int, ...], float] | None = None
    for size in range(len(found), MIN_MARKERS - 1, -1):
        for subset in itertools.combinations(found, size):
            fitted = _fit(subset, corners, geometry, image_size)
            if fitted is not None and (best is None or fitted[1] < best[2]):
                best = (fitted[0], subset, fitted[1])
        if best is not None:
            break
    if best is None:
        return Registration(
            None, found, (), corners,
            error=f"markers {_ids(found)} do not agree on where the board is (inconsistent mapping)"
            + (f"; missing {_ids(missing)}" if missing else ""),
        )
    homography, used, error_px = best
    return Registration(homography, found, used, corners, error_px=error_px)


def _still_registration(image: np.ndarray, geometry: BoardGeometry, still: StillMarkers) -> Registration | None:
    """The registration of a frame from a camera that has not moved, without a whole search; else None.

    Every marker unmoved: the mapping they were registered by, as it is. Most of them (three
    or more) unmoved: the camera has not moved, the others are covered or shaded. Each of
    those is looked for in a small window where it was; found there (within a corner
    fit's tolerance), it is unmoved too. Those not found are missing, and the mapping is
    fitted again from the earlier corners of the markers still there. A marker found
    anywhere else, or too few unmoved: None, and the frame is searched as usual. A marker
    hidden when the mapping was made (a followed frame's, three markers) is looked for in
    its window too: found, None, so that a search registers the frame by all of them.
    """
    previous = still.registration
    if previous is None:
        return None
    unmoved: set[int] = set()
    spare = len(still.patches) - MIN_MARKERS  # markers that may fail the test
    for marker_id, patch in still.patches.items():
        if patch.is_unmoved(image):
            unmoved.add(marker_id)
        elif (spare := spare - 1) < 0:
            return None  # a moved camera: most fail, and the first ones tell
    # The markers the mapping used that were not seen unmoved, and those hidden when it was
    # made (a hand over one while the camera was nudged): each looked for where it should be.
    hidden = [m for m in geometry.markers if m not in previous.markers_found]
    others = [m for m in previous.markers_used if m not in unmoved] + hidden
    if others:
        # (The frame is made grey only where the markers are looked for: a covered marker mostly
        # stays covered from frame to frame, and the whole frame's grey costs as much as a read's warp.)
        corners, ids = _detect_near(image, geometry, previous.homography, min(1.0, DETECT_WIDTH / image.shape[1]),
                                    markers=[m for m in others if m in geometry.markers], reach_frame=0.0)
        for quad, marker_id in zip(corners, [] if ids is None else ids.ravel().tolist()):
            if marker_id in hidden:
                return None  # back in view: a search registers the frame by it too
            was = previous.corners[marker_id]
            limit = max(MIN_ERROR_PX, MAX_ERROR_FRACTION * _mean_side(was))
            if float(np.max(np.linalg.norm(quad.reshape(4, 2) - was, axis=1))) > limit:
                return None  # a marker seen where it was not: let the whole search judge
            unmoved.add(marker_id)
    used = previous.markers_used
    if unmoved >= set(used):
        corners = {m: previous.corners[m].copy() for m in used}
        return Registration(previous.homography, used, used, corners, error_px=previous.error_px, unmoved=True)
    # The fit uses the earlier corners of the markers seen unmoved, not the frame: while the same
    # ones stay unmoved (a hand resting over another), every frame gets the same mapping. So it
    # is fitted once (a fit from three markers checks them against a camera fit, some 1 ms).
    key = (tuple(sorted(unmoved)), image.shape[:2], tuple(sorted(geometry.markers.items())), geometry.board_mm)
    fitted = still.refits.get(key)
    if fitted is None:
        fitted = still.refits[key] = register(image, geometry,
                                              detected={m: previous.corners[m] for m in sorted(unmoved)})
    if not fitted.ok:
        return None
    return dataclasses.replace(fitted, homography=fitted.homography.copy(), corners=dict(fitted.corners), unmoved=True)


def _fit(subset: tuple[int, ...], corners: Mapping[int, np.ndarray], geometry: BoardGeometry, image_size):
    """The mapping from these markers' corners, if they agree; one stray corner may be left out.

    A corner the detector put a few px off (a neighbouring edge pulled its refinement) must
    not cost a whole marker when only three are in view: the other eleven corners decide.
    """
    board = np.concatenate([geometry.marker_corners(m) for m in subset])
    image = np.concatenate([corners[m] for m in subset])
    limits = np.repeat([max(MIN_ERROR_PX, MAX_ERROR_FRACTION * _mean_side(corners[m])) for m in subset], 4)
    keep = np.ones(len(board), bool)
    for _ in range(2):
        fitted = _fit_corners(board[keep], image[keep], len(subset), image_size)
        if fitted is None:
            return None
        homography, errors = fitted
        over = errors > limits[keep]
        if not over.any():
            break
        if not keep.all() or over.sum() > 1:
            return None  # more than one corner disagrees: the markers do not
        keep[np.flatnonzero(keep)[int(np.argmax(errors - limits[keep]))]] = False
    if not _keeps_orientation(homography, geometry):
        return None
    return homography, float(errors.max())


def _fit_corners(board: np.ndarray, image: np.ndarray, markers: int, image_size):
    homography, _ = cv2.findHomography(board, image, 0)
    if homography is None or not np.all(np.isfinite(homography)):
        return None
    projected = cv2.perspectiveTransform(board.reshape(-1, 1, 2), homography).reshape(-1, 2)
    errors = np.linalg.norm(projected - image, axis=1)
    if markers <= MIN_MARKERS:
        # Twelve corners leave a homography little to check them with; a real camera (square
        # pixels, centred lens) has fewer freedoms, so fit that and check against it too.
        errors = np.maximum(errors, _camera_fit_errors(board, image, homography, image_size))
    return homography, errors


def _camera_fit_errors(board: np.ndarray, image: np.ndarray, homography: np.ndarray, image_size) -> np.ndarray:
    from vision.arena.pose import camera_position  # pose builds on registration's output

    focal = camera_position(homography, image_size).focal_px
    K = np.array([[focal, 0, image_size[0] / 2], [0, focal, image_size[1] / 2], [0, 0, 1.0]])
    points = np.column_stack([board, np.zeros(len(board))])
    ok, rvec, tvec = cv2.solvePnP(points, image, K, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return np.full(len(board), np.inf)
    ok, rvec, tvec = cv2.solvePnP(points, image, K, None, rvec, tvec, True, cv2.SOLVEPNP_ITERATIVE)
    projected, _ = cv2.projectPoints(points, rvec, tvec, K, None)
    return np.linalg.norm(projected.reshape(-1, 2) - image, axis=1)


def _mean_side(quad: np.ndarray) -> float:
    sides = quad - quad[[3, 0, 1, 2]]  # each corner from the one before it (np.roll is slow)
    return float(np.mean(np.sqrt((sides * sides).sum(axis=1))))


def _keeps_orientation(homography: np.ndarray, geometry: BoardGeometry) -> bool:
    """The board must project as a convex, unmirrored quadrilateral in front of the camera."""
    w, h = geometry.board_mm
    board = np.array([[-w / 2, -h / 2, 1], [w / 2, -h / 2, 1], [w / 2, h / 2, 1], [-w / 2, h / 2, 1]]).T
    mapped = homography @ board
    if np.any(mapped[2] * mapped[2, 0] <= 0):  # the board crosses the camera's horizon
        return False
    quad = (mapped[:2] / mapped[2]).T
    crosses = [_cross(quad[(i + 1) % 4] - quad[i], quad[(i + 2) % 4] - quad[(i + 1) % 4]) for i in range(4)]
    # Board +y is image "up" (rows grow downwards), so an unmirrored board turns clockwise
    # in image coordinates at every corner.
    return all(c < 0 for c in crosses)


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _ids(ids) -> str:
    ids = list(ids)
    return ", ".join(str(i) for i in ids) if ids else "none"
