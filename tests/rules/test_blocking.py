"""Rule 7 - Blocking (Strikes only) and its arithmetic."""

import pytest

from assistant.rules import IllegalAction, Match

from tests.rules.table import card, custom_setup, filler, ready

BLOCK = ("block",)


def start(defender_hand, attack, extra_hand=()):
    """Player 1 holds ``defender_hand`` (+ extra cards drafted later); player 0 attacks from S4."""
    m = ready(Match(custom_setup()), hands=([filler(90), filler(91)], defender_hand),
              row=[attack, filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 0, "space": "S6"})
    return m


def wounds(m, p):
    pl = m.state.players[p]
    return pl.heavy, pl.light


def test_block_offered_only_against_strikes_when_holding_a_block_card():
    m = start([card("Guard", symbols=BLOCK), filler(5)], card("Hook", heavy=1, range="1"))
    m.apply({"type": "attack", "player": 0, "card": "Hook"})
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "block" and pend["player"] == 1 and pend["heavy"] == 1


def test_abilities_can_never_be_blocked():
    """'Only Attacks of Strike type can be Blocked ... Players can never Block Abilities, Reactions ...'"""
    m = start([card("Guard", symbols=BLOCK), filler(5)], card("Zap", heavy=1, type="ability"))
    m.apply({"type": "attack", "player": 0, "card": "Zap"})
    assert m.snapshot()["pending"] is None
    assert wounds(m, 1) == (1, 0)


def test_reduce_light_one_per_card_left_in_hand():
    """'ignore ... 1 light wound for each card in their hand' - the discarded Block card does not count."""
    m = start([card("Guard", symbols=BLOCK), filler(5)], card("Flurry", light=3, range="1"))
    m.apply({"type": "attack", "player": 0, "card": "Flurry"})
    with pytest.raises(IllegalAction, match="with 1 cards left in hand"):
        m.apply({"type": "block", "player": 1, "cards": ["Guard"], "reduce": {"light": 2}})
    m.apply({"type": "block", "player": 1, "cards": ["Guard"], "reduce": {"light": 1}})
    assert wounds(m, 1) == (0, 2)
    assert "Guard" not in m.state.players[1].hand


def test_reduce_heavy_one_per_two_cards_rounded_down():
    """'ignore 1 heavy wound for each 2 cards in their hand (rounded down, discarded Block card does not count)'"""
    m = start([card("Guard", symbols=BLOCK), filler(5)], card("Smash", heavy=2, range="1"))
    m.apply({"type": "attack", "player": 0, "card": "Smash"})
    with pytest.raises(IllegalAction, match="1 heavy \\+ 0 light is too many"):
        m.apply({"type": "block", "player": 1, "cards": ["Guard"], "reduce": {"heavy": 1}})
    m.apply({"type": "no_block", "player": 1})
    assert wounds(m, 1) == (2, 0)


def test_heavy_and_light_reductions_combine():
    """'These effects can be combined.' With 3 cards left: 1 heavy (2 cards) + 1 light (1 card)."""
    m = ready(Match(custom_setup()), hands=([filler(90), filler(91)], [card("Guard", symbols=BLOCK), filler(5)]),
              row=[filler(10), filler(11), card("Combo Hit", heavy=2, light=2, range="1"), filler(13)])
    # Player 0 passes time; player 1 takes two more cards so that 3 stay after the Block.
    m.apply({"type": "move", "player": 0, "to": "S4"})
    m.apply({"type": "move", "player": 0, "to": "S5"})
    m.apply({"type": "attack", "player": 1, "card": "Filler 10"})
    m.apply({"type": "attack", "player": 1, "card": "Filler 11"})
    m.apply({"type": "reveal", "custom": filler(16)})
    m.apply({"type": "reveal", "custom": filler(17)})
    m.apply({"type": "move", "player": 0, "to": "S6"})
    m.apply({"type": "attack", "player": 0, "card": "Combo Hit"})
    assert len(m.state.players[1].hand) == 4
    with pytest.raises(IllegalAction, match="too many"):
        m.apply({"type": "block", "player": 1, "cards": ["Guard"], "reduce": {"heavy": 1, "light": 2}})
    m.apply({"type": "block", "player": 1, "cards": ["Guard"], "reduce": {"heavy": 1, "light": 1}})
    assert wounds(m, 1) == (1, 1)


