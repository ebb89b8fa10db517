"""Forty-first pass (issue 5): a breach whose one doubt could undo it only in a reading that
miscounts the fighter's cubes.  Two_ground 860007 (a heavy base run 1.8 widths wide on the table,
read as two cubes, a `width` doubt), stack_pair 860015 (the pair on top the same), stack_pair 900043
and 900057 (a cube of the top pair read in patches, `speckle`) were uncertain at 0.65 with every
cube the fighter owns counted, of the owned colours, in one structure read whole.  The doubt's one other
reading (a cube fewer) leaves one of the fighter's cubes nowhere in the view: a count breach, unless
a place in the view could hide a cube.  Either reading fails, so the tower fails, and the referee
is told both reasons.  Seeded scenes are rebuilt with the accuracy bench's options for that seed."""

import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import TowerAnalyzer, _CubeBox, _Structure
from tower_judging import analyzer_and_last, judge_scene

# Rooms of the accuracy bench (`random_scene(kind, seed)` in bench/tower_accuracy.py).
ROOM_860007 = dict(frames=4, dim=False, nudge_px=2.059012515596195, exposure_drift=0.043089333151878975,
                   off_spot_mm=6.208159592149098, distractors=3, noise=3.9980979044218885, pile=False,
                   near=0.3768483361215736)
ROOM_860015 = dict(frames=2, dim=True, nudge_px=3.668802770133318, exposure_drift=0.07304470767752734,
                   off_spot_mm=4.597976476076567, distractors=7, noise=3.7840333014205965, pile=False,
                   near=0.17296434308575961)
ROOM_900043 = dict(frames=4, dim=False, nudge_px=2.604338583126293, exposure_drift=0.05384712492715343,
                   off_spot_mm=10.409832488008245, distractors=2, noise=4.950438414448325, pile=True,
                   near=0.3816224544393465)
ROOM_900057 = dict(frames=5, dim=True, nudge_px=1.3516555593196706, exposure_drift=0.16814094261005194,
                   off_spot_mm=3.1214138761311507, distractors=1, noise=5.607764601851926, pile=True,
                   near=0.4930763947792893)
TWO_GROUND_860007 = ("two_ground", 860007, dict(ROOM_860007, heavy=4, light=3))
STACK_PAIR_860015 = ("stack_pair", 860015, dict(ROOM_860015, heavy=4, light=0))
STACK_PAIR_900043 = ("stack_pair", 900043, dict(ROOM_900043, heavy=4, light=3))
STACK_PAIR_900057 = ("stack_pair", 900057, dict(ROOM_900057, heavy=1, light=3))


def _judged_with_structure(tower_scene, kind, seed, options, monkeypatch):
    """The verdict and the structure the judge read on the way to it."""
    seen = []
    read = TowerAnalyzer._structure

    def recording(self, obs, view):
        seen.append(read(self, obs, view))
        return seen[-1]

    monkeypatch.setattr(TowerAnalyzer, "_structure", recording)
    scene = tower_scene(kind, seed, **options)
    return judge_scene(scene), seen[-1]


@pytest.mark.parametrize(("kind", "seed", "options", "breach", "doubt"), [
    (*TWO_GROUND_860007, Reason.GROUND_CONTACTS, (0, "width")),
    (*STACK_PAIR_860015, Reason.CUBE_NEIGHBOURS, (2, "width")),
    (*STACK_PAIR_900043, Reason.CUBE_NEIGHBOURS, (5, "speckle")),
    (*STACK_PAIR_900057, Reason.CUBE_NEIGHBOURS, (2, "speckle")),
])
def test_a_breach_whose_one_doubt_would_miscount_the_cubes_fails(tower_scene, monkeypatch, kind, seed, options,
                                                                   breach, doubt):
    verdict, structure = _judged_with_structure(tower_scene, kind, seed, options, monkeypatch)
    # Premise: every owned cube counted, of the owned colours, in one structure read whole, and the
    # one doubt left open names a layer of the tower.
    assert (verdict.heavy_seen, verdict.light_seen) == (options["heavy"], options["light"])
    assert structure.connected and not (structure.blind_layers or structure.floating or structure.aside)
    assert verdict.verdict is Verdict.FAIL, (verdict.reasons, verdict.confidence)
    if doubt not in structure.unsure:
        # Stack_pair 860015 on the Pi stack (OpenCV 4.11): its pair is read without the doubt, a
        # fail on main already.
        assert structure.unsure == [] or all(what in ("wider", "hidden", "sliver") for _, what in structure.unsure)
        assert breach in verdict.reasons and verdict.confidence >= 0.85
        return
    assert set(verdict.reasons) == {breach, Reason.CUBE_COUNT}
    assert verdict.confidence >= 0.85


