"""A tower too tall for the picture: past the frame's edge the side view only repeats the edge."""

import pytest

from vision.tower import Reason, Verdict, judge_tower
from vision.tower.judge import TowerAnalyzer

# bench/tower_accuracy.py's scene for seed 30006 (unseen range 30000): a close, low camera in a dim
# room whose picture cuts off the top of an 8-cube tower.  The judge took the tower's top, smeared
# up to the view's top edge, for a hand reaching in from above and failed a legal tower.
TALL_TOWER_CUT_BY_THE_FRAME = dict(
    heavy=4, light=4, frames=2, dim=True, nudge_px=1.246382885060418, exposure_drift=0.15637485080024074,
    off_spot_mm=3.055145870525238, distractors=3, noise=4.773052025228427, pile=False, near=0.3876438018289866,
)


@pytest.mark.parametrize("kind", ["stand", "lean"])
def test_a_legal_tower_leaving_the_top_of_the_picture_is_not_failed(tower_scene, kind):
    scene = tower_scene(kind, 30006, **TALL_TOWER_CUT_BY_THE_FRAME)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    # The premise: the top of the side view lies above the frame here.
    assert analyzer.view.off_frame(scene.frames[0].shape)[0].any()
    v = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    assert v.verdict is not Verdict.FAIL, v
    # It cannot see the tower's top, so cannot count its cubes, nor rule out a hand there:
    # uncertain on the count and a hand (the thirtieth pass; before it, the reason was a hand).
    assert v.verdict is Verdict.UNCERTAIN and v.reasons == [Reason.CUBE_COUNT, Reason.HAND], v


def test_the_side_view_knows_where_it_runs_off_the_frame(tower_scene):
    scene = tower_scene("stand", 0)
    view = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light).view
    h, w = scene.frames[0].shape[:2]
    assert not view.off_frame((h, w)).any()
    # The same view on a frame cut to its top half: the view's top stays in, its bottom runs off.
    src_y = view._source[..., 1]
    cut = view.off_frame((int(src_y.min() + src_y.max()) // 2, w))
    assert not cut[0].any() and cut[-1].all()
