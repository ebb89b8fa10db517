"""The arena reader: where the fighters stand, read from the arena camera."""

from vision.arena.geometry import BoardGeometry, LayoutError, load_geometry
from vision.arena.settings import ArenaSettings, SettingsError

__all__ = ["ArenaSettings", "BoardGeometry", "LayoutError", "SettingsError", "load_geometry"]
