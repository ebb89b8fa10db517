"""Small fakes shared by the service and web tests: a settable clock and a scripted tower judge."""

from types import SimpleNamespace

import numpy as np


class Clock:
    """A monotonic clock the test sets by hand."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self):
        return self.t


class FakeTower:
    """Settles after `settle` judge calls with the scripted verdict."""

    def __init__(self, verdict="pass", confidence=0.95, settle=2):
        self.verdict, self.confidence, self.settle = verdict, confidence, settle
        self.frames, self.judged, self.reference = [], [], None

    def given(self, *, heavy, light):
        self.counts = (heavy, light)
        return self

    def start(self, reference_frame):
        self.reference = reference_frame

    def add_frame(self, frame, t):
        self.frames.append(t)

    def judge(self, deadline_t, now_t):
        self.judged.append((deadline_t, now_t))
        if len(self.judged) < self.settle:
            return None
        return SimpleNamespace(verdict=self.verdict, confidence=self.confidence, reasons=["scripted"],
                               annotated=np.zeros((4, 4, 3), np.uint8), to_json=lambda: {"verdict": self.verdict})
