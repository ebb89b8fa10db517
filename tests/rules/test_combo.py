"""Rule 6 - Combo: Special Attacks paid with symbols, and Dash."""

import pytest

from assistant.rules import Fighter, IllegalAction, Match

from tests.rules.table import card, custom_setup, filler, ready

COMBO_FIGHTER = Fighter.model_validate({
    "name": "Comboist",
    "specials": [
        {"name": "Double Fist", "range": "", "cost": ["fist", "fist"], "light": 2},
        {"name": "Kick Flip", "range": "", "cost": ["kick"], "heavy": 1},
        {"name": "One Two", "range": "", "cost": ["fist", "kick"], "light": 1},
        {"name": "Anything", "range": "", "cost": ["wild"], "light": 1},
        {"name": "Either", "range": "", "cost": ["fist|block"], "light": 1},
        {"name": "Close Only", "range": "1", "cost": ["kick"], "light": 1},
    ],
})
OTHER = Fighter(name="Target")


def start(hand):
    m = Match(custom_setup(fighters=(COMBO_FIGHTER, OTHER)))
    return ready(m, hands=(hand, []))


def wounds(m, p):
    pl = m.state.players[p]
    return pl.heavy, pl.light


def test_special_paid_with_matching_symbols():
    """'Discard Attack cards from your hand with symbols matching those shown in the Special Attack Cost.'"""
    m = start([card("F1", symbols=("fist",)), card("F2", symbols=("fist",))])
    m.apply({"type": "combo", "player": 0})
    with pytest.raises(IllegalAction, match="does not pay the cost of 'Kick Flip'"):
        m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["F1"]})
    m.apply({"type": "special", "player": 0, "name": "Double Fist", "pay": ["F1", "F2"]})
    assert wounds(m, 1) == (0, 2)
    assert m.state.players[0].hand == []


def test_wild_on_a_card_pays_any_symbol_and_wild_in_a_cost_takes_any():
    """'The cost specified with the Wild symbol can be replaced by any other symbol.'"""
    m = start([card("W", symbols=("wild",)), card("B", symbols=("block",))])
    m.apply({"type": "combo", "player": 0})
    m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["W"]})
    m.apply({"type": "special", "player": 0, "name": "Anything", "pay": ["B"]})
    assert wounds(m, 1) == (1, 1)


def test_two_symbol_card_pays_a_single_special_attack_only():
    """'Cards containing 2 symbols may only be used to pay for a single Special Attack.'"""
    m = start([card("FK", symbols=("fist", "kick")), card("F", symbols=("fist",))])
    m.apply({"type": "combo", "player": 0})
    # Both of its symbols may pay for one Special Attack ...
    m.apply({"type": "special", "player": 0, "name": "One Two", "pay": ["FK"]})
    # ... and the card is gone: its other symbol cannot pay for another one.
    with pytest.raises(IllegalAction, match="'FK' is not in Comboist's hand"):
        m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["FK"]})


def test_every_discarded_card_must_pay_a_symbol():
    m = start([card("K", symbols=("kick",)), card("F", symbols=("fist",))])
    m.apply({"type": "combo", "player": 0})
    with pytest.raises(IllegalAction, match="every discarded card must pay a symbol"):
        m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["K", "F"]})


def test_alternative_payment_symbol():
    """Siege Storm: a cost 'may be paid by spending a card with one symbol or a card with another symbol'."""
    m = start([card("B", symbols=("block",)), card("K", symbols=("kick",))])
    m.apply({"type": "combo", "player": 0})
    with pytest.raises(IllegalAction, match="fist/block"):
        m.apply({"type": "special", "player": 0, "name": "Either", "pay": ["K"]})
    m.apply({"type": "special", "player": 0, "name": "Either", "pay": ["B"]})
    assert wounds(m, 1) == (0, 1)


def test_each_special_at_most_once_per_combo():
    """'You cannot perform any of your Special Attacks more than once during a single Combo action.'"""
    m = start([card("K1", symbols=("kick",)), card("K2", symbols=("kick",))])
    m.apply({"type": "combo", "player": 0})
    m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["K1"]})
    with pytest.raises(IllegalAction, match="more than once during a single Combo"):
        m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["K2"]})


def test_special_needs_the_opponent_in_range():
    m = start([card("K1", symbols=("kick",)), card("D", symbols=("dash",))])
    m.apply({"type": "combo", "player": 0})
    with pytest.raises(IllegalAction, match="must be within range"):
        m.apply({"type": "special", "player": 0, "name": "Close Only", "pay": ["K1"]})


def test_dash_one_move_per_dash_symbol_in_any_order_with_specials():
    """'You can perform a Dash once for each discarded Dash symbol.' Dashes and Specials in any order."""
    m = start([card("DD", symbols=("dash", "dash")), card("K", symbols=("kick",))])
    m.apply({"type": "combo", "player": 0})
    with pytest.raises(IllegalAction, match="discard a card with the Dash symbol first"):
        m.apply({"type": "move", "player": 0, "to": "S4"})
    m.apply({"type": "dash", "player": 0, "pay": "DD"})
    m.apply({"type": "move", "player": 0, "to": "S4"})
    m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["K"]})
    assert m.snapshot()["combo"]["dash_moves"] == 1
    m.apply({"type": "move", "player": 0, "to": "S5"})
    assert m.state.players[0].space == "S5"
    # Two Dash symbols gave exactly two moves; with nothing left to pay, the Combo action is over.
    snap = m.snapshot()
    assert snap["combo"] is None and snap["actions_left"] == 1


def test_dash_needs_a_dash_symbol():
    m = start([card("K", symbols=("kick",)), card("K2", symbols=("kick",))])
    m.apply({"type": "combo", "player": 0})
    with pytest.raises(IllegalAction, match="'K' has no Dash symbol"):
        m.apply({"type": "dash", "player": 0, "pay": "K"})


def test_combo_ends_when_nothing_more_can_be_paid():
    """'If you ... cannot pay for a Special Attack ... the Combo ends.' The Combo is one action."""
    m = start([card("K", symbols=("kick",)), filler(7)])
    m.apply({"type": "combo", "player": 0})
    m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["K"]})
    snap = m.snapshot()
    assert snap["combo"] is None and snap["actions_left"] == 1


def test_end_combo_by_choice_and_not_empty():
    m = start([card("K", symbols=("kick",)), card("F", symbols=("fist",))])
    m.apply({"type": "combo", "player": 0})
    with pytest.raises(IllegalAction, match="at least one Special Attack or Dash"):
        m.apply({"type": "end_combo", "player": 0})
    m.apply({"type": "special", "player": 0, "name": "Kick Flip", "pay": ["K"]})
    m.apply({"type": "end_combo", "player": 0})
    assert m.snapshot()["combo"] is None and m.snapshot()["actions_left"] == 1


def test_combo_refused_when_nothing_can_be_paid():
    m = start([filler(8), filler(9)])
    with pytest.raises(IllegalAction, match="cannot pay for any Special Attack or Dash"):
        m.apply({"type": "combo", "player": 0})
    assert not any(e["type"] == "combo" for e in m.legal_actions())


def test_cards_in_hand_cannot_attack():
    """'once you got an Attack Card in your hand, it cannot be used to trigger the Attack Sequence anymore.'"""
    m = start([card("Hand Hook", heavy=1), filler(9)])
    with pytest.raises(IllegalAction, match="not in the Attack Row"):
        m.apply({"type": "attack", "player": 0, "card": "Hand Hook"})
