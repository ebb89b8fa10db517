"""Board geometry: where the spaces and the markers are, in the board frame (mm).

The board frame has its origin at the centre of the arena board, x to the right along
the row of spaces, y away from the front edge. A layout file (TOML) describes one arena;
:meth:`BoardGeometry.from_layout` takes the parsed mapping so this module never reads files
it was not given.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np


class LayoutError(ValueError):
    """An arena layout mapping that cannot describe a board."""


@dataclass(frozen=True)
class BoardGeometry:
    """Spaces and ArUco markers of one arena, in millimetres in the board frame."""

    spaces: Mapping[str, tuple[float, float]]
    space_mm: float
    markers: Mapping[int, tuple[float, float, float]]
    board_mm: tuple[float, float]
    layout_id: str = ""

    def __post_init__(self) -> None:
        if not self.spaces:
            raise LayoutError("layout field 'spaces' is empty: an arena needs at least one space")
        if len(self.markers) < 3:
            raise LayoutError(
                f"layout field 'markers' has {len(self.markers)!r} markers: at least 3 are needed to register the board"
            )
        _positive("space_mm", self.space_mm)
        for i, side in enumerate(self.board_mm):
            _positive(f"board_mm[{i}]", side)
        for marker_id, (_, _, size) in self.markers.items():
            _positive(f"markers[{marker_id}].size_mm", size)

    @classmethod
    def from_layout(cls, mapping: Mapping[str, Any]) -> "BoardGeometry":
        """Build the geometry from a parsed arena layout (the TOML of ``arenas/<id>.toml``)."""
        try:
            board = _pair(mapping, "board_mm")
            space_mm = _number(mapping, "space_mm")
            spaces: dict[str, tuple[float, float]] = {}
            for i, entry in enumerate(_list(mapping, "spaces")):
                space_id = entry.get("id") if isinstance(entry, Mapping) else None
                if not isinstance(space_id, str) or not space_id:
                    raise LayoutError(f"layout field 'spaces[{i}].id' is {space_id!r}: it must be a non-empty string")
                if space_id in spaces:
                    raise LayoutError(f"layout field 'spaces[{i}].id' is {space_id!r}: space ids must be unique")
                spaces[space_id] = _pair(entry, "board_mm", f"spaces[{i}].")
            markers: dict[int, tuple[float, float, float]] = {}
            for i, entry in enumerate(_list(mapping, "markers")):
                marker_id = entry.get("id") if isinstance(entry, Mapping) else None
                if isinstance(marker_id, bool) or not isinstance(marker_id, int) or not 0 <= marker_id < 50:
                    raise LayoutError(
                        f"layout field 'markers[{i}].id' is {marker_id!r}: it must be a DICT_4X4_50 id from 0 to 49"
                    )
                if marker_id in markers:
                    raise LayoutError(f"layout field 'markers[{i}].id' is {marker_id!r}: marker ids must be unique")
                x, y = _pair(entry, "board_mm", f"markers[{i}].")
                markers[marker_id] = (x, y, _number(entry, "size_mm", f"markers[{i}]."))
        except AttributeError as exc:  # an entry that is not a table
            raise LayoutError(f"layout is malformed: {exc}") from None
        layout_id = mapping.get("id", "")
        return cls(spaces=spaces, space_mm=space_mm, markers=markers, board_mm=board, layout_id=str(layout_id))

    @classmethod
    def from_file(cls, path: str | Path) -> "BoardGeometry":
        """Read a layout TOML file (the caller resolves layout ids to paths)."""
        path = Path(path)
        try:
            with path.open("rb") as handle:
                mapping = tomllib.load(handle)
        except tomllib.TOMLDecodeError as exc:
            raise LayoutError(f"layout file {str(path)!r} is not valid TOML: {exc}") from None
        return cls.from_layout(mapping)

    # --- derived geometry -------------------------------------------------

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """The 4 outer corners of a marker's black square, in ArUco's order (TL, TR, BR, BL).

        Markers are printed upright in the board frame: their top edge faces +y.
        """
        x, y, size = self.markers[marker_id]
        h = size / 2
        return np.array([[x - h, y + h], [x + h, y + h], [x + h, y - h], [x - h, y - h]], dtype=np.float64)

    def space_corners(self, space_id: str) -> np.ndarray:
        x, y = self.spaces[space_id]
        h = self.space_mm / 2
        return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]], dtype=np.float64)

    def space_at(self, x_mm: float, y_mm: float) -> str | None:
        """The space whose square contains the point, or None for a point off every space."""
        h = self.space_mm / 2
        for space_id, (sx, sy) in self.spaces.items():
            if abs(x_mm - sx) <= h and abs(y_mm - sy) <= h:
                return space_id
        return None

    def edge_distance(self, x_mm: float, y_mm: float) -> float:
        """Distance from a point to the nearest space outline (how clear-cut its space is)."""
        h = self.space_mm / 2
        best = math.inf
        for sx, sy in self.spaces.values():
            dx, dy = abs(x_mm - sx) - h, abs(y_mm - sy) - h
            if dx <= 0 and dy <= 0:
                distance = min(-dx, -dy)
            else:
                distance = math.hypot(max(dx, 0.0), max(dy, 0.0))
            best = min(best, distance)
        return best


def load_geometry(layout: str | Path, *, layouts_dir: str | Path | None = None) -> BoardGeometry:
    """Load a layout given as a TOML path or, with ``layouts_dir``, as a layout id (``line-9``)."""
    candidate = Path(layout)
    if candidate.suffix == ".toml" or candidate.exists() or layouts_dir is None:
        if not candidate.is_file():
            raise LayoutError(f"layout {str(layout)!r} is not a readable TOML file")
        return BoardGeometry.from_file(candidate)
    by_id = Path(layouts_dir) / f"{layout}.toml"
    if not by_id.is_file():
        known = sorted(p.stem for p in Path(layouts_dir).glob("*.toml"))
        raise LayoutError(f"layout {str(layout)!r} is neither a TOML file nor a known layout id {known!r}")
    return BoardGeometry.from_file(by_id)


def _positive(name: str, value: float) -> None:
    if not value > 0:
        raise LayoutError(f"layout field {name!r} is {value!r}: it must be a positive number of mm")


def _number(mapping: Mapping[str, Any], key: str, prefix: str = "") -> float:
    value = mapping.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise LayoutError(f"layout field '{prefix}{key}' is {value!r}: it must be a number of mm")
    return float(value)


def _pair(mapping: Mapping[str, Any], key: str, prefix: str = "") -> tuple[float, float]:
    value = mapping.get(key)
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) for v in value)
    ):
        raise LayoutError(f"layout field '{prefix}{key}' is {value!r}: it must be [x, y] in mm")
    return float(value[0]), float(value[1])


def _list(mapping: Mapping[str, Any], key: str) -> list[Any]:
    value = mapping.get(key)
    if not isinstance(value, list):
        raise LayoutError(f"layout field {key!r} is {value!r}: it must be a list of tables")
    return value
