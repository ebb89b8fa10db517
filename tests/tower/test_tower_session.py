"""The live session: settle gating after the deadline, and a camera that goes away."""

import pytest

from vision.tower import Reason, Verdict
from vision.tower.session import TowerSession, TowerSessionError

STEADY = {"nudge_px": 0.0, "exposure_drift": 0.0}


@pytest.fixture
def clips(tower_scene):
    """The same tower with and without a hand on it, and the empty reference."""
    stand = tower_scene("stand", 4, frames=6, **STEADY)
    hand = tower_scene("hand_top", 4, frames=6, **STEADY)
    return stand.frames[0], stand.frames[1:], hand.frames[1:], stand


def _session(stand, **kw):
    return TowerSession(heavy=stand.heavy, light=stand.light, **kw)


def test_frames_before_start_are_refused(clips):
    _, tower, _, stand = clips
    session = _session(stand)
    assert not session.is_started
    with pytest.raises(TowerSessionError, match="start"):
        session.add_frame(tower[0], 0.0)


def test_frames_must_not_go_back_in_time(clips):
    ref, tower, _, stand = clips
    session = _session(stand)
    session.start(ref)
    session.add_frame(tower[0], 5.0)
    with pytest.raises(TowerSessionError, match="4.0"):
        session.add_frame(tower[1], 4.0)


def test_no_verdict_before_the_deadline(clips):
    ref, tower, _, stand = clips
    session = _session(stand)
    session.start(ref)
    session.add_frame(tower[0], 9.5)
    assert session.judge(deadline_t=10.0, now_t=9.6) is None


def test_a_settled_tower_is_judged_right_after_the_deadline(clips):
    ref, tower, _, stand = clips
    session = _session(stand)
    session.start(ref)
    for i, frame in enumerate(tower[:3]):
        session.add_frame(frame, 10.0 + 0.1 * i)
    v = session.judge(deadline_t=10.0, now_t=10.25)
    assert v is not None and v.verdict is Verdict.PASS


def test_waits_for_the_hand_to_leave_then_judges(clips):
    ref, tower, hand, stand = clips
    session = _session(stand)
    session.start(ref)
    session.add_frame(hand[0], 10.0)
    session.add_frame(hand[1], 10.1)
    assert session.judge(deadline_t=10.0, now_t=10.15) is None
    for i, frame in enumerate(tower[:3]):
        session.add_frame(frame, 10.2 + 0.1 * i)
    v = session.judge(deadline_t=10.0, now_t=10.45)
    assert v is not None and v.verdict is Verdict.PASS


def test_a_hand_still_on_the_tower_after_the_settle_window_fails(clips):
    ref, _, hand, stand = clips
    session = _session(stand)
    session.start(ref)
    for i, frame in enumerate(hand):
        session.add_frame(frame, 10.0 + 0.25 * i)
    assert session.judge(deadline_t=10.0, now_t=11.3) is None  # inside the 1.5 s window
    v = session.judge(deadline_t=10.0, now_t=11.5)
    assert v is not None
    assert v.verdict is Verdict.FAIL
    assert v.reasons == [Reason.HAND]


def test_a_camera_that_stops_is_uncertain_within_a_second(clips):
    ref, tower, _, stand = clips
    session = _session(stand)
    session.start(ref)
    session.add_frame(tower[0], 8.0)
    assert session.judge(deadline_t=10.0, now_t=8.9) is None
    v = session.judge(deadline_t=10.0, now_t=9.05)
    assert v is not None
    assert v.verdict is Verdict.UNCERTAIN
    assert v.reasons == [Reason.CAMERA_LOST]
    assert v.annotated.shape == ref.shape


def test_a_camera_that_never_delivered_is_lost(clips):
    ref, _, _, stand = clips
    session = _session(stand)
    session.start(ref)
    v = session.judge(deadline_t=10.0, now_t=10.0)
    assert v.verdict is Verdict.UNCERTAIN and v.reasons == [Reason.CAMERA_LOST]


def test_restart_forgets_the_previous_test(clips):
    ref, tower, hand, stand = clips
    session = _session(stand)
    session.start(ref)
    session.add_frame(hand[0], 10.0)
    session.start(ref)
    for i, frame in enumerate(tower[:3]):
        session.add_frame(frame, 20.0 + 0.1 * i)
    assert session.judge(deadline_t=20.0, now_t=20.25).verdict is Verdict.PASS
