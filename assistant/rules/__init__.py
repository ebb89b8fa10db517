"""The pure Knockdown rules tracker: no I/O, no clock, no global randomness.

>>> from assistant.rules import Match
>>> m = Match(setup)            # doctest: +SKIP
>>> m.apply({"type": "deal_skills", "player": 0, "cards": ["A", "B", "C"]})  # doctest: +SKIP
"""

from assistant.rules.errors import IllegalAction, InvalidData, MalformedEvent, RecordError, RulesError
from assistant.rules.match import RECORD_FORMAT, RECORD_VERSION, Match
from assistant.rules.schema import ArenaLayout, AttackCard, AttackType, Effect, Fighter, Range, SkillCard, SpecialAttack
from assistant.rules.setup import Deck, Setup

__all__ = [
    "ArenaLayout", "AttackCard", "AttackType", "Deck", "Effect", "Fighter", "IllegalAction", "InvalidData", "MalformedEvent",
    "Match", "RECORD_FORMAT", "RECORD_VERSION", "Range", "RecordError", "RulesError", "Setup", "SkillCard",
    "SpecialAttack",
]
