"""Runs in 1-D masks, shared by the tower judge (a slit's width) and the arena reader (a break
in a figure's line)."""

from __future__ import annotations

import numpy as np


def longest_run(flags: np.ndarray) -> int:
    """The most consecutive True values."""
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best
