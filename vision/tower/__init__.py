"""The tower judge: decides from camera frames whether a Knockdown Test tower stands."""

from vision.tower.calibration import CalibrationError, TowerCalibration, calibrate_tower
from vision.tower.geometry import MatNotVisible
from vision.tower.judge import TowerInputError, judge_tower
from vision.tower.session import TowerSession
from vision.tower.settings import TowerSettings, TowerSettingsError
from vision.tower.verdict import Reason, TowerVerdict, Verdict

__all__ = [
    "CalibrationError",
    "MatNotVisible",
    "Reason",
    "TowerCalibration",
    "TowerInputError",
    "TowerSession",
    "TowerSettings",
    "TowerSettingsError",
    "TowerVerdict",
    "Verdict",
    "calibrate_tower",
    "judge_tower",
]
