"""A tiny stand-in for assistant.rules behind the service's Engine seam.

It follows the engine contract (apply/pop/events/snapshot/legal_actions/to_record)
with a toy game, so the service, web and store plumbing can be tested on their own:
players alternate `move`s on spaces 1-9; `ko` opens a Knockdown Test for the other
player; `tower`/`dice` resolve it (a fail ends the match).
"""

from __future__ import annotations

import json


class IllegalAction(ValueError):
    pass


class RecordError(ValueError):
    pass


KEYS = {
    "move": {"type", "player", "to"},
    "ko": {"type", "player"},
    "tower": {"type", "player", "passed", "source"},
    "dice": {"type", "player", "dice"},
}


class FakeMatch:
    def __init__(self, setup: dict):
        self.setup = setup
        self._events: list[dict] = []

    @property
    def events(self) -> tuple[dict, ...]:
        return tuple(self._events)

    def _state(self, events):
        state = {"status": "in_progress", "turn": 1, "active": 0, "positions": [3, 7], "pending": None,
                 "winner": None, "wounds": [0, 0]}
        for event in events:
            self._step(state, event)
        return state

    def _step(self, state, event):
        if not isinstance(event, dict) or event.get("type") not in KEYS:
            raise IllegalAction(f"unknown event {event!r}")
        if set(event) != KEYS[event["type"]]:
            raise IllegalAction(f"event {event!r} must have exactly the keys {sorted(KEYS[event['type']])}")
        if state["status"] != "in_progress":
            raise IllegalAction(f"illegal event {event!r}: the match is over")
        kind, player, pending = event["type"], event["player"], state["pending"]
        if kind in ("tower", "dice"):
            if not pending or pending["player"] != player:
                raise IllegalAction(f"illegal event {event!r}: no Knockdown Test is pending for player {player!r}")
            if (kind == "dice") != (pending["variant"] == "dice"):
                raise IllegalAction(f"illegal event {event!r}: this test uses the {pending['variant']} variant")
            passed = event["passed"] if kind == "tower" else sum(event["dice"]) >= pending["heavy"] + pending["light"]
            state["pending"] = None
            if not passed:
                state["status"], state["winner"] = "finished", 1 - player
            return
        if pending:
            raise IllegalAction(f"illegal event {event!r}: a Knockdown Test is pending")
        if player != state["active"]:
            raise IllegalAction(f"illegal event {event!r}: it is player {state['active']}'s turn")
        if kind == "move":
            if not isinstance(event["to"], int) or not 1 <= event["to"] <= 9:
                raise IllegalAction(f"illegal event {event!r}: Move: 'to' must be a space 1-9")
            state["positions"][player] = event["to"]
        else:
            state["wounds"][1 - player] += 1
            state["pending"] = {"kind": "knockdown_test", "player": 1 - player, "heavy": 1,
                                "light": state["wounds"][1 - player], "variant": self.setup.get("variant", "tower")}
        state["active"] = 1 - player
        state["turn"] += 1

    def apply(self, event: dict) -> None:
        self._state(self._events + [event])  # raises with nothing changed
        self._events.append(event)

    def pop(self) -> dict:
        return self._events.pop()

    def snapshot(self) -> dict:
        return {**self._state(self._events), "players": self.setup.get("players")}

    def legal_actions(self) -> list[dict]:
        state = self._state(self._events)
        if state["status"] != "in_progress":
            return []
        if state["pending"]:
            player = state["pending"]["player"]
            if state["pending"]["variant"] == "dice":
                return [{"type": "dice", "player": player, "dice": [6, 6, 6]}]
            return [{"type": "tower", "player": player, "passed": p, "source": "referee"} for p in (True, False)]
        player = state["active"]
        return [{"type": "move", "player": player, "to": n} for n in range(1, 10)] + [{"type": "ko", "player": player}]

    def to_record(self) -> str:
        header = {"format": "knockdown-match", "version": 1, "setup": self.setup}
        return "".join(json.dumps(line) + "\n" for line in [header, *self._events])

    @classmethod
    def from_record(cls, text: str) -> "FakeMatch":
        lines = text.splitlines()
        try:
            header = json.loads(lines[0])
        except (IndexError, ValueError):
            raise RecordError("line 1: not a knockdown-match record") from None
        if header.get("format") != "knockdown-match":
            raise RecordError("line 1: not a knockdown-match record")
        match = cls(header["setup"])
        for number, line in enumerate(lines[1:], start=2):
            try:
                match.apply(json.loads(line))
            except (ValueError, IllegalAction) as error:
                raise RecordError(f"line {number}: {error}") from None
        return match


class FakeEngine:
    """The service's Engine seam over FakeMatch."""

    IllegalAction = IllegalAction
    RecordError = RecordError

    def new_match(self, options: dict):
        setup = {"players": options.get("players", ["Player 1", "Player 2"]),
                 "variant": options.get("variant", "tower")}
        return {"format": "knockdown-match", "version": 1, "setup": setup}, FakeMatch(setup)

    def replay(self, header: dict, events: list[dict]):
        match = FakeMatch(header["setup"])
        for event in events:
            match.apply(event)
        return match

    def from_record(self, text: str):
        match = FakeMatch.from_record(text)
        return json.loads(text.splitlines()[0]), match
