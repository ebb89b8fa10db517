"""The rules commands: knockdown replay, simulate, new, boxes."""

import json

from assistant.cli import main
from assistant.rules.simulate import play_random

from tests.rules.table import practice_setup


def test_simulate_reports_matches_and_no_violation(capsys):
    assert main(["simulate", "--matches", "5", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["matches"] == 5 and report["finished"] == 5 and report["violations"] == 0
    assert report["events"] > 5 * 50


def test_replay_prints_state_and_json(tmp_path, capsys):
    m, _ = play_random(practice_setup(), seed=11)
    record = tmp_path / "match.jsonl"
    record.write_text(m.to_record())
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == m.snapshot()
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Brawler" in out and "winner:" in out
    assert main(["replay", str(record), "--events", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["events"] == 10


def test_replay_errors_name_the_line(tmp_path, capsys):
    m, _ = play_random(practice_setup(), seed=11)
    lines = m.to_record().splitlines()
    lines[5] = '{"type": "move", "player": 0, "to": "S9"}'
    record = tmp_path / "bad.jsonl"
    record.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(record)]) == 2
    assert "line 6: illegal event" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_new_writes_a_header_that_replays(tmp_path, capsys):
    out = tmp_path / "new.jsonl"
    assert main(["new", "--fighters", "Hexer,Duelist", "--variant", "dice", "--out", str(out)]) == 0
    assert "new match: Hexer vs Duelist" in capsys.readouterr().out
    assert main(["replay", str(out), "--json"]) == 0
    snap = json.loads(capsys.readouterr().out)
    assert [p["fighter"] for p in snap["players"]] == ["Hexer", "Duelist"] and snap["variant"] == "dice"
    assert main(["new", "--fighters", "Hexer"]) == 2
    assert "choose two fighters" in capsys.readouterr().err


def test_boxes_lists_and_validates(capsys):
    assert main(["boxes"]) == 0
    assert "practice" in capsys.readouterr().out
    assert main(["boxes", "practice"]) == 0
    assert main(["boxes", "nope"]) == 2
