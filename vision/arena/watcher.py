"""The live arena watcher: pure logic the service feeds with frames and their times.

No threads and no clock: ``add_frame(frame, t)`` with a monotonic ``t``. It reads the arena
only when the view has been still for ``stable_frames`` frames (no hands, no motion), at most
``read_hz`` times a second, against the calibrated empty view. It keeps the fighters' names
by continuity with the positions the tracker expects (and by base colour where configured),
and reports, as data: disagreements with the tracker, drift since calibration, missing
markers, and readings it could not make for sure. It never reports a wrong space silently.
"""

from __future__ import annotations

import enum
import itertools
import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import cv2
import numpy as np

from vision.arena.calibration import ArenaCalibration
from vision.arena.reader import ArenaReading, FighterReading, check_image, read_arena
from vision.arena.settings import ArenaSettings

#: Mean absolute grey-level change between consecutive small frames that counts as motion.
MOTION_LEVEL = 2.5
#: Share of pixels changing by more than ``MOTION_PIXEL_DELTA`` that counts as motion.
MOTION_SHARE = 0.004
MOTION_PIXEL_DELTA = 18
_MOTION_WIDTH = 160
#: A configured base colour this far (Lab units) from what the camera sees is not that fighter.
COLOUR_MATCH_LAB = 35.0


class WatchStatus(enum.Enum):
    READ = "read"  # a trustworthy reading; see disagreements
    UNCERTAIN = "uncertain"  # the camera could not read the arena for sure (see message)
    RECALIBRATE = "recalibrate"  # the camera moved past the tolerance or markers are missing


@dataclass(frozen=True)
class Disagreement:
    fighter: str
    camera_space: str | None
    tracker_space: str | None

    @property
    def message(self) -> str:
        seen = self.camera_space or "no space"
        return f"Camera sees {self.fighter} on {seen}, tracker says {self.tracker_space or 'no space'}"


@dataclass(frozen=True)
class WatchResult:
    t: float
    status: WatchStatus
    reading: ArenaReading = field(repr=False)
    positions: Mapping[str, FighterReading]  # fighter name -> what the camera sees
    disagreements: tuple[Disagreement, ...]
    drift_mm: float
    missing_markers: tuple[int, ...]
    messages: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return self.status is WatchStatus.READ and not self.disagreements


