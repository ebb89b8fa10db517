"""Rule 11 - Golden Rule: effects are data; what the engine cannot automate is a manual effect."""

import pytest

from assistant.rules import Fighter, IllegalAction, Match

from tests.rules.table import card, custom_setup, filler, ready


def start(row, hands=((), ()), fighters=None, tokens=None):
    kw = {"tokens": tokens or {}}
    if fighters:
        kw["fighters"] = fighters
    return ready(Match(custom_setup(**kw)), row=row, hands=hands)


def test_manual_effect_shows_its_text_and_waits_for_the_referee():
    text = "If you have fewer wounds than your opponent, inflict 1 additional light wound."
    m = start([card("Haymaker", heavy=1, effect=[{"op": "manual", "text": text}]), filler(1), filler(2), filler(3)])
    m.apply({"type": "attack", "player": 0, "card": "Haymaker"})
    pend = m.snapshot()["pending"]
    assert pend == {"kind": "manual", "player": 0, "text": text, "source": "Haymaker"}
    with pytest.raises(IllegalAction, match="first resolve what is pending: manual"):
        m.apply({"type": "move", "player": 0, "to": "S4"})
    # The referee records the outcome as an ordinary adjustment, then resolves the effect.
    m.apply({"type": "adjust_wounds", "player": 1, "light": 1, "reason": "Haymaker text"})
    m.apply({"type": "resolve_manual", "note": "inflicted 1 light"})
    assert (m.state.players[1].heavy, m.state.players[1].light) == (1, 1)
    assert m.snapshot()["pending"] is None and "Haymaker" in m.state.players[0].hand
    assert any(e["kind"] == "wound" and e["cause"] == "Haymaker text" for e in m.log)


def test_on_take_effect_hits_the_taker():
    """Wyrdness: 'After taking this card, suffer 1 light wound.'"""
    wyrd = card("Wyrdness", type="ability", on_take=[{"op": "wound", "target": "self", "light": 1}])
    m = start([wyrd, filler(1), filler(2), filler(3)])
    m.apply({"type": "attack", "player": 0, "card": "Wyrdness"})
    assert m.state.players[0].light == 1 and m.state.players[1].light == 0


def test_discard_effect_lets_the_target_choose():
    sweep = card("Sweep", heavy=1, range="", effect=[{"op": "discard", "n": 1}])
    m = start([sweep, filler(1), filler(2), filler(3)], hands=([], [card("A1"), card("A2")]))
    m.apply({"type": "attack", "player": 0, "card": "Sweep"})
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "choice" and pend["player"] == 1 and pend["options"] == ["A1", "A2"]
    with pytest.raises(IllegalAction, match="is not one of the options"):
        m.apply({"type": "choose", "player": 1, "option": "A3"})
    m.apply({"type": "choose", "player": 1, "option": "A2"})
    assert m.state.players[1].hand == ["A1"]


def test_tokens_and_conditions_follow_the_supply():
    hexer = Fighter.model_validate({"name": "Hexer", "specials": [
        {"name": "Hex", "type": "ability", "cost": ["wild"], "effect": [{"op": "token_place", "token": "Curse"}]},
        {"name": "Drain", "cost": ["kick"], "light": 1,
         "effect": [{"op": "if_token", "token": "Curse", "then": [{"op": "wound", "heavy": 1}]}]},
    ]})
    m = start([filler(1), filler(2), filler(3), filler(4)],
              hands=([card("W", symbols=("wild",)), card("K", symbols=("kick",))], []),
              fighters=(hexer, Fighter(name="Target")), tokens={"Curse": 1})
    m.apply({"type": "combo", "player": 0})
    m.apply({"type": "special", "player": 0, "name": "Drain", "pay": ["K"]})
    assert (m.state.players[1].heavy, m.state.players[1].light) == (0, 1)  # no Curse yet
    m.apply({"type": "special", "player": 0, "name": "Hex", "pay": ["W"]})
    assert m.state.players[1].tokens == {"Curse": 1}
    with pytest.raises(IllegalAction, match="the box has only 1 Curse tokens"):
        m.apply({"type": "adjust_tokens", "player": 0, "token": "Curse", "delta": 1})


def test_adjustments_are_checked_and_logged():
    m = start(None)
    with pytest.raises(IllegalAction, match="has 0 heavy and 0 light wounds"):
        m.apply({"type": "adjust_wounds", "player": 1, "heavy": -1})
    with pytest.raises(IllegalAction, match="'S99' is not a space of this arena"):
        m.apply({"type": "place_fighter", "player": 1, "space": "S99"})
    m.apply({"type": "adjust_tokens", "space": "S5", "token": "Trap", "delta": 2, "reason": "set-up"})
    assert m.snapshot()["arena"]["space_tokens"] == {"S5": {"Trap": 2}}
    assert m.log[-1]["text"] == "S5: +2 Trap"
