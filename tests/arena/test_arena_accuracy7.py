"""Seventh accuracy pass: reading without the fighter count (the offline reader's path).

A base close in colour to the board is a fighter when its figure shows standing up out of it;
a flat token never is; widespread change the light left is no fighter the count can settle.
"""

import pytest

from vision.arena import read_arena
from vision.synth.arena_scene import Miniature

from tests.arena.arena_scenes import POSES, SPACE, assert_never_wrong_when_ok, empty, mini, render, scene, spec_scene, token


def _read_without_the_count(seed, geometry):
    live, reference, truth, _ = spec_scene(seed, geometry)
    return read_arena(live, reference, geometry, annotate=False), truth


#: Spec scenes (generator seeds), one per cause fixed in this pass, all "may be a token or a base"
#: or "may hide a fighter" doubts without the count before it: a base only whose ring changed round
#: its figure (100362); a figure close to the board's colour rising, after a gap, out of a base's
#: far rim (100166); a base measured between token and base size, seen from so high that only its
#: figure's top standing up out of it tells (100041); a space behind a fighter where a hidden
#: fighter's figure would have shown and nothing did (70542).
FIXED = [100362, 100166, 100041, 70542]


@pytest.mark.parametrize("seed", FIXED)
def test_spec_scenes_fixed_in_this_pass_are_read_without_the_count(geometry, seed):
    reading, truth = _read_without_the_count(seed, geometry)
    assert reading.ok, reading.error
    assert reading.occupied == truth


@pytest.mark.parametrize("pose", [POSES[0], POSES[1], POSES[3]], ids=["55deg", "40deg-aside", "62deg-aside"])
def test_a_base_the_spaces_colour_with_its_figure_is_a_fighter_without_the_count(geometry, pose):
    # Only the base's shaded side and its figure change the view: a doubt before this pass.
    board_coloured = Miniature(40, 2, base_mm=26.0, base_bgr=SPACE, figure_bgr=(60, 60, 200), figure_height_mm=40.0,
                               figure_width_mm=16.0)
    live = render(scene(pose, minis=[board_coloured]), geometry)
    reading = read_arena(live, empty(geometry, pose), geometry, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == ("S6",)


@pytest.mark.parametrize("pose", POSES, ids=["55deg", "40deg-aside", "75deg", "62deg-aside"])
def test_flat_tokens_the_spaces_colour_are_never_a_fighter(geometry, pose):
    # One token, and two stacked off centre (they fit a disc of a base's size), each with a
    # fighter standing right behind it, off the row: its figure rises behind the token.
    for tokens in ([token(40, 0, 22.0, bgr=SPACE)], [token(40, 0, 22.0, bgr=SPACE), token(44, -2, 21.0, bgr=SPACE)]):
        live = render(scene(pose, minis=[mini(42, 38)], tokens=tokens), geometry)
        for count in (None, 1):
            reading = read_arena(live, empty(geometry, pose), geometry, annotate=False, fighters=count)
            assert not reading.ok or reading.occupied == (), (len(tokens), count, reading.occupied)


def test_a_ragged_token_sized_disc_seen_from_high_above_is_no_token(geometry):
    # 79 degrees up, a base the board's colour: its figure, seen from above, fitted a ragged
    # 23 mm disc (0.8 mm rms) taken for a token, and S9 was left out with ok: true before this
    # pass. A token is one crisp solid disc.
    reading, truth = _read_without_the_count(110577, geometry)
    assert truth == ("S7", "S9")
    assert not reading.ok or reading.occupied == truth, reading.occupied


def test_a_flooded_view_the_count_once_settled_wrongly_is_read_right(geometry):
    # A saturating lamp flooded the spaces; a disc fitted in the flood was taken as the second
    # fighter, and the count then settled the rest: S7 read for S8 with ok: true. The seventh
    # pass made such a flood a doubt the count cannot settle; the saturating-lamp pass (merged
    # with it) took the flood away, so the view now reads right.
    live, reference, truth, count = spec_scene(70255, geometry)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=count)
    assert reading.ok and reading.occupied == truth == ("S8",), (reading.occupied, reading.error)


def test_random_scenes_of_a_fresh_range_are_never_wrong_when_ok(geometry):
    answered = assert_never_wrong_when_ok(range(106000, 106012), geometry)
    assert answered[True] >= 10 and answered[False] >= 9, answered