def test_cancel_the_effect_ignores_its_text_and_wounds():
    """'When cancelling the Strike's Effect, simply ignore its text and Wounds in the Effect's frame.'"""
    attack = card("Rake", light=1, range="1", effect=[{"op": "wound", "heavy": 1}, {"op": "push", "n": 1}])
    m = start([card("Guard", symbols=BLOCK), filler(5)], attack)
    m.apply({"type": "attack", "player": 0, "card": "Rake"})
    m.apply({"type": "block", "player": 1, "cards": ["Guard"], "cancel_effect": True})
    assert wounds(m, 1) == (0, 1)
    assert m.state.players[1].space == "S7"


def test_one_block_card_does_one_thing_two_do_both():
    """'you can discard 2 cards with the Block symbol to ignore both Wounds and Effect of an Attack.'"""
    attack = card("Rake", light=1, range="1", effect=[{"op": "wound", "heavy": 1}])
    m = start([card("Guard", symbols=BLOCK), card("Parry", symbols=("block", "dash"))], attack)
    m.apply({"type": "attack", "player": 0, "card": "Rake"})
    with pytest.raises(IllegalAction, match="either reduces the wounds or cancels the effect"):
        m.apply({"type": "block", "player": 1, "cards": ["Guard"], "reduce": {"light": 1}, "cancel_effect": True})
    with pytest.raises(IllegalAction, match="'Filler 5' is not in your hand|has no Block symbol"):
        m.apply({"type": "block", "player": 1, "cards": ["Guard", "Filler 5"], "cancel_effect": True})
    # Two Block cards leave 0 cards: the effect is cancelled, and 0 wounds may be reduced.
    with pytest.raises(IllegalAction, match="with 0 cards left"):
        m.apply({"type": "block", "player": 1, "cards": ["Guard", "Parry"], "reduce": {"light": 1},
                 "cancel_effect": True})
    m.apply({"type": "block", "player": 1, "cards": ["Guard", "Parry"], "cancel_effect": True})
    assert wounds(m, 1) == (0, 1)


def test_ko_effects_cannot_be_blocked():
    """'Players can never Block ... K.O. effects' - a block never removes the Knockdown Test offer."""
    m = start([card("Guard", symbols=BLOCK), filler(5)], card("Haymaker", heavy=1, ko=True, range="1"))
    m.apply({"type": "attack", "player": 0, "card": "Haymaker"})
    m.apply({"type": "block", "player": 1, "cards": ["Guard"], "cancel_effect": True})
    assert m.snapshot()["pending"]["kind"] == "knockdown_offer"


def test_block_needs_a_block_symbol():
    m = start([card("Guard", symbols=BLOCK), card("Kicker", symbols=("kick",))], card("Hook", heavy=1, range="1"))
    m.apply({"type": "attack", "player": 0, "card": "Hook"})
    with pytest.raises(IllegalAction, match="'Kicker' has no Block symbol"):
        m.apply({"type": "block", "player": 1, "cards": ["Kicker"], "cancel_effect": True})


def test_legal_blocks_follow_the_arithmetic():
    m = start([card("Guard", symbols=BLOCK), filler(5)], card("Flurry", heavy=1, light=3, range="1"))
    m.apply({"type": "attack", "player": 0, "card": "Flurry"})
    reductions = {(e.get("reduce", {}).get("heavy", 0), e.get("reduce", {}).get("light", 0))
                  for e in m.legal_actions() if e["type"] == "block" and "reduce" in e}
    assert reductions == {(0, 1)}  # 1 card left: 1 light, never a heavy
