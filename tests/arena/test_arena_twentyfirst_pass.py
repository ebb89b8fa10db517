"""Twenty-first accuracy pass: a fighter whose neighbour touches it on the camera's side is fitted by
a short arc of its rim, which a least-squares circle makes wider than any base (30-34 mm); that arc
ending at a touching neighbour's rim is two bases, and the spec's base radius fits it (see
docs/arena-reader.md, "Twenty-first pass")."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, line_9, spec_scene
from vision.arena import bases, read_arena
from vision.arena.topdown import BoardView

GEOMETRY = line_9()

#: Touching neighbours on adjacent spaces, one read short on main: its disc fitted 30-34 mm.
TOUCHING_NEIGHBOUR_SEEDS = [
    # 40 degrees up, 15 to the side: S8's fighter fitted 33 mm, S7's touching it.
    300257,
    # 52 degrees up: S5's fighter fitted 30 mm, S6's touching it.
    300367,
    # 36 degrees up: S2's fighter fitted 34 mm, S3's touching it.
    300525,
    # 60 degrees up: S8's fighter, S7's touching it.
    300279,
]

VIEW = BoardView(440, 160, 3.0)
#: A disc on the board's middle and its rim's direction to the camera (board -y: view +v).
CENTRE = (10.0, 5.0)


def _view_mm(x: float, y: float) -> tuple[float, float]:
    u, v = VIEW.to_px(x, y)
    return u / VIEW.px_per_mm, v / VIEW.px_per_mm


def _arc(radius: float, half_arc_deg: float, *, rays: int = 21, noise: float = 0.1, seed: int = 0):
    """Rim points (view mm) of a circle round CENTRE, over an arc round the camera's side."""
    rng = np.random.default_rng(seed)
    cu, cv = _view_mm(*CENTRE)
    angles = np.radians(90.0 + np.linspace(-half_arc_deg, half_arc_deg, rays))  # +v: towards the camera
    r = radius + rng.normal(0.0, noise, rays)
    return cu + r * np.cos(angles), cv + r * np.sin(angles), np.ones(rays, bool)


def _read_recording_the_rule(seed, monkeypatch, *, fighters):
    """The reading of a spec seed, and whether ``_split_touching_pairs`` took a base-sized disc in it."""
    live, reference, truth, count = spec_scene(seed, GEOMETRY)
    replaced, rule = [], bases._split_touching_pairs

    def recording(*args):
        replaced.append(rule(*args))
        return replaced[-1]

    with monkeypatch.context() as patched:
        patched.setattr(bases, "_split_touching_pairs", recording)
        reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count if fighters else None)
    return reading, truth, sum(replaced) > 0


@pytest.mark.parametrize("fighters", [False, True])
@pytest.mark.parametrize("seed", TOUCHING_NEIGHBOUR_SEEDS)
def test_a_fighter_touched_on_the_camera_side_is_read(seed, fighters, monkeypatch):
    reading, truth, split = _read_recording_the_rule(seed, monkeypatch, fighters=fighters)
    if split:
        assert reading.ok, reading.error
        assert reading.occupied == truth
    # Where another renderer (the Pi's OpenCV 4.11) leaves the rule nothing to take, only never
    # wrong; the next test keeps this one from passing by the rule never applying.
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)


def test_the_rule_reads_the_seeds_on_any_renderer(monkeypatch):
    split = [_read_recording_the_rule(seed, monkeypatch, fighters=False)[2] for seed in TOUCHING_NEIGHBOUR_SEEDS]
    assert sum(split) >= 3, dict(zip(TOUCHING_NEIGHBOUR_SEEDS, split))


def test_random_spec_scenes_round_them_are_never_wrong_when_ok():
    assert_never_wrong_when_ok(range(300520, 300530), GEOMETRY)


