"""The set-up a match is played with: everything a record's header carries.

A :class:`Setup` is self-contained (full card, fighter, skill and arena data), so a match
record replays the same on any machine whatever its catalog files say.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from assistant.rules.schema import ArenaLayout, AttackCard, Fighter, SkillCard, _Frozen, parse_model

CANDLE = "Candle"
MIN_DECK = 8  # the opening draft reveals four cards and refills four more


class Deck(_Frozen):
    """The Attack deck: catalog cards (``copies`` each), or ``custom`` = N cards entered at the table."""

    cards: tuple[AttackCard, ...] = ()
    custom: int = Field(0, ge=0, le=200)

    @model_validator(mode="after")
    def _one_kind(self) -> "Deck":
        if bool(self.cards) == bool(self.custom):
            raise ValueError("a deck has either 'cards' (a catalog) or 'custom' (a count), not both or neither")
        names = [c.name for c in self.cards]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"card names must be unique (use 'copies'); repeated: {dupes!r}")
        if CANDLE in names:
            raise ValueError(f"{CANDLE!r} cards come from 'candles', not from the deck list")
        if self.size < MIN_DECK:
            raise ValueError(f"the deck holds {self.size} cards; the opening draft needs at least {MIN_DECK}")
        return self

    @property
    def size(self) -> int:
        return self.custom or sum(c.copies for c in self.cards)


class Setup(_Frozen):
    """How a match is set up. ``Setup.from_dict(header['setup'])`` validates a record's header."""

    boxes: tuple[str, ...] = ("practice",)
    arena_box: str = "practice"
    players: tuple[str, str] = ("Player 1", "Player 2")
    fighters: tuple[Fighter, Fighter]
    start_spaces: tuple[str, str] | None = None
    arena: ArenaLayout
    deck: Deck
    candles: int = Field(0, ge=0, le=10)
    skills: tuple[SkillCard, ...] = Field(min_length=6)
    variant: Literal["tower", "dice"] = "tower"
    tokens: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _legal_setup(self) -> "Setup":
        a, b = self.fighters
        if a.name == b.name:
            raise ValueError(f"Setup 1: each player selects one fighter; both picked {a.name!r}")
        names = [s.name for s in self.skills]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"skill names must be unique; repeated: {dupes!r}")
        if self.start_spaces is not None:
            for sp in self.start_spaces:
                if sp not in self.arena.by_id:
                    raise ValueError(f"start_spaces: {sp!r} is not a space of arena {self.arena.id!r}")
            if set(self.start_spaces) != set(self.arena.starting):
                raise ValueError(
                    f"Setup 3: fighters start on the arena's starting spaces {list(self.arena.starting)!r}, "
                    f"not {list(self.start_spaces)!r}"
                )
        return self

    @property
    def starts(self) -> tuple[str, str]:
        return self.start_spaces or self.arena.starting

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "setup") -> "Setup":
        return parse_model(cls, data, source=source, item="setup")

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)
