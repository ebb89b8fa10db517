"""The tower judge: decides from camera frames whether a Knockdown Test tower stands."""

from vision.tower.settings import TowerSettings, TowerSettingsError

__all__ = ["TowerSettings", "TowerSettingsError"]
