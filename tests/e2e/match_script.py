"""A short, known path through a real match, found with the pure rules engine.

The browser test taps these events one by one; the table's random happenings (skill
deals, card reveals) come from a seeded shuffle, the players' choices from a simple
aggressive policy, so the match reaches a Knockdown Test within a few dozen taps.
"""

from __future__ import annotations

import random

from assistant.boxes import new_setup
from assistant.rules import Match
from assistant.rules.simulate import table_event

OPTIONS = {"boxes": ["practice"], "players": ["Ada", "Bo"], "fighters": ["Brawler", "Duelist"], "variant": "tower"}


def _in_range(card: dict, distance: int) -> bool:
    low, _, high = str(card["range"]).partition("-")
    try:
        return int(low) <= distance <= int(high or low)
    except ValueError:
        return False


def _choose(actions: list[dict], match: Match) -> dict:
    for action in actions:
        if action["type"] == "knockdown_test" and action["initiate"]:
            return action
    for kind in ("no_block", "no_reaction"):
        for action in actions:
            if action["type"] == kind:
                return action
    s = match.snapshot()
    spaces = s["arena"]["spaces"]
    me, them = (spaces.index(s["players"][p]["space"]) for p in (s["active"], 1 - s["active"]))
    row = {c["name"]: c for c in s["row"]}
    attacks = [a for a in actions if a["type"] == "attack" and _in_range(row[a["card"]], abs(me - them))]
    if attacks:
        return max(attacks, key=lambda a: (row[a["card"]]["ko"], row[a["card"]]["heavy"] + row[a["card"]]["light"]))
    moves = [a for a in actions if a["type"] == "move"]
    if moves:
        return min(moves, key=lambda a: abs(spaces.index(a["to"]) - them))
    return actions[0]


def events_to_knockdown_test(seed: int = 3, limit: int = 60, **overrides) -> list[dict]:
    """The events from a new match up to (not including) the first Knockdown Test result."""
    options = {k: v for k, v in {**OPTIONS, **overrides}.items() if k != "boxes"}
    match = Match(new_setup(OPTIONS["boxes"], **options))
    rng = random.Random(seed)
    while len(match.events) < limit:
        pending = match.state.pending
        if pending and pending["kind"] == "knockdown_test":
            return list(match.events)
        match.apply(table_event(match, rng) or _choose(match.legal_actions(), match))
    raise AssertionError(f"seed {seed} reached no Knockdown Test in {limit} events; pick another seed")
