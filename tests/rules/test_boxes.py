"""Issue 3 - the three boxes: Fading Menhir, Technical Corridors, Dangerous Edges, Reactions, merging."""

import pytest

from assistant.boxes import BoxError, load_box, new_setup
from assistant.rules import Fighter, IllegalAction, Match
from assistant.rules.simulate import play_random

from tests.rules.table import SKILLS, card, custom_setup, filler, ready, reveal


def wounds(m, p):
    pl = m.state.players[p]
    return pl.heavy, pl.light


# ---------------------------------------------------------------- Tainted Grail: the Fading Menhir

def menhir_match():
    m = ready(Match(custom_setup(arena="tainted-grail", candles=4)))
    assert m.state.deck["Candle"] == 4
    return m


def pass_turn(m, player):
    m.apply({"type": "attack", "player": player, "card": m.state.row[0]})
    m.apply({"type": "attack", "player": player, "card": m.state.row[0]})


def test_first_candle_is_discarded_tokens_go_under_the_edges_and_the_next_card_fills_the_row():
    """'When you draw the first Candle card, discard it immediately and draw the next Attack card to fill
    the Attack Row. Then, place 1 Candle token in each of the circular slots under the Arena's outer edge spaces.'"""
    m = menhir_match()
    pass_turn(m, 0)
    reveal(m, "Candle")
    snap = m.snapshot()
    assert snap["arena"]["candles"] == ["S1", "S9"]
    assert len(snap["row"]) == 2 and snap["pending"]["kind"] == "reveal"  # still two to draw
    assert any(e["kind"] == "candle" for e in snap["log"])
    reveal(m, filler(30))
    reveal(m, filler(31))
    assert m.snapshot()["pending"] is None


def test_each_further_candle_moves_both_tokens_one_space_towards_the_centre():
    """'Each time you draw an extra Candle card, discard it and move both Candle tokens 1 space towards the center.'"""
    m = menhir_match()
    pass_turn(m, 0)
    reveal(m, "Candle")
    reveal(m, "Candle")
    assert m.state.candles == ["S2", "S8"]
    reveal(m, "Candle")
    assert m.state.candles == ["S3", "S7"]


def test_ending_a_turn_on_or_beyond_a_candle_costs_one_heavy_wound_as_its_own_log_entry():
    """'When a fighter ends their turn on a space above a Candle token, or on a space that is further from the
    center of the Arena than a Candle token, that fighter suffers 1 heavy wound.'"""
    m = menhir_match()
    pass_turn(m, 0)
    reveal(m, "Candle")
    reveal(m, "Candle")  # tokens under S2 and S8
    reveal(m, filler(40))
    reveal(m, filler(41))
    # Player 1 (on S7) walks out to S8 and S9: beyond the token on S8.
    m.apply({"type": "move", "player": 1, "to": "S8"})
    m.apply({"type": "move", "player": 1, "to": "S9"})
    assert wounds(m, 1) == (1, 0)
    hazard = [e for e in m.log if e["kind"] == "hazard"]
    assert hazard and "Fading Menhir" in hazard[-1]["text"] and hazard[-1]["space"] == "S9"
    # Player 0 ends on S3 (inside the tokens): no wound. Only the player ending the turn is checked.
    m.apply({"type": "move", "player": 0, "to": "S4"})
    m.apply({"type": "move", "player": 0, "to": "S3"})
    assert wounds(m, 0) == (0, 0) and wounds(m, 1) == (1, 0)


def test_standing_exactly_above_a_candle_token_also_hurts():
    m = menhir_match()
    pass_turn(m, 0)
    reveal(m, "Candle")
    reveal(m, "Candle")
    reveal(m, "Candle")  # tokens under S3 and S7: both fighters stand above one
    reveal(m, filler(40))
    reveal(m, filler(41))
    m.apply({"type": "move", "player": 1, "to": "S6"})
    m.apply({"type": "move", "player": 1, "to": "S7"})
    assert wounds(m, 1) == (1, 0)


def test_tainted_grail_box_data():
    box = load_box("tg")
    assert box.info.candles == 4 and box.info.tokens["Curse"] == 1
    mist = box.fighter("Mistbearer")
    assert [s.name for s in mist.specials] == ["Doom", "Chain Pull", "Vengeance", "Curse"]
    assert any(c.name == "Wyrdness" and c.on_take for c in box.cards)


def test_mistbearer_curse_vengeance_and_doom():
    setup = new_setup(["tg"], fighters=["Mistbearer", "Maggot"])
    hand = [card("W1", symbols=("block",)), card("F1", symbols=("fist",))]
    m = Match(setup.model_copy(update={"deck": custom_setup().deck, "skills": SKILLS}))
    ready(m, hands=(hand, []))
    m.apply({"type": "place_fighter", "player": 0, "space": "S6"})
    m.apply({"type": "adjust_wounds", "player": 0, "heavy": 1, "reason": "test"})
    m.apply({"type": "combo", "player": 0})
    m.apply({"type": "special", "player": 0, "name": "Curse", "pay": ["W1"]})
    assert m.state.players[1].tokens == {"Curse": 1}
    m.apply({"type": "special", "player": 0, "name": "Vengeance", "pay": ["F1"]})
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "choice" and pend["options"] == ["heavy", "none"]
    m.apply({"type": "choose", "player": 0, "option": "heavy"})
    assert wounds(m, 0) == (0, 0) and wounds(m, 1) == (1, 1)


