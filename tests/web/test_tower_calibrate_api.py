"""POST /api/tower/calibrate: the referee's, its JSON reply, its errors, and the SSE state it pushes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.service.wiring import build_service, load_config as service_config
from assistant.web import create_app
from firmware_config import load_config
from tests.e2e.match_script import OPTIONS, events_to_knockdown_test
from tests.tower.tower_judging import tower_camera_config
from tests.web.conftest import PIN, Api
from tests.web.test_web_events import parse, read_events
from vision.tower import calibrate_tower


@pytest.fixture
def table(tmp_path, request):
    """(service, app, config file) with a tower camera showing ``request.param`` (default: a calibration shot)."""
    picture = getattr(request, "param", None)
    config, shot = tower_camera_config(tmp_path, picture)
    service = build_service(service_config(data_dir=tmp_path / "data", config_file=config))
    app = create_app({"TESTING": True, "SERVICE": service, "DATA_DIR": str(tmp_path / "data"), "PIN": PIN,
                      "SSE_KEEPALIVE_SECONDS": 0.05})
    yield service, app, config, shot
    service.close()


def _referee(app):
    api = Api(app.test_client())
    assert api.login().status_code == 200
    return api


def test_only_the_referee_may_calibrate(table):
    service, app, config, _ = table
    text = config.read_bytes()
    answer = Api(app.test_client()).post("/api/tower/calibrate")
    assert answer.status_code == 403 and answer.get_json()["error"] == "referee_only"
    assert config.read_bytes() == text and service.flow.view_holds_cubes is None


def test_the_reply_says_what_was_measured_and_the_file_and_the_judge_have_it(table):
    service, app, config, shot = table
    expected = calibrate_tower(shot)
    answer = _referee(app).post("/api/tower/calibrate")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["calibration"]["measured"] == expected.describe()
    assert body["calibration"]["learned"]["tallest_tower_cubes"] == expected.tallest_tower_cubes
    assert body["tower"]["calibrated"] is True and body["tower"]["measured"] == expected.describe()
    assert load_config(config).vision.tower.tallest_tower_cubes == expected.tallest_tower_cubes
    assert service.flow.view_holds_cubes == expected.tallest_tower_cubes
    (entry,) = [e for e in service.store.audit_log() if e.kind == "tower_calibrated"]
    assert entry.who.startswith("referee@")


def test_the_sse_state_after_a_calibration_carries_it(table):
    service, app, _, shot = table
    response = app.test_client().get("/api/events", buffered=False)
    try:
        read_events(response, 2)  # the opening comment and the current state
        assert _referee(app).post("/api/tower/calibrate").status_code == 200
        (block,) = read_events(response, 1)
    finally:
        response.close()
    state = json.loads(parse(block)["data"])
    assert state["tower"]["calibrated"] is True
    assert state["tower"]["learned"]["tallest_tower_cubes"] == calibrate_tower(shot).tallest_tower_cubes


@pytest.mark.parametrize("table", [np.full((480, 640, 3), 200, np.uint8)], indirect=True)
def test_a_calibration_error_reaches_the_tablet_word_for_word(table):
    service, app, config, picture = table
    text = config.read_bytes()
    with pytest.raises(ValueError) as direct:
        calibrate_tower(picture)
    answer = _referee(app).post("/api/tower/calibrate")
    assert answer.status_code == 422
    assert answer.get_json() == {"error": "invalid", "message": f"tower calibration failed: {direct.value}"}
    assert config.read_bytes() == text


def test_it_is_refused_while_a_test_is_counting(table):
    service, app, config, _ = table
    text = config.read_bytes()
    referee = _referee(app)
    assert referee.post("/api/matches", json=OPTIONS).status_code == 201
    for event in events_to_knockdown_test(seed=2):
        assert referee.post("/api/actions", json=event).status_code == 200
    assert referee.post("/api/knockdown/start").status_code == 200
    answer = referee.post("/api/tower/calibrate")
    assert answer.status_code == 409
    assert answer.get_json()["error"] == "busy" and "the Knockdown Test is counting" in answer.get_json()["message"]
    assert config.read_bytes() == text and service.flow.view_holds_cubes is None


def test_it_takes_no_options(table):
    _, app, _, _ = table
    answer = _referee(app).post("/api/tower/calibrate", json={"image": "x.png"})
    assert answer.status_code == 422 and answer.get_json()["error"] == "unknown_field"
