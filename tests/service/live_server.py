"""A real `knockdown serve` subprocess and an HTTP client that speaks like the dashboard.

Shared by the tests and bench/sse_bench.py, so the service is started one way everywhere.
"""

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

from assistant.service.credentials import table_pin

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
    """``knockdown serve --simulate`` (or another entry point) as a real subprocess on a free port.

    The crash, SSE and end-to-end tests and ``bench/sse_bench.py`` all start the service this
    one way. ``start()`` returns once ``/api/health`` answers; ``close()`` may be called twice.
    """

    def __init__(self, data_dir: Path, log_path: Path, *, host: str = "127.0.0.1",
                 entry: tuple[str, ...] = ("-m", "assistant"), env: dict[str, str] | None = None,
                 args: tuple[str, ...] = ()):
        self.port = free_port()
        self.host = host
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir, self.log_path = Path(data_dir), Path(log_path)
        self.entry = tuple(entry)
        self.args = tuple(args)  # more `serve` options, e.g. ("--config", FILE)
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env or {})}
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> None:
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, *self.entry, "serve", "--simulate", "--host", self.host,
                 "--port", str(self.port), "--data-dir", str(self.data_dir), *self.args],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=self.env,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the service exited early:\n" + self.output())
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1):
                    return
            except DISCONNECTED:
                time.sleep(0.05)
        raise RuntimeError("the service did not come up:\n" + self.output())

    @property
    def pin(self) -> str:
        """The referee PIN the service keeps in its data dir."""
        return table_pin(self.data_dir)

    def output(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def terminate(self, timeout: float = 10) -> int:
        """SIGTERM (what systemd sends); returns the exit code."""
        os.kill(self.process.pid, signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def close(self) -> None:
        """Stop it politely, or kill it after 10 s; safe to call again."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
