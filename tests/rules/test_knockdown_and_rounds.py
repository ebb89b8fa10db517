"""Rules 8, 9 and 10 - Knockdown Test (tower and dice), End of the Round, Next Round and the match."""

import pytest

from assistant.rules import IllegalAction, Match

from tests.rules.table import card, custom_setup, filler, ready, reveal

KO_HIT = card("KO Hit", heavy=2, light=3, ko=True, range="1")


def ko_ready(variant="tower", row=None):
    m = ready(Match(custom_setup(variant=variant)), row=row or [KO_HIT, filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 0, "space": "S6"})
    m.apply({"type": "attack", "player": 0, "card": "KO Hit"})
    return m


def test_the_attacker_may_initiate_a_test_it_is_never_automatic():
    """'If the attack contains a K.O. effect, the attacking player may initiate a Knockdown Test.'"""
    m = ko_ready()
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "knockdown_offer" and pend["player"] == 0
    with pytest.raises(IllegalAction, match="it is Plain A who must answer"):
        m.apply({"type": "knockdown_test", "player": 1, "initiate": True})
    m.apply({"type": "knockdown_test", "player": 0, "initiate": False})
    assert m.snapshot()["pending"] is None and "KO Hit" in m.state.players[0].hand


def test_no_test_offer_out_of_range():
    m = ready(Match(custom_setup()), row=[KO_HIT, filler(1), filler(2), filler(3)])
    m.apply({"type": "attack", "player": 0, "card": "KO Hit"})
    assert m.snapshot()["pending"] is None


def test_pending_test_carries_the_defenders_cubes():
    m = ko_ready()
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    pend = m.snapshot()["pending"]
    assert pend == {"kind": "knockdown_test", "player": 1, "attacker": 0, "heavy": 2, "light": 3, "variant": "tower"}


def test_tower_pass_discards_half_the_light_wounds_rounded_down():
    """'test ends and the game progresses. However you discard half of your light wounds, rounded down.'"""
    m = ko_ready()
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    m.apply({"type": "tower", "player": 1, "passed": True, "source": "camera"})
    p = m.state.players[1]
    assert (p.heavy, p.light) == (2, 2)  # 3 light - floor(3/2)
    assert m.snapshot()["pending"] is None and m.state.round == 1


def test_tower_fail_ends_the_round_the_attacker_wins_by_ko():
    """'If the timer hits 0 and the tower is still not ready - your opponent wins this round by KO!'"""
    m = ko_ready()
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    m.apply({"type": "tower", "player": 1, "passed": False, "source": "referee"})
    snap = m.snapshot()
    assert snap["rounds"][0]["winner"] == 0 and snap["rounds"][0]["reason"] == "ko"
    assert snap["round"] == 2 and snap["players"][0]["victory_tokens"] == 1


@pytest.mark.parametrize(("dice", "passed"), [([1, 2, 2], True), ([1, 1, 2], False), ([6, 6, 6], True)])
def test_dice_variant_passes_iff_the_sum_reaches_the_wounds(dice, passed):
    """'If the sum is greater than, or equal to, the total number of your fighter's wounds, you passed.'"""
    m = ko_ready(variant="dice")
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    with pytest.raises(IllegalAction, match="dice variant"):
        m.apply({"type": "tower", "player": 1, "passed": True, "source": "referee"})
    m.apply({"type": "dice", "player": 1, "dice": dice})  # wounds: 2 heavy + 3 light = 5
    assert (m.state.round == 1) is passed


def test_bad_dice_are_refused_naming_the_field():
    m = ko_ready(variant="dice")
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    with pytest.raises(IllegalAction, match=r"field 'dice' = \[0, 7, 1\]: must be three integers from 1 to 6"):
        m.apply({"type": "dice", "player": 1, "dice": [0, 7, 1]})


