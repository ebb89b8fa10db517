"""Thirteenth pass (issue 5): the uncertain scenes that are no ring.  Motion is not read where the
view runs past the frame's edge; a place on top of the tower that still shows the background, where
every seen cube of the colour still missing would have changed it, holds no such cube; a speckled
face that changed all over and averages to its colour over the still frames is a cube.
Seeded scenes are rebuilt from the generator with the accuracy bench's options for that seed."""

import dataclasses
import sys

import numpy as np

import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import VIEW_PX_PER_MM, TowerAnalyzer, _face_rows
from tower_judging import judge_scene

# Seed 380013 of the accuracy bench: a dim, very noisy room (the 7 x 7 average), a tall tower whose
# side view runs past the top of the frame.
DIM_TALL_380013 = dict(frames=3, dim=True, nudge_px=0.762290575084414, exposure_drift=0.09159126684625776,
                       off_spot_mm=4.949305855546034, distractors=7, noise=5.413766605518948, pile=False,
                       near=0.2644295425402779)
# Seed 350002: light cubes before a wood-brown table (their shaded faces a little darker than it).
WOOD_TABLE_350002 = dict(frames=3, dim=False, nudge_px=2.1467512570925193, exposure_drift=0.0935460282821951,
                         off_spot_mm=1.3778198442184353, distractors=4, noise=4.6329314397643815, pile=True,
                         near=0.05955925019717054)


def _analyzer_and_observations(scene):
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    return analyzer, [analyzer.observe(frame) for frame in scene.frames[1:]]


def test_a_still_tower_whose_view_runs_past_the_frame_is_not_moving(tower_scene):
    # The warp repeats the frame's top row past the edge; that row's noise, smeared into streaks,
    # "moved" by more than half a cube's area between the still frames (every kind of the seed was
    # uncertain as moving).
    scene = tower_scene("stagger", 380013, heavy=3, light=5, **DIM_TALL_380013)
    analyzer, observations = _analyzer_and_observations(scene)
    assert analyzer.view.runs_off_frame(scene.frames[0].shape)
    assert not analyzer.moving(observations)
    assert Reason.MOVING not in judge_scene(scene).reasons


def test_motion_inside_the_frame_still_counts_when_the_view_runs_past_it(tower_scene):
    scene = tower_scene("stagger", 380013, heavy=3, light=5, **DIM_TALL_380013)
    analyzer, observations = _analyzer_and_observations(scene)
    view = analyzer.view
    off_frame = view.off_frame(scene.frames[0].shape)
    # A cube-sized patch of the earlier frame, on the frame (below every off-frame row), changed
    # far past the noise: something there moved between the frames.
    side = int(1.2 * analyzer.settings.cube_mm * VIEW_PX_PER_MM)
    top = int(np.nonzero(off_frame.any(axis=1))[0].max()) + 10
    rows, cols = slice(top, top + side), slice(view.col(-30.0), view.col(-30.0) + side)
    assert not off_frame[rows, cols].any()
    raw = observations[0].raw.copy()
    raw[rows, cols] = 255 - raw[rows, cols]
    moved = [dataclasses.replace(observations[0], raw=raw)] + observations[1:]
    assert analyzer.moving(moved)


def test_a_missing_cube_is_no_doubt_where_the_top_still_shows_the_table(tower_scene):
    # Four heavy and two light cubes stand, a third light one is missing.  Light wood before a
    # wood-brown table: the colour test alone says a light cube could hide on top, yet the place
    # above the top cube kept the table's colour while each light face seen differs from it by
    # more than the change threshold.  The count is short for sure: fail (was uncertain).
    scene = tower_scene("missing", 350002, heavy=4, light=2, **WOOD_TABLE_350002)
    assert (scene.heavy, scene.light) == (4, 3)
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.FAIL, verdict
    assert verdict.reasons == [Reason.CUBE_COUNT]


@pytest.mark.parametrize("kind", ["stand", "stagger"])
def test_the_legal_towers_of_the_wood_table_are_never_failed(tower_scene, kind):
    # The same room with all six cubes in the tower: both light cubes hide against the table (one
    # between heavy cubes, one on top), so the view cannot count them -- never a fail.
    scene = tower_scene(kind, 350002, heavy=4, light=2, **WOOD_TABLE_350002)
    assert scene.standing
    assert judge_scene(scene).verdict is not Verdict.FAIL


def _missing_350002(tower_scene):
    scene = tower_scene("missing", 350002, heavy=4, light=2, **WOOD_TABLE_350002)
    analyzer, observations = _analyzer_and_observations(scene)
    last = analyzer._with_still_colour(analyzer._final_observation(observations[-1]), observations)
    structure = analyzer._structure(last, last.view)
    top = max(structure.boxes, key=lambda b: b.layer)
    return analyzer, last, structure.boxes, top


