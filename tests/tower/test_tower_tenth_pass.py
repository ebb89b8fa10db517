"""Tenth pass (issue 5): blobs of cube colour apart from the tower where the view did not change,
splits in front of a background of a face's colour, a line of change across a layer's top.
Seeded scenes are rebuilt from the generator with the accuracy bench's options for that seed;
for those only what must hold is asserted (never a wrong fail, never a wrong pass)."""

import dataclasses

import numpy as np

import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import VIEW_PX_PER_MM, TowerAnalyzer, _CubeBox
from tower_judging import analyzer_and_last, judge_scene

# Seed 320003 of the accuracy bench: a dim, noisy room lit from behind, a magenta table.
DIM_ROOM_320003 = dict(frames=4, dim=True, nudge_px=2.904561354658279, exposure_drift=0.062097086343958455,
                       off_spot_mm=9.476039817042146, distractors=0, noise=5.815588087712037, pile=False,
                       near=0.09627581369176365)


# A square of the view beside the tower of "stand" seed 3, over plain mat (no cube colours in the
# reference there), about a cube wide and tall, resting on the table line.
APART = (slice(138, 160), slice(125, 147))


def _with_blob_apart(last, *, changed: bool):
    light = last.light.copy()
    light[APART] = True
    moved = last.changed.copy()
    moved[APART] = changed
    return dataclasses.replace(last, light=light, changed=moved)


def test_a_cube_coloured_blob_apart_counts_as_a_cube_aside_only_where_the_view_changed(tower_scene):
    analyzer, last = analyzer_and_last(tower_scene("stand", 3, frames=3))
    assert not analyzer._structure(last, last.view).aside
    ref_light, ref_heavy = analyzer._reference_colours(last.view)
    assert not (ref_light | ref_heavy)[APART].any()  # plain mat there: no look-alike of the reference
    # Cube colour where the view changed: a new thing lies there, a cube aside on the table.
    seen = _with_blob_apart(last, changed=True)
    structure = analyzer._structure(seen, seen.view)
    assert len(structure.aside) == 1
    assert structure.ground_contacts == 2
    # The same colour where nothing changed (the background's own colour flickering in the noise,
    # or a face's blurred edge mixing to a cube colour): no cube for sure, one unsure reading.
    flicker = _with_blob_apart(last, changed=False)
    structure = analyzer._structure(flicker, flicker.view)
    assert structure.aside == [] and structure.aside_cubes == 0
    assert structure.ground_contacts == 1
    assert (0, "sliver") in structure.unsure


@pytest.mark.parametrize(("kind", "heavy", "light"), [("ring", 2, 4), ("lean", 2, 3)])
def test_legal_towers_of_seed_320003_are_never_failed(tower_scene, kind, heavy, light):
    # The ring's right arm of dark heavy cubes before the mat's dark print: its edge mixed with the
    # pale paper to light wood, joined to flicker of that colour over the print, read as a cube
    # apart (ring failed at 0.75 on ground contacts, not one structure, count).  The lean's view
    # showed two blobs of flicker over the paper (failed at 0.85).  Both towers are legal.
    scene = tower_scene(kind, 320003, heavy=heavy, light=light, **DIM_ROOM_320003)
    assert scene.standing
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL, verdict
    assert Reason.NOT_ONE_STRUCTURE not in verdict.reasons


@pytest.mark.parametrize(("seed", "heavy", "light", "options"), [
    # Very noisy dim rooms: the cube aside still changed the view (0.84 and 0.80 of its blob).
    (300010, 4, 5, dict(frames=5, dim=True, nudge_px=0.5928602857992202, exposure_drift=0.19119890164612247,
                        off_spot_mm=5.793717379454227, distractors=2, noise=5.970819415520612, pile=True,
                        near=0.07537392684389574)),
    (300026, 0, 4, dict(frames=3, dim=True, nudge_px=3.7297827151938043, exposure_drift=0.18604501153111774,
                        off_spot_mm=1.1354825513332627, distractors=1, noise=5.460990480218612, pile=False,
                        near=0.4484690626360734)),
])
def test_a_cube_left_aside_in_a_noisy_room_still_fails(tower_scene, seed, heavy, light, options):
    verdict = judge_scene(tower_scene("aside", seed, heavy=heavy, light=light, **options))
    assert verdict.verdict is Verdict.FAIL, verdict
    assert Reason.NOT_ONE_STRUCTURE in verdict.reasons


