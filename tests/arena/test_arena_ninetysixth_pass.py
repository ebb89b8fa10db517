"""The ninety-sixth pass: the best reading of a doubt (``reader._best_guesses``) names one thing seen once:
sightings closer than two fighters' bases can stand (``ONE_THING_MM``, the smallest base less two fitting
errors) are one thing, not half a base as before; and where more spaces are named than the reading has room
for, a disc seen token-sized (``Doubt.token_sized``) comes after those seen as often that are not. ``ok``, the
error and every ``ok: true`` reading are untouched. See docs/arena-reader.md, "Ninety-sixth pass"."""

from __future__ import annotations

from arena_scenes import line_9, spec_scene
from vision.arena import read_arena
from vision.arena.bases import Doubt, FirmDoubt, HidingDoubt
from vision.arena import reader
from vision.arena.reader import ONE_THING_MM, _best_guesses

GEOMETRY = line_9()


def test_one_base_seen_across_an_outline_is_one_guess():
    # 996552: one fighter on S9 (a 28 mm base fitted 30 mm); its figure shows as change on S8's outline
    # 17-18 mm from the disc. A second fighter there would overlap the first's base.
    doubts = [
        FirmDoubt("the object at (152, 11) mm may be a token or a base (30 mm across)").seen_at(152.0, 11.0),
        HidingDoubt("a figure standing at (138, 0) mm on S8's outline ...", "S8").seen_at(137.7, 0.0),
        HidingDoubt("a figure standing at (152, 9) mm on S9's outline ...", "S9").seen_at(152.0, 9.3),
    ]
    assert [g.space for g in _best_guesses([], doubts, GEOMETRY, 2)] == ["S9"]


def test_two_fighters_a_base_apart_are_still_two_guesses():
    # 920121: two fighters with touching bases on S8 and S9, 26 mm apart; their nearest sightings 22 mm.
    doubts = [
        FirmDoubt("the object at (133, 5) mm may be a token or a base (27 mm across)").seen_at(132.7, 4.8),
        FirmDoubt("the object at (159, 5) mm may be a token or a base (27 mm across)").seen_at(158.9, 4.9),
        HidingDoubt("a figure standing at (131, 2) mm on S8's outline ...", "S8").seen_at(130.5, 1.9),
        HidingDoubt("a figure standing at (155, 2) mm on S9's outline ...", "S9").seen_at(154.8, 2.4),
    ]
    assert ONE_THING_MM < 22.0
    assert sorted(g.space for g in _best_guesses([], doubts, GEOMETRY, 2)) == ["S8", "S9"]


def test_the_fighter_whose_figure_shows_on_the_next_outline_is_read_alone():
    live, reference, truth, _ = spec_scene(996552, GEOMETRY)
    assert truth == ("S9",)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok and "on S8's outline" in reading.error  # the doubt is kept, its text too
    assert reading.occupied == truth
    assert [(f.space, f.guessed) for f in reading.fighters] == [("S9", True)]


def test_two_touching_fighters_in_doubt_are_both_guessed():
    live, reference, truth, _ = spec_scene(920121, GEOMETRY)
    assert truth == ("S8", "S9")
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok and reading.occupied == truth


def test_a_token_sized_disc_is_guessed_after_a_base_sized_one():
    # 995273: no sure fighter; touching fighters on S1 and S2 (28 and 26 mm discs) and a 16 mm token on S7,
    # each named twice. S7's token lay nearest its space's centre and took S2's room.
    def seen(x, y, across, space):
        disc = FirmDoubt(f"the object at ({x}, {y}) mm may be a token or a base ({across} mm across)")
        figure = HidingDoubt(f"a figure standing at ({x}, {y}) mm on {space}'s outline ...", space)
        return [disc.seen_at(x, y, token_sized=across < 24), figure.seen_at(x, y + 3)]

    doubts = seen(-123, -8, 26, "S2") + seen(-150, -7, 28, "S1") + seen(76, 9, 16, "S7")
    assert sorted(g.space for g in _best_guesses([], doubts, GEOMETRY, 2)) == ["S1", "S2"]
    # With room for all three, the token's space is still named: the order only picks among them.
    assert sorted(g.space for g in _best_guesses([], doubts, GEOMETRY, 3)) == ["S1", "S2", "S7"]
    # Named more often, a token-sized thing still comes first.
    doubts = seen(-123, -8, 26, "S2") + seen(76, 9, 16, "S7") + [Doubt("another look at S7").seen_at(77, 8)]
    assert [g.space for g in _best_guesses([], doubts, GEOMETRY, 1)] == ["S7"]


def test_touching_fighters_beside_a_token_are_guessed_both_ways():
    live, reference, truth, count = spec_scene(995273, GEOMETRY)
    assert truth == ("S1", "S2") and count == 2
    for told in (None, count):
        reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=told)
        assert not reading.ok and "(76, 9) mm may be a token or a base" in reading.error, told
        assert reading.occupied == truth, told


def test_an_ok_reading_is_untouched(monkeypatch):
    # The guess is made for a doubt only: an ``ok`` reading (900000, both fighters sure) never asks for one.
    def no_guess(*args, **kwargs):
        raise AssertionError("an ok reading asked for a guess")

    monkeypatch.setattr(reader, "_best_guesses", no_guess)
    live, reference, truth, _ = spec_scene(900000, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert reading.ok and reading.error is None and reading.occupied == truth == ("S2", "S6")
    assert not any(f.guessed for f in reading.fighters)
