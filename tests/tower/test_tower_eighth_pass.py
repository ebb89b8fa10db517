"""Eighth pass (issue 5): a cube seen resting on nothing rests on the cube under it that the view
partly missed.  Seeded scenes are rebuilt from the generator with the accuracy bench's options for
that seed (rounded)."""

import dataclasses

import numpy as np

from vision.tower import Reason, Verdict, judge_tower
from vision.tower.judge import (
    SIDE_FAINT_APART,
    SIDE_SEEN_APART,
    SPLIT_SLACK,
    TowerAnalyzer,
    _contacts,
    _CubeBox,
    _unseen_supports,
)

CUBE = 10.0
MIN_OVERLAP = 0.15 * CUBE


def _stack_pair_boxes(cap_overlap: float, turned_width: float = 7.0) -> list[_CubeBox]:
    # A chain of three, a turned cube on top of it seen only ``turned_width`` mm wide (its shaded
    # left face lost against a dark table), carrying a pair whose left cube overlaps what is seen
    # of it by ``cap_overlap`` mm.
    left_edge = 4.0 - turned_width
    return [
        _CubeBox(0, -8.0, 1.5, True),
        _CubeBox(1, -10.0, 2.5, False),
        _CubeBox(2, -9.0, 3.5, False),
        _CubeBox(3, left_edge, 4.0, False),
        _CubeBox(4, left_edge - 10.0 + cap_overlap, left_edge + cap_overlap, True),
        _CubeBox(4, left_edge + cap_overlap, left_edge + cap_overlap + 9.0, False),
    ]


def _neighbours(boxes: list[_CubeBox], *, complete: bool) -> tuple[int, int]:
    supports = _unseen_supports(boxes, min_overlap=MIN_OVERLAP, cube=CUBE, complete=complete)
    return _contacts(boxes, min_overlap=MIN_OVERLAP, unseen_supports=supports)[:2]


def test_a_cube_held_only_from_the_side_rests_on_the_one_cube_under_it():
    boxes = _stack_pair_boxes(cap_overlap=0.25)
    # Seen as measured, the left cap rests on nothing: the turned cube seems to touch two.
    assert _contacts(boxes, min_overlap=MIN_OVERLAP)[:2] == (2, 2)
    # Cubes do not float and every cube is counted: it rests on the turned cube (three neighbours).
    assert _neighbours(boxes, complete=True) == (3, 3)


def test_with_a_cube_unseen_the_support_is_only_possible():
    # A cube missing from the count may be what holds the cap up: a doubt, not a breach.
    assert _neighbours(_stack_pair_boxes(cap_overlap=0.25), complete=False) == (2, 3)


def test_a_cube_hidden_below_is_no_sure_support():
    boxes = _stack_pair_boxes(cap_overlap=0.25)
    boxes[4].hidden_below = True
    assert _neighbours(boxes, complete=True) == (2, 3)


def test_a_cube_seen_at_full_width_does_not_reach_further():
    # The cube under the cap seen as wide as a turned cube shows: nothing of it is missing, so a
    # cap 2 mm clear of it is not resting on it (the cap's own support is unseen, not inferred).
    boxes = _stack_pair_boxes(cap_overlap=-2.0, turned_width=14.5)
    assert _neighbours(boxes, complete=True) == (2, 2)


def test_a_chain_whose_cube_seems_to_rest_on_nothing_keeps_two_neighbours():
    # A legal staggered chain: the top cube's overlap with a narrow-seen cube under it is lost.
    boxes = [
        _CubeBox(0, -5.0, 5.0, False),
        _CubeBox(1, -3.0, 4.0, True),
        _CubeBox(2, 3.5, 13.5, False),
    ]
    assert _neighbours(boxes, complete=True) == (2, 2)


