"""deploy/install.sh and uninstall.sh: dry-run decisions, and the real file-writing steps in a staged root."""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tests.deploy.deploy_helpers import (
    DEPLOY,
    FAKE_DEFAULT_CONFIG,
    as_nobody,
    run_script,
    snapshot,
)

# The steps that write files under the root and need neither apt, pip nor a real user.
# The venv step is one too, but it takes seconds: it has its own test.
FILE_STEPS = "dirs,source,config,unit"


# ---------------------------------------------------------------- dry run: decisions


def test_dry_run_on_a_pi_plans_the_pi_packages_the_pi_extra_and_the_pins(pi_root):
    out = run_script("install.sh", "--dry-run", root=pi_root).stdout
    assert "Raspberry Pi: yes (Raspberry Pi 5 Model B Rev 1.0)" in out
    assert "OS: bookworm" in out
    apt_line = next(line for line in out.splitlines() if "apt-get install" in line)
    assert "python3-picamera2" in apt_line and "python3-lgpio" in apt_line
    assert "--no-install-recommends" in apt_line
    pip_line = next(line for line in out.splitlines() if "pip install" in line)
    assert f"{pi_root}/opt/knockdown/src[pi]" in pip_line
    assert "'numpy<2'" in pip_line and "opencv-python-headless==4.11.0.86" in pip_line
    assert f"/usr/bin/python3 -m venv --system-site-packages {pi_root}/opt/knockdown/venv" in out
    assert "dry run: nothing was changed" in out


def test_dry_run_off_a_pi_skips_the_pi_packages_and_extra(pi_root):
    (pi_root / "proc/device-tree/model").unlink()
    out = run_script("install.sh", "--dry-run", root=pi_root).stdout
    assert "Raspberry Pi: no" in out
    assert "python3-picamera2" not in out.split("Raspberry Pi: no", 1)[1].split("\n", 1)[1]
    pip_line = next(line for line in out.splitlines() if "pip install" in line)
    assert "[pi]" not in pip_line


def test_dry_run_warns_when_the_os_is_not_bookworm(pi_root):
    (pi_root / "etc/os-release").write_text("VERSION_CODENAME=trixie\n")
    out = run_script("install.sh", "--dry-run", "--only", "dirs", root=pi_root).stdout
    assert "OS: trixie: WARNING, only Bookworm is tested" in out


def test_dry_run_keeps_an_existing_config_and_user(pi_root):
    (pi_root / "etc/knockdown").mkdir()
    (pi_root / "etc/knockdown/config.toml").write_text("# mine\n")
    (pi_root / "etc/passwd").write_text("root:x:0:0::/root:/bin/bash\nknockdown:x:999:999::/var/lib/knockdown:/usr/sbin/nologin\n")
    (pi_root / "etc/group").write_text("gpio:x:997:\nvideo:x:44:\nknockdown:x:999:\n")
    out = run_script("install.sh", "--dry-run", "--only", "user,config", root=pi_root).stdout
    assert "config: keeping the existing /etc/knockdown/config.toml" in out
    assert "user knockdown: exists" in out and "useradd" not in out
    assert "group gpio: exists" in out and "groupadd" not in out
    assert "usermod --append --groups gpio,video knockdown" in out


def test_dry_run_plans_a_new_user_and_the_default_config(pi_root):
    out = run_script("install.sh", "--dry-run", "--only", "user,config", root=pi_root).stdout
    assert "user knockdown: creating" in out
    assert "useradd --system --user-group --home-dir /var/lib/knockdown" in out
    assert "group gpio: missing, creating it" in out and "groupadd --system gpio" in out
    assert "config: none yet, writing the defaults" in out
    assert "firmware_config.DEFAULT_CONFIG_TEXT" in out


def test_dry_run_changes_nothing_in_the_staged_root(pi_root):
    before = snapshot(pi_root)
    run_script("install.sh", "--dry-run", root=pi_root)
    assert snapshot(pi_root) == before


def test_dry_run_on_the_real_root_changes_nothing_and_needs_no_root(public_deploy):
    watched = [Path("/opt/knockdown"), Path("/etc/knockdown"), Path("/etc/systemd/system/knockdown.service")]
    before = [p.exists() for p in watched]
    out = run_script("install.sh", "--dry-run", prefix=as_nobody(), deploy_dir=public_deploy).stdout
    assert "+ apt-get" in out or "already installed" in out
    assert "+ systemctl enable knockdown.service" in out
    assert [p.exists() for p in watched] == before


def test_a_real_install_refuses_to_run_without_root(public_deploy):
    proc = run_script("install.sh", prefix=as_nobody(), deploy_dir=public_deploy, check=False)
    assert proc.returncode == 1
    assert "run as root" in proc.stderr


