import numpy as np
import pytest

from assistant.knockdown import CameraVerdict

TOWER_OPEN = {"type": "ko", "player": 0}


def error_of(response):
    body = response.get_json()
    assert set(body) == {"error", "message"}
    return response.status_code, body["error"], body["message"]


def test_health_says_simulated(spectator):
    body = spectator.get("/api/health").get_json()
    assert body["status"] == "ok" and body["hardware"]["simulated"] is True


def test_new_match_action_state_and_legal(referee):
    response = referee.post("/api/matches", json={"players": ["Ann", "Bob"]})
    assert response.status_code == 201
    version = response.get_json()["version"]
    state = referee.post("/api/actions", json={"type": "move", "player": 0, "to": 5}).get_json()
    assert state["snapshot"]["positions"] == [5, 7] and state["version"] == version + 1
    assert referee.get("/api/state").get_json() == state
    legal = referee.get("/api/legal").get_json()
    assert {"type": "ko", "player": 1} in legal["actions"]


def test_illegal_action_is_409_with_the_engine_message_and_changes_nothing(referee):
    referee.post("/api/matches", json={})
    before = referee.get("/api/state").get_json()
    status, code, message = error_of(referee.post("/api/actions", json={"type": "move", "player": 1, "to": 5}))
    assert (status, code) == (409, "illegal_action") and "player 0's turn" in message
    assert referee.get("/api/state").get_json() == before


@pytest.mark.parametrize("body, raw", [(None, "[1, 2]"), (None, "not json"), (None, "")])
def test_bad_json_is_400(referee, body, raw):
    referee.post("/api/matches", json={})
    response = referee.client.post("/api/actions", data=raw, content_type="application/json",
                                   headers={"X-CSRF-Token": referee.token})
    assert error_of(response)[:2] == (400, "bad_json")


def test_action_before_any_match_is_409(referee):
    assert error_of(referee.post("/api/actions", json={"type": "move", "player": 0, "to": 5}))[:2] == (409, "no_match")


def test_undo(referee):
    referee.post("/api/matches", json={})
    referee.post("/api/actions", json={"type": "move", "player": 0, "to": 5})
    state = referee.post("/api/undo", json={"reason": "misclick"}).get_json()
    assert state["snapshot"]["positions"] == [3, 7]
    status, code, message = error_of(referee.post("/api/undo"))
    assert (status, "no event to undo" in message) == (400, True)
    assert error_of(referee.post("/api/undo", json={"why": "x"}))[:2] == (422, "unknown_field")
    match_id = state["match"]["id"]
    audit = referee.get(f"/api/matches/{match_id}/audit").get_json()["audit"]
    assert audit[0]["kind"] == "undo" and audit[0]["detail"]["reason"] == "misclick"
    assert audit[0]["who"].startswith("referee@")


def test_matches_list_and_record(referee):
    referee.post("/api/matches", json={"players": ["Ann", "Bob"]})
    referee.post("/api/actions", json={"type": "move", "player": 0, "to": 5})
    listing = referee.get("/api/matches").get_json()
    (match,) = listing["matches"]
    assert listing["current"] == match["id"] and match["events"] == 1 and match["players"] == ["Ann", "Bob"]
    record = referee.get(f"/api/matches/{match['id']}/record")
    assert record.mimetype == "application/x-ndjson"
    lines = record.get_data(as_text=True).splitlines()
    assert len(lines) == 2 and '"knockdown-match"' in lines[0]
    assert error_of(referee.get("/api/matches/99/record"))[:2] == (404, "not_found")
    assert error_of(referee.get("/api/nope"))[:2] == (404, "not_found")


def test_knockdown_flow_over_the_api(referee, service, clock):
    referee.post("/api/matches", json={})
    referee.post("/api/actions", json=TOWER_OPEN)
    assert referee.get("/api/state").get_json()["knockdown"]["state"] == "armed"
    status, code, message = error_of(referee.post("/api/knockdown/confirm"))
    assert (status, code) == (409, "flow_state") and "'armed'" in message
    assert referee.post("/api/knockdown/start").get_json()["knockdown"]["state"] == "counting"
    assert referee.post("/api/knockdown/cancel").get_json()["knockdown"]["state"] == "armed"
    referee.post("/api/knockdown/start")
    state = referee.post("/api/knockdown/done").get_json()
    assert state["knockdown"]["verdict"]["verdict"] == "uncertain"
    assert error_of(referee.post("/api/knockdown/override", json={}))[:2] == (422, "missing_field")
    assert error_of(referee.post("/api/knockdown/override", json={"passed": "no"}))[:2] == (422, "invalid")
    state = referee.post("/api/knockdown/override", json={"passed": True, "reason": "stood"}).get_json()
    assert state["knockdown"]["state"] == "idle" and state["snapshot"]["pending"] is None
    assert error_of(referee.post("/api/knockdown/jump"))[:2] == (404, "not_found")


def test_confident_camera_verdict_auto_confirms_and_the_evidence_is_served(referee, service, clock):
    referee.post("/api/matches", json={})
    referee.post("/api/actions", json=TOWER_OPEN)
    referee.post("/api/knockdown/start")
    assert error_of(referee.get("/api/knockdown/snapshot.png"))[:2] == (404, "no_evidence")
    # Put a confident camera verdict in place, as the tower judge would.
    with service.lock:
        service.flow.countdown_finished("done")
        service.flow._set_verdict(CameraVerdict("pass", 0.97, ("stands",), np.full((8, 8, 3), 200, np.uint8)),
                                  clock())
    png = referee.get("/api/knockdown/snapshot.png")
    assert png.mimetype == "image/png" and png.data.startswith(b"\x89PNG")
    clock.t += 2.0
    service.poll()
    state = referee.get("/api/state").get_json()
    assert state["knockdown"]["state"] == "idle"
    events = service.store.events(state["match"]["id"])
    assert events[-1] == {"type": "tower", "player": 1, "passed": True, "source": "camera"}


def test_dice_over_the_api(referee):
    referee.post("/api/matches", json={"variant": "dice"})
    referee.post("/api/actions", json=TOWER_OPEN)
    status, code, message = error_of(referee.post("/api/knockdown/dice", json={"dice": [7, 1, 1]}))
    assert (status, code, message) == (422, "invalid", "dice: 'dice' must be three integers from 1 to 6, got [7, 1, 1]")
    assert error_of(referee.post("/api/knockdown/start"))[:2] == (409, "flow_state")  # dice, not a tower
    # The fake engine's test needs 1 heavy + 1 light = 2: three ones pass.
    state = referee.post("/api/knockdown/dice", json={"dice": [1, 1, 1]}).get_json()
    assert state["snapshot"]["pending"] is None and state["snapshot"]["status"] == "in_progress"
    assert state["knockdown"]["state"] == "idle"


def test_wrong_method_and_oversized_body_are_json_errors(referee):
    assert error_of(referee.get("/api/actions"))[:2] == (405, "method_not_allowed")
    huge = {"type": "move", "player": 0, "to": "x" * (1 << 20)}
    assert error_of(referee.post("/api/actions", json=huge))[:2] == (413, "request_entity_too_large")


def test_new_match_body_must_be_an_object(referee):
    response = referee.client.post("/api/matches", data="[]", content_type="application/json",
                                   headers={"X-CSRF-Token": referee.token})
    assert error_of(response)[:2] == (400, "bad_json")
