"""Unusable input raises; an unusable view is an honest "uncertain"."""

import numpy as np
import pytest

from vision.tower import Reason, TowerInputError, Verdict, judge_tower


def test_no_frames_is_refused():
    with pytest.raises(TowerInputError, match="0 frame"):
        judge_tower([], heavy=1, light=1)


def test_a_reference_without_tower_frames_is_refused(tower_scene):
    with pytest.raises(TowerInputError, match="at least one frame"):
        judge_tower(tower_scene("stand").frames[:1], heavy=1, light=1)


def test_frames_of_different_sizes_are_refused(tower_scene):
    frames = tower_scene("stand").frames
    with pytest.raises(TowerInputError, match=r"frames\[1\]"):
        judge_tower([frames[0], frames[1][:240]], heavy=1, light=1)


@pytest.mark.parametrize(
    "bad", [np.zeros((480, 640), np.uint8), np.zeros((480, 640, 3), np.float32), "frame.png"]
)
def test_non_bgr_frames_are_refused(tower_scene, bad):
    with pytest.raises(TowerInputError, match=r"frames\[1\] must be a BGR uint8 image"):
        judge_tower([tower_scene("stand").frames[0], bad], heavy=1, light=1)


@pytest.mark.parametrize(("heavy", "light"), [(-1, 2), (0, 0), (True, 2), (1.5, 2), (2, 99)])
def test_bad_cube_counts_are_refused_by_name(tower_scene, heavy, light):
    with pytest.raises(TowerInputError) as err:
        judge_tower(tower_scene("stand").frames, heavy=heavy, light=light)
    assert "heavy" in str(err.value) or "light" in str(err.value)


def test_no_mat_in_view_is_uncertain_not_fail(tower_scene):
    frames = tower_scene("stand").frames
    covered = [np.full_like(f, 90) for f in frames]
    v = judge_tower(covered, heavy=2, light=3)
    assert v.verdict is Verdict.UNCERTAIN
    assert v.reasons == [Reason.MAT_NOT_VISIBLE]
    assert v.confidence == 0.0
    assert v.annotated.shape == frames[0].shape


def test_json_has_exactly_the_cli_fields(tower_scene):
    scene = tower_scene("stand")
    out = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light).to_json()
    assert set(out) == {"verdict", "reasons", "cubes_seen", "ground_contacts", "confidence", "elapsed_ms"}
    assert out["verdict"] == "pass"
    assert isinstance(out["reasons"], list)
    assert 0.0 <= out["confidence"] <= 1.0
    assert out["elapsed_ms"] > 0


def test_the_evidence_is_the_last_frame_with_drawings(tower_scene):
    scene = tower_scene("fork")
    v = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    assert v.annotated.shape == scene.frames[-1].shape
    changed = np.any(v.annotated != scene.frames[-1], axis=2)
    assert changed[:22].mean() > 0.5  # the verdict banner
    assert changed[22:].sum() > 200  # cube outlines and the table contact line
    assert scene.frames[-1] is not v.annotated


@pytest.mark.parametrize(("kind", "expected"), [("stand", Verdict.PASS), ("fork", Verdict.FAIL)])
def test_one_covered_marker_still_judges_with_less_confidence(tower_scene, kind, expected):
    import cv2

    from vision.tower import TowerSettings
    from vision.tower.geometry import detect_mat_markers

    scene = tower_scene(kind, 1)
    centre = detect_mat_markers(scene.frames[0], TowerSettings())[1].mean(axis=0)
    frames = [f.copy() for f in scene.frames]
    for frame in frames:  # a game piece lying on marker 1
        cv2.circle(frame, (int(centre[0]), int(centre[1])), 14, (60, 120, 40), -1)
    assert set(detect_mat_markers(frames[0], TowerSettings())) == {0}
    covered = judge_tower(frames, heavy=scene.heavy, light=scene.light)
    clear = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    assert covered.verdict is expected
    assert covered.confidence < clear.confidence


@pytest.mark.parametrize(("kind", "expected"), [("stand", Verdict.PASS), ("fork", Verdict.FAIL)])
def test_a_marker_covered_only_in_the_reference_still_judges(tower_scene, kind, expected):
    # The fighter's cubes lay on marker 0 when the countdown started, and were built into the tower.
    import cv2

    from vision.tower import TowerSettings
    from vision.tower.geometry import detect_mat_markers

    scene = tower_scene(kind, 1)
    centre = detect_mat_markers(scene.frames[0], TowerSettings())[0].mean(axis=0)
    reference = scene.frames[0].copy()
    cv2.circle(reference, (int(centre[0]), int(centre[1])), 14, (60, 120, 170), -1)
    assert set(detect_mat_markers(reference, TowerSettings())) == {1}
    v = judge_tower([reference, *scene.frames[1:]], heavy=scene.heavy, light=scene.light)
    assert v.verdict is expected