@pytest.mark.parametrize(("args", "message"), [(["--frobnicate"], "unknown option '--frobnicate'"),
                                               (["--only", "dirs,bogus"], "unknown step 'bogus'")])
def test_bad_options_are_refused_naming_them(pi_root, args, message):
    proc = run_script("install.sh", *args, root=pi_root, check=False)
    assert proc.returncode == 1
    assert message in proc.stderr


# ---------------------------------------------------------------- staged root: the real steps


@pytest.fixture
def installed(pi_root, fake_firmware_config):
    """A staged root after a real run of the file-writing steps."""
    out = run_script("install.sh", "--only", FILE_STEPS, root=pi_root, env=fake_firmware_config).stdout
    return pi_root, out


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_install_writes_the_config_unit_source_and_data_dir(installed):
    root, out = installed
    config = root / "etc/knockdown/config.toml"
    assert config.read_text() == FAKE_DEFAULT_CONFIG
    assert mode(config) == 0o644
    unit = root / "etc/systemd/system/knockdown.service"
    assert unit.read_bytes() == (DEPLOY / "knockdown.service").read_bytes()
    wants = root / "etc/systemd/system/multi-user.target.wants/knockdown.service"
    assert wants.is_symlink() and str(wants.readlink()) == "/etc/systemd/system/knockdown.service"
    assert (root / "opt/knockdown/src/pyproject.toml").is_file()
    assert (root / "opt/knockdown/src/deploy/kiosk/knockdown-kiosk.sh").is_file()
    assert not (root / "opt/knockdown/src/.git").exists()
    assert mode(root / "var/lib/knockdown") == 0o750
    # Host-wide commands are shown, never run, in a staged root.
    assert "chown knockdown:knockdown /var/lib/knockdown   (not run: staged root" in out


def test_install_lets_the_service_group_rewrite_its_config(installed):
    """The tablet's tower calibration replaces config.toml by a rename: the directory must be writable."""
    root, out = installed
    assert mode(root / "etc/knockdown") == 0o775
    assert "chgrp knockdown /etc/knockdown   (not run: staged root" in out
    assert mode(root / "opt/knockdown") == 0o755


def test_rerunning_is_an_upgrade_that_keeps_config_and_data(installed, fake_firmware_config):
    root, _ = installed
    config = root / "etc/knockdown/config.toml"
    config.write_text("# edited by the organiser\n")
    (root / "var/lib/knockdown/match.sqlite").write_text("a match")

    out = run_script("install.sh", "--only", FILE_STEPS, root=root, env=fake_firmware_config).stdout

    assert "config: keeping the existing" in out
    assert "config: it loads with this version" in out
    assert "unit: unchanged" in out
    assert config.read_text() == "# edited by the organiser\n"
    assert (root / "var/lib/knockdown/match.sqlite").read_text() == "a match"


def test_an_upgrade_warns_at_once_when_the_kept_config_no_longer_loads(installed, fake_firmware_config):
    root, _ = installed
    (root / "etc/knockdown/config.toml").write_text("button_pin = 'bad'\n")
    out = run_script("install.sh", "--only", "config", root=root, env=fake_firmware_config).stdout
    assert "config: WARNING, it does not load with this version: ValueError: gpio.button_pin: bad value" in out
    assert (root / "etc/knockdown/config.toml").read_text() == "button_pin = 'bad'\n"


def test_the_venv_sees_system_packages_is_reused_and_rebuilt_when_it_does_not(pi_root):
    pyvenv = pi_root / "opt/knockdown/venv/pyvenv.cfg"
    out = run_script("install.sh", "--only", "venv", root=pi_root).stdout
    assert "venv: creating it" in out
    assert "include-system-site-packages = true" in pyvenv.read_text()
    created = pyvenv.stat().st_mtime_ns

    out = run_script("install.sh", "--only", "venv", root=pi_root).stdout
    assert "venv: exists with system site packages, reusing it" in out
    assert pyvenv.stat().st_mtime_ns == created

    pyvenv.write_text(pyvenv.read_text().replace("= true", "= false"))
    out = run_script("install.sh", "--only", "venv", root=pi_root).stdout
    assert "venv: unusable, recreating it" in out
    assert "include-system-site-packages = true" in pyvenv.read_text()


def test_running_from_the_installed_copy_does_not_delete_it(installed):
    root, _ = installed
    copy = root / "opt/knockdown/src"
    proc = run_script("install.sh", "--only", "source", root=root, deploy_dir=copy / "deploy")
    assert "running from the installed copy: keeping it as it is" in proc.stdout
    assert (copy / "deploy/install.sh").is_file() and (copy / "pyproject.toml").is_file()


