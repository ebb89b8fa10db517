import json

import numpy as np
import pytest

from assistant.knockdown import CameraVerdict, FlowError, KnockdownFlow
from assistant.service import NoMatch, RefereeService
from assistant.service.broadcast import Broadcaster, Message
from assistant.store import MatchStore
from tests.service.fake_engine import FakeEngine, IllegalAction
from tests.service.fakes import Clock, FakeTower


def open_service(data_dir, clock=None, **flow_options):
    clock = clock or Clock(0.0)
    flow = KnockdownFlow(clock=clock, grace_seconds=2.0, **flow_options)
    return RefereeService(store=MatchStore.in_dir(data_dir), engine=FakeEngine(), flow=flow, clock=clock)


@pytest.fixture
def service(tmp_path):
    with open_service(tmp_path) as service:
        yield service


def test_no_match_yet_is_a_clear_error(service):
    assert service.state()["match"] is None
    with pytest.raises(NoMatch, match="POST /api/matches"):
        service.apply({"type": "move", "player": 0, "to": 4})


def test_actions_are_durable_and_the_match_resumes_exactly(tmp_path):
    with open_service(tmp_path) as service:
        service.new_match({"players": ["Ann", "Bob"]})
        service.apply({"type": "move", "player": 0, "to": 4})
        service.apply({"type": "move", "player": 1, "to": 6})
        before = service.state()
    with open_service(tmp_path) as service:
        after = service.state()
    assert after["snapshot"] == before["snapshot"]
    assert after["match"] == before["match"]
    assert after["version"] > before["version"]  # versions keep growing across restarts


def test_illegal_action_changes_nothing(service):
    service.new_match({})
    version = service.version
    with pytest.raises(IllegalAction, match="it is player 0's turn"):
        service.apply({"type": "move", "player": 1, "to": 4})
    assert service.version == version
    assert service.store.events(service.state()["match"]["id"]) == []


def test_a_failed_commit_rolls_the_engine_back(service, monkeypatch):
    service.new_match({})

    def broken_append(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "append", broken_append)
    with pytest.raises(OSError):
        service.apply({"type": "move", "player": 0, "to": 4})
    assert service.state()["snapshot"]["positions"] == [3, 7]


def test_undo_gives_one_event_fewer_and_is_audited(service):
    service.new_match({})
    service.apply({"type": "move", "player": 0, "to": 4})
    service.apply({"type": "move", "player": 1, "to": 6})
    state = service.undo(who="referee@test", reason="wrong space")
    assert state["snapshot"]["positions"] == [4, 7]
    match_id = state["match"]["id"]
    assert [e.kind for e in service.store.audit_log(match_id)] == ["undo"]
    service.undo()
    with pytest.raises(ValueError, match="no event to undo"):
        service.undo()


def test_pending_test_survives_a_restart_and_an_interrupted_countdown_is_re_offered(tmp_path):
    with open_service(tmp_path) as service:
        service.new_match({})
        service.apply({"type": "ko", "player": 0})
        assert service.state()["knockdown"]["state"] == "armed"
        service.knockdown_start(who="referee")
        assert service.state()["knockdown"]["state"] == "counting"
        match_id = service.state()["match"]["id"]
    # (closing without finishing the countdown is what a power cut looks like to the store)
    with open_service(tmp_path) as service:
        knockdown = service.state()["knockdown"]
        assert (knockdown["state"], knockdown["player"]) == ("armed", 1)
        kinds = [(e.kind, e.detail.get("reason")) for e in service.store.audit_log(match_id)]
        assert kinds[-2:] == [("countdown_started", None), ("countdown_finished", "restart")]
    with open_service(tmp_path) as service:  # no second "restart" entry for the same countdown
        assert len(service.store.audit_log(match_id)) == len(kinds)


def test_full_knockdown_test_through_the_service_with_override(service):
    service.new_match({})
    service.apply({"type": "ko", "player": 0})
    service.knockdown_start(who="referee")
    service.knockdown_done(who="referee")  # no device: finishes at once; no camera: uncertain
    assert service.state()["knockdown"]["verdict"]["verdict"] == "uncertain"
    with pytest.raises(FlowError, match="uncertain"):
        service.knockdown_confirm(who="referee")
    state = service.knockdown_override(False, who="referee@tablet", reason="fell at 0")
    assert state["snapshot"]["status"] == "finished" and state["snapshot"]["winner"] == 0
    assert state["knockdown"]["state"] == "idle"
    match_id = state["match"]["id"]
    events = service.store.events(match_id)
    assert events[-1] == {"type": "tower", "player": 1, "passed": False, "source": "referee"}
    entries = {e.kind: e for e in service.store.audit_log(match_id)}
    assert entries["referee_decision"].who == "referee@tablet"
    assert entries["referee_decision"].detail["camera"]["verdict"] == "uncertain"
    assert entries["countdown_finished"].detail["reason"] == "done"
    assert service.store.match(match_id).status == "finished"


