"""Helpers shared by the command modules (not a command itself: it has no ``register``)."""

from __future__ import annotations

import sys


def fail(message: str, code: int = 2) -> int:
    """Print a user-facing error and return the exit code for the handler to return."""
    print(f"knockdown: error: {message}", file=sys.stderr)
    return code
