"""A reading in doubt still gives its best reading: the fighters it is sure of, and the spaces where it
saw something that may be a fighter (``reader._best_guesses``), up to the count or a match's two. It
stays ``ok: false``; a guessed fighter is marked and carries a low confidence. See docs/arena-reader.md,
"The best reading under doubt"."""

from __future__ import annotations

from arena_scenes import line_9, read_both_ways, spec_scene
from vision.arena import ArenaSettings, ArenaWatcher, WatchStatus, calibrate_arena, read_arena
from vision.arena.bases import Doubt, FirmDoubt, HidingDoubt
from vision.arena.reader import GUESS_CONFIDENCE, MATCH_FIGHTERS, FighterReading, _best_guesses

GEOMETRY = line_9()


def sure(space: str, x: float) -> FighterReading:
    return FighterReading(space, (x, 0.0), 0.9)


def test_a_thing_seen_on_a_space_is_guessed_there():
    doubts = [Doubt("the object at (-41, 2) mm may be a token or a base (20 mm across)").seen_at(-41, 2)]
    guesses = _best_guesses([sure("S2", -120)], doubts, GEOMETRY, 2)
    assert guesses == [FighterReading("S4", (-41.0, 2.0), GUESS_CONFIDENCE, guessed=True)]


def test_a_figure_on_an_outline_is_guessed_on_the_space_its_doubt_names():
    # (21, 0) lies on S6 by its centre; the doubt names S5, whose outline the figure stands on.
    doubts = [HidingDoubt("a figure standing at (21, 0) mm on S5's outline shows ...", "S5").seen_at(21, 0)]
    assert [g.space for g in _best_guesses([], doubts, GEOMETRY, 2)] == ["S5"]


def test_the_spaces_most_seen_come_first_then_those_seen_nearest_their_centre():
    doubts = [
        Doubt("an object on S7").seen_at(88, 9),  # 12 mm off S7's centre
        HidingDoubt("a figure on S3's outline", "S3").seen_at(-77, 14),  # 14 mm off S3's
        FirmDoubt("an object on S3").seen_at(-80, 2),
        Doubt("an object on S5").seen_at(3, -4),  # 5 mm off S5's
    ]
    assert [g.space for g in _best_guesses([], doubts, GEOMETRY, 3)] == ["S3", "S5", "S7"]
    assert [g.space for g in _best_guesses([], doubts, GEOMETRY, 2)] == ["S3", "S5"]
    assert [g.space for g in _best_guesses([sure("S9", 160)], doubts, GEOMETRY, 2)] == ["S3"]


def test_no_guess_past_the_count_on_a_taken_space_or_from_a_doubt_of_room_or_change():
    seen_on_s4 = Doubt("an object on S4").seen_at(-40, 0)
    assert _best_guesses([sure("S1", -160), sure("S2", -120)], [seen_on_s4], GEOMETRY, 2) == []
    assert _best_guesses([sure("S4", -38)], [seen_on_s4], GEOMETRY, 2) == []
    room = HidingDoubt("the fighter at (-40, -30) mm may hide a fighter on S4", "S4")  # no sighting
    change = "something that is neither a base nor a token is near (-40, 0) mm"
    off_the_spaces = Doubt("an object off the row").seen_at(-40, 60)
    assert _best_guesses([], [room, change, off_the_spaces], GEOMETRY, 2) == []


def test_a_reading_in_doubt_gives_the_fighter_it_saw_as_a_guess():
    # 900033: S4's fighter is sure; S5's shows as a 21 mm object and a figure on S5's outline.
    # (The scene was 900003, S3 sure and S4 a 20 mm object: the eighty-fourth pass's foot rule, brought
    # onto main by the eighty-sixth, reads it ok and right, so it is no doubt any more. 900033 is a doubt
    # of the same shape on main and with the rule, on both stacks; every assertion is kept.)
    live, reference, truth, count = spec_scene(900033, GEOMETRY)
    assert truth == ("S4", "S5")
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert not reading.ok and "S5" in reading.error
        assert reading.occupied == truth
        by_space = {f.space: f for f in reading.fighters}
        assert not by_space["S4"].guessed and by_space["S4"].confidence > GUESS_CONFIDENCE
        assert by_space["S5"].guessed and by_space["S5"].confidence == GUESS_CONFIDENCE
        assert reading.to_json()["occupied"] == ["S4", "S5"]
        assert all(f.keys() == {"space", "board_mm", "confidence"} for f in reading.to_json()["fighters"])


def test_guesses_stop_at_the_count():
    # 900042: S4 sure; figures on S5's and S6's outlines. Two fighters: S5, seen nearer its centre.
    live, reference, truth, count = spec_scene(900042, GEOMETRY)
    assert truth == ("S4", "S5") and count == MATCH_FIGHTERS
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert not reading.ok and "S6" in reading.error
        assert reading.occupied == truth
    one = read_arena(live, reference, GEOMETRY, annotate=False, fighters=1)
    assert one.occupied == ("S4",) and not any(f.guessed for f in one.fighters)  # no room for a guess


