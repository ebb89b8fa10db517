"""The live tower judge: frames arrive during the countdown, the verdict comes after the deadline.

Pure logic: no threads and no clock reads; the caller passes every time in (monotonic seconds),
so the gating is deterministic to test.  After the deadline the session waits, for at most
``settings.settle_seconds``, for hands to leave and the tower to stop moving ("hand"/"stable"
gating), then judges.  A camera that stops delivering makes the verdict "uncertain: camera lost".
"""

from __future__ import annotations

import collections
import time

import numpy as np

from vision.tower.judge import Observation, TowerAnalyzer, annotate
from vision.tower.settings import TowerSettings
from vision.tower.verdict import Reason, TowerVerdict, Verdict


class TowerSessionError(ValueError):
    """The session was used out of order (e.g. frames before the reference)."""


class TowerSession:
    """One Knockdown Test seen by the tower camera."""

    def __init__(
        self,
        *,
        heavy: int,
        light: int,
        settings: TowerSettings = TowerSettings(),
        camera_timeout: float = 1.0,
        stable_frames: int = 3,
        history: int = 12,
    ):
        self.heavy, self.light, self.settings = heavy, light, settings
        self.camera_timeout = camera_timeout
        self.stable_frames = stable_frames
        self._analyzer: TowerAnalyzer | None = None
        self._frames: collections.deque[tuple[float, Observation]] = collections.deque(maxlen=history)

    @property
    def is_started(self) -> bool:
        return self._analyzer is not None

    def start(self, reference_frame: np.ndarray) -> None:
        """The countdown started: this frame shows the empty build spot."""
        self._analyzer = TowerAnalyzer(reference_frame, heavy=self.heavy, light=self.light, settings=self.settings)
        self._frames.clear()

    def add_frame(self, frame: np.ndarray, t_monotonic: float) -> None:
        """A frame from the countdown or the settle window (the per-frame analysis runs here)."""
        analyzer = self._require_started()
        if self._frames and t_monotonic < self._frames[-1][0]:
            raise TowerSessionError(
                f"frame time {t_monotonic!r} is before the previous frame's {self._frames[-1][0]!r}"
            )
        if not analyzer.mat_visible:
            # Nothing to analyse without the mat; remember only that the camera is alive.
            self._frames.append((t_monotonic, None))  # type: ignore[arg-type]
            return
        self._frames.append((t_monotonic, analyzer.observe(frame)))

    def judge(self, deadline_t: float, now_t: float) -> TowerVerdict | None:
        """The verdict, or None while still waiting for the settle window after the deadline."""
        analyzer = self._require_started()
        started = time.perf_counter()
        if not self._frames or now_t - self._frames[-1][0] > self.camera_timeout:
            return self._camera_lost(started)
        if not analyzer.mat_visible:
            return analyzer.judge([], started=started)
        if now_t < deadline_t:
            return None
        observations = [obs for _, obs in self._frames]
        after = [obs for t, obs in self._frames if t >= deadline_t]
        recent = after[-self.stable_frames:]
        settled = len(recent) >= self.stable_frames and not any(o.hand.any() for o in recent) and not (
            analyzer.moving(recent)
        )
        if settled:
            return analyzer.judge(recent, started=started)
        if now_t >= deadline_t + self.settings.settle_seconds:
            return analyzer.judge(observations[-6:], started=started)
        return None

    def _require_started(self) -> TowerAnalyzer:
        if self._analyzer is None:
            raise TowerSessionError("the tower session has no reference frame yet: call start() first")
        return self._analyzer

    def _camera_lost(self, started: float) -> TowerVerdict:
        analyzer = self._require_started()
        last = next((obs for _, obs in reversed(self._frames) if obs is not None), None)
        image = (last.frame if last is not None else analyzer.reference).copy()
        annotate(image, None, None, None, Verdict.UNCERTAIN, [Reason.CAMERA_LOST], 0.0, self.settings)
        return TowerVerdict(Verdict.UNCERTAIN, [Reason.CAMERA_LOST], 0, 0, 0.0,
                            (time.perf_counter() - started) * 1000.0, image)
