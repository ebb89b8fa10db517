"""Invariants that hold after every event of any legal match (used by the simulator and tests)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.rules.match import ACTIONS_PER_TURN, HAND_LIMIT, ROW_SIZE

if TYPE_CHECKING:  # pragma: no cover
    from assistant.rules.match import Match
    from assistant.rules.state import State


ACTION_TYPES = frozenset({"move", "attack", "combo"})


def violations(m: "Match", before: "State | None" = None, event: dict | None = None) -> list[str]:
    """Everything wrong with the match's current state (an empty list when all is well).

    With ``before`` (the state before ``event``) it also checks that a turn that just ended
    had exactly two actions.
    """
    s = m.state
    out: list[str] = []
    arena = m.setup.arena
    spaces = [p.space for p in s.players]
    for i, p in enumerate(s.players):
        over_limit = len(p.hand) > HAND_LIMIT
        discard_due = s.pending is not None and s.pending.get("kind") == "discard" and s.pending.get("player") == i
        if over_limit and not discard_due:
            out.append(f"player {i} holds {len(p.hand)} cards with no discard pending (hand limit {HAND_LIMIT})")
        if p.heavy < 0 or p.light < 0:
            out.append(f"player {i} has negative wounds ({p.heavy} heavy, {p.light} light)")
        if p.space not in arena.by_id:
            out.append(f"player {i} stands on {p.space!r}, not a space of the arena")
        if p.hand_code != m._hand_code(p.hand):
            out.append(f"player {i}'s packed hand symbols {p.hand_code} do not match the hand {p.hand!r}")
        if p.victories > 2:
            out.append(f"player {i} has {p.victories} victory tokens")
    if spaces[0] == spaces[1]:
        out.append(f"both fighters stand on {spaces[0]!r}")
    if len(s.row) > ROW_SIZE:
        out.append(f"the Attack Row holds {len(s.row)} cards")
    if any(k < 0 for k in s.deck.values()):
        out.append(f"negative deck counts: {s.deck!r}")
    if s.actions_taken > ACTIONS_PER_TURN:
        out.append(f"{s.actions_taken} actions taken in one turn")
    if before is not None and before.phase == "playing" and s.turn != before.turn and s.round == before.round:
        started = int(event is not None and event.get("type") in ACTION_TYPES and before.combo is None)
        if before.actions_taken + started != ACTIONS_PER_TURN:
            out.append(f"turn {before.turn} ended after {before.actions_taken + started} actions (exactly two a turn)")
    if s.phase == "finished":
        if s.winner is None or s.players[s.winner].victories != 2:
            out.append("the match finished without a two-round winner")
        if s.players[1 - (s.winner or 0)].victories > 1:
            out.append("both players reached two round wins")
    return out