def test_a_ring_arm_seen_resting_on_nothing_rests_on_its_own_arm():
    # A legal ring: base, two arms of two cubes a slit apart, a cap.  The lower left arm shows
    # 7 mm wide and the upper left arm overlaps it by only 1.5 mm: it rests on the left arm, the
    # right one is beyond any part of a cube the view could have missed.  Two neighbours at most.
    boxes = [
        _CubeBox(0, -7.0, 7.0, False),
        _CubeBox(1, -11.0, -4.0, True, right_side=SIDE_SEEN_APART),
        _CubeBox(1, 0.0, 8.0, True),
        _CubeBox(2, -19.5, -9.5, False, right_side=SIDE_SEEN_APART),
        _CubeBox(2, 1.0, 10.0, False),
        _CubeBox(3, -12.0, 2.0, True),
    ]
    assert _contacts(boxes, min_overlap=MIN_OVERLAP)[:2] == (2, 2)
    assert _neighbours(boxes, complete=True) == (2, 2)


def test_stack_pair_250001_whose_cap_seemed_to_rest_on_nothing_does_not_pass(tower_scene):
    # A dim room, light from the right: the turned cube's shaded left face matches the dark table
    # behind it, so it shows 7 mm wide and the heavy cap over that face seemed held only by its
    # partner (passed at 0.97).  It breaks the two-neighbour limit.
    scene = tower_scene("stack_pair", 250001, heavy=2, light=4, frames=5, dim=True, nudge_px=0.914,
                        exposure_drift=0.093, off_spot_mm=3.846, distractors=9, noise=4.56, pile=True, near=0.317)
    verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    assert verdict.verdict is not Verdict.PASS


def _still_observations(scene):
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    observations = [analyzer.observe(frame) for frame in scene.frames[1:]]
    return analyzer, observations