# ---------------------------------------------------------------- Nemesis: Technical Corridors

def corridor_match(**kw):
    m = ready(Match(custom_setup(arena="nemesis", **kw)))
    m.apply({"type": "place_fighter", "player": 0, "space": "S1"})
    return m


def test_corridor_to_the_centre_costs_one_light_and_is_not_an_action():
    """'1 light wound for moving to the center space ... Movement through Technical Corridors is not an action!'"""
    m = corridor_match()
    m.apply({"type": "corridor", "player": 0, "to": "S5"})
    assert m.state.players[0].space == "S5" and wounds(m, 0) == (0, 1)
    assert m.snapshot()["actions_left"] == 2


def test_corridor_to_an_outer_edge_costs_one_heavy():
    m = corridor_match()
    m.apply({"type": "place_fighter", "player": 1, "space": "S6"})
    m.apply({"type": "corridor", "player": 0, "to": "S9"})
    assert wounds(m, 0) == (1, 0)


def test_corridors_only_between_entrances_and_into_free_spaces():
    m = corridor_match()
    with pytest.raises(IllegalAction, match="'S4' has no Technical Corridor entrance"):
        m.apply({"type": "corridor", "player": 0, "to": "S4"})
    m.apply({"type": "place_fighter", "player": 1, "space": "S5"})
    with pytest.raises(IllegalAction, match="holds Plain B"):
        m.apply({"type": "corridor", "player": 0, "to": "S5"})


def test_no_corridor_while_resolving_an_action():
    """'not ... during resolving an Action (i.e. in between Special Attacks during Combo)'"""
    comboist = Fighter.model_validate({"name": "Runner", "specials": [
        {"name": "Tap", "cost": ["kick"], "light": 1}, {"name": "Tap 2", "cost": ["fist"], "light": 1}]})
    m = ready(Match(custom_setup(arena="nemesis", fighters=(comboist, Fighter(name="Plain B")))),
              hands=([card("K", symbols=("kick",)), card("F", symbols=("fist",))], []))
    m.apply({"type": "place_fighter", "player": 0, "space": "S1"})
    m.apply({"type": "combo", "player": 0})
    m.apply({"type": "special", "player": 0, "name": "Tap", "pay": ["K"]})
    with pytest.raises(IllegalAction, match="Technical Corridors: not while resolving an Action"):
        m.apply({"type": "corridor", "player": 0, "to": "S5"})


def test_no_corridor_in_the_opponents_turn_or_after_the_second_action():
    """'not ... after resolving their second action' - the turn has passed to the opponent by then."""
    m = corridor_match()
    m.apply({"type": "move", "player": 0, "to": "S2"})
    m.apply({"type": "move", "player": 0, "to": "S1"})
    with pytest.raises(IllegalAction, match="only during their own turn"):
        m.apply({"type": "corridor", "player": 0, "to": "S5"})


def test_no_corridor_before_the_start_of_turn_is_resolved():
    """'not ... before resolving effects "at the beginning of your turn"' - the Row refill comes first."""
    m = corridor_match()
    pass_turn(m, 0)
    m.apply({"type": "place_fighter", "player": 1, "space": "S9"})
    m2 = m.copy()
    # Player 1's turn starts with a refill of two cards: corridors wait until it is done.
    with pytest.raises(IllegalAction, match="not while resolving"):
        m2.apply({"type": "corridor", "player": 1, "to": "S5"})


def test_corridors_in_legal_actions():
    m = corridor_match()
    assert {e["to"] for e in m.legal_actions() if e["type"] == "corridor"} == {"S5", "S9"}


# ---------------------------------------------------------------- Siege Storm: Dangerous Edges, Reactions

def edge_match(attack):
    m = ready(Match(custom_setup(arena="siege-storm")), row=[attack, filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 1, "space": "S1"})
    return m


def test_dangerous_edge_adds_one_heavy_when_attacked_from_an_adjacent_space():
    """'If a fighter standing on a Dangerous Edge space is attacked by a fighter in an adjacent space, add one
    heavy wound to the attack's Wound Pool.'"""
    m = edge_match(card("Jab", light=1, range="1"))
    m.apply({"type": "place_fighter", "player": 0, "space": "S2"})
    m.apply({"type": "attack", "player": 0, "card": "Jab"})
    assert wounds(m, 1) == (1, 1)
    assert any(e["kind"] == "hazard" and "Dangerous Edge" in e["text"] for e in m.log)


def test_no_dangerous_edge_bonus_from_further_away():
    m = edge_match(card("Kick", light=1, range="2"))
    m.apply({"type": "attack", "player": 0, "card": "Kick"})  # S3 -> S1: two spaces
    assert wounds(m, 1) == (0, 1)