def test_a_place_a_cube_could_hide_keeps_the_doubt(tower_scene, monkeypatch):
    # Where the view has a place a cube could stand unseen (on a top, beside a counted cube), the
    # reading with a cube fewer may still be every owned cube, one of them hidden: the doubt weighs.
    kind, seed, options = TWO_GROUND_860007
    monkeypatch.setattr(TowerAnalyzer, "_blind_above", lambda self, boxes, obs, *, seen_elsewhere:
                        max(0, self.heavy + self.light - len(boxes) - seen_elsewhere))
    verdict = judge_scene(tower_scene(kind, seed, **options))
    assert verdict.verdict is Verdict.UNCERTAIN
    assert verdict.reasons == [Reason.GROUND_CONTACTS]


def test_an_overhang_that_could_hide_a_cube_keeps_the_doubt(tower_scene, monkeypatch):
    # So does an overhang over unread change, which with a cube short may be that cube.
    kind, seed, options = TWO_GROUND_860007
    mark = TowerAnalyzer._mark_hidden_below
    monkeypatch.setattr(TowerAnalyzer, "_mark_hidden_below", lambda self, boxes, obs, *, short=None:
                        1 if short else mark(self, boxes, obs, short=short))
    verdict = judge_scene(tower_scene(kind, seed, **options))
    assert verdict.verdict is Verdict.UNCERTAIN


def _tower(unsure, *, joined=0) -> _Structure:
    """A heavy base, a light cube, a heavy cube carrying a light pair: 2 heavy + 3 light as read."""
    boxes = [_CubeBox(0, -5.0, 5.0, True), _CubeBox(1, -5.0, 5.0, False), _CubeBox(2, -5.0, 5.0, True),
             _CubeBox(3, -11.0, -1.0, False), _CubeBox(3, 1.0, 11.0, False)]
    return _Structure(boxes, [], 0, 1, len(unsure), 3, True, True, unsure=list(unsure), joined_layers=joined)


@pytest.fixture
def analyzer(tower_scene):
    kind, seed, options = STACK_PAIR_900043
    analyzer, last = analyzer_and_last(tower_scene(kind, seed, **dict(options, heavy=2, light=3)))
    return analyzer, last


def test_a_colour_doubt_alone_needs_no_place_to_be_asked(analyzer, monkeypatch):
    # A colour read the other way leaves one colour over and one short; a hidden cube only adds.
    analyzer, last = analyzer

    def asked(*args, **kwargs):
        raise AssertionError("no place needs asking")

    monkeypatch.setattr(TowerAnalyzer, "_blind_above", asked)
    assert analyzer._count_breached_otherwise(last, _tower([(2, "colour")]), 2, 3, all_counted=True)


@pytest.mark.parametrize(("unsure", "counts", "all_counted", "joined"), [
    ([(3, "speckle"), (1, "colour")], (2, 3), True, 0),   # two doubts: together they may keep the count
    ([(3, "speckle")], (3, 2), True, 0),                   # the colours read are not the owned ones
    ([(3, "speckle")], (2, 3), False, 0),                  # not every owned cube counted in one structure
    ([(3, "speckle")], (2, 3), True, 1),                   # which cube rests on which is in doubt
    ([(3, "speckle")] * 3, (2, 3), True, 0),               # a view unclear as a whole
])
def test_the_breach_keeps_its_doubt_where_another_reading_may_keep_the_count(analyzer, unsure, counts,
                                                                             all_counted, joined):
    analyzer, last = analyzer
    assert not analyzer._count_breached_otherwise(last, _tower(unsure, joined=joined), *counts,
                                                  all_counted=all_counted)


# (The bench draws a top pair's cubes and clutter after the rest: its own pile and clutter.)
@pytest.mark.parametrize(("kind", "seed", "options"), [
    ("stand", 860007, dict(ROOM_860007, heavy=4, light=3)), ("stagger", 860007, dict(ROOM_860007, heavy=4, light=3)),
    ("top_pair", 860007, dict(ROOM_860007, heavy=3, light=0, near=0.3353066908279266)),
    ("ring", 860007, dict(ROOM_860007, heavy=4, light=4)),
    ("stand", 860015, dict(ROOM_860015, heavy=4, light=0)), ("stagger", 860015, dict(ROOM_860015, heavy=4, light=0)),
    ("top_pair", 860015, dict(ROOM_860015, heavy=0, light=3, pile=True, near=0.5547511673129762)),
    ("ring", 860015, dict(ROOM_860015, heavy=4, light=0)),
    ("stand", 900043, dict(ROOM_900043, heavy=4, light=3)), ("stagger", 900043, dict(ROOM_900043, heavy=4, light=3)),
    ("top_pair", 900043, dict(ROOM_900043, heavy=1, light=2, pile=False, near=0.28244469385370524)),
    ("ring", 900043, dict(ROOM_900043, heavy=4, light=4)),
])
def test_legal_towers_in_those_rooms_are_never_failed(tower_scene, kind, seed, options):
    verdict = judge_scene(tower_scene(kind, seed, **options))
    assert verdict.verdict is not Verdict.FAIL, (kind, verdict.reasons, verdict.confidence)
    assert verdict.ground_contacts == 1
