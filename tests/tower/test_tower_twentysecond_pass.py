"""Twenty-second pass (issue 5): a dark heavy cube on top before a dark background.

In a dim, very noisy room the top cube of stand 500047 (heavy, on a light one) stands before a dark
grey wall: the dark red face blurs into grey, not through the light-wood hue, so it wears no light
fringe, and it changed from the reference in no cube colour.  With no piece beside or above it the
nineteenth pass's reading between two pieces cannot apply; the place was called blind (a cube may
hide there) and the legal tower was uncertain one heavy cube short.  Over the still frames the place
changed all over and its colour averaged plainly heavy.  Change one face wide resting on a column's
top cube, plainly heavy on that average and ending where a cube ends, is the heavy cube the count is
short -- when every light cube is counted and nothing else lies apart.  Seeded scenes are rebuilt
from the generator with the accuracy bench's options for that seed; painted masks and colours pin
the rule on any renderer."""

import numpy as np
import pytest

from vision.tower import Verdict
from vision.tower.judge import UNEXPLAINED_CHANGE, TowerAnalyzer
from tower_judging import DIM_ROOM_450020, PaintedView, analyzer_and_last, heavy_short_without, judge_scene

# Seed 500047 of the accuracy bench: a dim, very noisy room, a dark grey wall behind the tower.
DIM_ROOM_500047 = dict(frames=6, dim=True, nudge_px=3.415193595783614, exposure_drift=0.15003209105972715,
                       off_spot_mm=8.312916325542554, distractors=5, noise=5.995174822098117, pile=False,
                       near=0.24554547034802676)


def test_the_stand_whose_top_heavy_cube_is_unread_is_never_failed(tower_scene, monkeypatch):
    # Was uncertain (cube_count, 3 heavy 3 light seen of 4 + 3): a legal stand.  Never a fail.
    scene = tower_scene("stand", 500047, heavy=4, light=3, **DIM_ROOM_500047)
    assert scene.standing
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL, verdict
    analyzer, last = analyzer_and_last(scene)
    if heavy_short_without("_unread_cubes_on_top", analyzer, last, monkeypatch):
        # This renderer leaves the top heavy cube unread: the rule must be what reads it, on top of
        # the tower, and count every heavy cube.  (Where another OpenCV reads it, nothing is short.)
        structure = analyzer._structure(last, last.view)
        assert sum(b.heavy for b in structure.boxes) == scene.heavy, structure.boxes
        top = max(structure.boxes, key=lambda b: b.layer)
        assert top.heavy and top.layer == scene.heavy + scene.light - 1, structure.boxes
        assert not structure.blind_layers and structure.support_inferred
        assert verdict.verdict is Verdict.PASS and verdict.confidence < 0.8, verdict


def test_the_same_tower_owned_in_other_colours_is_never_passed(tower_scene):
    # wrong_colour 500047 renders that very tower (4 heavy 3 light) for a fighter who owns 3 heavy
    # 4 light cubes: with the top cube unread it is one light cube short, not a heavy one.
    scene = tower_scene("wrong_colour", 500047, heavy=4, light=3, **DIM_ROOM_500047)
    assert (scene.heavy, scene.light) == (3, 4)
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.PASS, verdict


# Colours of the side view (B, G, R, the mat's white near 1): a dark heavy face, a light-wood face,
# and a colour no cube has (a dark grey: change the averaged colour does not read).
HEAVY = (0.08, 0.09, 0.35)
LIGHT = (0.45, 0.62, 0.78)
GREY = (0.12, 0.12, 0.12)


def _painted(analyzer: TowerAnalyzer, scene, *, top: str = "heavy", face_mm: float = 10.0, shift_mm: float = 0.0,
             height_mm: float = 10.0, aside: bool = False, still: bool = True):
    """The last frame's observation with painted masks and colours: a heavy base read as heavy, a
    light cube on it, and on top a cube ``face_mm`` wide, ``height_mm`` tall and ``shift_mm`` off
    the column that changed in no cube colour -- the colour there HEAVY, or GREY (``top="grey"``).
    With ``aside`` a light cube lies on the table two cubes to the right.  Without ``still`` the
    frames were not still (no averaged colour)."""
    painted = PaintedView(analyzer, scene)
    light, heavy, unread, paint = painted.light, painted.heavy, painted.unread, painted.paint
    cube = analyzer.settings.cube_mm
    paint(heavy, 0, cube, -cube / 2, cube / 2, HEAVY)
    paint(light, cube, 2 * cube, -cube / 2, cube / 2, LIGHT)
    left = shift_mm - face_mm / 2
    paint(unread, 2 * cube, 2 * cube + height_mm, left, left + face_mm, GREY if top == "grey" else HEAVY)
    if aside:
        paint(light, 0, cube, 2 * cube, 3 * cube, LIGHT)
    return painted.observation(still=still)


