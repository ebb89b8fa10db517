"""Rule 1 - Setup (rulebook: Setup, steps 1 to 7)."""

import pytest

from assistant.boxes import BoxError, new_setup
from assistant.rules import IllegalAction, Match

from tests.rules.table import PLAIN, custom_setup, filler, ready, reveal, skill_draft


def test_each_player_selects_a_different_fighter():
    """'Each player selects one fighter' - two players cannot field the same one."""
    with pytest.raises(ValueError, match="both picked 'Plain A'"):
        custom_setup(fighters=(PLAIN, PLAIN))
    with pytest.raises(BoxError, match="Setup 1"):
        new_setup(["practice"], fighters=["Brawler", "Brawler"])


def test_skill_draft_deal_three_keep_one_pass_two():
    """'deal three cards to each player. Both players choose one Skill card to keep and then pass the
    remaining two cards to their opponent.'"""
    m = Match(custom_setup())
    m.apply({"type": "deal_skills", "player": 0, "cards": ["Skill 12", "Skill 1", "Skill 2"]})
    with pytest.raises(IllegalAction, match="Setup 4.*dealt to the other player"):
        m.apply({"type": "deal_skills", "player": 1, "cards": ["Skill 1", "Skill 3", "Skill 4"]})
    with pytest.raises(IllegalAction, match="three different"):
        m.apply({"type": "deal_skills", "player": 1, "cards": ["Skill 3", "Skill 3", "Skill 4"]})
    m.apply({"type": "deal_skills", "player": 1, "cards": ["Skill 3", "Skill 4", "Skill 5"]})
    with pytest.raises(IllegalAction, match="keep one of the three dealt cards"):
        m.apply({"type": "keep_skill", "player": 0, "card": "Skill 3"})
    m.apply({"type": "keep_skill", "player": 0, "card": "Skill 12"})
    # Player 0 must wait for the two cards player 1 passes.
    with pytest.raises(IllegalAction, match="wait until your opponent has kept one card"):
        m.apply({"type": "keep_skill", "player": 0, "card": "Skill 4"})
    m.apply({"type": "keep_skill", "player": 1, "card": "Skill 3"})
    # 'choose one card to keep from the two they received and remove the other one from the game'
    with pytest.raises(IllegalAction, match=r"keep one of the two cards received \['Skill 4', 'Skill 5'\]"):
        m.apply({"type": "keep_skill", "player": 0, "card": "Skill 1"})
    m.apply({"type": "keep_skill", "player": 0, "card": "Skill 4"})
    m.apply({"type": "keep_skill", "player": 1, "card": "Skill 1"})
    with pytest.raises(IllegalAction, match="already kept two"):
        m.apply({"type": "keep_skill", "player": 1, "card": "Skill 2"})
    # 'put one of their Skill cards face up and the other one face down'
    m.apply({"type": "place_skills", "player": 0, "face_up": "Skill 4"})
    with pytest.raises(IllegalAction, match="put one of your kept cards"):
        m.apply({"type": "place_skills", "player": 1, "face_up": "Skill 12"})
    m.apply({"type": "place_skills", "player": 1, "face_up": "Skill 3"})
    p0, p1 = m.snapshot()["players"]
    assert [s["name"] for s in p0["skills"]["face_up"]] == ["Skill 4"]
    assert p0["skills"]["face_down"] == "Skill 12"
    assert p1["skills"]["face_down"] == "Skill 1"


@pytest.mark.parametrize("first", [0, 1])
def test_higher_face_up_initiative_goes_first(first):
    """'The player with the higher Initiative value on their active (face up) Skill card is the first player.'"""
    m = Match(custom_setup())
    skill_draft(m, first=first)
    assert m.state.first == first


def test_tied_initiative_needs_a_first_player_event():
    m = Match(custom_setup())
    for p, cards in ((0, ["Skill 1", "Skill 2", "Skill 3"]), (1, ["Skill 4", "Skill 5", "Skill 6"])):
        m.apply({"type": "deal_skills", "player": p, "cards": cards})
    m.apply({"type": "keep_skill", "player": 0, "card": "Skill 1"})
    m.apply({"type": "keep_skill", "player": 1, "card": "Skill 4"})
    m.apply({"type": "keep_skill", "player": 0, "card": "Skill 5"})
    m.apply({"type": "keep_skill", "player": 1, "card": "Skill 2"})
    m.apply({"type": "place_skills", "player": 0, "face_up": "Skill 5"})
    m.apply({"type": "place_skills", "player": 1, "face_up": "Skill 4"})
    assert m.state.first == 0  # 5 beats 4
    m2 = Match(custom_setup())
    for e in m.events[:6]:
        m2.apply(e)
    m2.apply({"type": "place_skills", "player": 0, "face_up": "Skill 1"})
    m2.apply({"type": "place_skills", "player": 1, "face_up": "Skill 2"})
    assert m2.state.first == 1


def test_opening_draft_first_takes_one_second_two_first_the_last():
    """'This player chooses one Attack card ... the second player chooses two cards, and the first player
    takes the last card ... Refill the Attack Row with four new cards.'"""
    m = Match(custom_setup())
    skill_draft(m, first=1)
    cards = [filler(i) for i in range(4)]
    with pytest.raises(IllegalAction, match="no opening Attack Row draft pick is due"):
        m.apply({"type": "draft", "player": 1, "card": "Filler 0"})
    for c in cards:
        reveal(m, c)
    with pytest.raises(IllegalAction, match="it is Plain B's pick"):
        m.apply({"type": "draft", "player": 0, "card": "Filler 0"})
    m.apply({"type": "draft", "player": 1, "card": "Filler 0"})
    m.apply({"type": "draft", "player": 0, "card": "Filler 1"})
    with pytest.raises(IllegalAction, match="it is Plain A's pick"):
        m.apply({"type": "draft", "player": 1, "card": "Filler 2"})
    m.apply({"type": "draft", "player": 0, "card": "Filler 2"})
    m.apply({"type": "draft", "player": 1, "card": "Filler 3"})
    snap = m.snapshot()
    assert snap["players"][1]["hand"] == ["Filler 0", "Filler 3"]
    assert snap["players"][0]["hand"] == ["Filler 1", "Filler 2"]
    assert snap["pending"]["kind"] == "reveal" and snap["phase"] == "row_draft"
    for i in range(4, 8):
        reveal(m, filler(i))
    snap = m.snapshot()
    assert snap["phase"] == "playing" and len(snap["row"]) == 4
    assert snap["active"] == 1 and snap["actions_left"] == 2


def test_tainted_grail_shuffles_four_candles_in_after_the_draft():
    """Setup 7: 'Shuffle 4 Candle cards into the Attack card deck' - after the opening draft."""
    m = Match(custom_setup(deck=40, candles=4))
    skill_draft(m)
    for i in range(4):
        reveal(m, filler(i))
    for who, name in zip((0, 1, 1, 0), ("Filler 0", "Filler 1", "Filler 2", "Filler 3")):
        m.apply({"type": "draft", "player": who, "card": name})
    assert m.state.deck_count == 36 and "Candle" not in m.state.deck
    with pytest.raises(IllegalAction, match="no 'Candle' card is left"):
        reveal(m, "Candle")
    ready_m = ready(Match(custom_setup(deck=40, candles=4)))
    assert ready_m.state.deck_count == 40 - 8 + 4
    assert ready_m.state.deck["Candle"] == 4


def test_fighters_start_on_the_starting_spaces():
    m = Match(custom_setup())
    assert [p["space"] for p in m.snapshot()["players"]] == ["S3", "S7"]
