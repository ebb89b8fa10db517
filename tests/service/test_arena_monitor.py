"""The arena camera in the service: it proposes, the referee decides."""

import random

import numpy as np
import pytest

from assistant.boxes import load_layout
from assistant.rules import Match
from assistant.rules.simulate import table_event
from assistant.service import RefereeService
from assistant.service.arena import ArenaError, ArenaMonitor
from assistant.service.wiring import RulesEngine
from assistant.store import MatchStore
from assistant.web import create_app
from tests.service.fakes import Clock
from tests.web.conftest import Api
from vision.arena import BoardGeometry
from vision.synth.arena_demo import ArenaDemoFeed

LAYOUT = load_layout("line-9").to_dict()


class TableCamera:
    """A camera over a rendered arena whose fighters the test places (independently of the tracker)."""

    def __init__(self):
        self.feed = ArenaDemoFeed(BoardGeometry.from_layout(LAYOUT))
        self.place("S3", "S7")
        self.lost = False
        self.closed = False

    def place(self, *spaces):
        self.feed.set_positions(spaces)

    def read(self):
        return None if self.lost else self.feed(0)

    def close(self):
        self.closed = True


@pytest.fixture(scope="module")
def empty_frame():
    return ArenaDemoFeed(BoardGeometry.from_layout(LAYOUT)).empty_frame()


def settle(monitor, positions, clock, reads=8):
    for _ in range(reads):
        clock.t += 0.5
        monitor.poll(positions, clock.t)


def test_not_calibrated_until_the_empty_arena_is_captured(tmp_path, empty_frame):
    camera = TableCamera()
    monitor = ArenaMonitor(camera=camera, data_dir=tmp_path)
    monitor.set_match(LAYOUT, ["Maggot", "Veroth"])
    assert monitor.view()["state"] == "not_calibrated"
    with pytest.raises(ArenaError, match="calibration needs all 4 markers"):
        monitor.calibrate(np.full_like(empty_frame, 128))
    info = monitor.calibrate(empty_frame)
    assert info["layout"] == "line-9" and info["reprojection_px"] < 3
    assert (tmp_path / "arena" / "line-9.png").is_file()
    # A restart finds the stored reference and is calibrated again.
    again = ArenaMonitor(camera=TableCamera(), data_dir=tmp_path)
    again.set_match(LAYOUT, ["Maggot", "Veroth"])
    assert again.is_calibrated and again.view()["state"] == "waiting"


def test_agreement_then_a_banner_a_proposal_and_a_fix(tmp_path, empty_frame):
    camera, clock = TableCamera(), Clock(0.0)
    monitor = ArenaMonitor(camera=camera, data_dir=tmp_path)
    monitor.set_match(LAYOUT, ["Maggot", "Veroth"])
    monitor.calibrate(empty_frame)
    settle(monitor, ("S3", "S7"), clock)
    assert monitor.view()["state"] == "agrees"
    camera.place("S4", "S7")  # Maggot stepped forward; nobody recorded it
    settle(monitor, ("S3", "S7"), clock)
    legal = [{"type": "move", "player": 0, "to": "S4"}, {"type": "move", "player": 0, "to": "S2"}]
    view = monitor.view(lambda: legal)
    assert view["state"] == "disagrees"
    assert view["messages"] == ["Camera sees Maggot on S4, tracker says S3"]
    assert view["proposal"] == {"type": "move", "player": 0, "to": "S4"}
    assert monitor.fix_events() == [{"type": "place_fighter", "player": 0, "space": "S4", "reason": "arena camera"}]
    monitor.dismiss()
    assert monitor.view()["dismissed"] is True


def test_a_swap_is_fixed_in_an_order_the_rules_accept(tmp_path, empty_frame):
    camera, clock = TableCamera(), Clock(0.0)
    monitor = ArenaMonitor(camera=camera, data_dir=tmp_path)
    monitor.set_match(LAYOUT, ["Maggot", "Veroth"])
    monitor.calibrate(empty_frame)
    camera.place("S5", "S7")
    settle(monitor, ("S4", "S5"), clock)  # both stepped right: Maggot into Veroth's old space
    events = monitor.fix_events()
    assert [(e["player"], e["space"]) for e in events] == [(1, "S7"), (0, "S5")]