def test_a_sure_reading_guesses_nothing():
    for seed in (900000, 900001, 900002):
        live, reference, truth, count = spec_scene(seed, GEOMETRY)
        for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
            assert reading.ok and reading.occupied == truth, seed
            assert not any(f.guessed for f in reading.fighters)


def test_the_watcher_says_what_a_reading_in_doubt_still_sees():
    # The live service passes the count; the tablet shows the doubt with what the camera still sees.
    # (900033, not 900003, since the eighty-sixth pass: see the test above.)
    live, reference, truth, count = spec_scene(900033, GEOMETRY)
    watcher = ArenaWatcher(calibrate_arena(reference, GEOMETRY), settings=ArenaSettings(stable_frames=1),
                           fighters=("Maggot", "Bob"))
    result = watcher.add_frame(live, 0.0)
    assert result.status is WatchStatus.UNCERTAIN and result.positions == {} and result.disagreements == ()
    assert result.messages[-1].startswith("Camera reading uncertain (sees S4; maybe S5): "), result.messages


def test_a_figure_standing_off_the_row_that_may_hide_one_counts_among_the_fighters():
    # It is on no space, but it is one of the match's two: a thing seen on a space is then no third.
    seen_on_s1 = Doubt("the object at (-167, -17) mm may be a token or a base (21 mm across)").seen_at(-167, -17)
    hider = HidingDoubt("the fighter at (-166, -39) mm may hide a fighter on S1", "S1")
    hider.off_the_row = (-166.0, -39.0)
    assert _best_guesses([sure("S8", 112)], [seen_on_s1, hider], GEOMETRY, 2) == []
    # One figure that may hide two spaces is still one fighter.
    also_s2 = HidingDoubt("the fighter at (-166, -39) mm may hide a fighter on S2", "S2")
    also_s2.off_the_row = (-166.0, -39.0)
    assert [g.space for g in _best_guesses([], [seen_on_s1, hider, also_s2], GEOMETRY, 2)] == ["S1"]
    # A taken fighter that may hide one is among the sure fighters already: not counted twice.
    taken = HidingDoubt("the fighter at (112, -7) mm may hide a fighter on S9", "S9")
    assert [g.space for g in _best_guesses([sure("S8", 112)], [seen_on_s1, taken], GEOMETRY, 2)] == ["S1"]


def test_a_fighter_off_the_row_is_not_guessed_again_where_its_figure_leans():
    # 950169 and 950186: one fighter on a space, the other off the row in front of the spaces; the
    # latter's figure leans over a space and shows there as an object that may be a token or a base.
    for seed, truth in ((950169, ("S8",)), (950186, ("S1",))):
        live, reference, scene_truth, count = spec_scene(seed, GEOMETRY)
        assert scene_truth == truth and count == MATCH_FIGHTERS
        reading = read_arena(live, reference, GEOMETRY, annotate=False)
        assert not reading.ok and "may hide a fighter" in reading.error, seed
        assert reading.occupied == truth, seed
        assert not any(f.guessed for f in reading.fighters), seed


def test_one_thing_seen_across_an_outline_is_one_guess():
    # 900189's token at (-11, 13): the object on S5, a "figure" on S4's outline 11 mm from it.
    doubts = [
        Doubt("the object at (-11, 13) mm may be a token or a base (17 mm across)").seen_at(-11, 13),
        HidingDoubt("a figure standing at (-22, 6) mm on S4's outline ...", "S4").seen_at(-22, 6),
        HidingDoubt("a figure standing at (-11, 8) mm on S5's outline ...", "S5").seen_at(-11, 8),
    ]
    assert [g.space for g in _best_guesses([], doubts, GEOMETRY, 2)] == ["S5"]
    # Two fighters on neighbouring spaces are a base apart (900164: S3 and S4, 27 mm): two guesses.
    two = [
        Doubt("the object at (-45, -7) mm ...").seen_at(-45, -7),
        Doubt("the object at (-72, -10) mm ...").seen_at(-72, -10),
        HidingDoubt("a figure standing at (-70, -10) mm on S3's outline ...", "S3").seen_at(-70, -10),
        HidingDoubt("a figure standing at (-44, -8) mm on S4's outline ...", "S4").seen_at(-44, -8),
    ]
    assert sorted(g.space for g in _best_guesses([], two, GEOMETRY, 2)) == ["S3", "S4"]


def test_a_token_on_an_empty_board_is_guessed_once():
    # 900189: no fighter; a 17 mm token on S5's edge. Its best reading proposes one fighter, not two.
    live, reference, truth, _ = spec_scene(900189, GEOMETRY)
    assert truth == ()
    reading = read_arena(live, reference, GEOMETRY, annotate=False)
    assert not reading.ok and "S4's outline" in reading.error and "S5's outline" in reading.error
    assert [f.space for f in reading.fighters if f.guessed] == ["S5"]
