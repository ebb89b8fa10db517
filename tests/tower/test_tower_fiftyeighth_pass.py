"""Fifty-eighth pass (issue 5): a foot seen under the table line is no lower than the view changed.

The fresh hunt's room 975210 (``all``: a glossy mat, a dim room brought up by gain 2.9, supply
cubes, a card, a die and a miniature about): under a light base, 4-7 mm below the table line, the
paper kept the reference's colour but its noise flickers in and out of light wood's hue.  The
blob's vertical closing joined those pixels to the tower, its lowest full row sat 5.75 mm under the
line, and the base plane moved 9.4 mm towards the camera: every layer band straddled two cubes, a
legal stand and y_fork failed on the count (0.85) and a wrong_colour tower passed at 0.97.  A cube
the fighter brought changes the view where it stands, so a move towards the camera goes no further
than the blob's lowest row that changed (``TowerAnalyzer._lowest_changed_row``).
"""
import dataclasses

import numpy as np
import pytest

from vision.synth.tower_scene import make_tower_scene
from tower_judging import analyzer_and_last, judge_scene

# Seed 975210 of the accuracy bench under the all hunt (every kind draws the same room): the
# fighter's 4 heavy and 3 light cubes (wrong_colour: the fighter owns 3 heavy and 4 light).
ROOM_975210_ALL = dict(heavy=4, light=3, frames=4, dim=False, nudge_px=1.2508777602370689,
                       exposure_drift=0.0018558776193408066, off_spot_mm=0.739680177579285, distractors=5,
                       noise=3.9078858219159907, pile=True, near=0.121017653151564, hunt="all")


@pytest.fixture(scope="module")
def stand_975210():
    return make_tower_scene("stand", seed=975210, **ROOM_975210_ALL)


@pytest.mark.parametrize("kind", ["stand", "y_fork"])
def test_a_legal_tower_over_light_hued_paper_is_not_failed(kind):
    scene = make_tower_scene(kind, seed=975210, **ROOM_975210_ALL)
    assert scene.expected == "pass" and "dim_gain" in scene.hunt
    assert judge_scene(scene).verdict.value != "fail"


def test_the_stand_passes_with_the_fighters_own_count(stand_975210):
    verdict = judge_scene(stand_975210)
    assert verdict.verdict.value == "pass"
    assert (verdict.heavy_seen, verdict.light_seen) == (4, 3)


def test_a_tower_of_the_wrong_colours_there_is_not_passed():
    scene = make_tower_scene("wrong_colour", seed=975210, **ROOM_975210_ALL)
    verdict = judge_scene(scene)
    assert verdict.verdict.value == "fail"
    # The tower's own colours, read right: a heavy cube more than the fighter owns.
    assert (verdict.heavy_seen, verdict.light_seen) == (4, 3)


def test_the_base_plane_is_not_moved_onto_the_unchanged_paper(stand_975210):
    analyzer, last = analyzer_and_last(stand_975210)
    # The base's front face is about 1.5 mm before the spot's plane (y -6.5 against -5).  The foot's
    # lowest changed rows (its shadow's) take the plane 4.6 mm forward; the unchanged paper took it 9.4.
    assert -5.0 < last.view.y_mm - analyzer.view.y_mm < 0.0


def _moved(analyzer, obs):
    """Per view pixel: the colour off the reference's by more than a change in some channel."""
    return np.abs(obs.colour - analyzer._reference_view(obs.view)).max(axis=2) > 0.12


def test_the_rows_under_the_foot_kept_the_references_colour(stand_975210):
    analyzer, _ = analyzer_and_last(stand_975210)
    obs = analyzer.observe(stand_975210.frames[-1])
    view = obs.view
    base_row = analyzer._base_row(obs, view)
    foot = analyzer._lowest_changed_row(obs, base_row)
    # Premise: the blob's lowest full row is over 4 mm under the table line, and its lowest five
    # rows (2.5 mm) kept the reference's colour in every pixel.
    assert view.z_of(base_row + 0.5) < -4.0
    labels, _, _, best = analyzer._blobs(obs.cubes & ~obs.hand)
    blob, moved = labels == best, _moved(analyzer, obs)
    rows = slice(base_row - 4, base_row + 1)
    assert blob[rows].any() and not moved[rows][blob[rows]].any()
    # The foot is the lowest row of the blob changed over 0.4 cube (8 px), 3 mm higher.
    assert (blob & moved)[foot].sum() >= 8 and ((blob & moved)[foot + 1: base_row + 1].sum(axis=1) < 8).all()
    assert view.z_of(foot + 0.5) - view.z_of(base_row + 0.5) == pytest.approx(3.0)


def test_rows_under_the_foot_that_changed_still_lower_it(stand_975210):
    # The guard: the same rows changed (a cube there, not paper) keep the blob's lowest full row.
    analyzer, _ = analyzer_and_last(stand_975210)
    obs = analyzer.observe(stand_975210.frames[-1])
    base_row = analyzer._base_row(obs, obs.view)
    labels, _, _, best = analyzer._blobs(obs.cubes & ~obs.hand)
    colour = obs.colour.copy()
    under = slice(base_row - 12, base_row + 1)
    colour[under][(labels == best)[under]] += 0.3
    assert analyzer._lowest_changed_row(dataclasses.replace(obs, colour=colour), base_row) == base_row


def test_only_a_move_towards_the_camera_is_shortened(stand_975210):
    analyzer, _ = analyzer_and_last(stand_975210)
    obs = analyzer.observe(stand_975210.frames[-1])
    view = obs.view
    # A foot over the line (a tower set back), within the step's dead band, or out of its reach
    # (1.2 cubes under the line) is left as it was.
    for z in (3.0, -0.5, -13.0):
        row = view.row(z)
        assert analyzer._lowest_changed_row(obs, row) == row
    # Never above the table line.
    assert view.z_of(analyzer._lowest_changed_row(obs, view.row(-6.0)) + 0.5) < 0.0


def test_a_foot_within_the_blur_of_the_changed_rows_is_kept(stand_975210):
    analyzer, _ = analyzer_and_last(stand_975210)
    obs = analyzer.observe(stand_975210.frames[-1])
    base_row = analyzer._base_row(obs, obs.view)
    foot = analyzer._lowest_changed_row(obs, base_row)
    # A full row no further under the changed ones than a face's edge blurs is the foot itself.
    assert analyzer._lowest_changed_row(obs, foot + analyzer._edge_reach) == foot + analyzer._edge_reach
    assert analyzer._lowest_changed_row(obs, None) is None