def deck_out(m, wounds_0, wounds_1, starter):
    """Run a two-card custom deck dry so the round ends when ``starter`` starts a turn."""
    m.apply({"type": "adjust_wounds", "player": 0, "heavy": wounds_0[0], "light": wounds_0[1], "reason": "test"})
    m.apply({"type": "adjust_wounds", "player": 1, "heavy": wounds_1[0], "light": wounds_1[1], "reason": "test"})
    if starter == 1:
        m.apply({"type": "attack", "player": 0, "card": m.state.row[0]})
        m.apply({"type": "move", "player": 0, "to": "S4"})
    else:
        m.apply({"type": "move", "player": 0, "to": "S4"})
        m.apply({"type": "move", "player": 0, "to": "S3"})
        m.apply({"type": "attack", "player": 1, "card": m.state.row[0]})
        m.apply({"type": "move", "player": 1, "to": "S8"})


@pytest.mark.parametrize(
    ("w0", "w1", "starter", "winner", "why"),
    [
        ((1, 5), (2, 0), 1, 0, "fewest heavy wounds"),
        ((2, 1), (2, 3), 1, 0, "fewest light wounds"),
        ((2, 2), (2, 2), 1, 1, "the player starting their turn"),
        ((2, 2), (2, 2), 0, 0, "the player starting their turn"),
    ],
)
def test_deck_out_ends_the_round_with_the_tie_breaks(w0, w1, starter, winner, why):
    """'The player with the fewest heavy wounds ... fewest light wounds ... the player who is starting their turn.'"""
    m = ready(Match(custom_setup(deck=8)))
    assert m.state.deck_count == 0
    deck_out(m, w0, w1, starter)
    snap = m.snapshot()
    assert snap["rounds"][0]["winner"] == winner and snap["rounds"][0]["reason"] == "deck_out"
    assert any(why in entry["text"] for entry in snap["log"])


def test_next_round_resets_and_the_loser_goes_first_revealing_their_skill():
    """Next Round: wounds and hands discarded, fighters reset, new deck, loser first with both skills active."""
    m = ko_ready()
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    m.apply({"type": "tower", "player": 1, "passed": False, "source": "referee"})
    snap = m.snapshot()
    p0, p1 = snap["players"]
    assert (p1["wounds"], p0["wounds"]) == ({"heavy": 0, "light": 0}, {"heavy": 0, "light": 0})
    assert p0["hand"] == [] and p1["hand"] == []
    assert (p0["space"], p1["space"]) == ("S3", "S7")
    assert snap["active"] == 1 and snap["first"] == 1
    assert [s["name"] for s in p1["skills"]["face_up"]] == ["Skill 3", "Skill 1"]
    assert p1["skills"]["face_down"] is None
    assert snap["deck_count"] == 40 and snap["row"] == [] and snap["pending"]["kind"] == "reveal"


def test_first_to_two_round_wins_takes_the_match():
    """'If the winner of this round already has a Victory Token, this player wins the match!'"""
    m = ko_ready()
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    m.apply({"type": "tower", "player": 1, "passed": False, "source": "referee"})
    for c in (KO_HIT, filler(1), filler(2), filler(3)):
        reveal(m, c)
    # Round 2: player 1 (the loser) goes first.
    m.apply({"type": "move", "player": 1, "to": "S6"})
    m.apply({"type": "move", "player": 1, "to": "S5"})
    m.apply({"type": "move", "player": 0, "to": "S4"})
    m.apply({"type": "attack", "player": 0, "card": "KO Hit"})
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    m.apply({"type": "tower", "player": 1, "passed": False, "source": "override"})
    snap = m.snapshot()
    assert snap["phase"] == "finished" and snap["winner"] == 0
    assert snap["players"][0]["victory_tokens"] == 2
    assert m.legal_actions() == []
    with pytest.raises(IllegalAction, match="the match is over"):
        m.apply({"type": "move", "player": 1, "to": "S6"})


def test_tainted_grail_reshuffles_the_candles_into_the_new_deck():
    m = ready(Match(custom_setup(candles=4)), row=[KO_HIT, filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 0, "space": "S6"})
    m.apply({"type": "attack", "player": 0, "card": "KO Hit"})
    m.apply({"type": "knockdown_test", "player": 0, "initiate": True})
    m.apply({"type": "tower", "player": 1, "passed": False, "source": "referee"})
    assert m.state.deck["Candle"] == 4 and m.state.deck_count == 44
