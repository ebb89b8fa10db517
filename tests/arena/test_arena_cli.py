import json

import cv2
import pytest

from assistant.cli import main

from tests.arena.arena_scenes import LAYOUTS, empty, mini, render, scene


@pytest.fixture()
def photos(geometry, tmp_path):
    live, reference = tmp_path / "live.png", tmp_path / "empty.png"
    cv2.imwrite(str(live), render(scene(minis=[mini(-80, 0), mini(40, 0)]), geometry))
    cv2.imwrite(str(reference), empty(geometry))
    return live, reference


def _run(capsys, *argv):
    code = main(["arena", "read", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_reading_and_evidence_image(photos, tmp_path, capsys):
    live, reference = photos
    annotated = tmp_path / "evidence.png"
    code, out, _ = _run(capsys, live, "--reference", reference, "--annotate", annotated, "--json")
    assert code == 0
    reading = json.loads(out)
    assert reading["ok"] is True and reading["occupied"] == ["S3", "S6"]
    assert reading["markers_found"] == [10, 11, 12, 13] and reading["error"] is None
    assert [f["space"] for f in reading["fighters"]] == ["S3", "S6"]
    assert cv2.imread(str(annotated)).shape == cv2.imread(str(live)).shape


def test_layout_by_path_and_human_summary(photos, capsys):
    live, reference = photos
    code, out, _ = _run(capsys, live, "--reference", reference, "--layout", LAYOUTS / "line-9.toml")
    assert code == 0 and out.startswith("ok: occupied S3, S6")


def test_a_reading_that_is_not_ok_still_exits_0(geometry, tmp_path, photos, capsys):
    _, reference = photos
    hidden = tmp_path / "hidden.png"
    cv2.imwrite(str(hidden), render(scene(minis=[mini(0, 0)], hidden=[10, 12]), geometry))
    code, out, _ = _run(capsys, hidden, "--reference", reference, "--json")
    assert code == 0
    reading = json.loads(out)
    assert reading["ok"] is False and "missing 10, 12" in reading["error"]


def test_config_tunes_and_is_checked(photos, tmp_path, capsys):
    live, reference = photos
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text('[vision.arena]\nbase_mm = 26.5\n[other]\nx = 1\n')
    bad.write_text("[vision.arena]\nbase_size = 26\n")
    assert _run(capsys, live, "--reference", reference, "--config", good, "--json")[0] == 0
    code, _, err = _run(capsys, live, "--reference", reference, "--config", bad)
    assert code == 2 and "vision.arena.base_size is not a known setting" in err


@pytest.mark.parametrize("problem", ["missing image", "not an image", "blank reference", "unknown layout"])
def test_unusable_input_exits_2(photos, tmp_path, capsys, problem):
    live, reference = photos
    args = [live, "--reference", reference]
    if problem == "missing image":
        args[0] = tmp_path / "nope.png"
    elif problem == "not an image":
        args[0] = tmp_path / "notes.png"
        args[0].write_text("hello")
    elif problem == "blank reference":
        args[2] = tmp_path / "blank.png"
        cv2.imwrite(str(args[2]), cv2.imread(str(live)) * 0 + 128)
    else:
        args += ["--layout", "hexagon"]
    code, out, err = _run(capsys, *args)
    assert code == 2 and out == "" and err.startswith("knockdown: error: ")
