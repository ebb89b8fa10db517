"""Twenty-fifth pass (issue 5): three legal towers of one room failed on "hand" with no hand in view.

Stand, stagger and Y fork 590009 (4 heavy 5 light; the camera bumped 1.1 px after the reference,
a brown box and a yellow piece right behind the tower's foot) failed at 0.80 on ``hand``.  The judge
follows a bumped camera by the mat's markers, but things off the view's plane (the box behind the
tower) stay misplaced: the box's top edge, 2 mm off, left a trail of change and of light-cube-like
colour from the tower to the view's side, which the hand search took for an arm touching the tower.
A hand brings its own colour across the view's edge; where what came in is only the reference moved
a little as a whole, it is no sure hand: "uncertain: hand", never a fail.

Seeded scenes are rebuilt with the accuracy bench's options for that seed; the painted colours pin
the rule on any renderer."""

import dataclasses

import numpy as np
import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import NUDGE_PX, TowerAnalyzer
from tower_judging import analyzer_and_last, judge_scene

# The accuracy bench's options for seed 590009 (the same room for every kind).
ROOM_590009 = dict(heavy=4, light=5, frames=5, dim=False, nudge_px=1.1402838559797357,
                   exposure_drift=0.12004288039351628, off_spot_mm=2.65104429858231, distractors=7,
                   noise=5.61633382237965, pile=True, near=0.542067133656259)

# A hand's colour in the side view (B, G, R, the mat's white near 1).
SKIN = (0.42, 0.52, 0.78)


@pytest.mark.parametrize("kind", ["stand", "stagger", "y_fork"])
def test_room_590009_is_never_failed_and_the_moved_box_is_no_sure_hand(tower_scene, monkeypatch, kind):
    # Was a fail at 0.80 on "hand" (0 cubes seen of 4 + 5), three legal towers.
    scene = tower_scene(kind, 590009, **ROOM_590009)
    seen = []
    rule = TowerAnalyzer._hand_entry_is_moved_reference
    touches = TowerAnalyzer._hand_touches_tower

    def recording_rule(self, obs):
        seen.append(("rule", rule(self, obs)))
        return seen[-1][1]

    def recording_touch(self, obs):
        seen.append(("touch", touches(self, obs)))
        return seen[-1][1]

    monkeypatch.setattr(TowerAnalyzer, "_hand_entry_is_moved_reference", recording_rule)
    monkeypatch.setattr(TowerAnalyzer, "_hand_touches_tower", recording_touch)
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL, verdict
    if ("touch", True) in seen:
        # This renderer shows the box's trail as a hand touching the tower: the rule must be what
        # kept it from a fail, and the doubt must say "hand".
        assert ("rule", True) in seen, seen
        assert verdict.verdict is Verdict.UNCERTAIN and Reason.HAND in verdict.reasons, verdict


def _painted_hand(analyzer, last, colour_of):
    """``last`` with a hand painted coming in from the view's right edge across the box behind the
    tower (rows of the box's top, the last 40 columns), coloured by ``colour_of(rows, cols)``."""
    hand = np.zeros_like(last.hand)
    rows, cols = slice(150, 200), slice(hand.shape[1] - 40, hand.shape[1])
    hand[rows, cols] = True
    colour = last.colour.copy()
    colour[rows, cols] = colour_of(rows, cols)
    return dataclasses.replace(last, hand=hand, colour=colour), rows, cols


def test_a_reference_moved_a_little_is_no_hand_but_skin_is(tower_scene):
    analyzer, last = analyzer_and_last(tower_scene("stand", 590009, **ROOM_590009))
    reference = analyzer._reference_view(last.view)
    moved = np.roll(reference, (-3, 3), axis=(0, 1))
    painted, rows, cols = _painted_hand(analyzer, last, lambda r, c: moved[r, c])
    # The premise: unmoved, the moved reference differs from it over much of the way in (the box's
    # edges), so only the move explains it.
    changed = np.abs(painted.colour - reference).max(axis=2)[rows, cols] > 0.06
    assert changed.mean() > 0.2, changed.mean()
    assert analyzer._hand_entry_is_moved_reference(painted)
    # Moved further than a bumped camera leaves things: a hand may be there.
    far = np.roll(reference, (-3 * NUDGE_PX, 3 * NUDGE_PX), axis=(0, 1))
    assert not analyzer._hand_entry_is_moved_reference(_painted_hand(analyzer, last, lambda r, c: far[r, c])[0])
    # A hand's own colour, not in the reference: a hand.
    skin, _, _ = _painted_hand(analyzer, last, lambda r, c: np.float32(SKIN))
    assert not analyzer._hand_entry_is_moved_reference(skin)


@pytest.mark.parametrize("kind", ["hand_top", "hand_side"])
def test_a_hand_touching_the_tower_under_a_bumped_camera_still_fails(tower_scene, kind):
    # The bench's largest bump (4 px): the camera moved, but the hand brought its own colour.
    verdict = judge_scene(tower_scene(kind, 0, nudge_px=4.0))
    assert verdict.verdict is Verdict.FAIL and verdict.reasons == [Reason.HAND], verdict
