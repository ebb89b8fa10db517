"""Rules 4 and 5 - Attack, Hand Limit and Range Types (with Blink, Backward, Forward)."""

import pytest

from assistant.rules import IllegalAction, Match

from tests.rules.table import card, custom_setup, filler, ready, reveal


def start(row, **kw):
    return ready(Match(custom_setup(**kw)), row=row)


def wounds(m, p):
    w = m.snapshot()["players"][p]["wounds"]
    return w["heavy"], w["light"]


def test_attack_in_range_inflicts_the_wound_pool_and_card_goes_to_hand():
    m = start([card("Hook", heavy=1, light=2), filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 1, "space": "S4"})
    m.apply({"type": "attack", "player": 0, "card": "Hook"})
    assert wounds(m, 1) == (1, 2)
    assert "Hook" in m.state.players[0].hand and "Hook" not in m.state.row


def test_attack_out_of_range_still_takes_the_card():
    """'You must add the Attack card to your hand even if you could not resolve its attack effects.'"""
    m = start([card("Jab", light=1, range="1"), filler(1), filler(2), filler(3)])
    m.apply({"type": "attack", "player": 0, "card": "Jab"})  # S3 vs S7: 4 apart
    assert wounds(m, 1) == (0, 0)
    assert "Jab" in m.state.players[0].hand


def test_attack_must_name_a_row_card():
    m = start(None)
    with pytest.raises(IllegalAction, match="'Nope' is not in the Attack Row"):
        m.apply({"type": "attack", "player": 0, "card": "Nope"})


def test_seventh_card_forces_an_immediate_discard():
    """'If you have more than six Attack cards in your hand, you must discard a card immediately.'"""
    m = start(None)
    for _turn in range(2):
        m.apply({"type": "attack", "player": 0, "card": m.state.row[0]})
        m.apply({"type": "attack", "player": 0, "card": m.state.row[0]})
        reveal(m, filler(50 + _turn * 2))
        reveal(m, filler(51 + _turn * 2))
        m.apply({"type": "move", "player": 1, "to": "S8"})
        m.apply({"type": "move", "player": 1, "to": "S7"})
    assert len(m.state.players[0].hand) == 6
    m.apply({"type": "attack", "player": 0, "card": m.state.row[0]})
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "discard" and pend["player"] == 0
    with pytest.raises(IllegalAction, match="first resolve what is pending: discard"):
        m.apply({"type": "move", "player": 0, "to": "S4"})
    with pytest.raises(IllegalAction, match="not in Plain A's hand"):
        m.apply({"type": "discard", "player": 0, "card": "Nope"})
    m.apply({"type": "discard", "player": 0, "card": "Filler 100"})
    assert len(m.state.players[0].hand) == 6 and m.snapshot()["pending"] is None


@pytest.mark.parametrize(
    ("rng", "distance", "in_range"),
    [
        ("2", 2, True), ("2", 1, False), ("2", 3, False),           # 'Range 2 - Fixed range of 2 spaces'
        ("1-3", 1, True), ("1-3", 3, True), ("1-3", 4, False),     # 'Range 1-3 - Range of up to 3 spaces'
        ("projectile", 6, True), ("projectile", 1, True),          # 'Unlimited, but ... straight line'
        ("", 8, True),                                              # 'no range type ... unlimited range'
    ],
)
def test_range_types(rng, distance, in_range):
    m = start([card("Strike", light=1, range=rng), filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 0, "space": "S1"})
    m.apply({"type": "place_fighter", "player": 1, "space": f"S{1 + distance}"})
    m.apply({"type": "attack", "player": 0, "card": "Strike"})
    assert wounds(m, 1) == ((0, 1) if in_range else (0, 0))


def test_projectile_needs_an_unbroken_line(tmp_path):
    """A projectile cannot cross a gap in the row of spaces."""
    layout = tmp_path / "gap.toml"
    layout.write_text(
        'id = "gap"\nstarting = ["A", "C"]\n'
        '[[spaces]]\nid = "A"\ngrid = [0, 0]\n'
        '[[spaces]]\nid = "C"\ngrid = [2, 0]\nadjacent = ["A"]\n'
    )
    m = start([card("Bolt", light=1, range="projectile"), card("Kick", light=1, range="1"), filler(2), filler(3)],
              arena=str(layout))
    m.apply({"type": "attack", "player": 0, "card": "Bolt"})
    assert wounds(m, 1) == (0, 0)
    m.apply({"type": "attack", "player": 0, "card": "Kick"})  # adjacent by the layout's own adjacency
    assert wounds(m, 1) == (0, 1)


def test_backward_moves_the_opponent_directly_away():
    """'Backward - Moves an opponent directly away from your fighter.'"""
    m = start([card("Shove", range="1", effect=[{"op": "push", "n": 2}]), filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 1, "space": "S4"})
    m.apply({"type": "attack", "player": 0, "card": "Shove"})
    assert m.state.players[1].space == "S6"


def test_backward_stops_at_the_arena_edge():
    m = start([card("Shove", range="1", effect=[{"op": "push", "n": 3}]), filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 1, "space": "S8"})
    m.apply({"type": "place_fighter", "player": 0, "space": "S7"})
    m.apply({"type": "attack", "player": 0, "card": "Shove"})
    assert m.state.players[1].space == "S9"


def test_forward_moves_the_attacker_directly_towards_the_opponent():
    """'Forward - Moves your fighter directly towards your opponent.' It never enters their space."""
    m = start([card("Lunge", effect=[{"op": "forward", "n": 9}]), filler(1), filler(2), filler(3)])
    m.apply({"type": "attack", "player": 0, "card": "Lunge"})
    assert m.state.players[0].space == "S6"


def test_blink_may_pass_through_the_opponent():
    """'Blink - ... allows a fighter to move through an opponent's space ... "jump" behind your opponent.'"""
    m = start([card("Leap", effect=[{"op": "blink", "n": 2, "target": "self"}]), filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 1, "space": "S4"})
    m.apply({"type": "attack", "player": 0, "card": "Leap"})
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "choice" and pend["player"] == 0
    assert "S5" in pend["options"] and "S4" not in pend["options"]
    m.apply({"type": "choose", "player": 0, "option": "S5"})
    assert m.state.players[0].space == "S5"