def test_software_countdown_reaches_zero_in_the_poll_loop(tmp_path):
    clock = Clock(0.0)
    with open_service(tmp_path, clock) as service:
        service.new_match({})
        service.apply({"type": "ko", "player": 0})
        service.knockdown_start()
        clock.t = 3.2
        service.poll()
        assert service.state()["knockdown"]["seconds_left"] == 7
        clock.t = 10.0
        service.poll()
        assert service.state()["knockdown"]["state"] == "verdict"


def test_dice_variant_rolls_with_a_logged_seed(service):
    service.new_match({"variant": "dice"})
    service.apply({"type": "ko", "player": 0})
    state = service.knockdown_dice(who="referee")
    match_id = state["match"]["id"]
    rolled = [e for e in service.store.audit_log(match_id) if e.kind == "dice_rolled"][0]
    assert service.store.events(match_id)[-1]["dice"] == rolled.detail["dice"]
    assert isinstance(rolled.detail["seed"], int)


def test_every_change_is_published_with_a_growing_version(service):
    first = service.version
    service.new_match({})
    service.apply({"type": "move", "player": 0, "to": 2})
    messages = service.broadcaster.since(first)
    assert [m.version for m in messages] == [first + 1, first + 2]
    assert json.loads(messages[-1].data)["snapshot"]["positions"] == [2, 7]


def test_record_and_import_round_trip(service):
    service.new_match({"players": ["Ann", "Bob"]})
    service.apply({"type": "move", "player": 0, "to": 5})
    match_id = service.state()["match"]["id"]
    record = service.record(match_id)
    imported = service.import_record(record)
    assert imported != match_id and service.record(imported) == record
    assert service.state()["match"]["id"] == match_id  # import does not take over the table


def test_broadcaster_resumes_or_resets():
    broadcaster = Broadcaster(history=3)
    for version in range(1, 6):
        broadcaster.publish(Message(version, "state", "{}"))
    assert [m.version for m in broadcaster.since(2)] == [3, 4, 5]
    assert broadcaster.since(5) == []
    assert broadcaster.since(1) is None  # message 2 is gone
    assert broadcaster.since(99) is None  # from another life of the service
    with pytest.raises(ValueError, match="versions must grow"):
        broadcaster.publish(Message(5, "state", "{}"))
    assert broadcaster.wait(5, timeout=0.01) == []


class FakeButton:
    when_pressed = when_long_pressed = None
    closed = False

    def close(self):
        self.closed = True


class FakeCountdown:
    """Answers like the hardware Countdown: done/cancel report when_finished at once."""

    when_tick = when_finished = None

    def __init__(self):
        self.running = False
        self.closed = False

    def start(self):
        self.running = True
        self.when_tick(10)

    def done(self):
        self._finish("done")

    def cancel(self):
        self._finish("cancelled")

    def _finish(self, reason):
        if self.running:
            self.running = False
            self.when_finished(reason)

    def close(self):
        self.closed = True


def test_button_presses_start_finish_and_long_press_cancels(tmp_path):
    button, countdown = FakeButton(), FakeCountdown()
    flow = KnockdownFlow(countdown=countdown, clock=Clock(0.0))
    with RefereeService(store=MatchStore.in_dir(tmp_path), engine=FakeEngine(), flow=flow, countdown=countdown,
                        button=button) as service:
        button.when_pressed()  # no test open: nothing happens
        assert service.state()["knockdown"]["state"] == "idle"
        service.new_match({})
        service.apply({"type": "ko", "player": 0})
        button.when_pressed()
        assert service.state()["knockdown"]["state"] == "counting"
        assert service.state()["knockdown"]["seconds_left"] == 10
        button.when_long_pressed()
        assert service.state()["knockdown"]["state"] == "armed" and not countdown.running
        button.when_pressed()
        button.when_pressed()  # "tower done: judge now"
        assert service.state()["knockdown"]["state"] == "verdict"
        assert service.state()["knockdown"]["finished"] == "done"
        match_id = service.state()["match"]["id"]
        starts = [e for e in service.store.audit_log(match_id) if e.kind == "countdown_started"]
        assert [e.who for e in starts] == ["button", "button"]
    assert button.closed and countdown.closed


