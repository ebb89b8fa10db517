"""The unchecked path (``apply_unchecked``) and the payment shortcuts agree with the checked rules."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.boxes import new_setup
from assistant.rules import IllegalAction, Match, MalformedEvent
from assistant.rules.costs import CostBook
from assistant.rules.schema import CostItem
from assistant.rules.simulate import play_random, table_event

from tests.rules.table import card, custom_setup, filler, practice_setup, ready

SETUP = practice_setup()


def _unchecked_playout(setup, seed):
    rng = random.Random(seed)
    m = Match(setup)
    while not m.is_over:
        m.apply_unchecked(table_event(m, rng) or rng.choice(m.legal_actions()))
    return m


def _unchecked_prefix(seed: int, n: int) -> tuple[Match, list[dict]]:
    """A match of the first ``n`` events of a random playout, applied unchecked, and all its events."""
    events = list(play_random(SETUP, seed, check=False)[0].events)
    m = Match(SETUP)
    for e in events[:n]:
        m.apply_unchecked(e)
    return m, events


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_unchecked_playout_reaches_the_same_state_as_the_checked_replay(seed):
    m = _unchecked_playout(SETUP, seed)
    assert m.is_over
    checked = Match.replay(SETUP, m.events)
    assert checked.snapshot() == m.snapshot()
    assert checked.log == m.log


@pytest.mark.parametrize("boxes", [["tg"], ["nemesis"], ["siege"], ["tg", "nemesis", "siege"]])
def test_unchecked_playouts_match_the_checked_rules_in_every_box(boxes):
    """Hazards, tokens, Reactions and Candles change the state in place the same way."""
    for seed in range(4):
        setup = new_setup(boxes, seed=seed)
        m = _unchecked_playout(setup, seed)
        checked = Match.replay(setup, m.events)
        assert checked.snapshot() == m.snapshot() and checked.log == m.log


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), cut=st.floats(min_value=0, max_value=1))
def test_undo_after_unchecked_events_is_a_replay_of_one_event_fewer(seed, cut):
    m = _unchecked_playout(SETUP, seed)
    keep = int(m.event_count * cut)
    while m.event_count > keep:
        m.pop()
        if m.event_count % 7 == 0:  # every so often, compare the rebuilt state with a fresh replay
            assert m.snapshot() == Match.replay(SETUP, m.events).snapshot()
    assert m.snapshot() == Match.replay(SETUP, m.events).snapshot()


def test_checked_and_unchecked_events_mix_and_undo():
    m, _ = play_random(SETUP, 5, check=False)
    events = m.events
    mixed = Match(SETUP)
    for i, e in enumerate(events[:120]):
        (mixed.apply if i % 3 else mixed.apply_unchecked)(e)
    for _ in range(50):
        mixed.pop()
    assert mixed.snapshot() == Match.replay(SETUP, events[:70]).snapshot()
    for e in events[70:120]:
        mixed.apply_unchecked(e)
    assert mixed.snapshot() == Match.replay(SETUP, events[:120]).snapshot()


def test_an_illegal_unchecked_event_is_refused_and_nothing_changes():
    prefix, events = _unchecked_prefix(3, 100)
    before = prefix.snapshot()
    state_before = prefix.state
    attack = {"type": "attack", "player": prefix.state.active, "card": "No Such Card"}
    with pytest.raises(IllegalAction, match="No Such Card"):
        prefix.apply_unchecked(attack)
    assert prefix.snapshot() == before and prefix.event_count == 100
    assert prefix.state is not state_before  # rebuilt from the last checkpoint, not half-applied
    with pytest.raises(MalformedEvent, match="'player'"):
        prefix.apply_unchecked({"type": "move", "to": "S4"})
    with pytest.raises(MalformedEvent, match="unknown type"):
        prefix.apply_unchecked({"type": "teleport"})
    assert prefix.snapshot() == before
    # And the match goes on from there.
    for e in events[100:110]:
        prefix.apply_unchecked(e)
    assert prefix.snapshot() == Match.replay(SETUP, events[:110]).snapshot()


def test_copy_is_independent_of_unchecked_events_on_the_original():
    a, events = _unchecked_prefix(9, 60)
    b = a.copy()
    frozen = b.snapshot()
    for e in events[60:90]:
        a.apply_unchecked(e)
    assert b.snapshot() == frozen
    for e in events[60:90]:
        b.apply_unchecked(e)
    assert b.snapshot() == a.snapshot()


# ---------------------------------------------------------------- payments

SYMBOLS = ("fist", "kick", "block", "dash", "wild")
card_symbols = st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=2).map(tuple)
cost_items = st.lists(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=2), min_size=1, max_size=3)


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(card_symbols, min_size=0, max_size=7), cost=cost_items)
def test_can_pay_from_symbols_alone_agrees_with_trying_every_set_of_cards(hand, cost):
    cost = tuple(CostItem(any_of=tuple(item)) for item in cost)
    book = CostBook([])
    code = sum(book.code(symbols) for symbols in hand)

    def pays(cards):  # the Combo rule, by brute force: every cost symbol gets its own slot, every card pays
        slots = [(i, sym) for i, c in enumerate(cards) for sym in c]
        for chosen in itertools.permutations(range(len(slots)), len(cost)):
            fits = all(slots[j][1] == "wild" or "wild" in item.any_of or slots[j][1] in item.any_of
                       for j, item in zip(chosen, cost))
            if fits and {slots[j][0] for j in chosen} == set(range(len(cards))):
                return True
        return False

    brute = any(pays(cards) for n in range(1, len(hand) + 1) for cards in itertools.combinations(hand, n))
    assert book.can_pay(code, cost) is brute


def test_a_custom_card_entered_again_after_undo_is_read_with_its_new_symbols():
    m = Match(custom_setup())
    plain_x = card("X", range="8")
    ready(m, hands=([plain_x, filler(1)], [filler(2), filler(3)]))
    assert not any(a["type"] == "combo" for a in m.legal_actions())  # no Dash, nothing to pay with
    events = m.events
    at = next(i for i, e in enumerate(events) if e.get("custom", {}).get("name") == "X")
    while m.event_count > at:
        m.pop()
    m.apply({"type": "reveal", "custom": card("X", range="8", symbols=("dash",))})
    for e in events[at + 1:]:
        m.apply(e)
    assert {"type": "combo", "player": 0} in m.legal_actions()  # the Dash symbol now counts
