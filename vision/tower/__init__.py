"""The tower judge: decides from camera frames whether a Knockdown Test tower stands."""

from vision.tower.geometry import MatNotVisible
from vision.tower.judge import TowerInputError, judge_tower
from vision.tower.settings import TowerSettings, TowerSettingsError
from vision.tower.verdict import Reason, TowerVerdict, Verdict

__all__ = [
    "MatNotVisible",
    "Reason",
    "TowerInputError",
    "TowerSettings",
    "TowerSettingsError",
    "TowerVerdict",
    "Verdict",
    "judge_tower",
]