def test_frames_with_a_hand_stay_out_of_the_still_colour_average(tower_scene):
    scene = tower_scene("stand", 3, frames=4, noise=4.0)
    analyzer, observations = _still_observations(scene)
    # The first end frame had a hand in it (skin painted over the tower), since gone.
    first = observations[0]
    skin = first.frame.copy()
    skin[100:300, 250:400] = (150, 180, 230)
    hand = np.zeros_like(first.hand)
    hand[: hand.shape[0] // 2] = True
    with_hand = [dataclasses.replace(first, frame=skin, hand=hand)] + observations[1:]
    last = observations[-1]
    averaged = analyzer._with_still_colour(last, with_hand).still_colour
    without = analyzer._with_still_colour(last, observations[1:]).still_colour
    np.testing.assert_allclose(averaged, without)
    # Counted in, the hand frame would have changed the average.
    unmarked = [dataclasses.replace(with_hand[0], hand=np.zeros_like(hand))] + observations[1:]
    assert not np.allclose(analyzer._with_still_colour(last, unmarked).still_colour, without)


def test_no_still_colour_while_a_hand_is_in_the_last_frame(tower_scene):
    analyzer, observations = _still_observations(tower_scene("stand", 3, frames=4, noise=4.0))
    last = observations[-1]
    hand = np.zeros_like(last.hand)
    hand[:5] = True
    assert analyzer._with_still_colour(dataclasses.replace(last, hand=hand), observations).still_colour is None
    # With no earlier frame there is nothing to average either.
    assert analyzer._with_still_colour(last, [last]).still_colour is None


def test_a_faint_slit_is_read_only_from_the_still_frames_average(tower_scene):
    # The seventh pass's faint-slit ring: averaged over its still frames the slit reads faint; the
    # last frame alone carries more noise than the faint thresholds were measured for, so it
    # reads no faint slit (a touching pair's crease could cross them on noise alone).
    scene = tower_scene("ring", 230009, heavy=4, light=0, frames=6, dim=False, nudge_px=1.631,
                        exposure_drift=0.048, off_spot_mm=7.887, distractors=0, noise=1.398, pile=True, near=0.407)
    analyzer, observations = _still_observations(scene)
    last = analyzer._final_observation(observations[-1])

    def sides(obs):
        boxes = analyzer._structure(obs, obs.view).boxes
        return [a.right_side for a, b in zip(boxes, boxes[1:], strict=False) if a.layer == b.layer]

    assert SIDE_FAINT_APART in sides(analyzer._with_still_colour(last, observations))
    assert SIDE_FAINT_APART not in sides(last)


def test_a_touching_ring_judged_on_one_frame_does_not_pass(tower_scene):
    # A dim room, judged on its reference and one end frame (the offline judge takes that): the
    # crease between the touching arms read as a faint slit on that frame's noise (passed at 0.77).
    scene = tower_scene("touching_ring", 240020, heavy=2, light=2, frames=1, dim=True, nudge_px=3.785,
                        exposure_drift=0.025, off_spot_mm=4.759, distractors=9, noise=5.542, pile=False, near=0.211)
    assert judge_tower(scene.frames, heavy=scene.heavy, light=scene.light).verdict is not Verdict.PASS


def _y_fork_arms(split_slack: float) -> list[_CubeBox]:
    # A base carrying two arms; the left arm's second cube reads 4.25 mm onto the right arm's
    # first cube, but both of those edges were placed by splitting a run between two cubes (the
    # arms seen apart, so only stacked contacts count).
    return [
        _CubeBox(0, -5.0, 6.0, False),
        _CubeBox(1, -12.5, -1.0, False, SIDE_SEEN_APART, slack_right=split_slack),
        _CubeBox(1, -1.0, 10.5, False, slack_left=split_slack),
        _CubeBox(2, -10.0, 3.25, False, SIDE_SEEN_APART, slack_right=split_slack),
        _CubeBox(2, 3.25, 13.0, True, slack_left=split_slack),
    ]


def test_an_overlap_measured_against_split_edges_is_no_sure_contact():
    # Seen edges: the right arm's first cube surely carries both cubes above it (three neighbours).
    assert _contacts(_y_fork_arms(0.0), min_overlap=MIN_OVERLAP)[:2] == (3, 3)
    # Edges from splits may be 2.25 mm off each: that third contact is only possible.
    assert _contacts(_y_fork_arms(SPLIT_SLACK * CUBE), min_overlap=MIN_OVERLAP)[:2] == (2, 3)


def test_y_fork_270062_whose_arms_seemed_to_cross_does_not_fail(tower_scene):
    # A dim room: the light cube on the left arm read 2 mm wider into the right arm's heavy cube,
    # and the split of the arms' first layer fell 2 mm to the left (failed at 0.85 on three
    # neighbours; in the generator's truth the two cubes are 0.3 mm clear).
    scene = tower_scene("y_fork", 270062, heavy=3, light=5, frames=6, dim=True, nudge_px=0.616,
                        exposure_drift=0.137, off_spot_mm=1.87, distractors=7, noise=4.258, pile=False, near=0.395)
    verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    assert verdict.verdict is not Verdict.FAIL
    # Left to the referee, the doubt names what to look at: whether the arms' cubes touch (it
    # said cube_count, though every cube was counted).
    assert verdict.verdict is Verdict.PASS or Reason.CUBE_NEIGHBOURS in verdict.reasons, verdict


def test_the_top_cubes_own_top_face_is_no_place_a_missing_cube_could_hide(tower_scene):
    # A light cube never brought, the wall behind the tower's top light-wood coloured.  Above the
    # top cube the view shows that cube's own lit top face (cube colour, a third of the place):
    # counted as change the view cannot read, it made a hidden cap seem possible (uncertain).
    scene = tower_scene("missing", 270007, heavy=1, light=3, frames=6, dim=False, nudge_px=3.899,
                        exposure_drift=0.199, off_spot_mm=9.909, distractors=6, noise=5.821, pile=False, near=0.088)
    analyzer, observations = _still_observations(scene)
    last = analyzer._with_still_colour(analyzer._final_observation(observations[-1]), observations)
    boxes = analyzer._structure(last, last.view).boxes
    top = max(boxes, key=lambda b: b.layer)
    view = last.view
    above = slice(view.row((top.layer + 2) * CUBE), view.row((top.layer + 1) * CUBE))
    assert not analyzer._could_hide(last, boxes, above, slice(view.col(top.x0), view.col(top.x1)))
    assert judge_tower(scene.frames, heavy=scene.heavy, light=scene.light).verdict is not Verdict.PASS
