"""Sixty-first pass: a figure's top seen from high above over a base close to the board's colour, its
outline too ragged for a disc, is read as a fighter where its base's faint ring is found round it (the
ring, one crisp base-sized circle, places it); and the doubts of group D (a figure on a base the board's
colour fitted token-sized) where no such ring shows stay doubts, never a wrong reading, as do the lone
tokens that stand up as such a figure does (see docs/arena-reader.md, "Sixty-first pass")."""

from __future__ import annotations

import pytest

from arena_scenes import assert_never_wrong_when_ok, spec_scene
from vision.arena import read_arena
from vision.arena.bases import MAX_RIM_ERROR_MM, Blob, Evidence, classify, is_disc
from vision.arena.settings import ArenaSettings

SETTINGS = ArenaSettings()


def _figure_top(*, fit_error: float, ring: tuple | None) -> Blob:
    """A 21 mm fit of a figure's top seen from high above (figure evidence UNKNOWN), solid, with the
    faint ring of a base round it found at ``ring`` (or none): 780120's, measured."""
    return Blob(-29.7, 10.1, 10.5, fit_error, 0.38, Evidence.UNKNOWN, (-34.0, 13.0), 1, 1.0, 0.0, False,
                rim_ahead=True, base_ring=ring)


RING = (-32.5, 6.6, 14.1)  # 780120's ring: 28.2 mm, centred 0.6 mm from the true base's centre


def test_a_ragged_fit_inside_its_base_ring_is_a_disc():
    """The ring, not the ragged fit, is the crisp disc: the blob is kept, and classified a fighter."""
    ragged = _figure_top(fit_error=1.55, ring=RING)
    assert ragged.fit_error_mm > MAX_RIM_ERROR_MM
    assert is_disc(ragged, SETTINGS)
    assert classify(ragged, SETTINGS).name == "FIGHTER"


def test_a_ragged_fit_without_a_ring_is_still_dropped():
    assert not is_disc(_figure_top(fit_error=1.55, ring=None), SETTINGS)
    # (Nor does a ring make a fit wider than any base a disc.)
    assert not is_disc(Blob(0.0, 0.0, 20.0, 1.5, 0.0, Evidence.UNKNOWN, (0.0, 0.0), 1, 1.0, 0.0, False,
                            base_ring=(0.0, 0.0, 14.0)), SETTINGS)


def test_a_crisp_fit_is_a_disc_as_before():
    assert is_disc(_figure_top(fit_error=0.3, ring=None), SETTINGS)
    assert is_disc(_figure_top(fit_error=0.3, ring=RING), SETTINGS)


@pytest.mark.parametrize("with_count", [False, True])
def test_a_figure_over_a_base_the_boards_colour_is_read_by_its_ring(geometry, with_count):
    """Spec scene 780120: one fighter on S4, seen from 80 degrees, its base 13 grey levels from the
    board's colour; its figure's top fitted 21 mm, 1.55 mm off a circle (dropped on `main`: "a figure
    standing at (-32, 9) mm on S4's outline"). Its base's faint ring fits 28.2 mm, 0.4 mm off a circle."""
    live, reference, truth, count = spec_scene(780120, geometry)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=count if with_count else None)
    assert reading.ok, reading.error
    assert reading.occupied == truth == ("S4",)
    (fighter,) = reading.fighters
    assert abs(fighter.board_mm[0] - -32.6) < 2.0 and abs(fighter.board_mm[1] - 7.2) < 2.0


@pytest.mark.parametrize("seed", [780042, 780229, 780271, 780298, 780122])
def test_figures_on_bases_the_boards_colour_without_a_ring_are_never_read_wrong(geometry, seed):
    """Group D where no faint ring shows (bases 5-27 grey levels from the board's colour, 36-59 degrees up):
    the figure fitted a token-sized disc standing up, as a lone token does below. Doubts, never wrong."""
    assert_never_wrong_when_ok([seed], geometry)


@pytest.mark.parametrize("seed", [780123, 780258])
def test_lone_tokens_standing_up_are_never_read_as_fighters(geometry, seed):
    """A lone 17 mm token with another token 23 mm behind it (780123, 60 degrees up) and a 15.5 mm token
    with two fighters behind it (780258, 37 degrees): each fitted crisp, solid, token-sized, its figure
    evidence `YES` or `PARTIAL` and standing up, the evidence group D's fighters show. Never a fighter."""
    live, reference, truth, _ = spec_scene(seed, geometry)
    reading = read_arena(live, reference, geometry, annotate=False)
    assert not reading.ok or reading.occupied == truth
    assert_never_wrong_when_ok([seed], geometry)
