"""A demo tower camera for simulation: the empty build mat, then a standing tower.

The service, running with no camera, tells it what the Knockdown Test flow is doing
(``follow``): while a test is armed it shows the empty build spot (the reference the
countdown grabs); from half-way through the countdown it shows a standing tower of exactly
the test's heavy and light cubes, so the real judge runs end to end on a plausible view.
Rendering is costly, so each test's pair of pictures is rendered once and reused.
"""

from __future__ import annotations

import threading
from typing import Any, Mapping

import numpy as np

from vision.synth.tower_scene import make_tower_scene

# The flow states in which the tower stands on the mat (the countdown's second half and after).
_TOWER_STATES = ("judging", "verdict")


class TowerDemoFeed:
    def __init__(self, *, seed: int = 7) -> None:
        self._seed = seed
        self._lock = threading.Lock()
        self._counts: tuple[int, int] = (2, 3)
        self._tower = False
        self._scenes: dict[tuple[int, int], Any] = {}

    def follow(self, flow: Mapping[str, Any]) -> None:
        """Take the Knockdown Test flow's snapshot (state, heavy, light, seconds_left)."""
        with self._lock:
            if flow.get("heavy") is not None and flow.get("light") is not None:
                self._counts = (int(flow["heavy"]), int(flow["light"]))
            state = flow.get("state")
            seconds_left = flow.get("seconds_left")
            self._tower = state in _TOWER_STATES or (state == "counting" and seconds_left is not None
                                                     and seconds_left <= 5)

    def _scene(self, counts: tuple[int, int]):
        scene = self._scenes.get(counts)
        if scene is None:
            heavy, light = counts
            # A "tower" needs two cubes to render: with fewer the demo shows the mat alone.
            scene = make_tower_scene("stand", heavy=max(heavy, 0), light=max(light, 2 - max(heavy, 0)),
                                     seed=self._seed, frames=1, nudge_px=0.0, exposure_drift=0.0, distractors=2)
            if heavy + light < 2:
                scene.frames[1] = scene.frames[0]
            self._scenes[counts] = scene
        return scene

    def __call__(self, index: int) -> np.ndarray:
        with self._lock:
            shots = self._scene(self._counts).frames
            return shots[1] if self._tower else shots[0]
