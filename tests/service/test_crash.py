"""Crash test: a real `knockdown serve` subprocess, killed with SIGKILL at random moments.

A scripted match (a seeded random legal playout of the practice box) is played through
the HTTP API; Knockdown Tests go through the flow (start countdown, referee decides).
A killer thread SIGKILLs the service at random times, mid-request (and, so that a fast machine
cannot outrun it, after a random number of acknowledged events). After every restart
/api/state must equal the state replayed from the exported record, every acknowledged
event must be there, and nothing unscripted may appear.
"""

from __future__ import annotations

import json
import random
import threading

import pytest

from assistant.boxes import new_setup
from assistant.rules import Match
from assistant.rules.simulate import play_random
from assistant.service import live_snapshot
from assistant.service.credentials import table_pin
from tests.service.live_server import DISCONNECTED, Client, Server

SETUP_SEED, PLAYOUT_SEED = 11, 24  # a playout with five Knockdown Tests
PLAYERS = ["Ann", "Bob"]
MIN_KILLS, MAX_KILLS = 4, 8  # enough kills to hit many states; bounded to keep the test short


def scripted_match():
    setup = new_setup(["practice"], players=tuple(PLAYERS), seed=SETUP_SEED)
    match, result = play_random(setup, PLAYOUT_SEED, check=False)
    assert result.finished and not result.violations
    return Match.header(setup), list(match.events), result.winner


def check_consistent(client: Client, script: list[dict]) -> dict:
    """/api/state equals the replayed record (its live view: the log's newest entries), and the
    record is a prefix of the script."""
    state = client.json("GET", "/api/state")
    record = client.text("GET", f"/api/matches/{state['match']['id']}/record")
    replayed = Match.from_record(record)
    assert live_snapshot(replayed.snapshot()) == state["snapshot"]
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
            # The timer kills at a random moment, often mid-request; on a fast machine it may also
            # let the rest of the match through first, so past a random number of acknowledged
            # events the power goes anyway (between requests), until MAX_KILLS.
            budget = rng.randint(2, 8) if kills < MAX_KILLS else len(script)
            killer = threading.Timer(delay, server.kill)
            killer.start()
            crashed = False
            for sent, event in enumerate(script[done:], start=1):
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
                if sent >= budget:
                    server.kill()
                    crashed = True
                    break
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
