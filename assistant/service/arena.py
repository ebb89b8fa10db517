"""The arena camera beside the tracker: it proposes, the referee decides.

:class:`ArenaMonitor` owns the live arena watcher for the current match's layout: it keeps
the calibrated empty view in the data dir (one PNG per layout), feeds the watcher camera
frames with the tracker's positions, and turns what the watcher says into a small JSON view
for the tablet: agreement, a banner such as "Camera sees Maggot on S4, tracker says S5",
drift and missing markers, and the events that would fix the tracker. It never changes the
match itself.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

import cv2

from vision.arena import ArenaSettings, ArenaWatcher, BoardGeometry, CalibrationError, WatchStatus, calibrate_arena

log = logging.getLogger("knockdown.arena")


class ArenaError(ValueError):
    """An arena camera request that cannot be done now (the message says why)."""


class ArenaMonitor:
    def __init__(self, *, camera: Any, data_dir: Path, settings: ArenaSettings | None = None,
                 demo: Any = None) -> None:
        self.camera = camera
        self.settings = settings or ArenaSettings()
        self._dir = Path(data_dir) / "arena"
        # In simulation the camera shows a rendered arena (vision.synth.arena_demo) that
        # follows the tracker, so the whole reading path runs on a plausible picture.
        self._demo = demo
        self._lock = threading.Lock()
        self._geometry: BoardGeometry | None = None
        self._layout_id: str | None = None
        self._names: tuple[str, ...] = ("0", "1")
        self._watcher: ArenaWatcher | None = None
        self._calibration_info: dict | None = None
        self._result = None
        self._dismissed: tuple | None = None
        self._camera_lost = False

    # -- the match and its calibration ---------------------------------------------------
    def set_match(self, layout: dict, fighter_names: Sequence[str]) -> None:
        """Follow a match: its arena layout (the layout mapping) and its fighters' names."""
        layout_id = str(layout.get("id", ""))
        with self._lock:
            self._names = tuple(fighter_names)
            if layout_id == self._layout_id:
                return
            self._layout_id = layout_id
            self._geometry = BoardGeometry.from_layout(layout)
            if self._demo is not None:
                self._demo.set_geometry(self._geometry)
            self._watcher = None
            self._calibration_info = None
            self._result = None
            self._dismissed = None
            reference = self._reference_path()
            if reference.is_file():
                image = cv2.imread(str(reference), cv2.IMREAD_COLOR)
                try:
                    self._use(calibrate_arena(image, self._geometry))
                except CalibrationError as error:
                    log.warning("arena calibration for %s no longer holds: %s", layout_id, error)
        if self._demo is not None and self._watcher is None:
            self.calibrate(self._demo.empty_frame())
            log.info("demo arena: calibrated on the rendered empty board")

    def _reference_path(self) -> Path:
        return self._dir / f"{self._layout_id}.png"

    def _use(self, calibration) -> None:
        if self._watcher is not None:
            self._watcher.close()
        self._watcher = ArenaWatcher(calibration, settings=self.settings, fighters=("0", "1"))
        self._calibration_info = {
            "layout": self._layout_id,
            "reprojection_px": round(calibration.reprojection_px, 2),
            "reprojection_mm": round(calibration.reprojection_mm, 2),
        }
        self._result = None

    def calibrate(self, frame=None) -> dict:
        """Capture the empty arena as the reference (all four markers must be visible)."""
        if self._geometry is None:
            raise ArenaError("start a match first: calibration is per arena layout")
        if frame is None:
            if self.camera is None:
                raise ArenaError("there is no arena camera (cameras.arena.source)")
            frame = self.camera.read()
            if frame is None:
                raise ArenaError("the arena camera gave no frame")
        try:
            calibration = calibrate_arena(frame, self._geometry)
        except CalibrationError as error:
            raise ArenaError(f"arena calibration failed: {error}") from None
        with self._lock:
            self._dir.mkdir(parents=True, exist_ok=True)
            path = self._reference_path()
            tmp = path.with_suffix(".tmp.png")
            if not cv2.imwrite(str(tmp), frame):
                raise ArenaError(f"could not write the arena reference to {path}")
            os.replace(tmp, path)
            self._use(calibration)
            self._dismissed = None
            log.info("arena calibrated for %s: %s", self._layout_id, self._calibration_info)
            return dict(self._calibration_info)

    @property
    def is_calibrated(self) -> bool:
        return self._watcher is not None

    # -- the live loop -----------------------------------------------------------------
    def poll(self, positions: Sequence[str | None], now: float) -> bool:
        """Read one frame against the tracker's positions; True when the view changed."""
        if self._demo is not None:
            self._demo.set_positions(tuple(positions))
        watcher = self._watcher
        if watcher is None or self.camera is None:
            return False
        frame = self.camera.read()
        with self._lock:
            lost = frame is None
            if lost != self._camera_lost:
                self._camera_lost = lost
                return True
            if lost or watcher is not self._watcher:
                return False
            watcher.expected_positions = {str(i): space for i, space in enumerate(positions)}
            before = self._view_key()
            result = watcher.add_frame(frame, now)
            if result is None:
                return False
            self._result = result
            return self._view_key() != before

    def _view_key(self) -> tuple:
        r = self._result
        if r is None:
            return ()
        return (r.status, tuple(sorted((k, v.space) for k, v in r.positions.items())), r.disagreements,
                r.missing_markers, round(r.drift_mm, 0) if r.drift_mm != float("inf") else None)

    def dismiss(self) -> None:
        """Hide the current disagreement until the camera or the tracker changes."""
        with self._lock:
            if self._result is None or not self._result.disagreements:
                raise ArenaError("there is no disagreement to dismiss")
            self._dismissed = self._result.disagreements

    def fix_events(self) -> list[dict]:
        """``place_fighter`` events that make the tracker agree with the camera."""
        with self._lock:
            r = self._result
            if r is None or not r.disagreements or r.status is not WatchStatus.READ:
                raise ArenaError("the camera has no trustworthy disagreement to fix")
            moves = [(int(d.fighter), d.camera_space) for d in r.disagreements if d.camera_space is not None]
            tracker = {int(d.fighter): d.tracker_space for d in r.disagreements}
        if not moves:
            raise ArenaError("the camera sees no fighter on a space: fix the tracker by hand")
        # A fighter whose new space the other still holds in the tracker moves second.
        moves.sort(key=lambda m: any(tracker.get(other) == m[1] for other in tracker if other != m[0]))
        return [{"type": "place_fighter", "player": p, "space": space, "reason": "arena camera"}
                for p, space in moves]

    # -- the tablet's view -----------------------------------------------------------------
    def view(self, legal_actions: Callable[[], list[dict]] | None = None) -> dict:
        with self._lock:
            out: dict[str, Any] = {
                "layout": self._layout_id,
                "calibration": dict(self._calibration_info) if self._calibration_info else None,
                "camera": self.camera is not None,
            }
            r = self._result
            if self.camera is None:
                out.update(state="off", messages=["no arena camera"])
                return out
            if self._layout_id is None:
                out.update(state="idle", messages=["no match yet"])
                return out
            if self._watcher is None:
                out.update(state="not_calibrated", messages=["the arena camera is not calibrated for this layout"])
                return out
            if self._camera_lost:
                out.update(state="uncertain", messages=["the arena camera gives no frames"])
                return out
            if r is None:
                out.update(state="waiting", messages=["waiting for a still view of the arena"])
                return out
            names = self._names
            disagreements = [
                {"player": int(d.fighter), "fighter": names[int(d.fighter)], "camera": d.camera_space,
                 "tracker": d.tracker_space,
                 "message": f"Camera sees {names[int(d.fighter)]} on {d.camera_space or 'no space'}, "
                            f"tracker says {d.tracker_space or 'no space'}"}
                for d in r.disagreements
            ]
            state = {WatchStatus.READ: "disagrees" if disagreements else "agrees",
                     WatchStatus.UNCERTAIN: "uncertain", WatchStatus.RECALIBRATE: "recalibrate"}[r.status]
            messages = [m for m in r.messages if not m.startswith("Camera sees ")] + [d["message"] for d in disagreements]
            out.update(
                state=state,
                messages=messages,
                disagreements=disagreements,
                dismissed=bool(disagreements) and self._dismissed == r.disagreements,
                seen={names[int(k)]: v.space for k, v in r.positions.items()},
                drift_mm=None if r.drift_mm == float("inf") else round(r.drift_mm, 1),
                missing_markers=list(r.missing_markers),
            )
        out["proposal"] = self._proposal(disagreements, legal_actions) if legal_actions else None
        return out

    @staticmethod
    def _proposal(disagreements: list[dict], legal_actions: Callable[[], list[dict]]) -> dict | None:
        """A Move the camera saw, offered as the proposed action when it is legal now."""
        if len(disagreements) != 1 or disagreements[0]["camera"] is None:
            return None
        d = disagreements[0]
        move = {"type": "move", "player": d["player"], "to": d["camera"]}
        try:
            return move if move in legal_actions() else None
        except ValueError:
            return None

    def close(self) -> None:
        """Close the watcher and the arena camera (the monitor owns it); idempotent."""
        with self._lock:
            if self._watcher is not None:
                self._watcher.close()
                self._watcher = None
            if self.camera is not None:
                self.camera.close()
