"""The API on the real rules engine (the other web tests use a toy engine to test plumbing)."""

import random

import pytest

from assistant.rules import Match
from assistant.rules.simulate import table_event
from assistant.service import LIVE_LOG_ENTRIES, RefereeService
from assistant.service.wiring import RulesEngine
from assistant.store import MatchStore
from assistant.web import create_app
from tests.web.conftest import Api


@pytest.fixture
def referee(tmp_path):
    service = RefereeService(store=MatchStore.in_dir(tmp_path), engine=RulesEngine())
    app = create_app({"TESTING": True, "SERVICE": service, "DATA_DIR": str(tmp_path), "PIN": "1234"})
    api = Api(app.test_client())
    api.login("1234")
    yield api
    service.close()


def test_new_match_legal_action_and_record(referee):
    state = referee.post("/api/matches", json={"players": ["Ann", "Bob"], "seed": 7}).get_json()
    assert [p["name"] for p in state["snapshot"]["players"]] == ["Ann", "Bob"]
    # Setup starts with the table dealing skills: let the engine's own simulator pick a deal.
    record = referee.get(f"/api/matches/{state['match']['id']}/record").get_data(as_text=True)
    event = table_event(Match.from_record(record), random.Random(0))
    assert event["type"] == "deal_skills"
    response = referee.post("/api/actions", json=event)
    assert response.status_code == 200, response.get_json()
    record = referee.get(f"/api/matches/{state['match']['id']}/record").get_data(as_text=True)
    assert Match.from_record(record).snapshot() == referee.get("/api/state").get_json()["snapshot"]


def test_illegal_event_names_the_rule(referee):
    referee.post("/api/matches", json={})
    response = referee.post("/api/actions", json={"type": "move", "player": 0, "to": "S4"})
    body = response.get_json()
    assert response.status_code == 409 and body["error"] == "illegal_action"
    assert body["message"].startswith("illegal event {") and "'to': 'S4'" in body["message"]
    assert "Move:" in body["message"]


def test_unknown_event_key_is_refused(referee):
    referee.post("/api/matches", json={})
    response = referee.post("/api/actions", json={"type": "deal_skills", "player": 0, "cards": ["a", "b", "c"],
                                                  "oops": 1})
    # Not a well-formed event at all: 422, where a well-formed event the rules refuse is a 409.
    assert response.status_code == 422 and response.get_json()["error"] == "invalid"
    assert "has no field 'oops'" in response.get_json()["message"]


@pytest.mark.parametrize("options, needle", [
    ({"colour": "red"}, "unknown option 'colour'"),
    ({"boxes": ["no-such-box"]}, "no-such-box"),
    ({"variant": "coin"}, "coin"),
])
def test_bad_new_match_options_are_422(referee, options, needle):
    response = referee.post("/api/matches", json=options)
    body = response.get_json()
    assert response.status_code == 422 and body["error"] == "invalid" and needle in body["message"]
    assert referee.get("/api/matches").get_json()["matches"] == []


def test_live_state_carries_the_newest_log_entries_and_the_record_keeps_them_all(referee):
    state = referee.post("/api/matches", json={"players": ["Ann", "Bob"], "seed": 3}).get_json()
    record_url = f"/api/matches/{state['match']['id']}/record"
    rng = random.Random(3)
    match = Match.from_record(referee.get(record_url).get_data(as_text=True))
    while len(match.log) <= LIVE_LOG_ENTRIES + 10 and match.state.phase != "finished":
        event = table_event(match, rng) or rng.choice(match.legal_actions())
        assert referee.post("/api/actions", json=event).status_code == 200
        match.apply(event)
    assert len(match.log) > LIVE_LOG_ENTRIES
    live = referee.get("/api/state").get_json()["snapshot"]
    full = Match.from_record(referee.get(record_url).get_data(as_text=True)).snapshot()
    assert live["log"] == full["log"][-LIVE_LOG_ENTRIES:]
    assert {**live, "log": full["log"]} == full
