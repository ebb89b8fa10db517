"""The tall-tower warning is the verdict's own field (``view_warning``): its reasons stay the judge's codes."""

from __future__ import annotations

import numpy as np

from assistant.knockdown import KnockdownFlow
from tests.service.fakes import Clock, FakeTower

TALL_TEST = {"kind": "knockdown_test", "player": 1, "heavy": 4, "light": 5, "variant": "tower"}


def _verdict(verdict, confidence, *, holds=7):
    tower = FakeTower(verdict, confidence, settle=1)
    flow = KnockdownFlow(clock=Clock(0.0), tower_session_factory=lambda **counts: tower.given(**counts),
                         view_holds_cubes=holds)
    flow.sync(TALL_TEST, builder="Maggot")
    flow.start(np.zeros((4, 4, 3), np.uint8))
    flow.done()
    flow.poll()
    return flow


def test_an_uncertain_verdict_carries_the_warning_beside_its_reason_codes():
    flow = _verdict("uncertain", 0.3)
    verdict = flow.snapshot()["verdict"]
    assert verdict["reasons"] == ["scripted"]
    assert verdict["view_warning"] == flow.view_warning
    assert verdict["view_warning"].startswith("the tower camera's picture holds 7 cubes; Maggot builds 9")
    audit = flow.decide(False, who="referee").audit_detail["camera"]
    assert audit["reasons"] == ["scripted"] and audit["view_warning"] == verdict["view_warning"]


def test_a_pass_or_fail_verdict_or_a_tower_that_fits_carries_none():
    assert _verdict("pass", 0.95).snapshot()["verdict"]["view_warning"] is None
    assert _verdict("fail", 0.8).snapshot()["verdict"]["view_warning"] is None
    assert _verdict("uncertain", 0.3, holds=9).snapshot()["verdict"]["view_warning"] is None
    assert _verdict("uncertain", 0.3, holds=None).snapshot()["verdict"]["view_warning"] is None
