"""Read which space each fighter stands on, from one image and the empty reference.

Pipeline: register the image by its markers (:mod:`registration`) -> recover where the
camera is (:mod:`pose`) -> warp image and reference to the top-down board view and remove the
lighting change (:mod:`topdown`) -> fit discs to the changed regions by their rim facing the
camera, tell bases from tokens and figures, and list what cannot be explained
(:mod:`bases`) -> name the space under each base. Any doubt makes the reading ``ok: false``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry
from vision.arena.registration import Registration, StillMarkers, register
from vision.arena.settings import ArenaSettings
from vision.arena.bases import (TOKEN_MAX_MM, Blob, FirmDoubt, HidingDoubt, board_noise, change_mask, changed_window,
                                find_blobs, is_clear_base, select_bases)
from vision.arena.hiding import (MIN_BASE_MM, SOLID_OVERLAP_MM, base_apart_from_cover, markers_reached,
                                 search_mask as _search_mask)
from vision.arena.pose import CameraPosition, camera_position
from vision.arena.topdown import CHROMA_CHANGE, BoardView, SmoothView, change_between, chroma_change_for

#: Fighter centres closer than this (mm) to a space outline are too close to call.
EDGE_MARGIN_MM = 1.5
#: ... and this much for a fighter placed by its figure (a figure leans a few mm off centre).
FIGURE_ONLY_EDGE_MARGIN_MM = 6.0
#: A Knockdown match has two fighters: a reading in doubt guesses no more than that (or the count).
MATCH_FIGHTERS = 2
#: The confidence of a fighter a reading in doubt only guesses (a sure one's is 0.45 or more).
GUESS_CONFIDENCE = 0.2
#: Sightings nearer each other than this (mm) are taken for one thing: two fighters' bases do not
#: overlap, so their centres lie at least the smallest base apart (25 mm), and a sighting places a
#: centre to within a solid's fitting error (3 mm), each of the two (the ninety-sixth pass).
ONE_THING_MM = MIN_BASE_MM - 2 * SOLID_OVERLAP_MM


#: How many other mappings' camera positions a prepared reference keeps (see camera_for).
_CAMERAS_KEPT = 8


class ArenaInputError(ValueError):
    """An image the reader cannot use at all (not a picture, or a reference without markers)."""


@dataclass(frozen=True)
class FighterReading:
    space: str | None
    board_mm: tuple[float, float]
    confidence: float
    #: Only guessed by a reading in doubt (see ``_best_guesses``), for the referee to confirm.
    guessed: bool = False

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
    """The empty board, registered and warped once (the live service reuses it every read).

    ``registration`` and ``still`` say where live frames are expected to show the markers:
    at first the reference's own. A live camera nudged since stays where it was nudged to:
    :meth:`following` a frame registered by its markers moves them to that frame, while
    ``smooth`` (the empty board's top-down view, the change reference) stays.
    """

    registration: Registration
    view: BoardView
    smooth: SmoothView
    image_size: tuple[int, int]  # (width, height) of the reference image
    still: StillMarkers  # the markers' patches as last registered, to spot an unmoved camera
    search: np.ndarray = field(repr=False, compare=False)  # see _search_mask, made once
    camera: CameraPosition  # where ``registration`` puts the camera
    #: Camera positions of the last few other mappings, by mapping and frame size (see camera_for).
    cameras: dict = field(default_factory=dict, repr=False, compare=False)
    #: The colour shift that counts as change in this camera's frames (see chroma_change_for).
    chroma_change: float = CHROMA_CHANGE

    def expected_markers(self, image: np.ndarray) -> np.ndarray | None:
        """Where the markers should be in a same-size image: where they were last registered."""
        return self.registration.homography if self._same_size(image) else None

    def still_markers(self, image: np.ndarray) -> StillMarkers | None:
        """How the markers were last seen, for a same-size image (see :class:`StillMarkers`)."""
        return self.still if self._same_size(image) else None

    def following(self, frame: np.ndarray, registration: Registration) -> "PreparedReference":
        """This reference with the camera where ``frame``'s own ``registration`` put it.

        Only a frame registered by a marker search (not taken as unmoved), by every marker
        it found (three or more agreeing: a fourth may be covered, as by a hand right after a
        nudge), moves it: the next frames are then compared with that frame's marker patches
        and, if unmoved, warped by its mapping; a covered marker is looked for where that
        mapping puts it, and once it is back a search registers the frame by it too.
        Otherwise ``self``: a marker found but left out (it disagreed) would never be looked
        at again, so a frame with one does not move the reference.
        """
        if registration.unmoved or not registration.ok or not self._same_size(frame):
            return self
        if not set(registration.markers_found) <= set(registration.markers_used):
            return self
        return dataclasses.replace(
            self, registration=registration, still=StillMarkers.of(frame, registration),
            camera=camera_position(registration.homography, self.image_size),
        )

    def camera_for(self, image: np.ndarray, registration: Registration) -> CameraPosition:
        """The camera position of ``image``'s registration (worked out once for the expected one)."""
        if self._same_size(image) and np.array_equal(registration.homography, self.registration.homography):
            return self.camera
        # A frame with a marker covered since the camera stood still gets the same mapping each
        # time (see registration._still_registration): its camera is worked out once.
        size = (image.shape[1], image.shape[0])
        key = (registration.homography.tobytes(), size)
        camera = self.cameras.get(key)
        if camera is None:
            if len(self.cameras) >= _CAMERAS_KEPT:
                self.cameras.clear()  # (searched mappings of a moving camera differ every frame)
            camera = self.cameras[key] = camera_position(registration.homography, size)
        return camera

    def _same_size(self, image: np.ndarray) -> bool:
        return self.image_size == (image.shape[1], image.shape[0])


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


def prepare_reference(
    reference: np.ndarray, geometry: BoardGeometry, *, registration: Registration | None = None
) -> PreparedReference:
    """Register and warp the empty reference; refuse one whose markers do not map the board.

    ``registration`` is the reference's own, if it was registered already (calibration).
    """
    reference = check_image(reference, "reference")
    registration = register(reference, geometry) if registration is None else registration
    if not registration.ok:
        raise ArenaInputError(f"the reference image cannot be used: {registration.error}")
    view = BoardView.of(geometry)
    smooth = SmoothView.of(view.warp(reference, registration.homography))
    size = (reference.shape[1], reference.shape[0])
    search = _search_mask(view, geometry)
    search.flags.writeable = False  # shared by every read
    chroma_change = chroma_change_for(reference)  # the camera's: its live frames are alike
    return PreparedReference(
        registration, view, smooth, size, StillMarkers.of(reference, registration), search,
        camera_position(registration.homography, size), chroma_change=chroma_change,
    )


def read_arena(
    image: np.ndarray,
    reference: np.ndarray | PreparedReference,
    geometry: BoardGeometry,
    settings: ArenaSettings = ArenaSettings(),
    *,
    annotate: bool = True,
    fighters: int | None = None,
) -> ArenaReading:
    """Read the arena in ``image`` against the empty ``reference`` (an image or a prepared one).

    ``fighters`` is how many fighters stand on the board, if known (two in a match): with
    that many clear bases found, change elsewhere is no further fighter, and a different
    number found is a doubt.
    """
    if fighters is not None and (isinstance(fighters, bool) or not isinstance(fighters, int) or fighters < 0):
        raise ValueError(f"fighters is {fighters!r}: it must be a whole number of fighters, 0 or more")
    image = check_image(image)
    prepared = reference if isinstance(reference, PreparedReference) else prepare_reference(reference, geometry)
    registration = register(
        image, geometry, expected=prepared.expected_markers(image), still=prepared.still_markers(image)
    )
    if not registration.ok:
        reading = ArenaReading(False, (), (), registration.markers_found, registration.error, registration=registration)
    else:
        reading = _read_registered(image, registration, prepared, geometry, settings, fighters)
    if annotate:
        from vision.arena.annotate import annotate_reading

        reading = _with_annotation(reading, annotate_reading(image, reading, geometry))
    return reading


def _with_annotation(reading: ArenaReading, annotated: np.ndarray) -> ArenaReading:
    return ArenaReading(
        reading.ok, reading.occupied, reading.fighters, reading.markers_found, reading.error, annotated, reading.registration
    )


def _read_registered(image, registration, prepared, geometry, settings, expected_fighters) -> ArenaReading:
    view = prepared.view
    # The live view is used up within this read: its arrays are reused by the next (see Scratch).
    live = SmoothView.of(view.warp(image, registration.homography, in_scratch=True), in_scratch=True)
    camera = prepared.camera_for(image, registration)
    search = prepared.search
    change = change_between(live, prepared.smooth, search, prepared.chroma_change)
    noise = board_noise(change, search)  # (once: the mask and a token-sized disc standing up both need it)
    mask = change_mask(change, search, noise)
    blobs = find_blobs(change, mask, view, camera, settings, search, noise)
    return _decide(blobs, mask, view, camera, registration, geometry, settings, expected_fighters, search)


def _decide(blobs, mask, view, camera, registration, geometry, settings, expected_fighters,
            search=None) -> ArenaReading:
    """The reading from the discs fitted to the change: fighters, their spaces, and the doubts."""
    bases, doubts = select_bases(blobs, mask, view, geometry, camera, settings, expected=expected_fighters,
                                 search=search, markers_found=registration.markers_found)
    if expected_fighters is not None:
        doubts = _with_fighter_count(bases, doubts, expected_fighters, geometry, settings)
    doubts += _fighters_at_covered_markers(bases, mask, view, camera, geometry, registration.markers_found)
    fighters = []
    for base in bases:
        space = geometry.space_at(base.x_mm, base.y_mm)
        edge = geometry.edge_distance(base.x_mm, base.y_mm)
        if edge < (FIGURE_ONLY_EDGE_MARGIN_MM if base.figure_only else EDGE_MARGIN_MM):
            doubts.append(f"a fighter at ({base.x_mm:.0f}, {base.y_mm:.0f}) mm is on a space outline")
        elif space is None and edge < base.radius_mm:
            # Off every space, yet its base reaches over one: on or off then hangs on where its centre
            # is, and a base the board's colour, its near rim unseen, is fitted across its far part
            # and the figure's foot, up to a radius away from the camera (350159: 12 mm, off S4).
            # Neither the count nor anything else here places it: that stays a doubt.
            doubts.append(f"a fighter at ({base.x_mm:.0f}, {base.y_mm:.0f}) mm is off every space but its "
                          "base reaches over one")
        confidence = _confidence(base, edge, registration, settings)
        fighters.append(FighterReading(space, (float(base.x_mm), float(base.y_mm)), float(confidence)))
    occupied = tuple(sorted({f.space for f in fighters if f.space is not None}, key=_space_sort_key))
    if len(occupied) < sum(1 for f in fighters if f.space is not None):
        doubts.append("two fighters were found on one space")
    if doubts:
        at_most = MATCH_FIGHTERS if expected_fighters is None else expected_fighters  # (a count of 0 guesses no one)
        fighters += _best_guesses(fighters, doubts, geometry, at_most, counted=expected_fighters is not None)
        occupied = tuple(sorted({f.space for f in fighters if f.space is not None}, key=_space_sort_key))
    error = "Cannot read the arena for sure: " + "; ".join(doubts) + "." if doubts else None
    return ArenaReading(
        ok=not doubts,
        occupied=occupied,
        fighters=tuple(fighters),
        markers_found=registration.markers_found,
        error=error,
        registration=registration,
    )


def _best_guesses(fighters: list[FighterReading], doubts: list[str], geometry: BoardGeometry,
                  at_most: int, *, counted: bool = False) -> list[FighterReading]:
    """The fighters a reading in doubt adds to those it is sure of, for its best reading.

    A doubt about something seen (an object that may be a token or a base, a figure standing on
    a space's outline: the doubt's ``sighting``) names a space a fighter may stand on. The spaces
    most named, then those with no disc seen there under the token/base size cut (``Doubt.token_sized``:
    a disc that measures a token's size is more likely a token than a fighter's base; 995273), then
    those seen nearest their centre (a fighter stands on its space), are added
    until the reading holds ``at_most`` fighters: the count if known, else a match's two. A figure
    standing clear of every space that may hide a fighter (a hiding doubt's ``off_the_row``) is
    one of them too: off the row, it is on no space, but it is a fighter the count includes (a
    fighter off the row's figure leans over a space and was guessed there: 950169, 950186). The
    reading stays ``ok: false``; these are what the referee is asked to confirm, never an answer
    (confidence ``GUESS_CONFIDENCE``). One thing seen is one fighter at most: a space whose
    sightings lie within ``ONE_THING_MM`` of a space already guessed is the same thing seen
    across an outline (a token on S4's edge named on S4 and S5; a base on S9 whose figure shows on S8's
    outline, 17 mm off: 996552), not a second fighter. A disc seen
    with no change where a figure standing on it would show (``Doubt.no_figure``) names no one: a
    fighter is a figure rising from its base. Doubts of change alone name no one, nor, without the
    count, doubts of room for a fighter (hiding behind a figure). With the count (``counted``),
    fighters it says stand unseen once every sighting is guessed are behind figures: the spaces
    that may hide one are guessed when they are no more than the fighters missing (more would be a
    pick among them that nothing seen makes)."""
    off_the_row = {d.off_the_row for d in doubts if getattr(d, "off_the_row", None) is not None}
    room = at_most - len(fighters) - len(off_the_row)
    taken = {f.space for f in fighters}
    seen: dict[str, list[tuple[float, float]]] = {}
    token_sized: set[str] = set()  # spaces where a disc seen measures under the token/base size cut
    for doubt in doubts:
        sighting = getattr(doubt, "sighting", None)
        if sighting is None or getattr(doubt, "no_figure", False):
            continue
        space = getattr(doubt, "space", None) or geometry.space_at(*sighting)
        if space is not None and space not in taken:
            seen.setdefault(space, []).append(sighting)
            if getattr(doubt, "token_sized", False):
                token_sized.add(space)
    hidden = [d.space for d in doubts
              if isinstance(d, HidingDoubt) and d.sighting is None and d.space not in taken] if counted else []
    if room <= 0 or not (seen or hidden):
        return []

    def off_centre(space: str) -> float:
        sx, sy = geometry.spaces[space]
        return min(math.hypot(x - sx, y - sy) for x, y in seen[space])

    def same_thing(space: str, other: str) -> bool:
        return any(math.hypot(x - u, y - v) < ONE_THING_MM for x, y in seen[space] for u, v in seen[other])

    guessed: list[str] = []
    for space in sorted(seen, key=lambda space: (-len(seen[space]), space in token_sized, off_centre(space))):
        if len(guessed) < room and not any(same_thing(space, other) for other in guessed):
            guessed.append(space)
    guesses = [FighterReading(space, tuple(np.mean(seen[space], axis=0).tolist()), GUESS_CONFIDENCE, guessed=True)
               for space in guessed]
    hidden = list(dict.fromkeys(space for space in hidden if space not in guessed))
    if hidden and len(hidden) <= room - len(guessed):
        # Nothing of them is seen: each is placed at its space's centre.
        guesses += [FighterReading(space, geometry.spaces[space], GUESS_CONFIDENCE, guessed=True) for space in hidden]
    return guesses


def _fighters_at_covered_markers(bases, mask, view, camera, geometry, markers_found) -> list[str]:
    """A doubt for each fighter whose change runs up to a covered marker: it may be the hand's.

    Why: a hand over a marker reaches onto the board past the square kept out round it, and
    its cut-off edge can fit a crisp base-sized disc with change behind it (440017: the hand
    over marker 11 read as a fighter on S9). A fighter really beside a covered marker cannot be
    told from the hand's edge either when its base's change merges with the hand's; the marker will
    show again once the hand is gone. One whose base is seen whole apart from it, joined to it only by
    its figure, is read (see :func:`_covered_marker_reached`)."""
    if len(markers_found) >= len(geometry.markers) or not bases:
        return []
    # The regions are labelled round the change only: past it the mask is empty (see changed_window).
    mask = mask.astype(np.uint8, copy=False)
    rows, cols = changed_window(mask, 0)
    if rows.start == rows.stop:
        return []  # nothing changed: no base's region reaches anything
    _, regions = cv2.connectedComponents(mask[rows, cols], connectivity=8)
    doubts = []
    for base in bases:
        u, v = (int(round(c)) for c in view.to_px(*base.peak_mm))  # (its widest point: in its region)
        v, u = min(max(v, 0), mask.shape[0] - 1) - rows.start, min(max(u, 0), mask.shape[1] - 1) - cols.start
        label = regions[v, u] if 0 <= v < regions.shape[0] and 0 <= u < regions.shape[1] else 0
        if label == 0:
            continue
        region = np.zeros(mask.shape, bool)
        region[rows, cols] = regions == label
        marker_id = _covered_marker_reached(base, region, view, geometry, markers_found, camera)
        if marker_id is not None:
            doubts.append(f"the change at ({base.x_mm:.0f}, {base.y_mm:.0f}) mm runs up to marker {marker_id}, "
                          "which is covered: a hand's edge or a fighter?")
    return doubts


def _covered_marker_reached(base, region, view, geometry, markers_found, camera) -> int | None:
    """The covered marker whose cover a fighter's change may be the edge of, if any.

    The change runs up to the marker as a hand over it does (``hiding.markers_reached``), unless
    the fighter's base is seen whole apart from it: joined to it only by a neck narrower than the
    base (its figure leaning on to the hand, or hiding the marker; ``hiding.base_apart_from_cover``)
    and the rest of the change lying on no space but the base's own. A hand's edge reaching another
    space may hide a fighter there; on the base's own space it adds nothing to the reading."""
    space = geometry.space_at(base.x_mm, base.y_mm)
    for marker_id in markers_reached(region, view, geometry, markers_found, camera):
        own = None if base.figure_only else base_apart_from_cover(region, view, geometry, marker_id, base.x_mm, base.y_mm)
        if own is None or _on_another_space(region & ~own, view, geometry, space):
            return marker_id
    return None


def _on_another_space(change, view, geometry, space) -> bool:
    """Whether any of ``change`` (a bool mask of the view) lies on a space other than ``space``."""
    half = geometry.space_mm / 2
    for space_id, (sx, sy) in geometry.spaces.items():
        if space_id != space and change[view.rect_mask(sx - half, sy - half, sx + half, sy + half)].any():
            return True
    return False


def _with_fighter_count(
    bases: list[Blob], doubts: list[str], expected: int, geometry: BoardGeometry, settings: ArenaSettings
) -> list[str]:
    """The doubts left once the number of fighters on the board is known.

    Each doubt from :func:`select_bases` says "one more fighter may be here": with exactly
    the expected number of bases found, every one of them clear, there is no more fighter.
    """
    if len(bases) != expected:
        return doubts + [f"the camera sees {len(bases)} fighter(s) where {expected} stand on the board"]
    # A fighter hiding on a space one of them stands on: the count says there is none, and
    # were the one seen there something else, the hidden one would stand on that same space.
    occupied = {geometry.space_at(base.x_mm, base.y_mm) for base in bases}
    doubts = [d for d in doubts if not (isinstance(d, HidingDoubt) and d.space in occupied)]
    if all(is_clear_base(base, settings) and _well_inside(base, geometry) for base in bases):
        return [d for d in doubts if isinstance(d, FirmDoubt)]
    return doubts


def _well_inside(base: Blob, geometry: BoardGeometry) -> bool:
    """A base stands on the board: its centre at least its radius inside the edges."""
    w, h = geometry.board_mm
    return abs(base.x_mm) <= w / 2 - base.radius_mm and abs(base.y_mm) <= h / 2 - base.radius_mm


def _confidence(base: Blob, edge_mm: float, registration: Registration, settings: ArenaSettings) -> float:
    # Clear of the outlines, clearly base-sized, and registered with all markers -> near 1.
    placement = min(1.0, edge_mm / 6.0)
    size = min(1.0, max(0.0, (base.diameter_mm - TOKEN_MAX_MM) / 4.0))
    markers = 1.0 if len(registration.markers_used) >= 4 else 0.9
    return max(0.0, min(1.0, 0.5 + 0.5 * placement * size)) * markers


def _space_sort_key(space_id: str):
    digits = "".join(ch for ch in space_id if ch.isdigit())
    return (space_id.rstrip("0123456789"), int(digits) if digits else -1, space_id)
