"""The eighty-ninth pass: the best reading under doubt (``reader._best_guesses``) keeps to the count when
it is 0, names no fighter from a disc no figure stands on, and, with the count, guesses a fighter the count
says is unseen on the space behind a figure that may hide it. ``ok`` and the error never change. See
docs/arena-reader.md, "Eighty-ninth pass"."""

from __future__ import annotations

from arena_scenes import line_9, spec_scene
from vision.arena import read_arena
from vision.arena.bases import Doubt, FirmDoubt, HidingDoubt
from vision.arena.reader import GUESS_CONFIDENCE, FighterReading, _best_guesses

GEOMETRY = line_9()


def off_the_row(x: float, y: float) -> FighterReading:
    return FighterReading(None, (x, y), 0.9)


def hides(space: str) -> HidingDoubt:
    return HidingDoubt(f"the fighter at (-70, -38) mm may hide a fighter on {space}", space)


def test_a_count_of_none_guesses_no_fighter():
    # 910237 and 930274: no fighter, a token standing up as a fighter's foot would (a firm doubt the
    # count of 0 does not settle). Told 0, the best reading named the token's space: `0 or 2` was 2.
    for seed, space in ((910237, "S2"), (930274, "S9")):
        live, reference, truth, count = spec_scene(seed, GEOMETRY)
        assert truth == () and count == 0
        reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=0)
        assert not reading.ok and "may be a token or a base" in reading.error, seed
        assert reading.occupied == () and reading.fighters == (), seed
        # Without the count it is a doubt about one thing seen: still guessed, as a match has two fighters.
        assert read_arena(live, reference, GEOMETRY, annotate=False).occupied == (space,), seed


def test_a_disc_no_figure_stands_on_names_no_fighter():
    no_figure = Doubt("the object at (-64, 11) mm may be a token or a base (28 mm across)").seen_at(-64, 11, no_figure=True)
    assert _best_guesses([FighterReading("S4", (-44.0, -7.0), 0.9)], [no_figure], GEOMETRY, 2) == []
    seen = Doubt("the object at (-64, 11) mm may be a token or a base (28 mm across)").seen_at(-64, 11)
    assert [g.space for g in _best_guesses([], [seen], GEOMETRY, 2)] == ["S3"]


def test_a_token_seen_base_sized_beside_a_lone_fighter_is_not_guessed():
    # 910180: the fighter on S4; an 18 mm token on S3 fitted 28 mm across, nothing where a figure on it
    # would show. The doubt stays; the best reading is the fighter alone.
    live, reference, truth, _ = spec_scene(910180, GEOMETRY)
    assert truth == ("S4",)
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok and "(-64, 11) mm may be a token or a base" in reading.error
    assert reading.occupied == truth and not any(f.guessed for f in reading.fighters)


def test_with_the_count_a_fighter_unseen_is_guessed_where_a_figure_may_hide_it():
    guesses = _best_guesses([off_the_row(-70, -38)], [hides("S3")], GEOMETRY, 2, counted=True)
    assert guesses == [FighterReading("S3", GEOMETRY.spaces["S3"], GUESS_CONFIDENCE, guessed=True)]
    # Without the count a space behind a figure is room for a fighter, not one seen.
    assert _best_guesses([off_the_row(-70, -38)], [hides("S3")], GEOMETRY, 2) == []
    # A thing seen comes first; the count's room left is then filled.
    seen_on_s7 = FirmDoubt("the object at (80, 2) mm may be a token or a base (25 mm across)").seen_at(80, 2)
    assert [g.space for g in _best_guesses([], [hides("S3"), seen_on_s7], GEOMETRY, 1, counted=True)] == ["S7"]
    assert [g.space for g in _best_guesses([], [hides("S3"), seen_on_s7], GEOMETRY, 2, counted=True)] == ["S7", "S3"]
    # More spaces that may hide one than fighters missing: nothing seen picks among them.
    assert _best_guesses([off_the_row(-70, -38)], [hides("S3"), hides("S4")], GEOMETRY, 2, counted=True) == []


def test_the_count_guesses_the_fighter_hidden_behind_one_off_the_row():
    # 930099: a fighter off the row in front of S3 hides S3's fighter from the camera.
    live, reference, truth, count = spec_scene(930099, GEOMETRY)
    assert truth == ("S3",) and count == 2
    counted = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    assert not counted.ok and "may hide a fighter on S3" in counted.error
    assert counted.occupied == truth
    assert [(f.space, f.guessed) for f in counted.fighters] == [(None, False), ("S3", True)]
    alone = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not alone.ok and alone.occupied == ()
