"""Camera geometry from the two flat build-mat markers.

Mat frame (millimetres): origin at the build spot, x to the right as seen from the camera,
y away from the camera, z up.  The markers give the table homography; with square pixels and
the principal point at the image centre, that homography also fixes the focal length and the
camera pose, so points above the table (a cube at height z) can be projected too.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np

from vision.tower.settings import TowerSettings

_ARUCO_DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def _detector(*, pixels_per_cell: int | None = None) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if pixels_per_cell is not None:
        params.perspectiveRemovePixelPerCell = pixels_per_cell
    return cv2.aruco.ArucoDetector(_ARUCO_DICT, params)


_DETECTOR = _detector()
# A detector for small, very flat markers (a low camera far away, a dim room).  At 10 degrees and
# 29 cm a 30 mm marker is about 58 x 11 px: each of its six cells is under 2 px high, and its edges
# blur into the next cell's.  The default bit sampling reads each cell as 4 x 4 px of the marker's
# unwarped image with a 13 % margin, which rounds down to no margin, so the blurred cell borders
# vote with the centre and the bits come out wrong.  At 8 px per cell the same margin ignores each
# cell's outer pixel, and only the cell's centre is read.  Nothing else is loosened (the other
# parameters made no difference on the room where this was found, and the dictionary's bit check
# is unchanged).
_FLAT_DETECTOR = _detector(pixels_per_cell=8)


def _markers_in(gray: np.ndarray, detector: cv2.aruco.ArucoDetector, settings: TowerSettings,
                scale: float = 1.0) -> dict[int, np.ndarray]:
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
        if int(marker_id) in settings.marker_ids and int(marker_id) not in found:
            quad = marker_corners.reshape(4, 2).astype(np.float64)
            if scale != 1.0:
                # Pixel centres: x_up = (x + 0.5) * scale - 0.5.
                quad = (quad + 0.5) / scale - 0.5
            found[int(marker_id)] = quad
    return found


def _plausible_quad(quad: np.ndarray) -> bool:
    """A marker square seen from above the table: convex, its corners in ArUco's clockwise order, no
    side shorter than 4 px (the retry on small, blurred markers must not bring back a sliver)."""
    edges = np.roll(quad, -1, axis=0) - quad
    if np.linalg.norm(edges, axis=1).min() < 4.0:
        return False
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    return bool(np.all(cross > 0))


def detect_mat_markers(frame: np.ndarray, settings: TowerSettings, *, retry: bool = True,
                       expected: dict[int, np.ndarray] | None = None) -> dict[int, np.ndarray]:
    """Image corners (4 x 2, ArUco order) of the mat markers found in a BGR frame.

    When the default detector finds fewer than both markers and ``retry`` is set, the markers still
    missing are looked for again (:func:`more_mat_markers`, with ``expected``).
    """
    found = _markers_in(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), _DETECTOR, settings)
    return more_mat_markers(frame, settings, found, expected) if retry else found


def more_mat_markers(frame: np.ndarray, settings: TowerSettings, found: dict[int, np.ndarray],
                     expected: dict[int, np.ndarray] | None = None) -> dict[int, np.ndarray]:
    """``found`` (the default detector's markers in ``frame``) with the markers still missing added,
    if a detector for small, flat markers (``_FLAT_DETECTOR``) finds them in the frame, or else on a
    2x cubic upscale of it, or else in a window where they must lie (``_markers_where_expected``:
    where the markers found put them, or with none found where ``expected`` has them); only squares
    of a plausible shape.  A marker already found keeps its corners."""
    found = dict(found)
    if len(found) >= len(settings.marker_ids):
        return found
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for scale in (1, 2):
        image = gray if scale == 1 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        for marker_id, quad in _markers_in(image, _FLAT_DETECTOR, settings, float(scale)).items():
            if marker_id not in found and _plausible_quad(quad):
                found[marker_id] = quad
        if len(found) >= len(settings.marker_ids):
            break
    return _markers_where_expected(gray, settings, found, expected)


# The upscale for a look at the window where a missing marker must be (``_markers_where_expected``).
WINDOW_SCALE = 4


def _markers_where_expected(gray: np.ndarray, settings: TowerSettings, found: dict[int, np.ndarray],
                            expected: dict[int, np.ndarray] | None = None) -> dict[int, np.ndarray]:
    """``found`` with the missing markers added where they must lie, if a closer look there finds them.

    The markers are printed on one sheet that lies still under the tower: a marker found fixes
    where the other lies, and with none found a marker lies where ``expected`` (another frame of the
    same camera) saw it, give or take a nudge.  At the spec's far corner in a dim room (30 cm, 10
    degrees: a marker about 45 x 10 px, under 2 px a cell) the noise hides a marker's bits from a
    look at the whole frame now and then (hunt room 905077: marker 1 in plain view in the
    reference, found in the end frames).  A window around that place, half a marker's size wider
    each way, read at ``WINDOW_SCALE`` times, finds it; only a plausible square whose centre lies
    within half a marker's size of the place counts."""
    missing = [i for i in settings.marker_ids if i not in found]
    if not missing:
        return found
    mat = marker_mat_corners(settings)
    seen = [i for i in settings.marker_ids if i in found]
    if seen:
        to_image, _ = cv2.findHomography(np.concatenate([mat[i] for i in seen]),
                                         np.concatenate([found[i] for i in seen]), 0)
        if to_image is None:
            return found
        places = {i: cv2.perspectiveTransform(mat[i][None], to_image)[0] for i in missing}
    else:
        places = {i: expected[i] for i in missing if expected and i in expected}
    found = dict(found)
    for marker_id, quad in places.items():
        size = float(np.ptp(quad[:, 0]))
        if not np.isfinite(size):
            continue
        lo = np.floor(quad.min(axis=0) - size / 2).astype(int).clip(0)
        hi = np.ceil(quad.max(axis=0) + size / 2).astype(int)
        window = gray[lo[1]:hi[1], lo[0]:hi[0]]
        if window.size == 0:
            continue
        window = cv2.resize(window, None, fx=WINDOW_SCALE, fy=WINDOW_SCALE, interpolation=cv2.INTER_CUBIC)
        look = _markers_in(window, _FLAT_DETECTOR, settings, float(WINDOW_SCALE))
        if marker_id in look:
            there = look[marker_id] + lo
            if _plausible_quad(there) and np.linalg.norm(there.mean(axis=0) - quad.mean(axis=0)) < size / 2:
                found[marker_id] = there
    return found


