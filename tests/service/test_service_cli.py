import stat

import pytest

from assistant.boxes import new_setup
from assistant.cli import main
from assistant.rules import Match
from assistant.rules.simulate import play_random
from assistant.service.credentials import PIN_FILE
from assistant.service.wiring import RulesEngine
from assistant.store import MatchStore

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err

@pytest.fixture
def record_text():
    match, _ = play_random(new_setup(["practice"], players=("Ann", "Bob"), seed=3), 1, check=False)
    return match.to_record()

def test_pin_is_made_once_and_kept_private(tmp_path, capsys):
    code, out, _ = run(capsys, "pin", "--data-dir", str(tmp_path))
    assert code == 0 and out.strip().isdigit() and len(out.strip()) == 6
    assert run(capsys, "pin", "--data-dir", str(tmp_path))[1] == out
    assert stat.S_IMODE((tmp_path / PIN_FILE).stat().st_mode) == 0o600

def test_matches_list_export_import_round_trip(tmp_path, capsys, record_text):
    assert run(capsys, "matches", "list", "--data-dir", str(tmp_path))[1] == "no matches yet\n"
    source = tmp_path / "in.jsonl"
    source.write_text(record_text)
    code, out, _ = run(capsys, "matches", "import", str(source), "--data-dir", str(tmp_path))
    assert (code, out) == (0, f"imported {source} as match 1\n")
    code, out, _ = run(capsys, "matches", "list", "--data-dir", str(tmp_path))
    assert code == 0 and "Ann vs Bob" in out and "finished" in out
    code, out, _ = run(capsys, "matches", "export", "1", "--data-dir", str(tmp_path))
    assert code == 0 and out == record_text
    target = tmp_path / "out.jsonl"
    assert run(capsys, "matches", "export", "1", "-o", str(target), "--data-dir", str(tmp_path))[0] == 0
    assert target.read_text() == record_text

def test_export_of_a_live_match_replays_to_the_same_state(tmp_path, capsys):
    engine = RulesEngine()
    header, match = engine.new_match({"seed": 4})
    with MatchStore.in_dir(tmp_path) as store:
        match_id = store.create_match(header)
    code, out, _ = run(capsys, "matches", "export", str(match_id), "--data-dir", str(tmp_path))
    assert code == 0 and Match.from_record(out).snapshot() == match.snapshot()

def test_import_of_a_bad_record_names_the_line_and_keeps_nothing(tmp_path, capsys, record_text):
    lines = record_text.splitlines()
    lines[5] = '{"type": "move", "player": 0, "to": "S99"}'
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "matches", "import", str(bad), "--data-dir", str(tmp_path))
    assert code == 2 and f"{bad}: line 6:" in err
    assert run(capsys, "matches", "list", "--data-dir", str(tmp_path))[1] == "no matches yet\n"

def test_errors_for_missing_file_and_unknown_match(tmp_path, capsys):
    code, _, err = run(capsys, "matches", "import", str(tmp_path / "nope.jsonl"), "--data-dir", str(tmp_path))
    assert code == 2 and "cannot read" in err and "nope.jsonl" in err
    code, _, err = run(capsys, "matches", "export", "42", "--data-dir", str(tmp_path))
    assert code == 2 and "no match with id 42" in err

def test_matches_without_subcommand_prints_help(capsys):
    code, _, err = run(capsys, "matches")
    assert code == 2 and "list" in err


def test_serve_on_the_lan_announces_knockdown_local_and_prints_a_qr_code(tmp_path):
    import time

    from tests.service.live_server import Server

    server = Server(tmp_path / "data", tmp_path / "serve.log", host="0.0.0.0")
    server.start()
    try:
        deadline = time.monotonic() + 15
        log = ""
        while time.monotonic() < deadline and "knockdown.local" not in log and "mDNS not available" not in log:
            time.sleep(0.1)
            log = server.log_path.read_text()
        assert f"announced as http://knockdown.local:{server.port}/" in log, log
        assert "Referee PIN:" in log and "█" in log  # the console QR code of the dashboard URL
    finally:
        assert server.terminate() == 0
