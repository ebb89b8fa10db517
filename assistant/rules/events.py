"""The event vocabulary: which fields each event type has, checked before any rule runs.

Events are plain JSON objects (dicts) so that a record, the web API and the engine speak
the same language. See docs/match-record.md for the meaning of each type.
"""

from __future__ import annotations

from typing import Any, Callable

from assistant.rules.errors import MalformedEvent

Check = Callable[[Any], bool]


def _player(v: Any) -> bool:
    return type(v) is int and v in (0, 1)


def _text(v: Any) -> bool:
    return isinstance(v, str) and 0 < len(v) <= 200


def _note(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= 500


def _bool(v: Any) -> bool:
    return type(v) is bool


def _int(v: Any) -> bool:
    return type(v) is int and -50 <= v <= 50


def _names(lo: int, hi: int) -> Check:
    return lambda v: isinstance(v, list) and lo <= len(v) <= hi and all(_text(x) for x in v)


def _dice(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 3 and all(type(d) is int and 1 <= d <= 6 for d in v)


def _reduce(v: Any) -> bool:
    return (
        isinstance(v, dict)
        and set(v) <= {"heavy", "light"}
        and all(type(x) is int and 0 <= x <= 20 for x in v.values())
    )


def _option(v: Any) -> bool:
    return _text(v)


def _card_object(v: Any) -> bool:
    return isinstance(v, dict)


def _source(v: Any) -> bool:
    return v in ("camera", "referee", "override")


# type -> (required fields, optional fields)
SCHEMA: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "deal_skills": ({"player": _player, "cards": _names(3, 3)}, {}),
    "keep_skill": ({"player": _player, "card": _text}, {}),
    "place_skills": ({"player": _player, "face_up": _text}, {}),
    "first_player": ({"player": _player}, {}),
    "reveal": ({}, {"card": _text, "custom": _card_object}),
    "draft": ({"player": _player, "card": _text}, {}),
    "move": ({"player": _player, "to": _text}, {}),
    "attack": ({"player": _player, "card": _text}, {}),
    "combo": ({"player": _player}, {}),
    "special": ({"player": _player, "name": _text, "pay": _names(0, 6)}, {}),
    "dash": ({"player": _player, "pay": _text}, {}),
    "end_combo": ({"player": _player}, {}),
    "corridor": ({"player": _player, "to": _text}, {}),
    "block": ({"player": _player, "cards": _names(1, 2)}, {"reduce": _reduce, "cancel_effect": _bool}),
    "no_block": ({"player": _player}, {}),
    "react": ({"player": _player, "name": _text, "pay": _names(0, 6)}, {}),
    "no_reaction": ({"player": _player}, {}),
    "choose": ({"player": _player, "option": _option}, {}),
    "discard": ({"player": _player, "card": _text}, {}),
    "knockdown_test": ({"player": _player, "initiate": _bool}, {}),
    "tower": ({"player": _player, "passed": _bool, "source": _source}, {"confidence": lambda v: isinstance(v, (int, float)) and 0 <= v <= 1}),
    "dice": ({"player": _player, "dice": _dice}, {}),
    "resolve_manual": ({}, {"note": _note}),
    "adjust_wounds": ({"player": _player}, {"heavy": _int, "light": _int, "reason": _note}),
    "adjust_tokens": ({"token": _text, "delta": _int}, {"player": _player, "space": _text, "reason": _note}),
    "place_fighter": ({"player": _player, "space": _text}, {"reason": _note}),
    "discard_card": ({"player": _player, "card": _text}, {"reason": _note}),
}

# Referee corrections: never an action, allowed whenever the match is under way.
ADJUSTMENTS = frozenset({"adjust_wounds", "adjust_tokens", "place_fighter", "discard_card"})

FIELD_RULES = {
    "player": "0 or 1",
    "cards": "a list of card names",
    "dice": "three integers from 1 to 6",
    "reduce": 'an object {"heavy": h, "light": l} of small non-negative integers',
    "source": "'camera', 'referee' or 'override'",
    "pay": "a list of up to six card names",
}


def check_shape(event: Any) -> str:
    """Return the event's type, or raise IllegalAction naming the bad field and its value."""
    if not isinstance(event, dict):
        raise MalformedEvent(event, "Event format", "an event is a JSON object with a 'type'")
    etype = event.get("type")
    if not isinstance(etype, str) or etype not in SCHEMA:
        raise MalformedEvent(
            event, "Event format", f"unknown type {etype!r} in field 'type'; known types: {', '.join(sorted(SCHEMA))}"
        )
    required, optional = SCHEMA[etype]
    for key, check in required.items():
        if key not in event:
            raise MalformedEvent(event, "Event format", f"{etype!r} needs the field {key!r}")
        if not check(event[key]):
            rule = FIELD_RULES.get(key, "a non-empty string" if check is _text else "a valid value")
            raise MalformedEvent(event, "Event format", f"field {key!r} = {event[key]!r}: must be {rule}")
    for key, value in event.items():
        if key == "type" or key in required:
            continue
        if key not in optional:
            raise MalformedEvent(event, "Event format", f"{etype!r} has no field {key!r}")
        if not optional[key](value):
            rule = FIELD_RULES.get(key, "a valid value")
            raise MalformedEvent(event, "Event format", f"field {key!r} = {value!r}: must be {rule}")
    return etype
