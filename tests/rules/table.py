"""A scripted table for rules tests: builds set-ups and plays the set-up phase quickly.

Most tests use a *custom deck*, so each test reveals exactly the cards it needs with their
printed values (``card(...)``), the way a referee enters a box with no catalog.
"""

from __future__ import annotations

from typing import Any

from assistant.boxes import load_layout, new_setup
from assistant.rules import Deck, Fighter, Match, Setup, SkillCard

SKILLS = tuple(SkillCard(name=f"Skill {i}", initiative=i) for i in range(1, 13))
PLAIN = Fighter(name="Plain A")
PLAIN_B = Fighter(name="Plain B")


def card(name: str, *, heavy: int = 0, light: int = 0, ko: bool = False, range: str = "",
         type: str = "strike", symbols: tuple[str, ...] = (), effect: list | None = None,
         on_take: list | None = None) -> dict[str, Any]:
    return {"name": name, "heavy": heavy, "light": light, "ko": ko, "range": range, "type": type,
            "symbols": list(symbols), "effect": effect or [], "on_take": on_take or []}


def filler(i: int, symbols: tuple[str, ...] = ()) -> dict[str, Any]:
    """A harmless out-of-the-way card: no wounds, range 9 (never in range on line-9 from start)."""
    return card(f"Filler {i}", range="8", symbols=symbols)


def custom_setup(*, fighters: tuple[Fighter, Fighter] = (PLAIN, PLAIN_B), deck: int = 40, arena: str = "line-9",
                 variant: str = "tower", candles: int = 0, tokens: dict | None = None) -> Setup:
    return Setup(fighters=fighters, arena=load_layout(arena), deck=Deck(custom=deck), skills=SKILLS,
                 variant=variant, candles=candles, tokens=tokens or {})


def practice_setup(**kw: Any) -> Setup:
    return new_setup(["practice"], fighters=kw.pop("fighters", ["Brawler", "Duelist"]), **kw)


def skill_draft(m: Match, *, first: int = 0) -> None:
    """Deal and keep skills so that player ``first`` has the higher face-up initiative."""
    hi, lo = (0, 1) if first == 0 else (1, 0)
    m.apply({"type": "deal_skills", "player": hi, "cards": ["Skill 12", "Skill 1", "Skill 2"]})
    m.apply({"type": "deal_skills", "player": lo, "cards": ["Skill 3", "Skill 4", "Skill 5"]})
    m.apply({"type": "keep_skill", "player": hi, "card": "Skill 12"})
    m.apply({"type": "keep_skill", "player": lo, "card": "Skill 3"})
    m.apply({"type": "keep_skill", "player": hi, "card": "Skill 4"})
    m.apply({"type": "keep_skill", "player": lo, "card": "Skill 1"})
    m.apply({"type": "place_skills", "player": hi, "face_up": "Skill 12"})
    m.apply({"type": "place_skills", "player": lo, "face_up": "Skill 3"})


def reveal(m: Match, c: dict[str, Any] | str) -> None:
    m.apply({"type": "reveal", "card": c} if isinstance(c, str) else {"type": "reveal", "custom": c})


def ready(m: Match, *, hands: tuple[list, list] = ((), ()), row: list | None = None, first: int = 0) -> Match:
    """Play the set-up: skill draft, opening draft giving each player two cards, then the Row.

    ``hands`` are the two cards each player should hold after the opening draft (custom card
    dicts); ``row`` the four cards of the refilled Row (fillers by default).
    """
    skill_draft(m, first=first)
    h_first = list(hands[first]) or [filler(100 + first), filler(102 + first)]
    h_second = list(hands[1 - first]) or [filler(110 + first), filler(112 + first)]
    opening = [h_first[0], h_second[0], h_second[1], h_first[1]]
    for c in opening:
        reveal(m, c)
    order = [first, 1 - first, 1 - first, first]
    for who, c in zip(order, opening):
        m.apply({"type": "draft", "player": who, "card": c["name"]})
    for c in row or [filler(i) for i in range(4)]:
        reveal(m, c)
    assert m.state.phase == "playing", m.state.phase
    return m


def act(m: Match, **event: Any) -> None:
    m.apply(event)


def pending(m: Match) -> dict[str, Any] | None:
    return m.snapshot()["pending"]
