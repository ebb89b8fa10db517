"""The expected fighter count (two in a match): it settles doubts, and never makes a wrong ok."""

import json

import cv2
import numpy as np
import pytest

from assistant.cli import main
from vision.arena import ArenaWatcher, WatchStatus, calibrate_arena, read_arena
from vision.synth.arena_scene import random_match_scene, render_scene

from tests.arena.arena_scenes import POSES, SPACE, empty, mini, render, scene

#: From this camera, a tall fighter just in front of S5 leans over S5: someone could hide there.
IN_FRONT_OF_S5 = [mini(0, -38, height=50), mini(-120, 0, base=(160, 60, 40))]


def test_a_fighter_in_front_of_a_space_is_a_doubt_until_the_count_settles_it(geometry):
    live, reference = render(scene(minis=IN_FRONT_OF_S5), geometry), empty(geometry)
    unsure = read_arena(live, reference, geometry, annotate=False)
    assert not unsure.ok and "may hide a fighter on S5" in unsure.error
    counted = read_arena(live, reference, geometry, annotate=False, fighters=2)
    assert counted.ok, counted.error
    assert counted.occupied == ("S2",)
    assert sorted((f.space or "") for f in counted.fighters) == ["", "S2"]


@pytest.mark.parametrize("count", [1, 3])
def test_a_count_that_does_not_match_is_a_doubt(geometry, count):
    live, reference = render(scene(minis=IN_FRONT_OF_S5), geometry), empty(geometry)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=count)
    assert not reading.ok
    assert f"the camera sees 2 fighter(s) where {count} stand on the board" in reading.error


@pytest.mark.parametrize("pose", [POSES[0], POSES[3]], ids=lambda p: f"el{p.elevation_deg:g}")
def test_a_base_the_colour_of_the_board_is_read_by_its_figure(geometry, pose):
    live = render(scene(pose, minis=[mini(3, -2, base=SPACE)]), geometry)
    reference = empty(geometry, pose)
    # Without the count this was a doubt (a flat disc or a figure's foot?) until the thirtieth pass:
    # the base's faint ring round the figure's foot, a base's size, is no token's; read by it now.
    for reading in (read_arena(live, reference, geometry, annotate=False),
                    read_arena(live, reference, geometry, annotate=False, fighters=1)):
        assert reading.ok, reading.error
        assert reading.occupied == ("S5",)
        (fighter,) = reading.fighters
        assert abs(fighter.board_mm[0] - 3) < 5 and abs(fighter.board_mm[1] + 2) < 5


def test_a_fighter_hidden_behind_another_is_still_no_wrong_answer(geometry):
    pose = POSES[1]
    minis = [mini(-1, -40, base_mm=27.7), mini(-5, 9, base=(160, 60, 40))]
    reading = read_arena(render(scene(pose, minis=minis), geometry), empty(geometry, pose), geometry, fighters=2)
    assert not reading.ok or reading.occupied == ("S5",)


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_a_bad_count_is_refused_by_name(geometry, bad):
    with pytest.raises(ValueError, match=f"fighters is {bad!r}"):
        read_arena(empty(geometry), empty(geometry), geometry, fighters=bad)


def test_random_scenes_with_the_count_are_never_wrong_when_ok(geometry):
    rng = np.random.default_rng(77)
    answered = 0
    for _ in range(16):
        reference, live, truth = random_match_scene(rng, geometry, image_size=(800, 600))
        reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry,
                             annotate=False, fighters=len(live.miniatures))
        if reading.ok:
            answered += 1
            assert reading.occupied == truth
    assert answered >= 10


def test_the_cli_takes_the_count(geometry, tmp_path, capsys):
    live, reference = tmp_path / "live.png", tmp_path / "empty.png"
    cv2.imwrite(str(live), render(scene(minis=IN_FRONT_OF_S5), geometry))
    cv2.imwrite(str(reference), empty(geometry))
    assert main(["arena", "read", str(live), "--reference", str(reference), "--fighters", "2", "--json"]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["ok"] is True and reading["occupied"] == ["S2"]
    with pytest.raises(SystemExit) as exit_:
        main(["arena", "read", str(live), "--reference", str(reference), "--fighters", "two"])
    assert exit_.value.code == 2
    assert "'two' is not a whole number of fighters" in capsys.readouterr().err


def test_the_watcher_reads_with_its_match_count(geometry):
    watcher = ArenaWatcher(calibrate_arena(empty(geometry), geometry), fighters=("Maggot", "Bob"))
    image = render(scene(minis=IN_FRONT_OF_S5), geometry)
    result = [watcher.add_frame(image, t) for t in (0.0, 0.1, 0.2)][-1]
    assert result.status is WatchStatus.READ, result.messages
    assert sorted(f.space or "" for f in result.positions.values()) == ["", "S2"]
