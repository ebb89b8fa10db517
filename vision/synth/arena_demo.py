"""A demo arena camera for simulation: it renders the board with the fighters where it is told.

The service, running with no camera, feeds it the tracker's positions, so the live arena
reader runs end to end on a plausible picture. Rendering is costly, so a frame is rendered
only when the positions change; the same picture is then returned until the next change.
"""

from __future__ import annotations

import threading
from typing import Mapping

import numpy as np

from vision.arena.geometry import BoardGeometry
from vision.synth.arena_scene import CameraPose, Miniature, Scene, render_scene

#: Distinct base colours for the two demo fighters (BGR): red and blue.
DEMO_BASES = ((40, 40, 200), (200, 80, 40))


class ArenaDemoFeed:
    """``feed(i)`` returns the current picture; ``set_positions`` moves the demo fighters."""

    def __init__(self, geometry: BoardGeometry | None = None, *, image_size: tuple[int, int] = (640, 480)) -> None:
        self.geometry = geometry
        self._size = image_size
        self._pose = CameraPose(image_size=image_size)
        self._lock = threading.Lock()
        self._positions: tuple[str | None, ...] = ()
        self._frame: np.ndarray | None = None

    def set_geometry(self, geometry: BoardGeometry) -> None:
        """Show another arena layout (a new match)."""
        with self._lock:
            if geometry != self.geometry:
                self.geometry = geometry
                self._frame = None

    def empty_frame(self) -> np.ndarray:
        """The empty board, as calibration sees it."""
        if self.geometry is None:
            raise ValueError("the demo arena has no layout yet")
        return render_scene(Scene(pose=self._pose), self.geometry)

    def set_positions(self, spaces: Mapping[int, str | None] | tuple[str | None, ...]) -> None:
        key = tuple(spaces[i] for i in sorted(spaces)) if isinstance(spaces, Mapping) else tuple(spaces)
        with self._lock:
            if key == self._positions and self._frame is not None:
                return
            self._positions = key
            self._frame = None

    def __call__(self, index: int) -> np.ndarray:
        with self._lock:
            if self.geometry is None:  # no match yet: a plain grey table
                return np.full((self._size[1], self._size[0], 3), 90, np.uint8)
            if self._frame is None:
                minis = tuple(
                    Miniature(*self.geometry.spaces[space], base_bgr=DEMO_BASES[i % len(DEMO_BASES)])
                    for i, space in enumerate(self._positions)
                    if space is not None and space in self.geometry.spaces
                )
                self._frame = render_scene(Scene(pose=self._pose, miniatures=minis), self.geometry)
            return self._frame
