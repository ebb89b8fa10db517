"""Sixth pass (issue 5): a touching ring seen through a heavy face's edge, and noisy dim rooms.
Each scene is rebuilt from the generator with the accuracy bench's options for that seed."""

import numpy as np
import pytest

from vision.tower import Verdict
from vision.tower.judge import (
    SIDE_MAY_TOUCH,
    SIDE_SEEN_APART,
    UNCLIP_STEPS,
    TowerAnalyzer,
    _contacts,
    _CubeBox,
    _pixel_noise,
    _unclip_table,
)
from tower_judging import judge_scene


def _sides_seen_apart(scene) -> int:
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    last = analyzer._final_observation(analyzer.observe(scene.frames[-1]))
    return sum(box.right_side == SIDE_SEEN_APART for box in analyzer._structure(last, last.view).boxes)


# A touching ring whose heavy arm stands against a dark table: the heavy face itself is within the
# change threshold of that table, so the column where the light and heavy faces meet (a mix of
# the two, no background in it) looked "unchanged" and was taken for a slit (passed at 0.97).
TOUCHING_RING_170010 = dict(heavy=1, light=3, frames=6, nudge_px=1.483, exposure_drift=0.042, off_spot_mm=8.084,
                            distractors=7, noise=4.818, pile=False, near=0.401)


def test_the_edge_between_touching_faces_against_a_dark_table_is_no_slit(tower_scene):
    scene = tower_scene("touching_ring", 170010, **TOUCHING_RING_170010)
    assert _sides_seen_apart(scene) == 0
    assert judge_scene(scene).verdict is not Verdict.PASS


def test_the_same_ring_with_its_arms_apart_is_never_failed(tower_scene):
    # The legal ring in the same room: passed or left to the referee, never failed.
    scene = tower_scene("ring", 170010, **TOUCHING_RING_170010)
    assert judge_scene(scene).verdict is not Verdict.FAIL


def test_the_noise_is_measured_on_a_frame_and_its_clipping_at_black_undone():
    rng = np.random.default_rng(5)
    flat = np.full((480, 640, 3), 120.0)
    noisy = np.clip(flat + rng.normal(0, 9.0, flat.shape), 0, 255).astype(np.uint8)
    assert 7.0 < _pixel_noise(noisy) < 11.0
    table = _unclip_table(9.0)[0] / UNCLIP_STEPS
    for level in (2.0, 6.0, 15.0):
        # A dark channel's average over clipped noise reads brighter than it is; the table gives it back.
        clipped_mean = np.clip(level + rng.normal(0, 9.0, 200_000), 0, None).mean()
        assert abs(np.interp(clipped_mean, np.arange(256), table) - level) < 0.5
    assert abs(table[200] - 200.0) < 0.01  # far above the noise nothing is clipped


# Seeds 170003 and 170009 of the accuracy bench: dim rooms whose sensor noise is 0.11-0.13 of the
# white (the most of any seed on 170000-170019), uncertain in 12-13 of 17 kinds before this pass:
# the colours were read pixel by pixel, and the noise clipped at black faded the heavy cubes' hue.
NOISY_DIM_ROOM = {
    170003: dict(heavy=3, light=2, frames=4, dim=True, nudge_px=3.75, exposure_drift=0.036, off_spot_mm=4.964,
                 distractors=8, noise=4.232, pile=True, near=0.233),
    170009: dict(heavy=4, light=5, frames=6, dim=True, nudge_px=0.29, exposure_drift=0.04, off_spot_mm=7.921,
                 distractors=9, noise=5.611, pile=False, near=0.536),
}


def test_a_very_noisy_dim_room_reads_the_heavy_cubes(tower_scene):
    scene = tower_scene("stand", 170003, **NOISY_DIM_ROOM[170003])
    verdict = judge_scene(scene)
    assert (verdict.heavy_seen, verdict.light_seen) == (3, 2)  # 0 heavy seen before
    assert verdict.verdict is not Verdict.FAIL


@pytest.mark.parametrize("seed", sorted(NOISY_DIM_ROOM))
@pytest.mark.parametrize("kind", ["stand", "stagger", "top_pair"])
def test_legal_towers_in_a_very_noisy_dim_room_are_never_failed(tower_scene, seed, kind):
    options = dict(NOISY_DIM_ROOM[seed])
    if kind == "top_pair":
        options.update(heavy=1, light=2)
    assert judge_scene(tower_scene(kind, seed, **options)).verdict is not Verdict.FAIL


@pytest.mark.parametrize("seed", sorted(NOISY_DIM_ROOM))
def test_two_towers_in_a_very_noisy_dim_room_are_never_passed(tower_scene, seed):
    # Fails on the dev stack; on the Pi's numpy 1.24 + OpenCV 4.11 the 170009 scene renders a
    # little differently and its second tower's ground contact is unsure (uncertain, 0.25).
    assert judge_scene(tower_scene("two_towers", seed, **NOISY_DIM_ROOM[seed])).verdict is not Verdict.PASS


def test_a_touching_ring_in_a_very_noisy_dim_room_is_not_passed(tower_scene):
    options = dict(NOISY_DIM_ROOM[170003], light=3)
    assert judge_scene(tower_scene("touching_ring", 170003, **options)).verdict is not Verdict.PASS


def _ring_boxes(arm_gap_mm: float, *, meets: bool) -> list[_CubeBox]:
    left = _CubeBox(1, -10.0 - arm_gap_mm / 2, -arm_gap_mm / 2, False, SIDE_MAY_TOUCH, meets_right=meets)
    right = _CubeBox(1, arm_gap_mm / 2, 10.0 + arm_gap_mm / 2, False)
    return [_CubeBox(0, -7.0, 7.0, True), left, right, _CubeBox(2, -5.0, 5.0, False)]


def test_arms_whose_split_changed_in_unread_colours_may_touch():
    # With the heavy arm's edge unread, the arms' runs stood 3-4 mm apart (a touching ring in the
    # noisy room passed at 0.97 that way before they were looked into): they may touch, so each
    # arm may touch three cubes; with background seen in the split they are apart.
    sure, possible, connected = _contacts(_ring_boxes(3.5, meets=True), min_overlap=1.5)
    assert (sure, possible, connected) == (2, 3, True)
    assert _contacts(_ring_boxes(3.5, meets=False), min_overlap=1.5)[:2] == (2, 2)
