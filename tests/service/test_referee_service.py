import json

import pytest

from assistant.knockdown import FlowError, KnockdownFlow
from assistant.service import NoMatch, RefereeService
from assistant.service.broadcast import Broadcaster, Message
from assistant.store import MatchStore
from tests.service.fake_engine import FakeEngine, IllegalAction


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def open_service(data_dir, clock=None, **flow_options):
    clock = clock or Clock()
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
    clock = Clock()
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