def test_the_source_copy_leaves_out_virtual_environments_and_test_output(pi_root, tmp_path):
    # A checkout as CI and the README leave it: venvs under any name, screenshots from the browser tests.
    checkout = tmp_path / "checkout"
    shutil.copytree(DEPLOY, checkout / "deploy")
    (checkout / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    for venv in (".venv", ".venv-pi", "env"):
        (checkout / venv / "lib").mkdir(parents=True)
        (checkout / venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
        (checkout / venv / "lib/big.bin").write_bytes(b"0" * 1024)
    (checkout / "test-artifacts/e2e").mkdir(parents=True)
    (checkout / "test-artifacts/e2e/shot.png").write_bytes(b"png")
    (checkout / "environment").mkdir()
    (checkout / "environment/notes.txt").write_text("kept: a directory, not a venv")

    run_script("install.sh", "--only", "dirs,source", root=pi_root, deploy_dir=checkout / "deploy")

    copy = pi_root / "opt/knockdown/src"
    assert (copy / "pyproject.toml").is_file() and (copy / "deploy/install.sh").is_file()
    assert (copy / "environment/notes.txt").is_file()
    for left_out in (".venv", ".venv-pi", "env", "test-artifacts"):
        assert not (copy / left_out).exists(), left_out


def test_a_changed_unit_is_reinstalled(installed):
    root, _ = installed
    unit = root / "etc/systemd/system/knockdown.service"
    unit.write_text("[Unit]\nDescription=old\n")
    out = run_script("install.sh", "--only", "unit", root=root).stdout
    assert "unit: installing" in out
    assert unit.read_bytes() == (DEPLOY / "knockdown.service").read_bytes()


def test_a_failing_config_interpreter_leaves_no_half_written_config(pi_root):
    (pi_root / "etc/knockdown").mkdir()
    proc = run_script("install.sh", "--only", "config", root=pi_root,
                      env={"KNOCKDOWN_CONFIG_PYTHON": "false"}, check=False)  # fmt: skip
    assert proc.returncode == 1
    assert "could not print the default config" in proc.stderr
    assert list((pi_root / "etc/knockdown").iterdir()) == []


def test_uninstall_keeps_config_and_data_and_purge_removes_them(installed):
    root, _ = installed
    (root / "var/lib/knockdown/match.sqlite").write_text("a match")
    out = run_script("uninstall.sh", root=root).stdout
    assert "keeping /etc/knockdown and /var/lib/knockdown" in out
    assert not (root / "opt/knockdown").exists()
    assert not (root / "etc/systemd/system/knockdown.service").exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/knockdown.service").exists()
    assert (root / "etc/knockdown/config.toml").read_text() == FAKE_DEFAULT_CONFIG
    assert (root / "var/lib/knockdown/match.sqlite").exists()

    out = run_script("uninstall.sh", "--purge", root=root).stdout
    assert "--purge: deleting" in out
    assert not (root / "etc/knockdown").exists()
    assert not (root / "var/lib/knockdown").exists()


def test_uninstall_dry_run_changes_nothing(installed):
    root, _ = installed
    before = snapshot(root)
    out = run_script("uninstall.sh", "--purge", "--dry-run", root=root).stdout
    assert f"+ rm -rf {root}/etc/knockdown {root}/var/lib/knockdown" in out
    assert snapshot(root) == before


def test_knockdown_doctor_wrapper_refuses_to_run_without_root(public_deploy):
    proc = subprocess.run([*as_nobody(), str(public_deploy / "knockdown-doctor")], capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert "run it with sudo" in proc.stderr


@pytest.mark.parametrize(
    ("pip_sees_lgpio", "expected_spec"), [(False, "/opt/knockdown/src"), (True, "/opt/knockdown/src[pi]")]
)
def test_the_pi_extra_is_left_out_when_only_apt_provides_lgpio(pi_root, pip_sees_lgpio, expected_spec):
    # A stand-in venv python: "pip show lgpio" answers as told, "import lgpio" works (apt's copy).
    python = pi_root / "opt/knockdown/venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text(
        "#!/bin/sh\n"
        f'if [ "$2" = pip ] && [ "$3" = show ]; then exit {0 if pip_sees_lgpio else 1}; fi\n'
        "exit 0\n"
    )
    python.chmod(0o755)
    out = run_script("install.sh", "--dry-run", "--only", "app", root=pi_root).stdout
    pip_line = next(line for line in out.splitlines() if "pip install" in line)
    assert f" {pi_root}{expected_spec} " in pip_line
    assert ("installing without [pi]" in out) is not pip_sees_lgpio
