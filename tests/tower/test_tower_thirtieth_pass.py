"""Thirtieth pass (issue 5): a tall tower leaving the top of the picture was judged "uncertain"
(honest) with the reason ``hand`` (stand 620001 and 570036: no hand anywhere), which sends the
referee to look for a hand that is not there.  A hand comes in across the picture's edge wider than
a cube column (a palm, a finger beside a cube); a tower tall enough to leave the picture is a column
of single cubes, cube-coloured, continuous from the table up to the cut, and still.  Such a tower
is still "uncertain" (its top cubes cannot be counted), with the reason ``cube_count`` -- and
``hand`` with it: a fingertip on the top cube, coming in past the same edge, is as narrow and as
light as the column (hand_top 730011, 730020), so the view cannot rule a hand out."""

import dataclasses

import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import TowerAnalyzer
from tower_judging import PaintedView, judge_scene

# The frame-edge test's scene (seed 30006, unseen range 30000): a close, low camera in a dim room
# whose picture cuts the side view at about 75-80 mm over the build spot.
CUT_AT_75_MM = dict(heavy=4, light=4, frames=2, dim=True, nudge_px=1.246382885060418,
                    exposure_drift=0.15637485080024074, off_spot_mm=3.055145870525238, distractors=3,
                    noise=4.773052025228427, pile=False, near=0.3876438018289866)

# Seeds 620001 and 570036 of the accuracy bench (`random_scene("stand", ...)`): 4 heavy and 5 light
# cubes in one column, its top past the picture's top edge; no hand in the scene.
STAND_620001 = dict(heavy=4, light=5, frames=6, dim=True, nudge_px=3.295839325364227,
                    exposure_drift=0.07440189254517762, off_spot_mm=5.537730585975428, distractors=8,
                    noise=1.7206207817441779, pile=False, near=0.4456340149406462)
STAND_570036 = dict(heavy=4, light=5, frames=4, dim=False, nudge_px=0.18572721528295943,
                    exposure_drift=0.16989875112438227, off_spot_mm=9.10177690336787, distractors=0,
                    noise=4.160296236681775, pile=True, near=0.2994750171830885)

# Cube colours in the side view (B, G, R, the mat's white near 1), as in the earlier passes; skin
# reads as light wood (the harder case: only its shape tells it from a cube).
LIGHT = (0.45, 0.6, 0.72)
HEAVY = (0.1, 0.1, 0.4)
SKIN = LIGHT


def _painted(analyzer, scene, *, column_top_mm: float, hand: tuple[float, float, float, float] | None = None):
    """The last frame with a column of 10 mm cubes (heavy and light in turn) from the table up to
    ``column_top_mm`` painted on it, and maybe a hand of skin, ``hand[0]``-``hand[1]`` mm over the
    table across ``hand[2]``-``hand[3]`` mm; with its hand search run on what is painted, as
    ``observe`` runs it."""
    painted = PaintedView(analyzer, scene)
    view = painted.obs.view
    cube = analyzer.settings.cube_mm
    z = 0.0
    while z < column_top_mm:
        heavy = int(z // cube) % 2 == 0
        painted.paint(painted.heavy if heavy else painted.light, z, min(z + cube, column_top_mm), -5, 5,
                      HEAVY if heavy else LIGHT)
        z += cube
    if hand is not None:
        painted.paint(painted.light, *hand, SKIN)
    obs = painted.observation()
    found, from_front, at_frame_edge = analyzer._hands(obs.changed, view, obs.frame.shape)
    return dataclasses.replace(obs, hand=found, hand_from_front=from_front, hand_at_frame_edge=at_frame_edge)


@pytest.fixture
def cut_scene(tower_scene, monkeypatch):
    """The analyzer over the scene whose picture cuts the view, and a judge of one painted
    observation as it is (not re-observed from the frame)."""
    scene = tower_scene("stand", 30006, **CUT_AT_75_MM)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    # The premise: the picture cuts the view's top, below the full tower's height.
    view = analyzer.view
    assert view.off_frame(scene.frames[0].shape)[view.row(9 * analyzer.settings.cube_mm)].all()
    monkeypatch.setattr(TowerAnalyzer, "_final_observation", lambda self, obs: obs)
    return analyzer, scene


def test_a_column_cut_by_the_top_edge_is_uncertain_on_the_count_and_a_hand(cut_scene):
    analyzer, scene = cut_scene
    obs = _painted(analyzer, scene, column_top_mm=analyzer.view.z_range[1])
    # The hand search takes the column's top, smeared up the view past the frame, for a hand.
    assert obs.hand.any() and obs.hand_at_frame_edge
    verdict = analyzer.judge([obs])
    assert verdict.verdict is Verdict.UNCERTAIN and verdict.reasons == [Reason.CUBE_COUNT, Reason.HAND], verdict


@pytest.mark.parametrize("z0, x0, x1", [(60.0, -30.0, 30.0), (50.0, 5.0, 22.0)], ids=["palm over the cut", "finger beside"])
def test_a_hand_coming_in_past_the_top_edge_is_still_a_hand(cut_scene, z0, x0, x1):
    analyzer, scene = cut_scene
    # The same column with a palm (60 mm wide) over it where the frame cuts it, or a finger (17 mm)
    # beside it from above: both come in only past the frame's edge, as the tower does, and read
    # as light wood, as the tower's light cubes do.
    top = analyzer.view.z_range[1]
    obs = _painted(analyzer, scene, column_top_mm=top, hand=(z0, top, x0, x1))
    assert obs.hand.any() and obs.hand_at_frame_edge
    verdict = analyzer.judge([obs])
    assert verdict.verdict is Verdict.UNCERTAIN and verdict.reasons == [Reason.HAND], verdict


def test_a_hand_coming_in_across_the_picture_s_edge_still_fails(cut_scene):
    analyzer, scene = cut_scene
    # A palm from the right, inside the picture, holding a short column's top cube: a hand on the tower.
    obs = _painted(analyzer, scene, column_top_mm=40.0, hand=(25.0, 45.0, 5.0, analyzer.view.x_range[1]))
    assert obs.hand.any() and not obs.hand_at_frame_edge
    verdict = analyzer.judge([obs])
    assert verdict.verdict is Verdict.FAIL and verdict.reasons == [Reason.HAND], verdict


@pytest.mark.parametrize("seed, options", [(620001, STAND_620001), (570036, STAND_570036)])
def test_the_tall_stand_towers_leaving_the_picture_are_uncertain_on_the_count(tower_scene, seed, options):
    scene = tower_scene("stand", seed, **options)
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.UNCERTAIN and verdict.reasons == [Reason.CUBE_COUNT, Reason.HAND], verdict


# Seed 730011 of the accuracy bench (`random_scene("hand_top", ...)`): a fingertip on the top of a
# 3 heavy + 5 light column, coming in past the picture's top edge, as narrow as a cube and light.
HAND_TOP_730011 = dict(heavy=3, light=5, frames=5, dim=False, nudge_px=3.4238105875434224,
                       exposure_drift=0.032564710014886346, off_spot_mm=10.318000285197117, distractors=7,
                       noise=1.3166474233514123, pile=False, near=0.21543853583587771)


def test_a_fingertip_on_the_top_of_a_column_leaving_the_picture_keeps_the_hand(tower_scene):
    scene = tower_scene("hand_top", 730011, **HAND_TOP_730011)
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.PASS, verdict
    assert Reason.HAND in verdict.reasons, verdict
