"""The mutable state the engine folds events into.

The engine never mutates a state that callers can see: :meth:`State.clone` makes the
working copy for each event, so an illegal event leaves nothing half-applied. Cloning is
shallow where values are immutable (card names, frozen dicts of the attack context).
"""

from __future__ import annotations

from typing import Any


class PlayerState:
    __slots__ = (
        "space", "heavy", "light", "hand", "hand_code", "dealt", "kept", "face_up", "face_down",
        "victories", "tokens", "placed",
    )

    def __init__(self, space: str, tokens: dict[str, int]) -> None:
        self.space = space
        self.heavy = 0
        self.light = 0
        self.hand: list[str] = []
        # The hand's symbols, packed (assistant.rules.costs): kept up to date wherever the hand
        # changes, because every payment question starts from it.
        self.hand_code = 0
        # Rarely-changing fields are tuples: a clone shares them, a change replaces them.
        self.dealt: tuple[str, ...] = ()    # the three Skill cards dealt
        self.kept: tuple[str, ...] = ()     # the two Skill cards kept in the draft
        self.face_up: tuple[str, ...] = ()  # active Skill cards
        self.face_down: str | None = None
        self.victories = 0
        self.tokens = dict(tokens)
        self.placed = False             # skills placed face up / face down

    def clone(self) -> "PlayerState":
        c = PlayerState.__new__(PlayerState)
        c.space = self.space
        c.heavy = self.heavy
        c.light = self.light
        c.hand = self.hand[:]
        c.hand_code = self.hand_code
        c.dealt = self.dealt
        c.kept = self.kept
        c.face_up = self.face_up
        c.face_down = self.face_down
        c.victories = self.victories
        c.tokens = dict(self.tokens)
        c.placed = self.placed
        return c

    @property
    def wounds(self) -> int:
        return self.heavy + self.light


class State:
    __slots__ = (
        "phase", "round", "turn", "active", "first", "actions_taken", "players", "row", "deck",
        "discard", "pending", "ctx", "combo", "candles", "space_tokens", "custom_cards",
        "winner", "rounds", "token_supply",
    )

    def __init__(self) -> None:
        self.phase = "skill_draft"
        self.round = 1
        self.turn = 0
        self.active = 0
        self.first: int | None = None
        self.actions_taken = 0
        self.players: list[PlayerState] = []
        self.row: list[str] = []
        self.deck: dict[str, int] = {}    # card name -> copies still in the deck ("?" = unknown custom cards)
        self.discard: tuple[str, ...] = ()
        self.pending: dict[str, Any] | None = None
        self.ctx: dict[str, Any] | None = None       # the action being resolved
        self.combo: dict[str, Any] | None = None     # {"used": [...], "dash_moves": n, "steps": n}
        self.candles: list[str] = []                  # spaces above the Candle tokens (Fading Menhir)
        self.space_tokens: dict[str, dict[str, int]] = {}
        self.custom_cards: dict[str, Any] = {}        # name -> AttackCard entered at the table
        self.winner: int | None = None
        self.rounds: tuple[dict[str, Any], ...] = ()
        self.token_supply: dict[str, int] = {}

    def clone(self) -> "State":
        c = State.__new__(State)
        c.phase = self.phase
        c.round = self.round
        c.turn = self.turn
        c.active = self.active
        c.first = self.first
        c.actions_taken = self.actions_taken
        c.players = [p.clone() for p in self.players]
        c.row = self.row[:]
        c.deck = dict(self.deck)
        c.discard = self.discard
        c.pending = None if self.pending is None else dict(self.pending)
        c.ctx = None if self.ctx is None else dict(self.ctx)
        c.combo = None if self.combo is None else {**self.combo, "used": self.combo["used"][:]}
        c.candles = self.candles[:]
        c.space_tokens = {k: dict(v) for k, v in self.space_tokens.items()} if self.space_tokens else {}
        c.custom_cards = self.custom_cards  # append-only registry, replaced (not mutated) on change
        c.winner = self.winner
        c.rounds = self.rounds  # a tuple
        c.token_supply = self.token_supply
        return c

    @property
    def deck_count(self) -> int:
        return sum(self.deck.values())
