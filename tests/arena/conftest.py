"""Fixtures for the arena reader tests (helpers live in arena_scenes.py)."""

import pytest

from tests.arena.arena_scenes import line_9


@pytest.fixture(scope="session")
def geometry():
    return line_9()