def test_touching_ring_350001_whose_heavy_arm_hid_against_a_dark_red_piece_is_never_passed(tower_scene):
    # A dark red piece behind the ring: the heavy arm's edge showed no change in front of it and
    # seemed to end 3.5 mm short of the light arm it touches (passed at 0.97, three neighbours each).
    scene = tower_scene("touching_ring", 350001, heavy=1, light=3, frames=2, dim=False,
                        nudge_px=1.1482073902245689, exposure_drift=0.005930531348600399,
                        off_spot_mm=11.545997719723157, distractors=3, noise=3.488363011149282, pile=True,
                        near=0.532815704931374)
    assert judge_scene(scene).verdict is not Verdict.PASS


def _split_layer(tower_scene, *, behind_heavy: bool):
    # A light cube and a heavy cube in one layer, split 3.5 mm apart; the reference between them
    # has heavy cube colour (or none).
    analyzer, last = analyzer_and_last(tower_scene("stand", 3, frames=3))
    view = last.view
    lo, hi = view.row(19.5), view.row(12.0)
    left, right = (view.col(-10.0), view.col(0.0)), (view.col(3.5), view.col(13.5))
    cubes = [_CubeBox(1, -10.0, 0.0, False), _CubeBox(1, 3.5, 13.5, True)]
    heavy_ref = last.changed.copy()
    heavy_ref[:] = False
    if behind_heavy:
        heavy_ref[lo:hi, left[1]: right[0]] = True
    analyzer._ref_cache[("colours", view.y_mm)] = (last.changed & False, heavy_ref)
    calm = dataclasses.replace(last, changed=last.changed & False)
    analyzer._look_into_creases(calm, lo, hi, cubes, [(0, *left), (1, *right)], 10.0 * VIEW_PX_PER_MM)
    return cubes


def test_cubes_split_in_front_of_a_background_of_one_face_colour_may_touch(tower_scene):
    # Nothing between them changed: before plain mat that is background seen, they stand apart.
    assert not _split_layer(tower_scene, behind_heavy=False)[0].meets_right
    # Before a background of the heavy face's colour the heavy face's edge shows no change: where it
    # ends is unknown, so they may touch (a possible third neighbour, never a sure one).
    assert _split_layer(tower_scene, behind_heavy=True)[0].meets_right


def test_top_pair_350017_under_the_mats_nudged_far_edge_is_never_failed(tower_scene):
    # The lit top face of the light cube, set back, and the mat's far edge just above it (moved by a
    # nudge: a line of change across the view) read as two more cubes: failed at 0.85 on the count.
    scene = tower_scene("top_pair", 350017, heavy=2, light=1, frames=6, dim=True, nudge_px=2.239909265838025,
                        exposure_drift=0.12232324618191798, off_spot_mm=10.425412814867256, distractors=1,
                        noise=5.004371869250156, pile=False, near=0.12038657456402992)
    assert scene.standing
    assert judge_scene(scene).verdict is not Verdict.FAIL


def test_a_real_top_cube_whose_top_edge_lies_on_the_line_still_counts(tower_scene):
    # aside 310020: the top cube's top edge lies on the mat's nudged far edge.  It stays a cube
    # (only maybe none), so the tower with a cube left aside still fails.
    scene = tower_scene("aside", 310020, heavy=1, light=3, frames=5, dim=False, nudge_px=3.0801235110938294,
                        exposure_drift=0.17933632842454603, off_spot_mm=11.114528427872536, distractors=8,
                        noise=2.5678992227786153, pile=False, near=0.05512476902262659)
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.FAIL, verdict
    assert Reason.NOT_ONE_STRUCTURE in verdict.reasons


def test_a_line_of_change_across_the_view_shows_no_face_at_a_layers_top(tower_scene):
    analyzer, last = analyzer_and_last(tower_scene("stand", 3, frames=3))
    view = last.view
    tower = [_CubeBox(0, -5.0, 5.0, False), _CubeBox(1, -5.0, 5.0, False)]
    rows = slice(view.row(20.0), view.row(18.5))
    changed = last.changed & False
    obs = dataclasses.replace(last, changed=changed, light=changed, heavy=changed)
    assert not analyzer._line_across(obs, rows, tower)
    # Changed only above the tower: a face's top edge, not a line across.
    changed[rows, view.col(-5.0): view.col(5.0)] = True
    assert not analyzer._line_across(obs, rows, tower)
    # Changed on across the view on both sides: the background's line.
    changed[rows] = True
    assert analyzer._line_across(obs, rows, tower)
    # On one side only: a piece beside the tower, not a line across.
    changed[rows, : view.col(-5.0)] = False
    assert not analyzer._line_across(obs, rows, tower)


