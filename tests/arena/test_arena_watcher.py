import numpy as np
import pytest

from vision.arena import ArenaSettings, ArenaWatcher, WatchStatus, calibrate_arena
from vision.synth.arena_scene import nudged

from tests.arena.arena_scenes import POSES, empty, mini, render, scene

RED, BLUE = (40, 40, 200), (200, 60, 40)


@pytest.fixture(scope="module")
def calibration(geometry):
    return calibrate_arena(empty(geometry, POSES[0]), geometry)


def frame(geometry, *positions, colours=(RED, BLUE), **extra):
    minis = [mini(*geometry.spaces[s], base=c) for s, c in zip(positions, colours)]
    return render(scene(POSES[0], minis=minis, **extra), geometry)


def feed(watcher, image, times):
    return [r for r in (watcher.add_frame(image, t) for t in times) if r is not None]


def test_reads_only_once_the_view_is_still(geometry, calibration):
    watcher = ArenaWatcher(calibration, fighters=("Maggot", "Bob"))
    image = frame(geometry, "S2", "S4")
    assert watcher.add_frame(image, 0.0) is None
    assert watcher.add_frame(image, 0.1) is None
    result = watcher.add_frame(image, 0.2)  # the third still frame
    assert result is not None and result.status is WatchStatus.READ and result.t == 0.2


def test_motion_stops_reading(geometry, calibration):
    watcher = ArenaWatcher(calibration)
    still, hand = frame(geometry, "S2", "S4"), frame(geometry, "S2", "S4", hidden=[11])
    assert feed(watcher, still, [0.0, 0.1]) == []
    assert feed(watcher, hand, [0.2]) == [] and not watcher.is_stable
    for t in (0.3, 0.4, 0.5, 0.6):  # a hand waving in and out
        assert watcher.add_frame(still if t * 10 % 2 else hand, t) is None


def test_reads_at_most_read_hz(geometry, calibration):
    watcher = ArenaWatcher(calibration, settings=ArenaSettings(read_hz=2, stable_frames=1))
    results = feed(watcher, frame(geometry, "S2", "S4"), [i / 10 for i in range(20)])  # 2 s at 10 fps
    assert [r.t for r in results] == [0.0, 0.5, 1.0, 1.5]


def test_names_follow_the_tracker_and_disagreements_are_reported(geometry, calibration):
    watcher = ArenaWatcher(calibration, settings=ArenaSettings(stable_frames=1), fighters=("Maggot", "Bob"))
    watcher.expected_positions = {"Maggot": "S2", "Bob": "S4"}
    agreed = watcher.add_frame(frame(geometry, "S2", "S4"), 0.0)
    assert agreed.agrees and agreed.positions["Maggot"].space == "S2" and agreed.positions["Bob"].space == "S4"
    # Maggot stepped and the tracker missed it: the change itself is motion, then still again.
    assert watcher.add_frame(frame(geometry, "S3", "S4"), 1.0) is None
    moved = watcher.add_frame(frame(geometry, "S3", "S4"), 1.1)
    assert moved.status is WatchStatus.READ
    assert [(d.fighter, d.camera_space, d.tracker_space) for d in moved.disagreements] == [("Maggot", "S3", "S2")]
    assert moved.messages == ("Camera sees Maggot on S3, tracker says S2",)


def test_base_colours_name_the_fighters(geometry, calibration):
    settings = ArenaSettings(stable_frames=1, base_colors={"Maggot": "#c82828", "Bob": "#283cc8"})
    watcher = ArenaWatcher(calibration, settings=settings, fighters=("Maggot", "Bob"))
    # The tracker has them the other way round; the red base is on S2, the blue one on S4.
    watcher.expected_positions = {"Maggot": "S4", "Bob": "S2"}
    result = watcher.add_frame(frame(geometry, "S2", "S4", colours=(RED, BLUE)), 0.0)
    assert result.positions["Maggot"].space == "S2" and result.positions["Bob"].space == "S4"
    assert {d.fighter for d in result.disagreements} == {"Maggot", "Bob"}
    # Without colours, continuity alone keeps the tracker's names: no disagreement.
    plain = ArenaWatcher(calibration, settings=ArenaSettings(stable_frames=1), fighters=("Maggot", "Bob"))
    plain.expected_positions = {"Maggot": "S4", "Bob": "S2"}
    assert plain.add_frame(frame(geometry, "S2", "S4"), 0.0).agrees


def test_a_knocked_camera_asks_for_recalibration(geometry, calibration):
    watcher = ArenaWatcher(calibration, settings=ArenaSettings(stable_frames=1))
    moved_pose = nudged(POSES[0], np.random.default_rng(8))
    image = render(scene(moved_pose, minis=[mini(-120, 0), mini(-40, 0)]), geometry)
    result = watcher.add_frame(image, 0.0)
    assert result.status is WatchStatus.RECALIBRATE
    assert result.drift_mm > 6 and any("recalibrate" in m for m in result.messages)
    assert {f.space for f in result.positions.values()} == {"S2", "S4"}  # still read by its own markers


def test_a_missing_marker_is_reported(geometry, calibration):
    watcher = ArenaWatcher(calibration, settings=ArenaSettings(stable_frames=1))
    result = watcher.add_frame(frame(geometry, "S2", "S4", hidden=[12]), 0.0)
    assert result.status is WatchStatus.RECALIBRATE and result.missing_markers == (12,)
    assert "Markers 12 are not visible" in result.messages[0]


def test_an_unsure_reading_is_uncertain_not_a_disagreement(geometry, calibration):
    watcher = ArenaWatcher(calibration, settings=ArenaSettings(stable_frames=1), fighters=("Maggot", "Bob"))
    watcher.expected_positions = {"Maggot": "S2", "Bob": "S4"}
    result = watcher.add_frame(frame(geometry, "S2", "S4", hidden=[11, 13]), 0.0)
    assert result.status is WatchStatus.UNCERTAIN and result.disagreements == () and result.positions == {}
    assert any("uncertain" in m for m in result.messages)
    one = feed(watcher, frame(geometry, "S2"), [1.0, 1.1])[-1]
    assert one.status is WatchStatus.UNCERTAIN and "sees 1 fighter" in one.messages[-1]


def test_bad_use_is_refused(geometry, calibration):
    with ArenaWatcher(calibration, fighters=("Maggot", "Bob")) as watcher:
        with pytest.raises(ValueError, match="'Zed'"):
            watcher.expected_positions = {"Zed": "S1"}
        with pytest.raises(ValueError, match="'S10'"):
            watcher.expected_positions = {"Maggot": "S10"}
        watcher.add_frame(frame(geometry, "S2", "S4"), 5.0)
        with pytest.raises(ValueError, match="t is 4.0"):
            watcher.add_frame(frame(geometry, "S2", "S4"), 4.0)
    with pytest.raises(RuntimeError, match="closed"):
        watcher.add_frame(frame(geometry, "S2", "S4"), 6.0)
    watcher.close()  # idempotent
