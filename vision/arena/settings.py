"""Tunable settings of the arena reader, as the config's ``[vision.arena]`` table."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields
from typing import Any, Mapping

_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


class SettingsError(ValueError):
    """A ``[vision.arena]`` value the reader cannot use."""


@dataclass(frozen=True)
class ArenaSettings:
    """Defaults follow the product spec (bases 25-28 mm, a read a few times a second)."""

    #: Optional base colour per fighter (player index "0"/"1" or a fighter name) -> "#rrggbb".
    base_colors: Mapping[str, str] = field(default_factory=dict)
    #: Typical base diameter (spec: 25-28 mm).
    base_mm: float = 26.0
    #: How often the live service reads the arena.
    read_hz: float = 3.0
    #: Marker movement since calibration beyond which the service asks for a recalibration.
    drift_tolerance_mm: float = 6.0
    #: Consecutive still frames before the live watcher trusts the view.
    stable_frames: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.base_colors, Mapping):
            raise SettingsError(f"vision.arena.base_colors is {self.base_colors!r}: it must be a table of colours")
        for key, colour in self.base_colors.items():
            if not isinstance(colour, str) or not _HEX_COLOUR.match(colour):
                raise SettingsError(f"vision.arena.base_colors.{key} is {colour!r}: it must be a colour like '#a03020'")
        _check_range("base_mm", self.base_mm, 10.0, 60.0)
        _check_range("read_hz", self.read_hz, 0.1, 30.0)
        _check_range("drift_tolerance_mm", self.drift_tolerance_mm, 0.5, 50.0)
        if isinstance(self.stable_frames, bool) or not isinstance(self.stable_frames, int) or not 1 <= self.stable_frames <= 100:
            raise SettingsError(
                f"vision.arena.stable_frames is {self.stable_frames!r}: it must be a whole number from 1 to 100"
            )
        # Keys are stored as strings so "0" and 0 name the same player.
        object.__setattr__(self, "base_colors", {str(k): v.lower() for k, v in self.base_colors.items()})

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> "ArenaSettings":
        """Build settings from the ``[vision.arena]`` table; unknown keys are refused."""
        if not isinstance(mapping, Mapping):
            raise SettingsError(f"vision.arena is {mapping!r}: it must be a table")
        known = {f.name for f in fields(cls)}
        for key in mapping:
            if key not in known:
                raise SettingsError(f"vision.arena.{key} is not a known setting (known: {sorted(known)!r})")
        return cls(**dict(mapping))

    def base_bgr(self, fighter: str | int) -> tuple[int, int, int] | None:
        """The configured base colour of a fighter as OpenCV BGR, or None."""
        colour = self.base_colors.get(str(fighter))
        if colour is None:
            return None
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        return b, g, r


def _check_range(name: str, value: Any, low: float, high: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not low <= value <= high:
        raise SettingsError(f"vision.arena.{name} is {value!r}: it must be a number from {low:g} to {high:g}")