def marker_mat_corners(settings: TowerSettings) -> dict[int, np.ndarray]:
    """Mat-frame corners (x, y in mm) of each marker, in ArUco order (top edge away from the camera)."""
    half = settings.marker_mm / 2
    out = {}
    for marker_id, cx in zip(settings.marker_ids, (-settings.marker_offset_mm, settings.marker_offset_mm), strict=True):
        out[marker_id] = np.array(
            [[cx - half, half], [cx + half, half], [cx + half, -half], [cx - half, -half]], np.float64
        )
    return out


def _focal_from_homography(h: np.ndarray, centre: tuple[float, float]) -> float | None:
    """Focal length (px) from a plane homography, or None when the view makes it ill-posed."""
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1.0]])
    hc = shift @ h
    h1, h2 = hc[:, 0], hc[:, 1]
    estimates = []
    # |r1| = |r2|: well posed when the mat recedes from the camera (always, at 10-30 degrees).
    denom = h1[2] ** 2 - h2[2] ** 2
    if abs(denom) > 1e-12:
        f2 = (h2[0] ** 2 + h2[1] ** 2 - h1[0] ** 2 - h1[1] ** 2) / denom
        if f2 > 0:
            estimates.append((math.sqrt(f2), abs(denom)))
    # r1 . r2 = 0: useful when the camera looks at the mat from an angle.
    denom = h1[2] * h2[2]
    if abs(denom) > 1e-12:
        f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / denom
        if f2 > 0:
            estimates.append((math.sqrt(f2), abs(denom)))
    if not estimates:
        return None
    return max(estimates, key=lambda e: e[1])[0]


