"""The kiosk helpers: the autostart entry, and the launcher waiting for the dashboard."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from tests.deploy.deploy_helpers import DEPLOY, as_nobody

KIOSK = DEPLOY / "kiosk"


def test_install_kiosk_writes_an_autostart_entry_and_removes_it(public_dir, public_deploy):
    home = public_dir / "home"
    home.mkdir()
    home.chmod(0o777)  # the script refuses root, so it runs as nobody
    kiosk = public_deploy / "kiosk"
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    cmd = [*as_nobody(), "bash", str(kiosk / "install-kiosk.sh")]
    subprocess.run([*cmd, "http://referee.local:8080/"], env=env, check=True, capture_output=True)
    entry = home / ".config/autostart/knockdown-kiosk.desktop"
    lines = entry.read_text().splitlines()
    assert lines[0] == "[Desktop Entry]"
    assert f"Exec={kiosk}/knockdown-kiosk.sh http://referee.local:8080/" in lines
    assert "Type=Application" in lines
    subprocess.run([*cmd, "--remove"], env=env, check=True, capture_output=True)
    assert not entry.exists()


def test_install_kiosk_refuses_root(tmp_path):
    proc = subprocess.run(["bash", str(KIOSK / "install-kiosk.sh")], env={"HOME": str(tmp_path), "PATH": os.environ["PATH"]},
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert proc.returncode == 2 and "not root" in proc.stderr


@pytest.fixture
def fake_browser(tmp_path) -> tuple[Path, Path]:
    """A 'chromium' on PATH that records its arguments instead of opening a window."""
    bin_dir, record = tmp_path / "bin", tmp_path / "browser-args"
    bin_dir.mkdir()
    browser = bin_dir / "chromium"
    browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\n')
    browser.chmod(0o755)
    return bin_dir, record


@pytest.fixture
def dashboard(health_server):
    return f"{health_server}/"


def launch(url: str, bin_dir: Path, wait: str) -> subprocess.CompletedProcess:
    # Only the fake browser's dir and the system dirs: a real chromium must not open here.
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "KNOCKDOWN_KIOSK_WAIT": wait}
    return subprocess.run(["bash", str(KIOSK / "knockdown-kiosk.sh"), url], env=env,
                          capture_output=True, text=True, timeout=30, check=False)  # fmt: skip


def test_kiosk_opens_the_dashboard_full_screen_once_it_is_healthy(dashboard, fake_browser):
    bin_dir, record = fake_browser
    proc = launch(dashboard, bin_dir, wait="10")
    assert proc.returncode == 0, proc.stderr
    args = record.read_text().splitlines()
    assert "--kiosk" in args and "--incognito" in args
    assert args[-1] == dashboard
    assert proc.stderr == ""


def test_kiosk_opens_anyway_after_waiting_for_a_dashboard_that_never_answers(fake_browser):
    bin_dir, record = fake_browser
    with socket.socket() as sock:  # bound, never listening: connections are refused
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
        proc = launch(url, bin_dir, wait="1")
    assert proc.returncode == 0
    assert "did not answer in 1s" in proc.stderr
    assert record.read_text().splitlines()[-1] == url