def test_a_lost_camera_is_uncertain_never_a_reading(tmp_path, empty_frame):
    camera, clock = TableCamera(), Clock(0.0)
    monitor = ArenaMonitor(camera=camera, data_dir=tmp_path)
    monitor.set_match(LAYOUT, ["Maggot", "Veroth"])
    monitor.calibrate(empty_frame)
    settle(monitor, ("S3", "S7"), clock)
    camera.lost = True
    assert monitor.poll(("S3", "S7"), clock.t + 1) is True
    view = monitor.view()
    assert view["state"] == "uncertain" and "no frames" in view["messages"][0]
    with pytest.raises(ArenaError, match="no trustworthy disagreement"):
        monitor.fix_events()


def ready_events(match, seed=3):
    """Events that play the set-up to the first player's first decision."""
    rng, out = random.Random(seed), []
    while not (match.state.phase == "playing" and match.state.pending is None):
        event = table_event(match, rng) or rng.choice(match.legal_actions())
        match.apply(event)
        out.append(event)
    return out


@pytest.fixture
def arena_api(tmp_path, empty_frame):
    camera = TableCamera()
    clock = Clock(0.0)
    monitor = ArenaMonitor(camera=camera, data_dir=tmp_path / "data")
    service = RefereeService(store=MatchStore.in_dir(tmp_path / "data"), engine=RulesEngine(), arena=monitor,
                             clock=clock)
    app = create_app({"TESTING": True, "SERVICE": service, "DATA_DIR": str(tmp_path / "data"), "PIN": "1234"})
    referee, spectator = Api(app.test_client()), Api(app.test_client())
    referee.login("1234")
    yield referee, spectator, service, camera, clock
    service.close()
    assert camera.closed


def test_the_api_calibrates_reports_and_fixes_the_tracker(arena_api, empty_frame):
    referee, spectator, service, camera, clock = arena_api
    state = referee.post("/api/matches", json={"fighters": ["Brawler", "Duelist"]}).get_json()
    assert state["arena"]["state"] == "not_calibrated"
    camera.feed.set_positions(())  # the board is empty while calibrating
    camera.read = lambda: empty_frame
    assert referee.post("/api/arena/calibrate").status_code == 200
    del camera.read
    match = Match.from_record(referee.get(f"/api/matches/{state['match']['id']}/record").get_data(as_text=True))
    for event in ready_events(match):
        assert referee.post("/api/actions", json=event).status_code == 200
    spaces = [p["space"] for p in referee.get("/api/state").get_json()["snapshot"]["players"]]
    moved = "S4" if spaces[0] == "S3" else "S2"
    camera.place(moved, spaces[1])
    for _ in range(8):
        clock.t += 0.5
        service.poll()
    arena = spectator.get("/api/state").get_json()["arena"]
    assert arena["state"] == "disagrees" and arena["messages"][0].startswith("Camera sees Brawler on")
    assert spectator.get("/api/health").get_json()["arena"]["agrees"] is False
    # A spectator cannot change the tracker; the referee's fix is an ordinary, audited event.
    assert spectator.post("/api/arena/fix").status_code in (401, 403)
    response = referee.post("/api/arena/fix")
    assert response.status_code == 200, response.get_json()
    snapshot = response.get_json()["snapshot"]
    assert snapshot["players"][0]["space"] == moved
    audit = referee.get(f"/api/matches/{state['match']['id']}/audit").get_json()["audit"]
    assert any(entry["kind"] == "arena_fix" for entry in audit)
    assert referee.post("/api/arena/teleport").status_code == 404


def test_health_lists_each_camera_with_its_fps(arena_api):
    referee, spectator, service, camera, clock = arena_api
    camera.fps = 9.7
    camera.is_open = True
    health = spectator.get("/api/health").get_json()
    assert health["cameras"] == [{"name": "arena", "fps": 9.7, "open": True}]


def test_before_any_match_the_arena_is_idle_not_uncalibrated(tmp_path):
    monitor = ArenaMonitor(camera=TableCamera(), data_dir=tmp_path)
    assert monitor.view()["state"] == "idle"
    with pytest.raises(ArenaError, match="start a match first"):
        monitor.calibrate()
