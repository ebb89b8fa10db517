"""The outcome of a tower judgment."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import numpy as np


class Verdict(enum.StrEnum):
    PASS = "pass"
    FAIL = "fail"
    UNCERTAIN = "uncertain"


class Reason(enum.StrEnum):
    """Why a tower failed, or why the judge could not decide."""

    GROUND_CONTACTS = "ground_contacts"
    CUBE_NEIGHBOURS = "cube_neighbours"
    NOT_ONE_STRUCTURE = "not_one_structure"
    CUBE_COUNT = "cube_count"
    MOVING = "moving"
    HAND = "hand"
    MAT_NOT_VISIBLE = "mat_not_visible"
    CAMERA_LOST = "camera_lost"


@dataclasses.dataclass(frozen=True)
class TowerVerdict:
    verdict: Verdict
    reasons: list[Reason]
    cubes_seen: int
    ground_contacts: int
    confidence: float
    elapsed_ms: float
    # The evidence: the last frame with the detected cubes, the table contact line and the reasons.
    annotated: np.ndarray | None = dataclasses.field(default=None, repr=False, compare=False)
    heavy_seen: int = 0
    light_seen: int = 0

    def to_json(self) -> dict[str, Any]:
        """The JSON object printed by ``knockdown tower judge --json``."""
        return {
            "verdict": self.verdict.value,
            "reasons": [r.value for r in self.reasons],
            "cubes_seen": self.cubes_seen,
            "ground_contacts": self.ground_contacts,
            "confidence": round(float(self.confidence), 3),
            "elapsed_ms": round(float(self.elapsed_ms), 1),
        }
