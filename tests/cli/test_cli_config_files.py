"""The camera commands read their ``--config`` file the same way, with errors that name it."""

import pytest

from assistant.cli import main

COMMANDS = {
    "tower": ["tower", "judge", "frames", "--heavy", "1", "--light", "1"],
    "arena": ["arena", "read", "live.png", "--reference", "empty.png"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("text", "message"), [
    (None, "cannot read config"),
    ("[vision.tower\n", "is not valid TOML"),
    ("vision = 3\n", "[vision] in"),
    ("[vision]\ntower = 1\narena = 1\n", "must be a table, got 1"),
])
def test_a_bad_config_file_is_named_and_nothing_runs(tmp_path, capsys, command, text, message):
    config = tmp_path / "knockdown.toml"
    if text is not None:
        config.write_text(text)
    assert main([*COMMANDS[command], "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("knockdown: error:") and message in err and str(config) in err


@pytest.mark.parametrize("command", COMMANDS)
def test_other_tables_of_the_config_are_left_to_the_service(tmp_path, capsys, command):
    config = tmp_path / "knockdown.toml"
    config.write_text("[http]\nport = 9000\n[vision.other]\nx = 1\n")
    # The config is fine, so the command gets as far as its missing input files.
    assert main([*COMMANDS[command], "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "config" not in err and ("frames" in err or "live.png" in err)