def _light_chain_without(layer: int, layers: int = 5) -> list[_CubeBox]:
    return [_CubeBox(k, -5.0 + (k % 2), 5.0 + (k % 2), False) for k in range(layers) if k != layer]


def _unread_view(tower_scene, monkeypatch, rgb):
    # One heavy cube short of a light chain; the view changed everywhere in colours the pixel vote
    # could not read, and averaged over the still frames it has colour ``rgb`` (None: one frame only).
    scene = tower_scene("stand", 3, frames=3)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=1, light=4)
    obs = analyzer.observe(scene.frames[-1])
    still = None
    if rgb is not None:
        still = np.zeros(obs.colour.shape, np.float32)
        still[:] = np.float32([rgb[2], rgb[1], rgb[0]]) / 255.0
    obs = dataclasses.replace(obs, changed=np.ones_like(obs.changed), still_colour=still)
    monkeypatch.setattr(analyzer, "_could_hide", lambda *args, **kwargs: False)
    return analyzer, obs


@pytest.mark.parametrize("gap", [0, 2])
def test_an_empty_layer_that_changed_and_averages_to_the_colour_short_holds_that_cube(tower_scene, monkeypatch, gap):
    analyzer, obs = _unread_view(tower_scene, monkeypatch, (110, 30, 25))
    filled = analyzer._fill_gaps(_light_chain_without(gap), obs, [], alone=True)
    assert [(b.layer, b.heavy) for b in filled] == [(gap, True)]
    # Under the cube above it (the bottom layer) or between the two it joins.
    assert filled[0].x1 - filled[0].x0 == pytest.approx(10.0)


@pytest.mark.parametrize("rgb", [(225, 190, 140), (170, 110, 80), None])
def test_an_empty_layer_that_changed_in_another_or_no_clear_colour_stays_blind(tower_scene, monkeypatch, rgb):
    # Light wood where a heavy cube is short (the other colour), a colour halfway, or no still
    # frames to average: what the layer holds is unknown.
    analyzer, obs = _unread_view(tower_scene, monkeypatch, rgb)
    assert analyzer._fill_gaps(_light_chain_without(0), obs, [], alone=True) == []
    assert analyzer._fill_gaps(_light_chain_without(2), obs, [], alone=True) == []


def test_stand_340010_whose_heavy_base_read_as_noise_passes_for_the_referee_to_confirm(tower_scene, monkeypatch):
    # A very noisy dim room: the heavy base under three light cubes changed in colours the pixel
    # vote could not read (was uncertain, one heavy cube short); its averaged colour is clearly heavy.
    scene = tower_scene("stand", 340010, heavy=1, light=3, frames=6, dim=True, nudge_px=0.43109956971922525,
                        exposure_drift=0.0811917859116612, off_spot_mm=10.87942108392128, distractors=1,
                        noise=5.617558507038744, pile=False, near=0.23066628286587626)
    # A spy (the real method runs): which layers the view had to fill in.
    fill_gaps, filled = TowerAnalyzer._fill_gaps, []

    def recording_fill_gaps(self, *args, **kwargs):
        boxes = fill_gaps(self, *args, **kwargs)
        filled.extend((box.layer, box.heavy) for box in boxes)
        return boxes

    monkeypatch.setattr(TowerAnalyzer, "_fill_gaps", recording_fill_gaps)
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.PASS, verdict
    # The scene renders a little differently with the Pi's OpenCV 4.11, whose pixel vote reads
    # that base outright (a plain pass); where the base had to be filled in, it is the heavy
    # bottom layer, and a cube the view inferred is never a pass the referee need not confirm.
    if filled:
        assert filled == [(0, True)]
        assert verdict.confidence < 0.9
    else:
        assert (verdict.heavy_seen, verdict.light_seen) == (1, 3)