class ArenaWatcher:
    """Feed it frames; it answers with a :class:`WatchResult` whenever it read the arena."""

    def __init__(
        self,
        calibration: ArenaCalibration,
        *,
        settings: ArenaSettings = ArenaSettings(),
        fighters: Sequence[str] = ("0", "1"),
    ) -> None:
        if len(set(fighters)) != len(fighters) or not fighters:
            raise ValueError(f"fighters is {tuple(fighters)!r}: it must name each fighter once")
        self._calibration = calibration
        # Where the frames are expected to show the markers: the calibration's at first, then
        # wherever the last searched frame found them (a nudged camera stays nudged).
        self._reference = calibration.reference
        self._settings = settings
        self._fighters = tuple(str(f) for f in fighters)
        self._expected: dict[str, str | None] = {}
        self._last_seen: dict[str, tuple[float, float]] = {}
        self._previous_small: np.ndarray | None = None
        self._still_frames = 0
        self._last_read_t: float | None = None
        self._last_t: float | None = None
        self._closed = False

    # --- what the tracker says ----------------------------------------------------

    @property
    def expected_positions(self) -> dict[str, str | None]:
        return dict(self._expected)

    @expected_positions.setter
    def expected_positions(self, positions: Mapping[str, str | None]) -> None:
        unknown = [f for f in positions if str(f) not in self._fighters]
        if unknown:
            raise ValueError(f"expected_positions names {unknown!r}: the watcher knows only {self._fighters!r}")
        for fighter, space in positions.items():
            if space is not None and space not in self._calibration.geometry.spaces:
                raise ValueError(f"expected_positions[{fighter!r}] is {space!r}: not a space of this layout")
        self._expected = {str(f): s for f, s in positions.items()}

    # --- frames -------------------------------------------------------------------

    @property
    def is_stable(self) -> bool:
        return self._still_frames >= self._settings.stable_frames

    def add_frame(self, frame: np.ndarray, t: float) -> WatchResult | None:
        """Take one camera frame taken at monotonic time ``t``; a result when it read."""
        if self._closed:
            raise RuntimeError("the arena watcher is closed")
        frame = check_image(frame, "frame")
        if self._last_t is not None and t < self._last_t:
            raise ValueError(f"t is {t!r}: frame times must not go backwards (last was {self._last_t!r})")
        self._last_t = t
        small = _small_grey(frame)
        moving = self._previous_small is not None and (
            self._previous_small.shape != small.shape or _is_motion(self._previous_small, small)
        )
        self._previous_small = small
        self._still_frames = 0 if moving else self._still_frames + 1
        if not self.is_stable:
            return None
        if self._last_read_t is not None and t - self._last_read_t < 1.0 / self._settings.read_hz:
            return None
        self._last_read_t = t
        return self._read(frame, t)

    def close(self) -> None:
        self._closed = True
        self._previous_small = None

    def __enter__(self) -> "ArenaWatcher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- reading ------------------------------------------------------------------

    def _read(self, frame: np.ndarray, t: float) -> WatchResult:
        geometry = self._calibration.geometry
        # A match has exactly its fighters on the board: that settles "one more fighter?" doubts.
        reading = read_arena(frame, self._reference, geometry, self._settings, fighters=len(self._fighters))
        registration = reading.registration
        if registration is not None:
            # Only the first read after a nudge pays the marker search; drift below is still
            # measured against the calibration, whatever the reference follows.
            self._reference = self._reference.following(frame, registration)
        missing = registration.missing(geometry) if registration is not None else tuple(sorted(geometry.markers))
        drift = self._calibration.drift_mm(registration) if registration is not None else math.inf
        messages: list[str] = []
        needs_calibration = False
        if missing:
            messages.append(f"Markers {', '.join(map(str, missing))} are not visible: check the arena or recalibrate")
            needs_calibration = True
        if drift > self._settings.drift_tolerance_mm:
            messages.append(
                f"The camera view moved {drift:.0f} mm since calibration (tolerance "
                f"{self._settings.drift_tolerance_mm:g} mm): recalibrate"
            )
            needs_calibration = True
        if not reading.ok:
            messages.append(f"Camera reading uncertain{_seen_in_doubt(reading)}: {reading.error}")
            status = WatchStatus.UNCERTAIN
            return WatchResult(t, status, reading, {}, (), drift, missing, tuple(messages))
        positions, naming_problem = self._name_fighters(frame, reading)
        if naming_problem:
            messages.append(naming_problem)
            return WatchResult(t, WatchStatus.UNCERTAIN, reading, {}, (), drift, missing, tuple(messages))
        self._last_seen = {name: f.board_mm for name, f in positions.items()}
        disagreements = tuple(
            Disagreement(name, positions[name].space, self._expected.get(name))
            for name in self._fighters
            if name in positions and name in self._expected and positions[name].space != self._expected[name]
        )
        messages.extend(d.message for d in disagreements)
        status = WatchStatus.RECALIBRATE if needs_calibration else WatchStatus.READ
        return WatchResult(t, status, reading, positions, disagreements, drift, missing, tuple(messages))

    def _name_fighters(self, frame, reading: ArenaReading):
        """Give each seen fighter a name: colours first (if configured), then continuity."""
        seen = list(reading.fighters)
        if len(seen) != len(self._fighters):
            return {}, f"Camera sees {len(seen)} fighter(s), the match has {len(self._fighters)}"
        colours = {name: self._settings.base_bgr(name) for name in self._fighters}
        seen_lab = [_base_lab(frame, reading, f) for f in seen] if any(colours.values()) else []
        best: tuple[float, tuple[int, ...]] | None = None
        for order in itertools.permutations(range(len(seen))):
            cost = 0.0
            for name, index in zip(self._fighters, order):
                cost += self._distance_cost(name, seen[index])
                wanted = colours[name]
                if wanted is not None:
                    gap = float(np.linalg.norm(_bgr_to_lab(wanted) - seen_lab[index]))
                    if gap > COLOUR_MATCH_LAB:
                        cost += 1e6  # that base is not this fighter's colour
                    cost += gap * 2.0  # colour outweighs a step of continuity
            if best is None or cost < best[0]:
                best = (cost, order)
        assert best is not None
        if best[0] >= 1e6:
            return {}, "Camera cannot tell the fighters apart: a base colour does not match the config"
        return {name: seen[index] for name, index in zip(self._fighters, best[1])}, None

    def _distance_cost(self, name: str, fighter: FighterReading) -> float:
        anchor = None
        space = self._expected.get(name)
        if space is not None:
            anchor = self._calibration.geometry.spaces[space]
        elif name in self._last_seen:
            anchor = self._last_seen[name]
        if anchor is None:
            return 0.0
        return math.hypot(fighter.board_mm[0] - anchor[0], fighter.board_mm[1] - anchor[1])


def _small_grey(frame: np.ndarray) -> np.ndarray:
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    height = max(1, round(grey.shape[0] * _MOTION_WIDTH / grey.shape[1]))
    return cv2.GaussianBlur(cv2.resize(grey, (_MOTION_WIDTH, height), interpolation=cv2.INTER_AREA), (3, 3), 0)


def _is_motion(previous: np.ndarray, current: np.ndarray) -> bool:
    delta = cv2.absdiff(previous, current)
    return float(delta.mean()) > MOTION_LEVEL or float((delta > MOTION_PIXEL_DELTA).mean()) > MOTION_SHARE


def _bgr_to_lab(bgr) -> np.ndarray:
    pixel = np.array([[bgr]], np.uint8)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)


def _base_lab(frame: np.ndarray, reading: ArenaReading, fighter: FighterReading) -> np.ndarray:
    """Median colour of the base's front rim ring (the part no figure hides), in Lab."""
    x, y = fighter.board_mm
    angles = np.radians(np.linspace(200, 340, 15))  # the half facing the front edge
    ring = np.array([[x + r * math.cos(a), y + r * math.sin(a)] for r in (9.0, 11.0) for a in angles])
    pts = np.round(reading.registration.project(ring)).astype(int)
    h, w = frame.shape[:2]
    pts = pts[(pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)]
    if frame.ndim == 2 or len(pts) == 0:
        return np.zeros(3)
    samples = frame[pts[:, 1], pts[:, 0]]
    return _bgr_to_lab(np.median(samples, axis=0).astype(np.uint8))


def _seen_in_doubt(reading: ArenaReading) -> str:
    """What a reading in doubt still sees, for the referee: " (sees S3; maybe S4)", or nothing."""
    sure = [f.space for f in reading.fighters if f.space is not None and not f.guessed]
    maybe = [f.space for f in reading.fighters if f.space is not None and f.guessed]
    parts = [f"{word} {', '.join(spaces)}" for word, spaces in (("sees", sure), ("maybe", maybe)) if spaces]
    return f" ({'; '.join(parts)})" if parts else ""
