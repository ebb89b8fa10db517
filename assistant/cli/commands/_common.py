"""Helpers shared by the command modules (not a command itself: it has no ``register``)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

# The arena layouts shipped with the box data (a layout id names a file here).
ARENAS_DIR = Path(__file__).resolve().parents[2] / "boxes" / "data" / "arenas"


class InputFileError(ValueError):
    """A file named on the command line that cannot be read as TOML (the message names it)."""


def fail(message: str, code: int = 2) -> int:
    """Print a user-facing error and return the exit code for the handler to return."""
    print(f"knockdown: error: {message}", file=sys.stderr)
    return code


def read_toml(path: str | Path, what: str) -> dict:
    """The parsed TOML file ``path``; ``what`` names it in errors ("config", "layout")."""
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise InputFileError(f"cannot read {what} {str(path)!r}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{what} {str(path)!r} is not valid TOML: {exc}") from None


def vision_table(path: str | None, camera: str) -> dict:
    """The ``[vision.<camera>]`` table of a config file: ``{}`` without a file or without the table."""
    if path is None:
        return {}
    table: object = read_toml(path, "config")
    for depth, key in enumerate(("vision", camera)):
        table = table.get(key, {})
        if not isinstance(table, dict):
            name = ".".join(("vision", camera)[: depth + 1])
            raise InputFileError(f"[{name}] in {path!r} must be a table, got {table!r}")
    return table
