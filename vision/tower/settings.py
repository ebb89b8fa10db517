"""Tower judge settings: the physical spec of the build mat, the cubes and the timing.

Field names are the keys of the ``[vision.tower]`` table of the config file.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any


class TowerSettingsError(ValueError):
    """A ``[vision.tower]`` key or value that the judge cannot use."""


def _rgb(key: str, value: Any) -> tuple[int, int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 3
        or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        raise TowerSettingsError(f"{key} must be three integers 0-255 (R, G, B), got {value!r}")
    return (value[0], value[1], value[2])


def _positive(key: str, value: Any, *, upper: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise TowerSettingsError(f"{key} must be a positive number, got {value!r}")
    if upper is not None and value > upper:
        raise TowerSettingsError(f"{key} must be at most {upper}, got {value!r}")
    return float(value)


def _marker_ids(key: str, value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 50 for i in value)
        or value[0] == value[1]
    ):
        raise TowerSettingsError(
            f"{key} must be two different DICT_4X4_50 ids 0-49 (left, right), got {value!r}"
        )
    return (value[0], value[1])


def _fraction(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise TowerSettingsError(f"{key} must be a number from 0 to 1, got {value!r}")
    return float(value)


def _cubes(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TowerSettingsError(f"{key} must be a whole number of cubes, at least 1, got {value!r}")
    return value


@dataclasses.dataclass(frozen=True)
class TowerSettings:
    """What the judge knows about the physical set-up (defaults: the product spec)."""

    light_rgb: tuple[int, int, int] = (225, 190, 140)
    heavy_rgb: tuple[int, int, int] = (110, 30, 25)
    cube_mm: float = 10.0
    marker_ids: tuple[int, int] = (0, 1)
    marker_mm: float = 30.0
    # Marker centres lie this far left and right of the build spot.
    marker_offset_mm: float = 60.0
    # How long after the deadline the live judge waits for hands to leave and the tower to settle.
    settle_seconds: float = 1.5
    # The service may apply a verdict without the referee's tap at or above this confidence.
    auto_confirm_confidence: float = 0.9
    # Cubes a straight tower on the build spot may have before its top leaves the picture, as
    # calibration measured it (None: not measured). The judge does not use it; the live flow
    # warns before a taller test.
    tallest_tower_cubes: int | None = None

    def __post_init__(self) -> None:
        # Validate through the same checks as from_mapping so a bad direct construction fails too.
        object.__setattr__(self, "light_rgb", _rgb("light_rgb", self.light_rgb))
        object.__setattr__(self, "heavy_rgb", _rgb("heavy_rgb", self.heavy_rgb))
        object.__setattr__(self, "cube_mm", _positive("cube_mm", self.cube_mm, upper=100))
        object.__setattr__(self, "marker_ids", _marker_ids("marker_ids", self.marker_ids))
        object.__setattr__(self, "marker_mm", _positive("marker_mm", self.marker_mm, upper=500))
        object.__setattr__(
            self, "marker_offset_mm", _positive("marker_offset_mm", self.marker_offset_mm, upper=1000)
        )
        if self.marker_offset_mm <= self.marker_mm / 2 + self.cube_mm:
            raise TowerSettingsError(
                f"marker_offset_mm must leave room for the build spot between the markers, "
                f"got {self.marker_offset_mm!r} with marker_mm {self.marker_mm!r}"
            )
        object.__setattr__(self, "settle_seconds", _positive("settle_seconds", self.settle_seconds, upper=30))
        object.__setattr__(
            self, "auto_confirm_confidence", _fraction("auto_confirm_confidence", self.auto_confirm_confidence)
        )
        if self.tallest_tower_cubes is not None:
            object.__setattr__(self, "tallest_tower_cubes", _cubes("tallest_tower_cubes", self.tallest_tower_cubes))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> TowerSettings:
        """Build settings from a parsed ``[vision.tower]`` table; unknown keys are refused."""
        if not isinstance(mapping, Mapping):
            raise TowerSettingsError(f"[vision.tower] must be a table, got {mapping!r}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise TowerSettingsError(
                f"unknown [vision.tower] key {unknown[0]!r} (known keys: {', '.join(sorted(known))})"
            )
        values = dict(mapping)
        for key in ("light_rgb", "heavy_rgb", "marker_ids"):
            if isinstance(values.get(key), list):
                values[key] = tuple(values[key])
        return cls(**values)

    def to_mapping(self) -> dict[str, Any]:
        """The ``[vision.tower]`` table for these settings (TOML-friendly lists)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out
