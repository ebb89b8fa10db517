"""Crash test: a real `knockdown serve` subprocess, killed with SIGKILL at random moments.

A scripted match (a seeded random legal playout of the practice box) is played through
the HTTP API; Knockdown Tests go through the flow (start countdown, referee decides).
A killer thread SIGKILLs the service at random times, mid-request. After every restart
/api/state must equal the state replayed from the exported record, every acknowledged
event must be there, and nothing unscripted may appear.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from assistant.boxes import new_setup
from assistant.rules import Match
from assistant.rules.simulate import play_random
from assistant.service.credentials import table_pin

SETUP_SEED, PLAYOUT_SEED = 11, 24  # a playout with five Knockdown Tests
PLAYERS = ["Ann", "Bob"]
MIN_KILLS, MAX_KILLS = 4, 8  # enough kills to hit many states; bounded to keep the test short
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
    def __init__(self, data_dir: Path, log_path: Path):
        self.port = free_port()
        self.data_dir, self.log_path = data_dir, log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "assistant", "serve", "--simulate", "--host", "127.0.0.1",
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

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)


def scripted_match():
    setup = new_setup(["practice"], players=tuple(PLAYERS), seed=SETUP_SEED)
    match, result = play_random(setup, PLAYOUT_SEED, check=False)
    assert result.finished and not result.violations
    return Match.header(setup), list(match.events), result.winner


def check_consistent(client: Client, script: list[dict]) -> dict:
    """/api/state equals the replayed record, and the record is a prefix of the script."""
    state = client.json("GET", "/api/state")
    record = client.text("GET", f"/api/matches/{state['match']['id']}/record")
    replayed = Match.from_record(record)
    assert replayed.snapshot() == state["snapshot"]
    assert list(replayed.events) == script[: len(replayed.events)]
    return state


@pytest.mark.slow
def test_kill_dash_nine_never_loses_an_acknowledged_event(tmp_path):
    header, script, winner = scripted_match()
    data_dir = tmp_path / "data"
    pin = table_pin(data_dir)
    server = Server(data_dir, tmp_path / "serve.log")
    client = Client(f"http://127.0.0.1:{server.port}")
    rng = random.Random(2024)
    kills, acknowledged, last_version, tests_via_flow = 0, 0, -1, 0
    killed_while_counting = False
    try:
        server.start()
        client.token = client.json("GET", "/api/session")["csrf_token"]
        client.json("POST", "/api/login", {"pin": pin})
        state = client.json("POST", "/api/matches", {"players": PLAYERS, "seed": SETUP_SEED})
        assert client.text("GET", f"/api/matches/{state['match']['id']}/record").splitlines()[0] == \
            json.dumps(header, sort_keys=True)

        while True:
            state = check_consistent(client, script)
            done = state["match"]["events"]
            assert done >= acknowledged, f"lost acknowledged events: {done} stored, {acknowledged} acknowledged"
            assert state["version"] > last_version
            last_version = state["version"]
            if state["snapshot"]["pending"] and state["snapshot"]["pending"]["kind"] == "knockdown_test":
                # After a restart the test is offered again, never left counting.
                assert state["knockdown"]["state"] == "armed"
            if done == len(script):
                break
            delay = rng.uniform(0.05, 0.35) if kills < MAX_KILLS else 3600.0
            killer = threading.Timer(delay, server.kill)
            killer.start()
            crashed = False
            for event in script[done:]:
                try:
                    if event["type"] == "tower":
                        # Through the flow: countdown, then the referee's own verdict (no camera here).
                        client.json("POST", "/api/knockdown/start")
                        if not killed_while_counting:  # once for sure: the power goes mid-countdown
                            killed_while_counting = True
                            server.kill()
                        client.json("POST", "/api/knockdown/override", {"passed": event["passed"]})
                        tests_via_flow += 1
                    else:
                        client.json("POST", "/api/actions", event)
                except DISCONNECTED:
                    crashed = True
                    break
                acknowledged += 1
            killer.cancel()
            killer.join()
            if crashed or server.process.poll() is not None:
                kills += 1
                server.kill()
                server.start()
                # The in-flight event may or may not have been committed: never more than that one.
                stored = client.json("GET", "/api/state")["match"]["events"]
                assert stored in (acknowledged, acknowledged + 1)
                acknowledged = stored
        assert kills >= MIN_KILLS and tests_via_flow > 0 and killed_while_counting
        audit = client.json("GET", f"/api/matches/{state['match']['id']}/audit")["audit"]
        assert {"reason": "restart", "re_offered": True} in [e["detail"] for e in audit]
        final = check_consistent(client, script)
        assert final["snapshot"]["phase"] == "finished"
        assert final["snapshot"]["winner"] == winner
    finally:
        server.kill()