def test_the_top_shows_the_background_only_without_a_cube_like_those_seen_there(tower_scene):
    analyzer, last, boxes, top = _missing_350002(tower_scene)
    view, cube = last.view, analyzer.settings.cube_mm
    cols = slice(view.col(top.x0), view.col(top.x1))
    assert analyzer._shows_background(last, boxes, top, cols)
    # A light cube's face, as the view shows one of the tower's light cubes, pasted onto the place
    # on top: now a cube like those seen may stand there.
    light_box = next(b for b in boxes if not b.heavy)
    face = last.still_colour[_face_rows(view, light_box.layer, cube), view.col(light_box.x0): view.col(light_box.x1)]
    colour = last.still_colour.copy()
    place = colour[view.row((top.layer + 2) * cube): view.row((top.layer + 1) * cube), cols]
    place[:] = np.median(face.reshape(-1, 3), axis=0)
    with_cube = dataclasses.replace(last, still_colour=colour)
    assert not analyzer._shows_background(with_cube, boxes, top, cols)
    # With no light cube seen at all, nothing tells how one would look against this table.
    heavy_only = [b for b in boxes if b.heavy]
    assert not analyzer._shows_background(last, heavy_only, top, cols)


# Seeds 370011 and 370015: dim, noisy rooms; the pair's heavy cube shows as speckle in the pixel vote.
DIM_ROOM_370011 = dict(frames=3, dim=True, nudge_px=0.4770453806634736, exposure_drift=0.007307603966232579,
                       off_spot_mm=10.693656381059215, distractors=3, noise=5.174386811067859, pile=False,
                       near=0.573098520829002)
DIM_ROOM_370015 = dict(frames=2, dim=True, nudge_px=1.7483527836361614, exposure_drift=0.00510436404866308,
                       off_spot_mm=5.3094999223357675, distractors=8, noise=5.286076238534905, pile=False,
                       near=0.5225272477313875)


@pytest.mark.parametrize(("seed", "options"), [(370011, DIM_ROOM_370011), (370015, DIM_ROOM_370015)])
def test_a_speckled_face_that_changed_and_averages_to_its_colour_is_a_cube(tower_scene, seed, options, monkeypatch):
    # Every cube counted, one of the pair's faces mostly gaps in the pixel vote (was uncertain on
    # the count): the face changed all over and its average over the still frames is plainly heavy.
    scene = tower_scene("top_pair", seed, heavy=2, light=1, **options)
    assert scene.standing
    read_on_average, rule = [], TowerAnalyzer._face_read_on_average

    def recording(self, *args):
        answer = rule(self, *args)
        # Only the speckle check's question is this pass's rule; the twenty-second pass asks the
        # same of every counted face (`_faces_read_in_patches`), which says nothing about gaps.
        if sys._getframe(1).f_code.co_name == "_structure":
            read_on_average.append(answer)
        return answer

    monkeypatch.setattr(TowerAnalyzer, "_face_read_on_average", recording)
    verdict = judge_scene(scene)
    if not read_on_average:
        # The scene is rendered by this OpenCV: the Pi's (4.11) draws 370015 with every face read by
        # the pixel vote, so no face is mostly gaps and the rule is never asked: only never a
        # wrong fail.  370011 is read by the rule on both renderers (the next test asks it).
        assert verdict.verdict is not Verdict.FAIL, verdict
        return
    assert verdict.verdict is Verdict.PASS, verdict


def test_a_face_read_on_average_needs_the_change_and_the_colour(tower_scene, monkeypatch):
    scene = tower_scene("top_pair", 370011, heavy=2, light=1, **DIM_ROOM_370011)
    # The pixel vote as it was before the thirty-first pass (the heavy hue's radius alone, no hue
    # past it away from the light wood's): the face is then mostly gaps, the premise of this rule.
    # (The vote now reads most of that face, its pixels scattered past the heavy hue.)
    monkeypatch.setattr(TowerAnalyzer, "_heavy_chroma_distance",
                        lambda self, r, g: np.hypot(r - self._heavy_rg[0], g - self._heavy_rg[1]))
    analyzer, observations = _analyzer_and_observations(scene)
    last = analyzer._with_still_colour(analyzer._final_observation(observations[-1]), observations)
    structure = analyzer._structure(last, last.view)
    view, cube = last.view, analyzer.settings.cube_mm
    speckled = [b for b in structure.boxes
                if (last.heavy | last.light)[_face_rows(view, b.layer, cube), view.col(b.x0): view.col(b.x1)].mean() < 0.5]
    assert speckled and all(b.heavy for b in speckled)
    box = speckled[0]
    face = (_face_rows(view, box.layer, cube), slice(view.col(box.x0), view.col(box.x1)))
    assert analyzer._face_read_on_average(last, face, True)
    # Counted as the other colour, its average does not agree.
    assert not analyzer._face_read_on_average(last, face, False)
    # Where the face did not change from the reference, the background is seen through: no cube.
    unchanged = last.changed.copy()
    unchanged[face] = False
    assert not analyzer._face_read_on_average(dataclasses.replace(last, changed=unchanged), face, True)
    # With one frame only there is no average over still frames to read.
    assert not analyzer._face_read_on_average(dataclasses.replace(last, still_colour=None), face, True)
