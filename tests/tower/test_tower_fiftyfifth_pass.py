"""Fifty-fifth pass (issue 5): cubes counted over the fighter's own whose faces did not change since
the reference are background, no ground for a fail.

The fifty-third pass's hunt found one wrong fail within the spec: stagger 974312 under the clutter
hunt, a tan card lying behind the tower, at the edge of light wood's colour, read as two light cubes
beside the tower's layer 1 (4h7l seen of 4h5l, failed at 0.85).  Those two "cubes" are the card as it
was in the reference: their faces' colour, averaged over the face and the still frames, did not move.
A cube the fighter brought changes the view where it stands, so the excess resting on unchanged
faces leaves the count in doubt (``TowerAnalyzer._excess_unchanged``): uncertain, not fail.
"""
import pytest

from vision.synth.tower_scene import make_tower_scene
from vision.tower import judge_tower
from test_tower_fiftythird_pass import STAGGER_974312_CARD
from tower_judging import analyzer_and_last


@pytest.fixture(scope="module")
def card_scenes():
    return {kind: make_tower_scene(kind, seed=974312, **STAGGER_974312_CARD) for kind in ("stagger", "lean")}


def test_the_card_s_two_light_cubes_are_unchanged_and_the_tower_s_own_are_not(card_scenes):
    analyzer, last = analyzer_and_last(card_scenes["stagger"], likeness=True)
    boxes = analyzer._structure(last, last.view).boxes
    unchanged = [b for b in boxes if analyzer._face_unchanged(last, b)]
    # The two light "cubes" of layer 1 either side of the tower's own (0.5 to 12.5 mm).
    assert [(b.layer, b.heavy) for b in unchanged] == [(1, False), (1, False)]
    assert unchanged[0].x1 <= 3.0 and unchanged[1].x0 >= 12.0
    assert len(boxes) - len(unchanged) == analyzer.heavy + analyzer.light


@pytest.mark.parametrize("kind", ["stagger", "lean"])
def test_a_legal_tower_before_a_wood_coloured_card_is_not_failed(card_scenes, kind):
    scene = card_scenes[kind]
    assert scene.expected == "pass" and "card" in scene.hunt
    verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    # Uncertain on ``cube_count`` with this pass's doubt alone; since the fifty-sixth pass leaves the
    # card's unchanged "cubes" out of the structure, a pass (below auto-confirm: its test file).
    assert verdict.verdict.value == "pass"
    assert verdict.reasons == []


@pytest.mark.parametrize("heavy_less, light_less", [(0, 1), (1, 0)])
def test_a_cube_over_the_count_that_changed_the_view_still_fails(card_scenes, heavy_less, light_less):
    # The same tower judged for a fighter owning one cube fewer: the tower's own cube over the count
    # changed the view, so the card's unchanged "cubes" cannot explain all of the excess.
    scene = card_scenes["stagger"]
    verdict = judge_tower(scene.frames, heavy=scene.heavy - heavy_less, light=scene.light - light_less)
    assert verdict.verdict.value == "fail"
    assert "cube_count" in [r.value for r in verdict.reasons]
