"""Thirty-fourth pass (issue 5): towers counted right, yet uncertain on the count.

Room 750014 (a dim room, a tall chain of nine): `stand` and `stagger` counted their cubes right, but
cube colour where nothing changed beside the tower (the pale paper flickering into light wood) and
streaks where the view runs past the frame's edge gave three to five unsure slivers, "a view unclear
as a whole".  They are no measurement of the tower: they no longer make the view unclear.  Room
640013 `stagger`: the pieces of a redder light cube's face, whose layer the thirty-second pass fills
by its averaged colour, gave three doubts; the filled cube is what they might have been.  Room
640013 `wrong_colour`: four plainly heavy cubes for three owned, a light layer unread under two of
them, was uncertain: a hidden cube adds to the count, it takes no seen one away.

Seeded scenes are rebuilt with the accuracy bench's options for that seed (``random_scene``)."""

import pytest

from vision.tower import Reason, TowerSettings, Verdict
from vision.tower.judge import UNCLEAR_VIEW, TowerAnalyzer, _CubeBox, _doubt, _open_doubts, _Structure, _unclear_view
from tower_judging import analyzer_and_last, judge_scene

# Room 750014 of the accuracy bench: a dim room, the tower nine cubes tall (4 heavy, 5 light).
ROOM_750014 = dict(frames=5, dim=True, nudge_px=2.714074261000392, exposure_drift=0.17481013570865214,
                   off_spot_mm=0.2503055880337435, distractors=3, noise=5.418192810693124, pile=False,
                   near=0.02224217468641556)
# Room 640013: a redder box of light cubes (the thirty-second pass).
ROOM_640013 = dict(frames=5, dim=False, nudge_px=3.442638026765165, exposure_drift=0.12857716622306484,
                   off_spot_mm=8.45624216370628, distractors=0, noise=5.440668276845889, pile=True,
                   near=0.09215029431025687)
AUTO_CONFIRM = TowerSettings().auto_confirm_confidence


def _chain(n: int) -> list[_CubeBox]:
    return [_CubeBox(layer, -5.0, 5.0, False) for layer in range(n)]


def _structure(unsure, answered=(), *, blind: int = 0) -> _Structure:
    return _Structure(_chain(4), [], 0, 1, len(unsure), 2, True, True, blind_layers=blind,
                      unsure=list(unsure), answered=list(answered))


APART = [(0, "sliver")] * 5  # five blobs apart from the tower where nothing changed


def test_doubts_about_no_part_of_the_tower_do_not_make_the_view_unclear():
    assert len(APART) >= UNCLEAR_VIEW
    # Before this pass they were a view unclear as a whole, every doubt kept against a pass.
    assert _unclear_view(_structure(APART))
    assert _open_doubts(_structure(APART), all_counted=True) == APART
    # Answered, they leave the tower's own measurements: none, so nothing keeps a pass back.
    answered = _structure(APART, APART)
    assert not _unclear_view(answered)
    assert _open_doubts(answered, all_counted=True) == []


def test_the_tower_s_own_doubts_still_make_the_view_unclear():
    own = [(2, "sliver"), (3, "hidden"), (4, "wider")]
    structure = _structure(own + APART, APART)
    assert _unclear_view(structure)
    assert _open_doubts(structure, all_counted=True) == own + APART
    # Own doubts with a cube fewer stay doubts beside answered ones.
    structure = _structure([(1, "speckle")] + APART, APART)
    assert _open_doubts(structure, all_counted=True) == [(1, "speckle")]
    # With the count off (or a layer blind) every doubt stays, answered or not.
    assert _open_doubts(structure, all_counted=False) == [(1, "speckle")] + APART


def test_answered_doubts_weigh_against_a_breach_only_where_a_cube_more_could_undo_it():
    structure = _structure(APART, APART, blind=1)
    # A heavy cube for a light one (4h5l seen, 3h6l owned): a cube more cannot undo that.
    assert _doubt(Reason.CUBE_COUNT, structure, 4, 5, 3, 6) == 0
    # A light cube short (4h5l seen, 4h6l owned): one of them could be it; they count, as before.
    assert _doubt(Reason.CUBE_COUNT, structure, 4, 5, 4, 6) == len(APART)
    # Not answered they are an unclear view, against any breach (as before this pass).
    assert _doubt(Reason.CUBE_COUNT, _structure(APART, blind=1), 4, 5, 3, 6) == len(APART)


def _analyzer(tower_scene) -> TowerAnalyzer:
    scene = tower_scene("stand", 750014, heavy=4, light=5, **ROOM_750014)
    return TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)


def test_the_pieces_of_one_face_lie_within_a_turned_cube_over_the_filled_place(tower_scene):
    analyzer = _analyzer(tower_scene)
    view = analyzer.view
    box = _CubeBox(5, -9.5, 0.5, False)
    # Stagger 640013's layer 5: pieces at -10..-6.5, -2.5..-1.5 and -0.5..1 mm.
    pieces = [(view.col(-10.0), view.col(-6.5)), (view.col(-2.5), view.col(-1.5)), (view.col(-0.5), view.col(1.0))]
    assert analyzer._pieces_of_one_face(pieces, box, view)
    # Pieces two cubes apart are no one face; nor pieces beside the filled place.
    assert not analyzer._pieces_of_one_face([(view.col(-10.0), view.col(-7.0)), (view.col(8.0), view.col(10.0))],
                                            box, view)
    assert not analyzer._pieces_of_one_face([(view.col(4.0), view.col(8.0))], box, view)


