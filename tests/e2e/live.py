"""The real ``serve`` subprocess and the browser settings the end-to-end tests share."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.service.live_server import free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class Server:
    """``knockdown serve --simulate`` (with the dashboard) on a free loopback port."""

    def __init__(self, data_dir: Path, *, verdict: str | None = "fail:0.7"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        if verdict:
            env["KNOCKDOWN_E2E_VERDICT"] = verdict
        self.log = open(data_dir.parent / "serve.log", "w+")
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "e2e" / "serve_with_dashboard.py"), "--simulate", "--host",
             "127.0.0.1", "--port", str(self.port), "--data-dir", str(data_dir)],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        self.pin = self._wait_ready()

    def _wait_ready(self, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited early:\n{self.output()}")
            found = re.search(r"Referee PIN: (\S+)", self.output())
            if found:
                try:
                    with urllib.request.urlopen(self.url + "/api/health", timeout=2):
                        return found.group(1)
                except OSError:
                    pass
            time.sleep(0.1)
        raise RuntimeError(f"serve did not become ready:\n{self.output()}")

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
