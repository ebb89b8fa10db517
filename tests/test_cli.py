import subprocess
import sys

from assistant.cli import main


def test_python_dash_m_runs_the_cli():
    proc = subprocess.run(
        [sys.executable, "-m", "assistant", "--version"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith("knockdown ")


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "usage: knockdown" in capsys.readouterr().err
