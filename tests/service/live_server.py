"""A real `knockdown serve` subprocess and an HTTP client that speaks like the dashboard."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

DISCONNECTED = (OSError, http.client.HTTPException)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    """The dashboard's side of the API over real HTTP, with its cookie and CSRF token."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = ""

    def call(self, method: str, path: str, body=None, *, timeout: float = 5.0):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.token})
        try:
            with self.opener.open(request, timeout=timeout) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read().decode()

    def text(self, method: str, path: str, body=None) -> str:
        status, text = self.call(method, path, body)
        assert status < 300, (method, path, body, status, text)
        return text

    def json(self, method: str, path: str, body=None):
        return json.loads(self.text(method, path, body))


class Server:
    def __init__(self, data_dir: Path, log_path: Path, *, host: str = "127.0.0.1"):
        self.port = free_port()
        self.host = host
        self.data_dir, self.log_path = data_dir, log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "assistant", "serve", "--simulate", "--host", self.host,
                 "--port", str(self.port), "--data-dir", str(self.data_dir)],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log_path.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/health", timeout=1):
                    return
            except DISCONNECTED:
                time.sleep(0.05)
        raise AssertionError("the service did not come up:\n" + self.log_path.read_text())

    def terminate(self, timeout: float = 10) -> int:
        """SIGTERM (what systemd sends); returns the exit code."""
        os.kill(self.process.pid, signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)
