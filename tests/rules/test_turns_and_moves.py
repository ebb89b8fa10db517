"""Rules 2 and 3 - Game Turn and Move."""

import pytest

from assistant.rules import IllegalAction, Match

from tests.rules.table import custom_setup, filler, ready, reveal


@pytest.fixture
def m():
    return ready(Match(custom_setup()))


def test_two_actions_then_the_turn_passes(m):
    """'perform two actions ... You may perform the same action twice; and you cannot perform only a single action.'"""
    m.apply({"type": "move", "player": 0, "to": "S4"})
    assert m.snapshot()["actions_left"] == 1 and m.state.active == 0
    m.apply({"type": "move", "player": 0, "to": "S5"})
    snap = m.snapshot()
    assert snap["active"] == 1 and snap["actions_left"] == 2 and snap["turn"] == 2


def test_no_action_out_of_turn(m):
    with pytest.raises(IllegalAction, match="it is Plain A's turn"):
        m.apply({"type": "move", "player": 1, "to": "S6"})


def test_row_is_refilled_to_four_at_the_start_of_each_turn(m):
    """'At the start of your turn, refill the Attack Row so that it contains four face up Attack cards.'"""
    m.apply({"type": "attack", "player": 0, "card": "Filler 0"})
    m.apply({"type": "attack", "player": 0, "card": "Filler 1"})
    snap = m.snapshot()
    assert len(snap["row"]) == 2 and snap["pending"] == {"kind": "reveal", "player": None}
    with pytest.raises(IllegalAction, match="first resolve what is pending: reveal"):
        m.apply({"type": "move", "player": 1, "to": "S6"})
    reveal(m, filler(20))
    reveal(m, filler(21))
    assert m.snapshot()["pending"] is None and len(m.state.row) == 4
    with pytest.raises(IllegalAction, match="no Attack card is to be revealed now"):
        reveal(m, filler(22))


def test_move_to_an_adjacent_space_only(m):
    """'Move your fighter to an adjacent Arena space.'"""
    with pytest.raises(IllegalAction, match="'S5' is not adjacent to 'S3'"):
        m.apply({"type": "move", "player": 0, "to": "S5"})


def test_cannot_move_off_the_arena(m):
    m.apply({"type": "place_fighter", "player": 0, "space": "S1"})
    with pytest.raises(IllegalAction, match="cannot move your fighter off the Arena"):
        m.apply({"type": "move", "player": 0, "to": "S0"})


def test_cannot_enter_or_pass_through_the_other_fighter(m):
    """'You cannot end your movement in a space containing another fighter. You cannot move through ...'"""
    m.apply({"type": "place_fighter", "player": 1, "space": "S4"})
    with pytest.raises(IllegalAction, match="holds Plain B"):
        m.apply({"type": "move", "player": 0, "to": "S4"})
    moves = {e["to"] for e in m.legal_actions() if e["type"] == "move"}
    assert moves == {"S2"}


def test_a_rejected_event_changes_nothing(m):
    before, count = m.snapshot(), len(m.events)
    with pytest.raises(IllegalAction):
        m.apply({"type": "move", "player": 0, "to": "S9"})
    assert m.snapshot() == before
    assert len(m.events) == count
