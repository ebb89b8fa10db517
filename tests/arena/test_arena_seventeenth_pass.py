"""Seventeenth accuracy pass: a token-sized disc whose rim steps down to a fainter ring round a disc
not all changed is no token (a base close to the board's colour round a figure's foot), so the
space it is on is never read empty for it (see docs/arena-reader.md, "Seventeenth pass")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena_scenes import assert_never_wrong_when_ok, line_9, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.settings import ArenaSettings

GEOMETRY = line_9()
SETTINGS = ArenaSettings()

#: Fresh seed 270401's disc on S8 (48 degrees up): a fighter's 28 mm base the board's colour,
#: fitted 20.2 mm round its figure's foot, 60 % of its rim rays crossing a fainter ring, its figure
#: shown in part, not standing up, and 9 % of the fitted disc unchanged.
HOLLOW_RING = Blob(114.0, 9.0, 10.1, 0.38, 0.60, Evidence.PARTIAL, (114.0, 9.0), 1, 0.91)

#: 250019's real token (45 degrees up): an 18 mm pale token half over a space's outline, the
#: fainter ring the print under it, its whole disc changed.
RINGED_TOKEN = Blob(-97.0, -11.0, 8.75, 0.40, 0.43, Evidence.NO, (-97.0, -11.0), 1, 1.0)


def test_270401_a_fighter_on_a_base_the_board_colour_fitted_as_a_ringed_token_is_a_doubt():
    live, reference, truth, _ = spec_scene(270401, GEOMETRY)
    assert truth == ("S8",)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok  # S8 read empty was a wrong ok: true
    assert "may be a token or a base" in reading.error
    assert_never_wrong_when_ok([270401], GEOMETRY)


@pytest.mark.parametrize("figure", [Evidence.PARTIAL, Evidence.NO])
def test_a_token_sized_disc_ringed_and_not_all_changed_is_no_token(figure):
    assert bases.classify(replace(HOLLOW_RING, figure=figure), SETTINGS) is Kind.UNSURE


@pytest.mark.parametrize("change", [
    {"tiered": 0.1},  # one step from the board all round: a token, however it sits
    {"coverage": 1.0},  # its whole disc changed: one solid disc, its ring from outside it
])
def test_without_both_the_ring_and_the_hollow_a_flat_token_sized_disc_stays_a_token(change):
    assert bases.classify(replace(HOLLOW_RING, **change), SETTINGS) is Kind.TOKEN


@pytest.mark.parametrize("tiered", [0.38, 0.43])
@pytest.mark.parametrize("figure", [Evidence.PARTIAL, Evidence.NO])
def test_a_real_token_with_a_fainter_ring_outside_its_solid_disc_is_still_a_token(tiered, figure):
    # 250009, 250019, 250143: its shadow or the print under a pale token, not a ring of its own.
    assert bases.classify(replace(RINGED_TOKEN, tiered=tiered, figure=figure), SETTINGS) is Kind.TOKEN


@pytest.mark.parametrize("seed", [250009, 250019, 250143])
def test_the_scenes_of_the_ringed_real_tokens_still_read_right_without_the_count(seed):
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == truth


def test_random_spec_scenes_round_270401_are_never_wrong_when_ok():
    assert_never_wrong_when_ok(range(270390, 270410), GEOMETRY)
