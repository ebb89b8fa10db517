"""Errors of the rules tracker. All subclass ValueError, python-chess style."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the pure rules tracker raises."""


class IllegalAction(RulesError):
    """An event that the rules do not allow now. The message quotes the event and names the rule."""

    def __init__(self, event: object, rule: str, reason: str) -> None:
        self.event = event
        self.rule = rule
        self.reason = reason
        super().__init__(f"illegal event {event!r}: {rule}: {reason}")


class MalformedEvent(IllegalAction):
    """An event that is not well formed (unknown type, missing or bad field), before any rule runs."""


class InvalidData(RulesError):
    """Card, fighter, skill or arena data that breaks the schema. Names the source, item and field."""


class RecordError(RulesError):
    """A match record that cannot be replayed. ``line`` is the 1-based line number (0 if unknown)."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)
