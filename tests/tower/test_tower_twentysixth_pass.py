"""Twenty-sixth pass (issue 5): a cube may rest across two tops side by side, as a ring's cap does.
The place such a cube could hide unseen against a background of its colour is a cube wide over the
gap between the two tops, which neither top's own window may see enough of (fresh ring 610009: a
heavy cap in front of a heavy cube lying behind the spot changed nothing and went uncounted, one
heavy cube short: a wrong fail on a legal ring)."""

import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import TowerAnalyzer
from tower_judging import analyzer_and_last, judge_scene

# Seed 610009 of the accuracy bench (`random_scene("ring", 610009)`): 2 heavy, 4 light.
ROOM_610009 = dict(frames=5, dim=False, nudge_px=2.726768796003103, exposure_drift=0.08925760512949417,
                   off_spot_mm=6.780287794505265, distractors=8, noise=3.555113485115781, pile=False,
                   near=0.44849702518066886)


def _open_tops(analyzer, boxes):
    cube = analyzer.settings.cube_mm
    return [box for box in boxes
            if not any(b.layer == box.layer + 1 and b.x1 > box.x0 and b.x0 < box.x1 and
                       min(b.x1, box.x1) - max(b.x0, box.x0) > 0.5 * cube for b in boxes)]


def test_the_ring_whose_cap_stands_before_a_cube_of_its_colour_is_never_failed(tower_scene):
    scene = tower_scene("ring", 610009, heavy=2, light=4, **ROOM_610009)
    assert scene.standing
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL, verdict
    analyzer, last = analyzer_and_last(scene)
    structure = analyzer._structure(last, last.view)
    boxes = structure.boxes
    if len(boxes) == scene.heavy + scene.light:
        return  # Another renderer shows the cap: nothing is short, nothing to hide.
    view, cube = last.view, analyzer.settings.cube_mm
    tops = _open_tops(analyzer, boxes)
    pairs = [(a, b) for a in tops for b in tops if a.layer == b.layer and a.x0 < b.x0 < a.x1 + cube]
    own_windows_see_it = any(
        analyzer._could_hide(last, boxes, slice(max(view.row((box.layer + 2) * cube), 0), view.row((box.layer + 1) * cube)),
                             slice(view.col(box.x0), view.col(box.x1)))
        for box in tops)
    if pairs and not own_windows_see_it:
        # This renderer gives the premise (on OpenCV 5: the arms' windows 0.38 and 0.31 heavy in the
        # reference, under the 0.4 that could hide a cube): the place across them is what does.
        assert analyzer._blind_above(boxes, last, seen_elsewhere=0) > 0
        assert verdict.verdict is Verdict.UNCERTAIN and Reason.CUBE_COUNT in verdict.reasons, verdict


def test_the_place_across_two_tops_side_by_side_is_a_cube_wide_over_their_gap(tower_scene, monkeypatch):
    scene = tower_scene("ring", 610009, heavy=2, light=4, **ROOM_610009)
    analyzer, last = analyzer_and_last(scene)
    boxes = analyzer._structure(last, last.view).boxes
    view, cube = last.view, analyzer.settings.cube_mm
    tops = sorted(_open_tops(analyzer, boxes), key=lambda t: t.x0)
    pairs = [(a, b) for a in tops for b in tops if a.layer == b.layer and a.x0 < b.x0 < a.x1 + cube]
    if not pairs:
        pytest.skip("this renderer reads the cap: no two open tops side by side")
    asked = []

    def recording(self, obs, boxes, rows, cols, **kwargs):
        asked.append((cols.start, cols.stop))
        return False

    monkeypatch.setattr(TowerAnalyzer, "_could_hide", recording)
    analyzer._blind_above(boxes, last, seen_elsewhere=0)
    own = {(view.col(b.x0), view.col(b.x1)) for b in tops}
    # Each top's own window is still asked, and one more for each pair: a cube wide, over their gap.
    assert own <= set(asked), asked
    across = [window for window in asked if window not in own]
    assert len(across) == len(pairs), asked
    cube_px = view.col(cube) - view.col(0.0)
    for (a, b), (left, right) in zip(across, pairs):
        assert abs((b - a) - cube_px) <= 1, (a, b)
        middle = (view.col(left.x1) + view.col(right.x0)) / 2
        assert abs((a + b) / 2 - middle) <= 1, (a, b, middle)