@dataclasses.dataclass(frozen=True)
class MatGeometry:
    """Where the mat is in one camera view."""

    table_h: np.ndarray  # mat (x, y) mm -> image px
    k: np.ndarray
    rot: np.ndarray
    t: np.ndarray
    markers: dict[int, np.ndarray]  # image corners of the markers that were seen
    reprojection_px: float

    @classmethod
    def from_pose(cls, k: np.ndarray, rot: np.ndarray, t: np.ndarray) -> MatGeometry:
        """The view of a camera whose pose is known (a scene generator's camera): no markers seen."""
        table_h = k @ np.column_stack([rot[:, 0], rot[:, 1], t])  # the table plane z = 0
        return cls(table_h, k, rot, t, {}, 0.0)

    @property
    def both_markers(self) -> bool:
        return len(self.markers) >= 2

    @property
    def camera_position(self) -> np.ndarray:
        return -self.rot.T @ self.t

    @property
    def elevation_deg(self) -> float:
        c = self.camera_position
        return math.degrees(math.atan2(c[2], math.hypot(c[0], c[1])))

    @property
    def distance_mm(self) -> float:
        return float(np.linalg.norm(self.camera_position))

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image px of world points (N x 3, mm)."""
        cam = np.asarray(points, np.float64) @ self.rot.T + self.t
        pix = cam @ self.k.T
        return pix[:, :2] / pix[:, 2:3]

    def vertical_plane(self, y_mm: float) -> np.ndarray:
        """Homography from (x, z) on the vertical plane y = y_mm to image px."""
        p = self.k @ np.column_stack([self.rot, self.t])
        return np.column_stack([p[:, 0], p[:, 2], p[:, 1] * y_mm + p[:, 3]])

    def table_point(self, pixel: tuple[float, float]) -> tuple[float, float]:
        """The mat point (x, y mm) seen at an image pixel, on the table plane."""
        pt = np.linalg.solve(self.table_h, np.array([pixel[0], pixel[1], 1.0]))
        return float(pt[0] / pt[2]), float(pt[1] / pt[2])

    def shifted(self, move: np.ndarray) -> "MatGeometry":
        """This pose seen in a picture moved by ``move`` px (a nudged camera): the lens centre moves
        with the picture, the camera's place and turn stay."""
        shift = np.array([[1.0, 0.0, move[0]], [0.0, 1.0, move[1]], [0.0, 0.0, 1.0]])
        return dataclasses.replace(self, table_h=shift @ self.table_h, k=shift @ self.k,
                                   markers={i: q + move for i, q in self.markers.items()})

    def px_per_mm_at_spot(self) -> float:
        a, b = self.project(np.array([[-5.0, 0, 0], [5.0, 0, 0]]))
        return float(np.linalg.norm(b - a) / 10.0)


class MatNotVisible(ValueError):
    """The build-mat markers cannot be found or give no sane camera pose."""


def mat_geometry(
    markers: dict[int, np.ndarray], image_size: tuple[int, int], settings: TowerSettings, *, allow_one: bool = False
) -> MatGeometry:
    """Camera pose from the mat markers seen in one frame (both, or one when ``allow_one``)."""
    seen = [i for i in settings.marker_ids if i in markers]
    if len(seen) < (1 if allow_one else 2):
        missing = [i for i in settings.marker_ids if i not in markers]
        raise MatNotVisible(f"build-mat marker(s) {missing!r} not visible")
    mat = marker_mat_corners(settings)
    obj = np.concatenate([mat[i] for i in seen])
    img = np.concatenate([markers[i] for i in seen])
    table_h, _ = cv2.findHomography(obj, img, 0)
    if table_h is None:
        raise MatNotVisible("build-mat markers give no table homography")
    w, h = image_size
    focal = _focal_from_homography(table_h, (w / 2, h / 2))
    # A bad estimate (nearly fronto-parallel view, noisy corners) falls back to a typical lens;
    # the vertical scale depends little on the focal length once the homography is fixed.
    if focal is None or not 0.4 * w <= focal <= 4.0 * w:
        focal = 0.9 * w
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1.0]])
    obj3 = np.column_stack([obj, np.zeros(len(obj))])
    ok, rvec, tvec = cv2.solvePnP(obj3, img, k, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise MatNotVisible("build-mat markers give no camera pose")
    rot, _ = cv2.Rodrigues(rvec)
    t = tvec.ravel()
    geometry = MatGeometry(table_h, k, rot, t, dict(markers), 0.0)
    err = float(np.sqrt(np.mean(np.sum((geometry.project(obj3) - img) ** 2, axis=1))))
    geometry = dataclasses.replace(geometry, reprojection_px=err)
    cam = geometry.camera_position
    if cam[2] <= 0 or cam[1] >= 0:
        raise MatNotVisible(
            f"camera pose puts the camera at {np.round(cam).tolist()!r} mm: the mat must lie flat "
            f"with marker {settings.marker_ids[0]} on the left as seen from the camera"
        )
    return geometry
