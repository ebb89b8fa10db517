"""The real ``knockdown`` CLI, for the end-to-end tests, with one seam.

``KNOCKDOWN_E2E_VERDICT=fail:0.7`` plugs in a simulated tower judge that always answers
that verdict (with an annotated image), so the overlay's verdict, snapshot and override
are exercised with a known camera answer.
"""

import os
import sys

import numpy as np

import assistant.service.wiring as wiring
from assistant.cli import main


class SimulatedCamera:
    def read(self):
        return np.zeros((48, 64, 3), np.uint8)


class SimulatedVerdict:
    def __init__(self, verdict: str, confidence: float):
        self.verdict, self.confidence = verdict, confidence
        # A free sentence first (shown as sent), then one of the judge's own codes (shown in words).
        self.reasons = [f"simulated camera: the tower looks like a {verdict}", "top cube tilted 12° (simulated)",
                        "cube_count"]
        image = np.full((120, 160, 3), 40, np.uint8)
        image[30:110, 60:100] = (0, 0, 220) if verdict == "fail" else (0, 200, 0)  # a "tower", in BGR
        self.annotated = image

    def to_json(self):
        return {"verdict": self.verdict, "confidence": self.confidence, "simulated": True}


class SimulatedTowerSession:
    def __init__(self, verdict: str, confidence: float):
        self._answer = SimulatedVerdict(verdict, confidence)

    def start(self, reference_frame) -> None:
        pass

    def add_frame(self, frame, t: float) -> None:
        pass

    def judge(self, deadline_t: float, now_t: float):
        return self._answer


def _with_simulated_judge(build_devices, spec: str):
    """Wrap wiring.build_devices: a simulated camera and judge where the build has none."""
    verdict, _, confidence = spec.partition(":")

    def build(config):
        devices, hardware = build_devices(config)
        if devices.camera is None:
            devices.camera = SimulatedCamera()
            hardware.camera = "simulated (e2e)"
        devices.tower_factory = lambda *, heavy, light: SimulatedTowerSession(verdict, float(confidence or 0.7))
        hardware.tower_judge = "simulated (e2e)"
        return devices, hardware

    return build


if os.environ.get("KNOCKDOWN_E2E_VERDICT"):
    wiring.build_devices = _with_simulated_judge(wiring.build_devices, os.environ["KNOCKDOWN_E2E_VERDICT"])

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))  # the same command line as ``python -m assistant``
