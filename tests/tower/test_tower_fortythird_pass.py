"""Forty-third pass (issue 5): the tower judge's wrong verdicts at the spec's edges.

(1) The fortieth pass's built check failed one legal tower: `missing` 770014's room with the missing
light cube built on top of the tower at 0.47 of its box-mates' brightness (RGB 104, 85, 64 beside
217, 181, 135), the shade that brings it nearest the background behind the place.  The judge reads
the place above the top cube as no hiding place (``_could_hide``): the background there is of light
wood's hue, but darker than every light face the tower shows by 0.28 of the quiet-zone white, more
than the 0.24 the judge allows for faces shaded unlike each other, and darker, not lighter (a face
darker than the background by one factor is the shadow the view cannot see; a face lighter is
plain change).  Only a cube of 0.47-0.5 of its box's shade is read away there (0.4-0.44 and
0.55-1.6 pass): a wood that dark (a mid-brown, red below the heavy wood's) is no light cube of that
box, and no shadow falls on the top cube that spares the faces under it.  The in-spec ways a top
cube shows a face that dark -- its box's wood a few per cent off, the cube turned to the room's
light -- are checked here and never fail.  The rule stays as it is (outside the spec); these tests
keep the room's right fail and the in-spec cubes on top.

(2) A hunt at the spec's edges (cameras 18 and 30 cm away, 10 and 30 degrees up, with dim rooms, the
largest exposure drift and nudge, a tower 12 mm off the spot, clutter beside the markers and behind
the spot, the supply beside the mat; 1,111 scenes of every kind) found one wrong verdict: ring 905053
(18 cm, 10 degrees, dim, drift 0.2, nudge 4 px, 12 mm off the spot, the supply by the mat), a light
supply cube lying behind the ring's right column.  Its unhidden 3 mm, unchanged but for a pixel at
its edge, beside the column's lit 2 mm side face, made a 5.5 mm run of light wood split from the
layer's run by the face's edge line, counted as a seventh light cube of six: a wrong fail at 0.75.
Such a run whose face did not change (no stretch of columns changed by the full threshold makes a
countable face) beside a run that counts a cube, over a reference of cube colour, may be a
camouflaged cube or the piece as it was: maybe no cube (``TowerAnalyzer._background_piece_beside``,
a "fringe" doubt) -- weighed only where the count is over the fighter's cubes; where it is not,
reading the piece as no cube leaves one of the fighter's cubes nowhere, and it is read as before
(stack_pair 900043 of the forty-first pass's tests, a camouflaged top cube; lean 905001, a
camouflaged face read as two pieces of one cube, a right pass kept).

Seeded scenes are rebuilt with the accuracy bench's options for that seed (``random_scene``)."""

import numpy as np
import pytest

from vision.synth.tower_scene import Camera
from vision.tower import Reason, Verdict
import vision.tower.judge as judge_module
from vision.tower.judge import CHANGE_THRESHOLD, TowerAnalyzer, _face_rows
from tower_judging import analyzer_and_last, judge_scene, missing_with_cube_on_top

# `missing` 770014 of the accuracy bench: four light cubes, the fighter owning five.
MISSING_770014 = (0, 4, dict(frames=6, dim=False, nudge_px=2.0381678856868595, exposure_drift=0.17263502025442912,
                             off_spot_mm=2.922727481087813, distractors=2, noise=1.8527641139636644, pile=False,
                             near=0.1825646417421268))


def _missing_770014(*, on_top: float | None = None, yaw: float | None = None):
    """`missing` 770014; with ``on_top`` the missing light cube is built on top of the tower, of the
    box's light wood at that shade (turned to ``yaw`` degrees if given, else as the top cube): the
    fighter's counts unchanged, a legal tower (see ``missing_with_cube_on_top``)."""
    wood = None if on_top is None else (
        lambda colours: tuple(int(v) for v in np.clip(on_top * np.asarray(colours[0], float), 0, 255)))
    return missing_with_cube_on_top(770014, MISSING_770014, on_top=wood, yaw=yaw)[0]