def test_a_short_arc_of_a_base_fits_a_base_sized_disc_round_its_centre():
    xs, ys, valid = _arc(13.5, 40.0)
    # The least-squares circle the wide fit was: wider, its centre pushed away from the camera.
    wide = (CENTRE[0], CENTRE[1] + 4.0, 17.0, 0.2, 0.0)
    based = bases._base_on_short_arc(wide, xs, ys, valid, VIEW)
    assert based is not None
    x, y, r, rms, _ = based
    assert r in bases._BASE_RADII_MM
    assert math.hypot(x - CENTRE[0], y - CENTRE[1]) < 1.0
    assert rms <= bases.CRISP_RIM_MM


def test_a_long_arc_of_a_wider_outline_fits_no_base():
    xs, ys, valid = _arc(19.0, 88.0)
    assert bases._base_on_short_arc((CENTRE[0], CENTRE[1], 19.0, 0.1, 0.0), xs, ys, valid, VIEW) is None


def test_too_few_rim_points_fit_no_base():
    xs, ys, valid = _arc(13.5, 40.0, rays=5)
    assert bases._base_on_short_arc((CENTRE[0], CENTRE[1] + 4.0, 17.0, 0.2, 0.0), xs, ys, valid, VIEW) is None


def _pair(neighbour):
    """Fits as find_blobs keeps them: a wide one (0), its rim points a short arc of a base round
    CENTRE set aside, and ``neighbour`` (x, y, r, rms, tiered)."""
    wide = (CENTRE[0], CENTRE[1] + 4.0, 17.0, 0.2, 0.0, CENTRE, (0, 0))
    fits = [wide, (*neighbour, (neighbour[0], neighbour[1]), (1, 1))]
    return fits, {0: _arc(13.25, 40.0)}


@pytest.mark.parametrize("apart_mm", [26.5, 27.5, 25.0])
def test_a_wide_fit_touching_a_crisp_base_is_taken_as_its_base_sized_disc(apart_mm):
    fits, wide_rims = _pair((CENTRE[0] + apart_mm, CENTRE[1], 13.5, 0.2, 0.0))
    assert bases._split_touching_pairs(fits, wide_rims, VIEW) == 1
    x, y, r, rms, _ = fits[0][:5]
    assert math.hypot(x - CENTRE[0], y - CENTRE[1]) < 1.0 and r in bases._BASE_RADII_MM
    assert fits[0][5:] == (CENTRE, (0, 0))  # its seed kept


@pytest.mark.parametrize("neighbour", [
    (CENTRE[0] + 33.0, CENTRE[1], 13.5, 0.2, 0.0),  # 6 mm of board between them: not touching
    (CENTRE[0] + 20.0, CENTRE[1], 13.5, 0.2, 0.0),  # overlapping more than two bases' fits may
    (CENTRE[0] + 26.5, CENTRE[1], 13.5, 0.9, 0.0),  # no crisp rim: no base of its own
    (CENTRE[0] + 23.0, CENTRE[1], 10.0, 0.2, 0.0),  # token-sized
    (CENTRE[0] + 30.0, CENTRE[1], 17.0, 0.2, 0.0),  # wider than any base
])
def test_a_wide_fit_without_a_touching_base_stays_as_fitted(neighbour):
    fits, wide_rims = _pair(neighbour)
    before = list(fits)
    assert bases._split_touching_pairs(fits, wide_rims, VIEW) == 0
    assert fits == before


def test_a_wide_fit_whose_rim_fits_no_base_stays_as_fitted():
    fits, wide_rims = _pair((CENTRE[0] + 26.5, CENTRE[1], 13.5, 0.2, 0.0))
    wide_rims[0] = _arc(19.0, 88.0)
    before = list(fits)
    assert bases._split_touching_pairs(fits, wide_rims, VIEW) == 0
    assert fits == before


def test_two_wide_fits_are_no_base_for_each_other():
    fits, wide_rims = _pair((CENTRE[0] + 26.5, CENTRE[1], 13.25, 0.4, 0.0))
    wide_rims[1] = _arc(13.25, 40.0)  # the neighbour is itself only a wide fit set aside
    assert bases._split_touching_pairs(fits, wide_rims, VIEW) == 0