def _over(analyzer, monkeypatch, unsure, *, confirmed=True, seen=(4, 5)):
    monkeypatch.setattr(TowerAnalyzer, "_colours_confirmed", lambda self, obs, boxes: confirmed)
    structure = _structure(unsure, blind=1)
    return analyzer._colour_over_seen(None, structure, *seen)


def test_a_colour_over_is_sure_only_with_every_colour_sure_and_no_cube_of_it_in_doubt(tower_scene, monkeypatch):
    analyzer = _analyzer(tower_scene)
    analyzer.heavy, analyzer.light = 3, 6
    assert _over(analyzer, monkeypatch, [(0, "sliver"), (3, "hidden")])
    # A reading with a heavy cube fewer (a colour, a width, speckle, a fringe) could undo it.
    for what in ("colour", "width", "wider", "speckle", "fringe"):
        assert not _over(analyzer, monkeypatch, [(2, what)]), what
    # Nor is it sure unless every cube's averaged colour clearly is the one it was counted as.
    assert not _over(analyzer, monkeypatch, [], confirmed=False)
    # Short of a colour, not over: hidden cubes may be the ones short.
    assert not _over(analyzer, monkeypatch, [], seen=(3, 5))


@pytest.mark.parametrize("kind", ["stand", "stagger"])
def test_room_750014_towers_counted_right_pass(tower_scene, kind):
    scene = tower_scene(kind, 750014, heavy=4, light=5, **ROOM_750014)
    analyzer, last = analyzer_and_last(scene, likeness=True)
    structure = analyzer._structure(last, last.view)
    # The premise: enough unsure measurements to have made the view unclear, and what makes them so
    # many is cube colour apart from the tower (answered); the tower's own doubts alone are too few.
    # (On numpy 1.24 + OpenCV 4.11 the stagger keeps one doubt of its own, a "wider" layer.)
    assert len(structure.unsure) >= UNCLEAR_VIEW
    assert structure.answered and all(doubt in structure.unsure for doubt in structure.answered)
    assert len(structure.unsure) - len(structure.answered) < UNCLEAR_VIEW
    verdict = judge_scene(scene)
    assert (verdict.heavy_seen, verdict.light_seen) == (scene.heavy, scene.light)
    assert verdict.verdict is Verdict.PASS


@pytest.mark.parametrize("kind", ["wrong_colour", "stack_pair", "fork", "missing", "aside"])
def test_room_750014_breaches_are_never_passed(tower_scene, kind):
    verdict = judge_scene(tower_scene(kind, 750014, heavy=4, light=5, **ROOM_750014))
    assert verdict.verdict is not Verdict.PASS


def test_room_750014_a_heavy_cube_for_a_light_one_fails_on_the_count(tower_scene):
    scene = tower_scene("wrong_colour", 750014, heavy=4, light=5, **ROOM_750014)
    verdict = judge_scene(scene)
    assert (verdict.heavy_seen, verdict.light_seen) == (scene.heavy + 1, scene.light - 1)
    assert verdict.verdict is Verdict.FAIL and verdict.reasons == [Reason.CUBE_COUNT]


def test_room_640013_stagger_s_filled_layer_leaves_no_doubt_from_its_pieces(tower_scene):
    scene = tower_scene("stagger", 640013, heavy=4, light=4, **ROOM_640013)
    analyzer, last = analyzer_and_last(scene, likeness=True)
    structure = analyzer._structure(last, last.view)
    assert structure.support_inferred  # the layer was filled
    assert structure.unsure and structure.answered == structure.unsure
    verdict = judge_scene(scene)
    assert (verdict.heavy_seen, verdict.light_seen) == (scene.heavy, scene.light)
    # A cube read from its averaged colour only: a pass the referee confirms.
    assert verdict.verdict is Verdict.PASS and verdict.confidence < AUTO_CONFIRM


def test_room_640013_four_heavy_for_three_fails_on_the_count(tower_scene):
    scene = tower_scene("wrong_colour", 640013, heavy=4, light=4, **ROOM_640013)
    analyzer, last = analyzer_and_last(scene, likeness=True)
    structure = analyzer._structure(last, last.view)
    # The premise: a light layer unread under two heavy cubes (blind, floating), no doubt at all.
    assert structure.blind_layers and structure.floating and not structure.unsure
    verdict = judge_scene(scene)
    assert verdict.heavy_seen == scene.heavy + 1
    assert verdict.verdict is Verdict.FAIL and verdict.reasons == [Reason.CUBE_COUNT]


@pytest.mark.parametrize("kind", ["ring", "lean", "y_fork"])
@pytest.mark.parametrize(("seed", "heavy", "light", "room"), [(750014, 4, 5, ROOM_750014), (640013, 4, 4, ROOM_640013)])
def test_the_rooms_legal_towers_are_never_failed(tower_scene, kind, seed, heavy, light, room):
    # A ring needs an even count (the bench adds a light cube, as here); the rest as the bench draws them.
    light += (heavy + light) % 2 if kind == "ring" else 0
    verdict = judge_scene(tower_scene(kind, seed, heavy=heavy, light=light, **room))
    assert verdict.verdict is not Verdict.FAIL