def test_missing_770014_fails_its_place_on_top_no_hiding_place():
    """The room's own scene (a light cube never brought) fails on the count: the place above the top
    cube has light wood's hue in the reference, but the tower's light faces are brighter than it by
    more than the shading the judge allows, so a cube of their look would show there."""
    scene = _missing_770014()
    assert scene.expected == "fail" and scene.light == 5
    analyzer, last = analyzer_and_last(scene, likeness=True)
    boxes = analyzer._structure(last, last.view).boxes
    assert len(boxes) == 4 and not any(b.heavy for b in boxes)
    view, cube = last.view, analyzer.settings.cube_mm
    box = max(boxes, key=lambda b: b.layer)
    rows = slice(max(view.row((box.layer + 2) * cube), 0), view.row((box.layer + 1) * cube))
    cols = slice(view.col(box.x0), view.col(box.x1))
    ref_light, _ = analyzer._reference_colours(view)
    assert ref_light[rows, cols].mean() >= 0.4  # the background there has light wood's colour
    background = analyzer._reference_view(view)[rows, cols].reshape(-1, 3).mean(axis=0)
    faces = [np.median(last.colour[_face_rows(view, b.layer, cube), view.col(b.x0): view.col(b.x1)][
        last.light[_face_rows(view, b.layer, cube), view.col(b.x0): view.col(b.x1)]], axis=0) for b in boxes]
    assert all((f - background).max() > 2 * CHANGE_THRESHOLD for f in faces)  # brighter, past the shading
    assert all((f > background).all() for f in faces)  # not a face darker than it: no shadow
    assert not analyzer._could_hide(last, boxes, rows, cols)
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.FAIL
    assert verdict.reasons == [Reason.CUBE_COUNT]


@pytest.mark.parametrize(("shade", "yaw"), [(0.85, None), (1.0, None), (1.15, None), (0.85, 45.0), (1.0, 30.0),
                                            (1.0, 45.0), (1.15, 45.0)])
def test_the_missing_cube_on_top_in_its_box_wood_is_never_failed(shade, yaw):
    """The same room with the missing light cube built on top, of its box's light wood a few per cent
    off (the generator's wood spread here is 0.05), as the top cube or turned a third or half a
    right angle to the room's light (a turned cube shows two faces shaded unlike the front faces):
    a legal tower, never a fail."""
    built = _missing_770014(on_top=shade, yaw=yaw)
    assert built.standing and built.light == 5
    verdict = judge_scene(built)
    assert verdict.verdict is not Verdict.FAIL


# Ring 905053 of the forty-third pass's hunt (`random_scene("ring", 905053)` with the hunt's edge
# options): six light cubes, a camera 18 cm away and 10 degrees up, a dim room.
RING_905053 = dict(heavy=0, light=6, frames=5, dim=True, nudge_px=4.0, exposure_drift=0.2, off_spot_mm=12.0,
                   distractors=5, noise=1.7941852952315143, pile=True, near=0.5843666969860064,
                   camera=Camera(distance_mm=180.0, elevation_deg=10.0, yaw_deg=5.278707879713743,
                                 roll_deg=2.784803483360265, focal_px=690.5386954492812,
                                 principal_offset=(11.970285050804424, 5.145066942368761)))