def test_unread_change_plainly_heavy_on_top_is_the_heavy_cube_the_count_is_short(tower_scene):
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=1)
    obs = _painted(analyzer, scene)
    structure = analyzer._structure(obs, obs.view)
    assert [(b.layer, b.heavy) for b in structure.boxes] == [(0, True), (1, False), (2, True)], structure.boxes
    assert not structure.unsure and not structure.blind_layers, (structure.unsure, structure.blind_layers)
    # Read from the count as well as the view: a pass that needs it is for the referee to confirm.
    assert structure.support_inferred
    # Its change is read, so it is no longer change the cube colours leave unexplained.
    assert analyzer._unexplained_change(obs, structure) < UNEXPLAINED_CHANGE / 4


@pytest.mark.parametrize("look", ["grey", "moving", "two faces wide", "beside the column", "taller than a cube",
                                  "a light cube short", "a cube aside"])
def test_no_heavy_cube_on_top_without_every_premise(tower_scene, look):
    # Change of a colour the average does not read as heavy, no still frames to average, a span wider
    # than a turned cube shows, change not resting on the column's top cube, change going on above
    # where a cube would end, a count short of a light cube (the cube there is no heavy one the
    # fighter lacks), or a cube lying apart (it may be the one short): no cube is read on top, and
    # the place over the column, where it changed, stays one where a cube may hide (blind), as before.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    owned = dict(heavy=1, light=2) if look == "a light cube short" else dict(heavy=2, light=1)
    if look == "a cube aside":
        owned = dict(heavy=2, light=2)
    analyzer = TowerAnalyzer(scene.frames[0], **owned)
    options = {"grey": dict(top="grey"), "moving": dict(still=False), "two faces wide": dict(face_mm=22.0),
               "beside the column": dict(shift_mm=9.0), "taller than a cube": dict(height_mm=20.0),
               "a light cube short": {}, "a cube aside": dict(aside=True)}[look]
    obs = _painted(analyzer, scene, **options)
    structure = analyzer._structure(obs, obs.view)
    assert not any(b.layer == 2 for b in structure.boxes), structure.boxes
    assert structure.read_on_average is None or not structure.read_on_average.any()
    if look != "beside the column":
        assert structure.blind_layers, structure


def test_no_heavy_cube_read_on_top_where_more_tops_show_one_than_the_count_is_short(tower_scene):
    # A heavy base, two light cubes side by side on it, and change plainly heavy on top of each: the
    # count is short of one heavy cube, the view shows two places for it -- which one (if either)
    # holds it, the count cannot say.  Both stay places where a cube may hide.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=2)
    painted = PaintedView(analyzer, scene)
    cube = analyzer.settings.cube_mm
    painted.paint(painted.heavy, 0, cube, -cube / 2, cube / 2, HEAVY)
    for left in (-cube - 1, 1):
        painted.paint(painted.light, cube, 2 * cube, left, left + cube, LIGHT)
        painted.paint(painted.unread, 2 * cube, 3 * cube, left, left + cube, HEAVY)
    obs = painted.observation()
    structure = analyzer._structure(obs, obs.view)
    assert [(b.layer, b.heavy) for b in structure.boxes] == [(0, True), (1, False), (1, False)], structure.boxes
    assert structure.blind_layers, structure
    # One top alone with it, the count short of that one cube: it is read there.
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=2)
    painted.unread[:, obs.view.col(0):] = False
    obs = painted.observation()
    assert [(b.layer, b.heavy) for b in analyzer._structure(obs, obs.view).boxes] == [
        (0, True), (1, False), (1, False), (2, True)]