def test_dangerous_edge_bonus_is_in_the_wound_pool_so_a_block_can_reduce_it():
    m = ready(Match(custom_setup(arena="siege-storm")),
              hands=([], [card("Guard", symbols=("block",)), filler(5)]),
              row=[card("Jab", light=1, range="1"), filler(1), filler(2), filler(3)])
    m.apply({"type": "place_fighter", "player": 1, "space": "S1"})
    m.apply({"type": "place_fighter", "player": 0, "space": "S2"})
    m.apply({"type": "attack", "player": 0, "card": "Jab"})
    assert m.snapshot()["pending"]["heavy"] == 1


VEROTH = load_box("siege").fighter("Veroth")


def veroth_match(hand):
    return ready(Match(custom_setup(arena="siege-storm", fighters=(Fighter(name="Mover"), VEROTH)),
                       ), hands=([filler(70), filler(71)], hand),
                 row=[card("Hit", heavy=1, light=1, range="", type="ability"), filler(1), filler(2), filler(3)])


def test_grasp_of_fury_cancels_a_movement_and_the_action_is_spent():
    """Grasp of Fury (Reaction) - 'when your opponent moves (as an action or Dash), cancel this movement.'"""
    m = veroth_match([card("D", symbols=("dash",)), filler(72)])
    m.apply({"type": "move", "player": 0, "to": "S4"})
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "reaction" and pend["player"] == 1 and pend["options"] == ["Grasp of Fury"]
    m.apply({"type": "react", "player": 1, "name": "Grasp of Fury", "pay": ["D"]})
    snap = m.snapshot()
    assert snap["players"][0]["space"] == "S3" and snap["actions_left"] == 1


def test_declining_a_reaction_lets_the_move_happen():
    m = veroth_match([card("B", symbols=("block",)), filler(72)])
    m.apply({"type": "move", "player": 0, "to": "S4"})
    m.apply({"type": "no_reaction", "player": 1})
    assert m.state.players[0].space == "S4"


def test_double_block_ignores_the_entire_attack_sequence_even_an_ability():
    """Double Block (Reaction) - 'ignore the entire Attack Sequence (Wound Pool and Attack Effect, including
    Ability type attacks).'"""
    m = veroth_match([card("B1", symbols=("block",)), card("B2", symbols=("block",))])
    m.apply({"type": "attack", "player": 0, "card": "Hit"})
    pend = m.snapshot()["pending"]
    assert pend["kind"] == "reaction" and pend["trigger"] == "attacked"
    with pytest.raises(IllegalAction, match="does not pay the cost of 'Double Block'"):
        m.apply({"type": "react", "player": 1, "name": "Double Block", "pay": ["B1"]})
    m.apply({"type": "react", "player": 1, "name": "Double Block", "pay": ["B1", "B2"]})
    assert wounds(m, 1) == (0, 0) and "Hit" in m.state.players[0].hand


def test_reaction_not_offered_when_it_cannot_be_paid():
    m = veroth_match([filler(72), filler(73)])
    m.apply({"type": "move", "player": 0, "to": "S4"})
    assert m.snapshot()["pending"] is None and m.state.players[0].space == "S4"


def test_alternative_payment_in_siege_data():
    fists = VEROTH.special("Fists of Fury")
    assert fists.cost[0].any_of == ("fist", "kick")


# ---------------------------------------------------------------- merging boxes

def test_random_merge_picks_fighters_skills_and_an_arena_with_its_own_deck():
    seen_arenas = set()
    for seed in range(12):
        setup = new_setup(["tg", "nemesis", "siege"], seed=seed)
        seen_arenas.add(setup.arena.id)
        home = load_box(setup.arena_box)
        assert setup.arena.box == setup.arena_box
        assert {c.name for c in setup.deck.cards} == {c.name for c in home.cards}
        assert setup.candles == (4 if setup.arena_box == "tainted-grail" else 0)
    assert len(seen_arenas) >= 2


def test_an_arena_with_another_boxs_deck_is_refused():
    """'the Tainted Grail Arena must be played according to the Setup in this manual, with Tainted Grail
    Attack card deck, 4 Candle cards and 2 Candle tokens.'"""
    with pytest.raises(BoxError, match="Merging Knockdown Boxes: .* must be played with its own box"):
        new_setup(["tg", "nemesis"], arena="tainted-grail", arena_box="nemesis")


@pytest.mark.parametrize("boxes", [["tg"], ["nemesis"], ["siege"], ["tg", "nemesis", "siege"]])
def test_simulated_matches_in_every_box_keep_the_invariants_and_replay(boxes):
    for seed in range(8):
        setup = new_setup(boxes, seed=seed)
        m, result = play_random(setup, seed)
        assert result.violations == [] and result.finished
        again = Match.from_record(m.to_record())
        assert again.snapshot() == m.snapshot()
        assert again.setup.arena_box == setup.arena_box and again.setup.arena.id == setup.arena.id