def test_ring_905053_a_supply_cube_behind_the_column_is_no_seventh_cube(tower_scene, monkeypatch):
    scene = tower_scene("ring", 905053, **RING_905053)
    assert scene.standing and scene.expected == "pass"
    analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
    observations = [analyzer.observe(frame) for frame in scene.frames[1:]]
    # The premise is the view with the 4.4 px nudge not followed, as this pass saw it (a pose from
    # one marker did not follow a nudge before the forty-eighth pass, which follows it: layer 1 is
    # then the two column cubes).  Judged as where the last frame shows no marker to follow.
    monkeypatch.setattr(judge_module, "detect_mat_markers", lambda *args, **kwargs: {})
    monkeypatch.setattr(judge_module, "more_mat_markers", lambda frame, settings, markers, *args: markers)
    last = analyzer._with_still_colour(analyzer._final_observation(observations[-1]), observations)
    last = analyzer._with_camouflaged_faces(last)
    assert last.view.geometry is analyzer.geometry  # the reference's pose: no nudge followed
    structure = analyzer._structure(last, last.view)
    # Premise: layer 1 read as the ring's two columns' run and a piece beside it, which makes the
    # seventh light cube.
    assert sum(b.layer == 1 for b in structure.boxes) == 3 and len(structure.boxes) == 7
    assert (1, "fringe") in structure.unsure
    verdict = analyzer.judge(observations)
    assert verdict.verdict is not Verdict.FAIL
    # And as the product judges it (the nudge followed): never a fail either.
    monkeypatch.undo()
    assert judge_scene(scene).verdict is not Verdict.FAIL


# Lean 905001 of the hunt: 2 heavy and 5 light cubes, a camera 30 cm away and 30 degrees up, a dim room.
LEAN_905001 = dict(heavy=2, light=5, frames=4, dim=True, nudge_px=4.0, exposure_drift=0.09550675582937129,
                   off_spot_mm=12.0, distractors=9, noise=4.127187208162239, pile=False, near=0.6,
                   camera=Camera(distance_mm=300.0, elevation_deg=30.0, yaw_deg=3.092596864817324,
                                 roll_deg=2.136283925395971, focal_px=458.7961474479499,
                                 principal_offset=(8.015907825734622, 1.2525610897052921)))


def test_lean_905001_a_camouflaged_face_in_two_pieces_keeps_its_pass(tower_scene):
    """A light face before a wooden table, read as a piece that counts and one too narrow to count
    (one cube, a "wider" doubt): the counted piece's face changed over no countable stretch, but it
    stands beside no counted cube's run, so it is no background piece beside one; a right pass."""
    scene = tower_scene("lean", 905001, **LEAN_905001)
    assert scene.expected == "pass"  # a legal tower (a lean the bench keeps out of its standing mix)
    verdict = judge_scene(scene)
    assert verdict.verdict is Verdict.PASS


class _Obs:
    """Only what ``_background_piece_beside`` reads: the changed mask and the view."""

    def __init__(self, changed, view):
        self.changed, self.view = changed, view


def _piece(analyzer, last, changed_cols, behind):
    """Paint a piece 10 columns wide in rows 10-22 of the last view: ``changed_cols`` changed over
    the band, the reference's cube colour behind the piece where ``behind``."""
    changed = np.zeros(last.changed.shape, bool)
    for c in changed_cols:
        changed[10:22, 40 + c] = True
    ref_light = np.zeros(last.changed.shape, bool)
    if behind:
        ref_light[10:22, 40:50] = True
    analyzer._reference_colours = lambda view: (ref_light, np.zeros_like(ref_light))
    return analyzer._background_piece_beside(_Obs(changed, last.view), 10, 22, 40, 50, 20.0)


def test_background_piece_rule_on_painted_pieces(tower_scene):
    analyzer, last = analyzer_and_last(tower_scene("stand", 3, heavy=1, light=2), likeness=False)
    # A neighbour's edge (3 columns) and a misregistered pixel (2): no face changed -- maybe no cube.
    assert _piece(analyzer, last, [1, 2, 3, 7, 8], behind=True)
    # A face changed over 8 columns (0.4 widths) is a cube's face: a cube.
    assert not _piece(analyzer, last, range(1, 9), behind=True)
    # Before a background of no cube colour the change is all there is to read: a cube.
    assert not _piece(analyzer, last, [1, 2, 3], behind=False)
