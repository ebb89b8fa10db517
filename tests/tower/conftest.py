"""Fixtures for the tower judge tests: rendered scenes, cached per session (rendering costs ~0.1 s)."""

import functools

import pytest

from vision.synth.tower_scene import make_tower_scene


@functools.lru_cache(maxsize=None)
def _scene(kind: str, seed: int, options: tuple):
    return make_tower_scene(kind, seed=seed, **dict(options))


@pytest.fixture
def tower_scene():
    """``tower_scene(kind, seed=0, **options)`` -> a cached synthetic TowerScene (do not mutate its frames)."""

    def make(kind: str, seed: int = 0, **options):
        return _scene(kind, seed, tuple(sorted(options.items())))

    return make
