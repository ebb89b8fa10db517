"""Property tests: random legal playouts keep every invariant, and records round-trip."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.rules import IllegalAction, Match
from assistant.rules.invariants import violations
from assistant.rules.simulate import play_random, table_event

from tests.rules.table import practice_setup

SETUP = practice_setup()
DICE_SETUP = practice_setup(variant="dice")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), dice=st.booleans())
def test_random_playouts_keep_every_invariant_and_round_trip(seed, dice):
    m, result = play_random(DICE_SETUP if dice else SETUP, seed)
    assert result.violations == []
    assert result.finished and m.state.players[result.winner].victories == 2
    again = Match.from_record(m.to_record())
    assert again.snapshot() == m.snapshot()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), cut=st.floats(min_value=0, max_value=1))
def test_undo_equals_replay_of_a_prefix(seed, cut):
    m, _ = play_random(SETUP, seed, check=False)
    keep = int(len(m.events) * cut)
    undone = m.copy()
    while len(undone.events) > keep:
        undone.pop()
    assert undone.snapshot() == Match.replay(SETUP, m.events[:keep]).snapshot()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_listed_action_is_legal_and_garbage_is_refused_without_change(seed):
    rng = random.Random(seed)
    m = Match(SETUP)
    for _ in range(150):
        if m.is_over:
            break
        event = table_event(m, rng)
        if event is None:
            actions = m.legal_actions()
            for candidate in rng.sample(actions, min(3, len(actions))):  # each listed action applies
                trial = m.copy()
                trial.apply(candidate)
            event = rng.choice(actions)
        before = m.snapshot()
        bogus = dict(event, player=1 - event["player"]) if "player" in event else dict(event, type="move")
        try:
            m.apply(bogus)
        except IllegalAction:
            assert m.snapshot() == before
        else:
            m.pop()
        m.apply(event)
        assert violations(m) == []