# The second class: a dark heavy face read only in patches (a dim, very noisy room).  Every cube was
# counted right, yet the unread rest of the heavy faces made the change the cube colours leave
# unexplained more than 0.6 of the cube pixels: uncertain.  Change inside a counted face whose colour
# averaged over the still frames plainly is the colour counted is that face's, not unexplained.

# Seed 570005 of the accuracy bench: a dim, very noisy room, a blue wall behind the tower.
DIM_ROOM_570005 = dict(frames=6, dim=True, nudge_px=3.3420113553564073, exposure_drift=0.06775185117548968,
                       off_spot_mm=2.7457383283155754, distractors=7, noise=5.62352842978408, pile=False,
                       near=0.0015540945934867656)


@pytest.mark.parametrize("kind", ["stagger", "lean"])
def test_towers_whose_heavy_faces_read_in_patches_are_never_failed(tower_scene, monkeypatch, kind):
    # Were uncertain (cube_count, every cube counted: 3 heavy 2 light of 3 + 2): legal.  Never a fail.
    scene = tower_scene(kind, 570005, heavy=3, light=2, **DIM_ROOM_570005)
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL, verdict
    analyzer, last = analyzer_and_last(scene)
    structure = analyzer._structure(last, last.view)
    with monkeypatch.context() as patched:
        patched.setattr(TowerAnalyzer, "_faces_read_in_patches", lambda self, obs, boxes: np.zeros_like(obs.changed))
        without = analyzer._structure(last, last.view)
    if analyzer._unexplained_change(last, without) > UNEXPLAINED_CHANGE:
        # This renderer reads the heavy faces in patches (another OpenCV may read them whole): the
        # rule must be what explains that change, and the tower then passes.
        assert analyzer._unexplained_change(last, structure) < UNEXPLAINED_CHANGE
        assert (sum(b.heavy for b in structure.boxes), len(structure.boxes)) == (3, 5), structure.boxes
        assert verdict.verdict is Verdict.PASS, verdict


def _patchy(analyzer: TowerAnalyzer, scene, *, unread: tuple = HEAVY, still: bool = True):
    """Two heavy cubes stacked whose faces read heavy only on every third row, the rest changed in
    no cube colour -- coloured ``unread`` (HEAVY: a dark face the vote read in patches; GREY: change
    of a colour no cube has)."""
    painted = PaintedView(analyzer, scene)
    cube = analyzer.settings.cube_mm
    view = painted.obs.view
    for layer in range(2):
        painted.paint(painted.unread, layer * cube, (layer + 1) * cube, -cube / 2, cube / 2, unread)
        rows = slice(view.row((layer + 1) * cube), view.row(layer * cube))
        cols = slice(view.col(-cube / 2), view.col(cube / 2))
        painted.heavy[rows, cols][::3] = True
        painted.colour[rows, cols][::3] = HEAVY
    painted.unread &= ~painted.heavy
    return painted.observation(still=still)


def test_unread_change_inside_a_face_plainly_its_colour_is_explained(tower_scene):
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=0)
    obs = _patchy(analyzer, scene)
    structure = analyzer._structure(obs, obs.view)
    assert [(b.layer, b.heavy) for b in structure.boxes] == [(0, True), (1, True)], structure.boxes
    # Two thirds of each face unread: twice the cube pixels read, all of it now the faces' own.
    assert analyzer._unexplained_change(obs, structure) < UNEXPLAINED_CHANGE / 4


@pytest.mark.parametrize("look", ["grey", "moving"])
def test_unread_change_not_plainly_the_faces_colour_stays_unexplained(tower_scene, look):
    # Change in a colour the average does not read as the face's (something in front, odd light), or
    # no still frames to average: the change is still unexplained, and the view unclear.
    scene = tower_scene("ring", 450020, heavy=2, light=2, **DIM_ROOM_450020)
    analyzer = TowerAnalyzer(scene.frames[0], heavy=2, light=0)
    obs = _patchy(analyzer, scene, **({"grey": dict(unread=GREY), "moving": dict(still=False)}[look]))
    structure = analyzer._structure(obs, obs.view)
    assert analyzer._unexplained_change(obs, structure) > UNEXPLAINED_CHANGE
