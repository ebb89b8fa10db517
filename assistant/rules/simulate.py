"""Random legal playouts: the engine's fuzzer and benchmark.

The simulator stands in for the table: it shuffles with a seeded ``random.Random`` and turns
each card that comes up into a ``reveal`` event, exactly as a referee would record it, so the
engine itself never draws from a hidden shuffle. Pure: the caller passes the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from assistant.rules.invariants import violations
from assistant.rules.match import CUSTOM, Match
from assistant.rules.setup import Setup

MAX_EVENTS = 20_000  # a guard against a livelock bug; real matches take a few hundred events


@dataclass
class PlayoutResult:
    seed: int
    events: int
    finished: bool
    winner: int | None
    rounds: int
    violations: list[str] = field(default_factory=list)


def table_event(m: Match, rng: random.Random) -> dict[str, Any] | None:
    """The next physical happening the table would report (a deal, a reveal, a test result), if any."""
    s = m._state
    if s.phase == "skill_draft":
        opts = m.reveal_options()
        if opts is None:
            return None
        return {"type": "deal_skills", "player": opts["player"], "cards": rng.sample(opts["cards"], 3)}
    pend = s.pending
    if pend is None:
        return None
    if pend["kind"] == "reveal":
        if s.deck.get(CUSTOM, 0) > 0:  # a custom deck: the table enters each card by its printed values
            return None
        return {"type": "reveal", "card": _draw(s.deck, rng)}
    if pend["kind"] == "knockdown_test":
        if pend["variant"] == "dice":
            return {"type": "dice", "player": pend["player"], "dice": [rng.randint(1, 6) for _ in range(3)]}
        return {"type": "tower", "player": pend["player"], "passed": rng.random() < 0.6, "source": "referee"}
    return None


def _draw(deck: dict[str, int], rng: random.Random) -> str:
    """A uniformly random card of the deck (one per copy), without listing every copy."""
    r = int(rng.random() * sum(deck.values()))
    for name, copies in deck.items():  # the deck's own order: deterministic, like every event
        if r < copies:
            return name
        r -= copies
    raise AssertionError("unreachable: r < the number of cards")  # pragma: no cover


def play_random(setup: Setup, seed: int, *, check: bool = True,
                on_event: Callable[[Match, dict[str, Any]], None] | None = None) -> tuple[Match, PlayoutResult]:
    rng = random.Random(seed)
    m = Match(setup)
    problems: list[str] = []
    events = m._events  # the match's own list, read (not changed) to save a property call a turn
    while m._state.phase != "finished" and len(events) < MAX_EVENTS:
        event = table_event(m, rng)
        if event is None:
            actions = m.legal_actions()
            if not actions:
                problems.append(f"event {m.event_count}: no legal action and no table event (phase {m.state.phase})")
                break
            event = actions[int(rng.random() * len(actions))]  # uniform; one C call, not choice()'s three
        if check:
            before = m.state
            m.apply(event)  # the checked path, the one the service uses
        else:
            m.apply_unchecked(event)
        if on_event is not None:
            on_event(m, event)
        if check:
            found = violations(m, before, event)
            if found:
                problems += [f"event {m.event_count} {event!r}: {v}" for v in found]
                break
    if not m.is_over and not problems:
        problems.append(f"the match did not finish within {MAX_EVENTS} events")
    s = m.state
    return m, PlayoutResult(seed=seed, events=m.event_count, finished=m.is_over, winner=s.winner,
                            rounds=len(s.rounds), violations=problems)
