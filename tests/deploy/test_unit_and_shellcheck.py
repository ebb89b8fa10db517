"""shellcheck on every deploy script, and systemd-analyze verify plus the policy of the unit."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.deploy.deploy_helpers import DEPLOY, REPO

UNIT = DEPLOY / "knockdown.service"
HOST_SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def shell_scripts(root: Path = DEPLOY) -> list[Path]:
    """Every script under root: *.sh files and executables with a sh/bash shebang."""
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        first_line = path.read_bytes().split(b"\n", 1)[0]
        if path.suffix == ".sh" or (first_line.startswith(b"#!") and first_line.split(b"/")[-1].split()[-1] in (b"sh", b"bash")):
            found.append(path)
    return found


def test_the_deploy_scripts_are_all_found():
    names = {p.relative_to(DEPLOY).as_posix() for p in shell_scripts()}
    assert names == {
        "install.sh", "uninstall.sh", "lib.sh", "knockdown-doctor",
        "kiosk/knockdown-kiosk.sh", "kiosk/install-kiosk.sh", "verify-in-chroot.sh",
    }  # fmt: skip


# Every shell script of the project: the deploy scripts, the README's set-up scripts and CI.
ALL_SCRIPTS = shell_scripts() + shell_scripts(REPO / "scripts") + [REPO / ".ci" / "run"]


@pytest.mark.parametrize("script", ALL_SCRIPTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_shellcheck_passes(script):
    # -x follows the sourced lib.sh; run from the repo root like a developer would.
    proc = subprocess.run(["shellcheck", "-x", str(script)], cwd=REPO, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_shellcheck_would_catch_a_mistake(tmp_path):
    bad = tmp_path / "bad.sh"
    bad.write_text('#!/bin/bash\nrm -rf $1/*\n')
    proc = subprocess.run(["shellcheck", str(bad)], capture_output=True, text=True, check=False)
    assert proc.returncode != 0 and "SC2086" in proc.stdout


# ---------------------------------------------------------------- systemd-analyze verify


def verify_in_root(tmp_path: Path, unit_text: str) -> subprocess.CompletedProcess:
    """systemd-analyze verify on the unit, as installed in a staged root.

    The unit is copied unchanged. The root gets the host's system units (for
    multi-user.target and friends) and an executable stub at the ExecStart path, since
    verify checks that it exists; a stub is honest here because what is verified is the
    unit file, not the program.
    """
    root = tmp_path / "root"
    shutil.copytree(HOST_SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/knockdown.service").write_text(unit_text)
    stub = root / "opt/knockdown/venv/bin/knockdown"
    stub.parent.mkdir(parents=True)
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    return subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "knockdown.service"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_systemd_analyze_verify_passes_without_a_single_warning(tmp_path):
    proc = verify_in_root(tmp_path, UNIT.read_text())
    # verify exits 0 on unknown keys and bad values (it only warns), so silence is the bar.
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


@pytest.mark.parametrize(
    ("mistake", "complaint"),
    [(("RestartSec=5", "RestartSecs=5"), "Unknown key"), (("DeviceAllow=char-media rw", "DeviceAllow=media rw"), "media")],
)
def test_systemd_analyze_verify_would_catch_a_mistake(tmp_path, mistake, complaint):
    old, new = mistake
    text = UNIT.read_text()
    assert old in text
    proc = verify_in_root(tmp_path, text.replace(old, new))
    assert complaint in proc.stderr


# ---------------------------------------------------------------- the unit's policy


def unit_settings() -> dict[str, list[str]]:
    """Section.Key -> values, keeping repeated keys such as DeviceAllow."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, value = line.split("=", 1)
        settings.setdefault(f"{section}.{key}", []).append(value)
    return settings


def test_the_unit_restarts_on_failure_with_a_start_limit():
    s = unit_settings()
    assert s["Service.Restart"] == ["on-failure"]
    assert 1 <= int(s["Service.RestartSec"][0]) <= 30
    assert int(s["Unit.StartLimitBurst"][0]) * int(s["Service.RestartSec"][0]) < int(s["Unit.StartLimitIntervalSec"][0])
    assert s["Install.WantedBy"] == ["multi-user.target"]


def test_the_unit_runs_the_installed_service_as_its_own_user_in_a_writable_directory():
    s = unit_settings()
    assert s["Service.ExecStart"] == [
        "/opt/knockdown/venv/bin/knockdown serve --config /etc/knockdown/config.toml --data-dir /var/lib/knockdown"
    ]
    assert s["Service.User"] == ["knockdown"]
    assert s["Service.SupplementaryGroups"] == ["gpio video"]
    # lgpio creates its notify pipe in the working directory: it must be writable under ProtectSystem.
    assert s["Service.WorkingDirectory"] == ["/var/lib/knockdown"]
    assert s["Service.StateDirectory"] == ["knockdown"]
    assert "/var/lib/knockdown" in s["Service.ReadWritePaths"][0].split()
    # The tablet's tower calibration rewrites the config file.
    assert "/etc/knockdown" in s["Service.ReadWritePaths"][0].split()
    assert "PYTHONUNBUFFERED=1" in s["Service.Environment"]
    assert "LG_WD=/var/lib/knockdown" in s["Service.Environment"]
    assert "OPENBLAS_NUM_THREADS=1" in s["Service.Environment"]
    assert s["Service.StandardOutput"] == s["Service.StandardError"] == ["journal"]


def test_the_unit_is_hardened_but_keeps_gpio_and_cameras():
    s = unit_settings()
    assert s["Service.ProtectSystem"] == ["strict"]
    assert s["Service.PrivateTmp"] == s["Service.NoNewPrivileges"] == ["yes"]
    assert s["Service.DevicePolicy"] == ["closed"]
    assert "Service.PrivateDevices" not in s  # it would hide /dev/gpiochip* and the cameras
    allowed = {value.split()[0] for value in s["Service.DeviceAllow"]}
    assert {"char-gpiochip", "char-video4linux", "char-media", "char-dma_heap"} <= allowed
    assert all(value.split()[1] == "rw" for value in s["Service.DeviceAllow"])
