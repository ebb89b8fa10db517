"""Read which space each fighter stands on, from one image and the empty reference.

Pipeline: register the image by its markers -> warp image and reference to the top-down
board view -> remove the lighting change -> find compact changed regions -> keep those big
enough to be a base (tokens are flat discs of at most 22 mm; bases are 25-28 mm with a figure
standing on them) -> place each base by its front rim (the part nearest the camera, which a
standing figure never hides) -> name the space under it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry
from vision.arena.registration import Registration, register
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView, SmoothView, change_between

#: Tokens are flat discs this size (the spec); anything smaller than the smallest is noise.
TOKEN_MIN_MM = 15.0
TOKEN_MAX_MM = 22.0
MIN_BLOB_RADIUS_MM = 6.0
#: Change score that counts when it touches clear change (score >= 1).
FAINT_CHANGE = 0.5
#: A token is one flat disc: fewer than this share of its rim rays cross a fainter ring.
MAX_TOKEN_TIERED = 0.3
_TIER_RATIO = 0.6
#: The rim points of one disc fit its circle to within this (rms, mm).
MAX_RIM_ERROR_MM = 1.2
#: A token's side wall and blur reach at most this far behind its rim.
TOKEN_BEHIND_MM = 10.0
#: Fighter centres closer than this (mm) to a space outline are too close to call.
EDGE_MARGIN_MM = 1.5
#: How far beyond the board edge (mm) a base may not reach: the search stays on the board.
_MARKER_KEEP_OUT_MM = 4.0


class ArenaInputError(ValueError):
    """An image the reader cannot use at all (not a picture, or a reference without markers)."""


@dataclass(frozen=True)
class FighterReading:
    space: str | None
    board_mm: tuple[float, float]
    confidence: float

    def to_json(self) -> dict:
        return {
            "space": self.space,
            "board_mm": [round(self.board_mm[0], 1), round(self.board_mm[1], 1)],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class ArenaReading:
    ok: bool
    occupied: tuple[str, ...]
    fighters: tuple[FighterReading, ...]
    markers_found: tuple[int, ...]
    error: str | None
    annotated: np.ndarray | None = field(default=None, repr=False, compare=False)
    registration: Registration | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        """Exactly the object ``knockdown arena read --json`` prints."""
        return {
            "ok": self.ok,
            "occupied": list(self.occupied),
            "fighters": [f.to_json() for f in self.fighters],
            "markers_found": list(self.markers_found),
            "error": self.error,
        }


@dataclass(frozen=True)
class PreparedReference:
    """The empty board, registered and warped once (the live service reuses it every read)."""

    registration: Registration
    view: BoardView
    smooth: SmoothView


def check_image(image: object, name: str = "image") -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise ArenaInputError(f"{name} is {type(image).__name__!r}: it must be an image array")
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (1, 3)):
        raise ArenaInputError(
            f"{name} has dtype {str(image.dtype)!r} and shape {image.shape!r}: it must be an 8-bit grey or BGR image"
        )
    if min(image.shape[:2]) < 32:
        raise ArenaInputError(f"{name} has shape {image.shape!r}: it is too small to hold the board")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[..., 0]
    return image


def prepare_reference(reference: np.ndarray, geometry: BoardGeometry) -> PreparedReference:
    """Register and warp the empty reference; refuse one whose markers do not map the board."""
    reference = check_image(reference, "reference")
    registration = register(reference, geometry)
    if not registration.ok:
        raise ArenaInputError(f"the reference image cannot be used: {registration.error}")
    view = BoardView.of(geometry)
    return PreparedReference(registration, view, SmoothView.of(view.warp(reference, registration.homography)))


def read_arena(
    image: np.ndarray,
    reference: np.ndarray | PreparedReference,
    geometry: BoardGeometry,
    settings: ArenaSettings = ArenaSettings(),
    *,
    annotate: bool = True,
) -> ArenaReading:
    """Read the arena in ``image`` against the empty ``reference`` (an image or a prepared one)."""
    image = check_image(image)
    prepared = reference if isinstance(reference, PreparedReference) else prepare_reference(reference, geometry)
    registration = register(image, geometry)
    if not registration.ok:
        reading = ArenaReading(False, (), (), registration.markers_found, registration.error, registration=registration)
    else:
        reading = _read_registered(image, registration, prepared, geometry, settings)
    if annotate:
        from vision.arena.annotate import annotate_reading

        reading = _with_annotation(reading, annotate_reading(image, reading, geometry))
    return reading


def _with_annotation(reading: ArenaReading, annotated: np.ndarray) -> ArenaReading:
    return ArenaReading(
        reading.ok, reading.occupied, reading.fighters, reading.markers_found, reading.error, annotated, reading.registration
    )


@dataclass(frozen=True)
class BaseCandidate:
    """A compact changed region, its outline fitted as a disc by its front rim."""

    x_mm: float
    y_mm: float
    radius_mm: float  # radius of the disc fitted to the front rim
    behind_mm: float  # how far the change reaches behind the disc (a figure standing on it)
    fit_error_mm: float
    tiered: float = 0.0  # share of rim rays that cross a fainter ring (a base around a figure)
    peak_mm: tuple[float, float] = (0.0, 0.0)  # where the region is widest
    region: int = 0  # connected changed region it belongs to

    @property
    def inscribed_mm(self) -> float:
        return 2 * self.radius_mm


def find_blobs(live: SmoothView, prepared: PreparedReference, geometry: BoardGeometry, settings: ArenaSettings):
    """Disc-like changed regions in the top-down view, plus the change mask and score."""
    view = prepared.view
    search = _search_mask(view, geometry)
    change = change_between(live, prepared.smooth, search)
    score = change.score
    score[~search] = 0
    difference = change.difference
    difference[~search] = 0
    mask = (score >= 1.0).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = _grow_into_faint_change(mask, score)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    mask = _fill_holes(mask)
    distance = cv2.distanceTransform(mask, cv2.DIST_L2, 5) / view.px_per_mm
    radius = settings.base_mm / 2
    # Anything as big as the smallest token is examined; its fitted rim decides what it is.
    peaks = _peaks(distance, MIN_BLOB_RADIUS_MM, separation_px=int(radius * 1.2 * view.px_per_mm))
    _, regions = cv2.connectedComponents(mask, connectivity=8)
    candidates: list[BaseCandidate] = []
    for u, v in peaks:
        candidate = _fit_front_rim(difference, mask, view, u, v, radius)
        if candidate is None:
            continue
        if any(math.hypot(candidate.x_mm - c.x_mm, candidate.y_mm - c.y_mm) < radius for c in candidates):
            continue  # two peaks of one base (the figure behind it can make a second one)
        candidates.append(replace(candidate, peak_mm=view.to_mm(u, v), region=int(regions[v, u])))
    return candidates, mask, score


def _read_registered(image, registration, prepared, geometry, settings) -> ArenaReading:
    view = prepared.view
    live = SmoothView.of(view.warp(image, registration.homography))
    candidates, _, _ = find_blobs(live, prepared, geometry, settings)
    bases, doubts = select_bases(candidates, geometry, settings)
    fighters = []
    for candidate in bases:
        space = geometry.space_at(candidate.x_mm, candidate.y_mm)
        edge = geometry.edge_distance(candidate.x_mm, candidate.y_mm)
        confidence = _confidence(candidate, edge, registration, settings)
        if edge < EDGE_MARGIN_MM:
            doubts.append(f"a fighter at ({candidate.x_mm:.0f}, {candidate.y_mm:.0f}) mm is on a space outline")
        fighters.append(FighterReading(space, (candidate.x_mm, candidate.y_mm), confidence))
    occupied = tuple(sorted({f.space for f in fighters if f.space is not None}, key=_space_sort_key))
    if len(occupied) < sum(1 for f in fighters if f.space is not None):
        doubts.append("two fighters were found on one space")
    error = "Cannot read the arena for sure: " + "; ".join(doubts) + "." if doubts else None
    return ArenaReading(
        ok=not doubts,
        occupied=occupied,
        fighters=tuple(fighters),
        markers_found=registration.markers_found,
        error=error,
        registration=registration,
    )


def select_bases(candidates, geometry: BoardGeometry, settings: ArenaSettings):
    """Which candidates are fighters' bases, and what could not be explained.

    Front to back (the camera's side first): a base is taken; a region's later peaks behind a
    base taken from it are its figure (seen at an angle a standing figure stretches away from
    the camera in the board view). Tokens are dropped. Anything else that touches a space is a
    doubt, so the reading says "not sure" instead of guessing.
    """
    bases: list[BaseCandidate] = []
    for candidate in sorted(candidates, key=lambda c: c.peak_mm[1]):
        if classify(candidate, settings) == "fighter" and not _explained(candidate, bases):
            bases.append(candidate)
    doubts: list[str] = []
    for candidate in candidates:
        if candidate in bases or _explained(candidate, bases) or classify(candidate, settings) != "unsure":
            continue
        if _near_a_space(candidate, geometry):
            doubts.append(
                f"the object at ({candidate.x_mm:.0f}, {candidate.y_mm:.0f}) mm may be a token or a base "
                f"({2 * candidate.radius_mm:.0f} mm across)"
                if 2 * candidate.radius_mm < settings.base_mm + 9
                else f"something that is not a base or a token covers the board near "
                f"({candidate.peak_mm[0]:.0f}, {candidate.peak_mm[1]:.0f}) mm"
            )
    return sorted(bases, key=lambda c: c.x_mm), doubts


def _explained(candidate: BaseCandidate, bases: list[BaseCandidate]) -> bool:
    """A peak inside a taken base, or behind one in the same region (its figure)."""
    for base in bases:
        x, y = candidate.peak_mm
        if math.hypot(x - base.x_mm, y - base.y_mm) < base.radius_mm + 3:
            return True
        if base.region == candidate.region and _is_behind(candidate, base):
            return True
    return False


def _is_behind(candidate: BaseCandidate, base: BaseCandidate) -> bool:
    dx = candidate.peak_mm[0] - base.x_mm
    dy = candidate.peak_mm[1] - base.y_mm
    return dy > 0.3 * base.radius_mm and abs(dx) < dy * 1.2 + base.radius_mm


def _near_a_space(candidate: BaseCandidate, geometry: BoardGeometry) -> bool:
    x, y = candidate.peak_mm
    return geometry.edge_distance(x, y) < 20 or geometry.space_at(x, y) is not None


def _confidence(candidate: BaseCandidate, edge_mm: float, registration: Registration, settings: ArenaSettings) -> float:
    # Clear of the outlines, clearly base-sized, and registered with all markers -> near 1.
    placement = min(1.0, edge_mm / 6.0)
    size = min(1.0, max(0.0, (candidate.inscribed_mm - TOKEN_MAX_MM) / 4.0))
    markers = 1.0 if len(registration.markers_used) >= 4 else 0.9
    return max(0.0, min(1.0, 0.5 + 0.5 * placement * size)) * markers


def _search_mask(view: BoardView, geometry: BoardGeometry) -> np.ndarray:
    """Where a base can be: on the board, away from the markers (a hand over one is no fighter)."""
    w, h = view.size
    mask = np.ones((h, w), bool)
    edge = 2  # the board's own edge flickers with registration error
    mask[:edge, :] = mask[-edge:, :] = False
    mask[:, :edge] = mask[:, -edge:] = False
    for x, y, size in geometry.markers.values():
        half = size / 2 + size / 6 + _MARKER_KEEP_OUT_MM  # the square, its quiet zone and a margin
        rows, cols = view.rect_mask(x - half, y - half, x + half, y + half)
        mask[rows, cols] = False
    return mask


def _half_contrast(mask: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Re-threshold each changed region at half its own contrast.

    Blur spreads a strong change beyond the object's outline; cutting at half the region's
    contrast puts the outline where it really is, whatever the colours, so sizes compare.
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = np.zeros_like(mask)
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        rows, cols = slice(max(0, y - 2), y + h + 2), slice(max(0, x - 2), x + w + 2)
        inside = labels[rows, cols] == label
        level = float(np.percentile(score[rows, cols][inside], 75))
        cut = max(1.0, 0.5 * level)
        grown = cv2.dilate(inside.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        out[rows, cols] |= (grown & (score[rows, cols] >= cut)).astype(np.uint8)
    return out


def _grow_into_faint_change(mask: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Hysteresis: faint change joins the mask where it touches clear change.

    A base close in colour to the board changes the view only faintly, but the figure on it
    changes it clearly; faint pixels on their own are noise or light, and stay out.
    """
    faint = (score >= FAINT_CHANGE).astype(np.uint8)
    count, labels = cv2.connectedComponents(faint, connectivity=8)
    seeded = np.zeros(count, bool)
    seeded[np.unique(labels[mask > 0])] = True
    seeded[0] = False
    return seeded[labels].astype(np.uint8)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """A base whose top matches the board leaves a ring of change: fill it."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    flood = padded.copy()
    cv2.floodFill(flood, None, (0, 0), 1)
    holes = (flood == 0)[1:-1, 1:-1]
    return (mask.astype(bool) | holes).astype(np.uint8)


def _peaks(distance: np.ndarray, minimum: float, *, separation_px: int) -> list[tuple[int, int]]:
    """Local maxima of the distance map above ``minimum``, strongest first, kept apart."""
    kernel = np.ones((3, 3), np.uint8)
    local_max = (distance >= cv2.dilate(distance, kernel)) & (distance >= minimum)
    vs, us = np.nonzero(local_max)
    order = np.argsort(-distance[vs, us], kind="stable")
    kept: list[tuple[int, int]] = []
    for index in order:
        u, v = int(us[index]), int(vs[index])
        if all((u - ku) ** 2 + (v - kv) ** 2 >= separation_px**2 for ku, kv in kept):
            kept.append((u, v))
    return kept


# Around "towards the camera" (view +v) and on to either side, where a figure (narrower than
# its base) leaves the base's rim in view.
_RAY_ANGLES = np.radians(np.linspace(-100, 100, 21))
_RAY_STEP_MM = 0.5
#: Along a ray, a blurred outline's difference climbs by at least this much per step.
_RAMP_MIN_RISE = 1.5
_RAMP_MIN_FRACTION = 0.03
#: A difference (grey levels) below this is sensor noise: the blur tail of an outline ends.
_QUIET_DIFFERENCE = 12.0


def _fit_front_rim(difference, mask, view: BoardView, u: int, v: int, radius_mm: float) -> BaseCandidate | None:
    """Fit a disc to the front rim of the changed region around a peak at (u, v).

    The camera is in front of the board, so a figure hides what is *behind* its base; the
    front rim is always the ground outline. Along rays towards the camera the outline is put
    where the (linear) difference falls to half the level just inside it: blur moves that
    point for no contrast, so strong and faint colours give the same size.
    """
    ppm = view.px_per_mm
    reach = 2.2 * radius_mm
    steps = np.arange(0, reach, _RAY_STEP_MM)
    # View +v is board -y, towards the camera.
    map_u = (u + np.sin(_RAY_ANGLES)[:, None] * steps[None, :] * ppm).astype(np.float32)
    map_v = (v + np.cos(_RAY_ANGLES)[:, None] * steps[None, :] * ppm).astype(np.float32)
    profiles = cv2.remap(difference, map_u, map_v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    profiles = cv2.blur(profiles, (3, 1))  # along the rays only: steadier ramps
    inside = cv2.remap(mask, map_u, map_v, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    points = []
    tiers: list[bool] = []
    for ray in range(len(_RAY_ANGLES)):
        outside = np.nonzero(inside[ray] == 0)[0]
        if len(outside) == 0:
            continue
        first_out = int(outside[0])
        quiet = np.nonzero(profiles[ray, first_out:] < _QUIET_DIFFERENCE)[0]
        end = first_out + (int(quiet[0]) if len(quiet) else 0)  # where the blur tail dies out
        level_at = _top_of_ramp(profiles[ray], end)
        half = profiles[ray, level_at] / 2
        after = np.nonzero(profiles[ray, level_at : min(len(steps), end + 5)] < half)[0]
        if len(after) == 0 or after[0] == 0:
            continue
        # A ring fainter than what lies inside it: a base showing in front of its figure.
        tiers.append(profiles[ray, level_at] < _TIER_RATIO * profiles[ray, : level_at + 1].max())
        k = level_at + int(after[0])
        a, b = profiles[ray, k - 1], profiles[ray, k]
        t = (a - half) / (a - b) if a != b else 0.5
        distance = (k - 1 + t) * _RAY_STEP_MM
        points.append((u / ppm + np.sin(_RAY_ANGLES[ray]) * distance, v / ppm + np.cos(_RAY_ANGLES[ray]) * distance))
    if len(points) < 6:
        return None
    fitted = _robust_circle(np.array(points))
    if fitted is None:
        return None
    cu, cv, r, err = fitted
    x_mm, y_mm = view.to_mm(cu * ppm, cv * ppm)
    behind = _reach_behind(mask, view, cu * ppm, cv * ppm, r)
    return BaseCandidate(x_mm, y_mm, r, behind, err, tiered=float(np.mean(tiers)))


def _top_of_ramp(profile: np.ndarray, end: int) -> int:
    """Walk inwards from the quiet end of a ray while the difference keeps climbing.

    Where it levels off is the plateau of the outermost thing (a base ring in front of its
    figure, or a token): half of that level is its outline.
    """
    k = end
    while k > 0:
        rise = profile[k - 1] - profile[k]
        if rise < max(_RAMP_MIN_RISE, _RAMP_MIN_FRACTION * profile[k]):
            break
        k -= 1
    return k


def _robust_circle(points: np.ndarray):
    """Least-squares circle (centre, radius, rms) that drops rim points from a touching neighbour."""
    keep = np.ones(len(points), bool)
    result = None
    for _ in range(3):
        if keep.sum() < 5:
            return result
        p = points[keep]
        design = np.column_stack([2 * p[:, 0], 2 * p[:, 1], np.ones(len(p))])
        rhs = (p**2).sum(axis=1)
        (cx, cy, c), *_ = np.linalg.lstsq(design, rhs, rcond=None)
        r2 = c + cx**2 + cy**2
        if r2 <= 0:
            return None
        r = math.sqrt(r2)
        residual = np.abs(np.hypot(points[:, 0] - cx, points[:, 1] - cy) - r)
        result = (cx, cy, r, float(np.sqrt(np.mean(residual[keep] ** 2))))
        new_keep = residual < max(1.0, 2.5 * float(np.median(residual[keep])))
        if np.array_equal(new_keep, keep):
            break
        keep = new_keep
    return result


def _reach_behind(mask, view: BoardView, cu: float, cv: float, r_mm: float) -> float:
    """How far (mm) the change goes on behind the disc, straight away from the camera."""
    ppm = view.px_per_mm
    h, w = mask.shape
    col_lo, col_hi = int(max(0, cu - 0.4 * r_mm * ppm)), int(min(w, cu + 0.4 * r_mm * ppm + 1))
    row = int(round(cv - r_mm * ppm))
    start = int(round(cv))
    if not 0 <= start < h or col_lo >= col_hi:
        return 0.0
    column = mask[: start + 1, col_lo:col_hi].any(axis=1)[::-1]  # from the centre backwards
    gaps = np.nonzero(~column)[0]
    extent_px = int(gaps[0]) if len(gaps) else start + 1
    return max(0.0, extent_px / ppm - r_mm) if row >= -h else 0.0


def classify(candidate: BaseCandidate, settings: ArenaSettings) -> str:
    """"fighter", "token" or "unsure", from the fitted rim size and a figure behind it.

    Tokens are 15-22 mm across, bases 25-28 mm (about ``base_mm``): the cut sits between.
    A figure standing on a base makes the change reach on behind the rim; a flat token does not.
    """
    diameter = 2 * candidate.radius_mm
    if math.hypot(candidate.peak_mm[0] - candidate.x_mm, candidate.peak_mm[1] - candidate.y_mm) > 0.8 * candidate.radius_mm:
        return "unsure"  # the rim fitted from this peak is not around it: not a disc
    cut = TOKEN_MAX_MM + (settings.base_mm - 1 - TOKEN_MAX_MM) / 2
    if diameter > settings.base_mm + 9:
        return "unsure"  # no single base is this big: something else is on the board
    if candidate.fit_error_mm > MAX_RIM_ERROR_MM:
        return "unsure"  # not one disc: touching tokens, a token against a base, a hand
    if diameter >= cut + 0.8:
        return "fighter"
    if diameter <= cut - 0.8:
        # A flat token ends at its rim and looks the same all across; change reaching on
        # behind it, or a faint ring round a strong middle, is a figure on a base the colour
        # of the board.
        plain = candidate.behind_mm < TOKEN_BEHIND_MM and candidate.tiered < MAX_TOKEN_TIERED
        return "token" if plain else "unsure"
    return "unsure"


def _space_sort_key(space_id: str):
    digits = "".join(ch for ch in space_id if ch.isdigit())
    return (space_id.rstrip("0123456789"), int(digits) if digits else -1, space_id)
