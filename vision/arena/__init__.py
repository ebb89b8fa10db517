"""The arena reader: where the fighters stand, read from the arena camera.

- :func:`read_arena` reads one image against the empty reference (offline CLI, tests, bench);
- :func:`calibrate_arena` makes the reference and measures its mapping;
- :class:`ArenaWatcher` is the pure live logic the service feeds with frames.
"""

from vision.arena.calibration import ArenaCalibration, CalibrationError, calibrate_arena
from vision.arena.geometry import BoardGeometry, LayoutError, load_geometry
from vision.arena.reader import ArenaInputError, ArenaReading, FighterReading, PreparedReference, prepare_reference, read_arena
from vision.arena.settings import ArenaSettings, SettingsError
from vision.arena.watcher import ArenaWatcher, Disagreement, WatchResult, WatchStatus

__all__ = [
    "ArenaCalibration",
    "ArenaInputError",
    "ArenaReading",
    "ArenaSettings",
    "ArenaWatcher",
    "BoardGeometry",
    "CalibrationError",
    "Disagreement",
    "FighterReading",
    "LayoutError",
    "PreparedReference",
    "SettingsError",
    "WatchResult",
    "WatchStatus",
    "calibrate_arena",
    "load_geometry",
    "prepare_reference",
    "read_arena",
]