def test_button_on_a_dice_test_is_ignored(tmp_path):
    button = FakeButton()
    with RefereeService(store=MatchStore.in_dir(tmp_path), engine=FakeEngine(), button=button) as service:
        service.new_match({"variant": "dice"})
        service.apply({"type": "ko", "player": 0})
        button.when_pressed()
        assert service.state()["knockdown"]["state"] == "armed"


def test_an_auto_confirm_the_engine_refuses_waits_for_the_referee(tmp_path):
    clock = Clock(0.0)
    with open_service(tmp_path, clock) as service:
        service.new_match({})
        service.apply({"type": "ko", "player": 0})
        service.knockdown_start()
        service.knockdown_done()
        with service.lock:  # a confident verdict for a player the engine does not expect
            service.flow._set_verdict(CameraVerdict("pass", 0.99, ("stands",)), clock())
            service.flow.test = type(service.flow.test)(player=0, heavy=1, light=1, variant="tower")
        clock.t += 10
        service.poll()
        assert service.state()["knockdown"]["state"] == "verdict"
        assert service.state()["knockdown"]["auto_confirm_in"] is None
        assert service.state()["snapshot"]["pending"] is not None


def test_a_current_match_that_no_longer_replays_is_set_aside_not_fatal(tmp_path):
    with MatchStore.in_dir(tmp_path) as store:
        header, _ = FakeEngine().new_match({})
        match_id = store.create_match(header, events=[{"type": "move", "player": 1, "to": 4}])  # not 1's turn
    with open_service(tmp_path) as service:
        assert service.state()["match"] is None
        assert any("no longer replays" in note for note in service.health()["hardware"]["notes"])
        assert service.store.match(match_id).status == "unreplayable"
        service.new_match({})  # the table carries on
    with open_service(tmp_path) as service:
        assert service.state()["match"]["id"] != match_id


class FakeCamera:
    """Frame n is filled with n, so a test can tell which frame the judge got."""

    def __init__(self):
        self.reads = 0

    def read(self):
        self.reads += 1
        return np.full((4, 4, 3), self.reads, np.uint8)


def test_camera_frames_feed_the_tower_judge_and_a_confident_pass_auto_confirms(tmp_path):
    clock, camera, tower = Clock(0.0), FakeCamera(), FakeTower("pass", 0.95, settle=1)
    flow = KnockdownFlow(clock=clock, grace_seconds=2.0,
                         tower_session_factory=lambda **counts: tower.given(**counts))
    with RefereeService(store=MatchStore.in_dir(tmp_path), engine=FakeEngine(), flow=flow, camera=camera,
                        clock=clock) as service:
        service.new_match({})
        service.poll()  # idle: the camera is not read
        assert camera.reads == 0
        service.apply({"type": "ko", "player": 0})
        service.poll()  # armed: keep the latest frame as the reference to be
        service.knockdown_start()
        assert tower.reference[0, 0, 0] == 1 and tower.counts == (1, 1)
        assert service.state()["knockdown"]["camera"] is True
        clock.t = 3.0
        service.poll()
        assert tower.frames == [3.0]
        service.knockdown_done()
        service.poll()  # judging -> verdict, grace starts
        assert service.state()["knockdown"]["verdict"]["verdict"] == "pass"
        assert service.evidence() is not None
        clock.t = 5.0
        service.poll()
        state = service.state()
        assert state["knockdown"]["state"] == "idle" and state["snapshot"]["pending"] is None
        match_id = state["match"]["id"]
        assert service.store.events(match_id)[-1] == {"type": "tower", "player": 1, "passed": True,
                                                      "source": "camera"}
        (entry,) = [e for e in service.store.audit_log(match_id) if e.kind == "camera_verdict"]
        assert entry.who == "camera" and entry.detail["camera"]["confidence"] == 0.95


def test_start_right_after_arming_reads_its_own_reference_frame(tmp_path):
    camera, tower = FakeCamera(), FakeTower()
    flow = KnockdownFlow(clock=Clock(0.0), tower_session_factory=lambda **counts: tower.given(**counts))
    with RefereeService(store=MatchStore.in_dir(tmp_path), engine=FakeEngine(), flow=flow,
                        camera=camera) as service:
        service.new_match({})
        service.apply({"type": "ko", "player": 0})
        service.knockdown_start()  # no poll in between
        assert camera.reads == 1 and tower.reference[0, 0, 0] == 1
