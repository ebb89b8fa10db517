"""Tenth pass (issue 5): blobs of cube colour apart from the tower where the view did not change.
Seeded scenes are rebuilt from the generator with the accuracy bench's options for that seed;
for those only what must hold is asserted (never a wrong fail, never a wrong pass)."""

import dataclasses

import pytest

from vision.tower import Reason, Verdict, judge_tower
from vision.tower.judge import TowerAnalyzer

# Seed 320003 of the accuracy bench: a dim, noisy room lit from behind, a magenta table.
DIM_ROOM_320003 = dict(frames=4, dim=True, nudge_px=2.904561354658279, exposure_drift=0.062097086343958455,
                       off_spot_mm=9.476039817042146, distractors=0, noise=5.815588087712037, pile=False,
                       near=0.09627581369176365)


def _judge(scene):
    return judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)


def _analyzer_and_last(scene):
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    observations = [analyzer.observe(frame) for frame in scene.frames[1:]]
    last = analyzer._with_still_colour(analyzer._final_observation(observations[-1]), observations)
    return analyzer, last


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
    analyzer, last = _analyzer_and_last(tower_scene("stand", 3, frames=3))
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
    verdict = _judge(scene)
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
    verdict = _judge(tower_scene("aside", seed, heavy=heavy, light=light, **options))
    assert verdict.verdict is Verdict.FAIL, verdict
    assert Reason.NOT_ONE_STRUCTURE in verdict.reasons
