"""Helpers for the deploy tests: run the real scripts, in a staged root where they write files."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
FAKE_DEFAULT_CONFIG = "[gpio]\nbutton_pin = 17\nbuzzer_pin = 18\nled_pin = 27\n"
PI5_MODEL = b"Raspberry Pi 5 Model B Rev 1.0\0"


def as_nobody() -> list[str]:
    """A command prefix that drops root, for the checks that refuse to run as root."""
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def run_script(script: str, *args: str, root: Path | None = None, env: dict | None = None,
               prefix: list[str] | None = None, deploy_dir: Path = DEPLOY,
               check: bool = True) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("KNOCKDOWN_")}
    if root is not None:
        full_env["KNOCKDOWN_ROOT"] = str(root)
    full_env.update(env or {})
    proc = subprocess.run(
        [*(prefix or []), "bash", str(deploy_dir / script), *args],
        capture_output=True, text=True, env=full_env, timeout=120, check=False,
    )  # fmt: skip
    if check and proc.returncode != 0:
        raise AssertionError(f"{script} {args} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under root with its size and mtime, to prove a run changed nothing."""
    return {
        str(p.relative_to(root)): (p.lstat().st_size, p.lstat().st_mtime_ns) for p in sorted(root.rglob("*"))
    }
