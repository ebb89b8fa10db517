"""The tower camera's calibration from the tablet: measured, saved, then used live.

The running service owns the tower camera, so ``knockdown calibrate tower`` cannot read it
while the service runs. :class:`TowerCalibrator` does the same measurement with the service's
own camera (a calibration shot: the build mat with both markers, one light and one heavy cube
on the build spot) and keeps the ``[vision.tower]`` settings the judge's sessions are made
with. A calibration is saved first -- into the config file the service was started with, or
without one into ``DATA_DIR/tower-calibration.toml`` (``TOWER_CALIBRATION_FILE``, read at start) -- and only then used:
if saving fails, nothing changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assistant.hardware.cameras import is_demo_feed, settled_frame
from firmware_config import update_config
from vision.tower import CalibrationError, TowerCalibration, TowerSession, TowerSettings, calibrate_tower

# The keys calibration measures (the others it writes back unchanged).
LEARNED_KEYS = ("light_rgb", "heavy_rgb", "tallest_tower_cubes")


class TowerCalibrationError(ValueError):
    """The tower camera cannot be calibrated now (the message says why, word for word)."""


class TowerCalibrator:
    def __init__(self, *, settings: TowerSettings, save_to: Path) -> None:
        self.settings = settings  # what the next test's judge session uses
        self.save_to = Path(save_to)
        self.measured: list[str] | None = None  # the last calibration's lines, this run

    def session(self, *, heavy: int, light: int) -> TowerSession:
        """The flow's judge factory: a session for one test, with the settings as they are now."""
        return TowerSession(heavy=heavy, light=light, settings=self.settings)

    def measure(self, camera: Any) -> TowerCalibration:
        """Read a settled frame from ``camera`` and measure it (no side effect)."""
        if camera is None:
            raise TowerCalibrationError("there is no tower camera (cameras.tower.source)")
        if is_demo_feed(camera):
            raise TowerCalibrationError("no tower camera found (only the synthetic demo feed): connect it, "
                                        "or calibrate from a photo with `knockdown calibrate tower --image FILE`")
        frame = settled_frame(camera)
        if frame is None:
            raise TowerCalibrationError("the tower camera gave no frame")
        try:
            return calibrate_tower(frame, self.settings)
        except CalibrationError as error:
            raise TowerCalibrationError(f"tower calibration failed: {error}") from None

    def save_and_use(self, calibration: TowerCalibration) -> dict:
        """Save the learned settings where the service reads them at start, then use them.
        Raises OSError or firmware_config.ConfigError with nothing changed."""
        update_config(self.save_to, {f"vision.tower.{k}": v for k, v in calibration.to_mapping().items()})
        self.settings = calibration.settings
        self.measured = calibration.describe()
        return {**self.view(), "saved_to": str(self.save_to)}

    def view(self) -> dict:
        """For the tablet: whether the picture was measured, its tallest tower, the learned keys."""
        learned = {key: value for key, value in self.settings.to_mapping().items() if key in LEARNED_KEYS}
        return {"calibrated": self.settings.tallest_tower_cubes is not None, "learned": learned,
                "measured": self.measured}
