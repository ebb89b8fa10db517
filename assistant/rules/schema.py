"""The data the rules run on: Attack cards, Skill cards, fighter sheets and arena layouts.

These are frozen pydantic models: they validate what a catalog file or a match record
says (errors name the item and the field) and are then read-only for the engine.
Effects are data too (see :mod:`assistant.rules.effects`): an effect the engine cannot
automate is a ``manual`` effect whose text the referee carries out.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from assistant.rules.errors import InvalidData

# Symbols printed on Attack cards and in Special Attack costs. "wild" on a card pays for any
# cost symbol; "wild" in a cost can be paid by any symbol. Boxes may print more symbols.
SYMBOL_PATTERN = r"^[a-z][a-z_]*$"
TOKEN_PATTERN = r"^[A-Z][A-Za-z]*$"


class AttackType(StrEnum):
    STRIKE = "strike"
    ABILITY = "ability"
    REACTION = "reaction"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Range(_Frozen):
    """Range rules (Additional Rules: Range Types).

    ``any``: no range type, unlimited. ``fixed``: exactly ``low`` spaces. ``span``: ``low`` to
    ``high`` spaces. ``projectile``: unlimited, but along an unbroken straight line of spaces
    from the attacker's space.
    """

    kind: Literal["any", "fixed", "span", "projectile"] = "any"
    low: int = 0
    high: int = 0

    @classmethod
    def parse(cls, text: str | None) -> "Range":
        spec = (text or "").strip().lower()
        if spec in ("", "any", "unlimited"):
            return cls(kind="any")
        if spec == "projectile":
            return cls(kind="projectile")
        if m := re.fullmatch(r"(\d+)", spec):
            n = int(m.group(1))
            return cls(kind="fixed", low=n, high=n)
        if m := re.fullmatch(r"(\d+)\s*-\s*(\d+)", spec):
            low, high = int(m.group(1)), int(m.group(2))
            if low > high:
                raise ValueError(f"range {text!r}: the low end is above the high end")
            return cls(kind="span", low=low, high=high)
        raise ValueError(f"range {text!r}: expected '', 'N', 'X-Y' or 'projectile'")

    def __str__(self) -> str:
        if self.kind == "any":
            return ""
        if self.kind == "projectile":
            return "projectile"
        if self.kind == "fixed":
            return str(self.low)
        return f"{self.low}-{self.high}"


def _coerce_range(value: Any) -> Any:
    if value is None or isinstance(value, str) or isinstance(value, int):
        return Range.parse(None if value is None else str(value))
    return value


RangeField = Annotated[Range, Field(default_factory=Range)]


class Effect(_Frozen):
    """One structured effect step, or a manual one. See :mod:`assistant.rules.effects` for ops."""

    op: str
    target: Literal["opponent", "self"] = "opponent"
    heavy: int = Field(0, ge=0, le=20)
    light: int = Field(0, ge=0, le=20)
    n: int = Field(1, ge=0, le=20)
    range: RangeField
    token: str = ""
    symbol: str = ""
    optional: bool = False
    then: tuple["Effect", ...] = ()
    text: str = ""

    _range_in = field_validator("range", mode="before")(_coerce_range)

    @model_validator(mode="after")
    def _known_op(self) -> "Effect":
        from assistant.rules.effects import EFFECT_OPS

        if self.op not in EFFECT_OPS:
            raise ValueError(f"unknown effect op {self.op!r}; known: {', '.join(sorted(EFFECT_OPS))}")
        if self.op == "manual" and not self.text:
            raise ValueError("a manual effect needs its card text in 'text'")
        return self


class AttackCard(_Frozen):
    """An Attack card (Card Anatomy: Attack Card)."""

    name: str = Field(min_length=1, max_length=60)
    heavy: int = Field(0, ge=0, le=20)
    light: int = Field(0, ge=0, le=20)
    ko: bool = False
    range: RangeField
    type: AttackType = AttackType.STRIKE
    symbols: tuple[Annotated[str, Field(pattern=SYMBOL_PATTERN)], ...] = ()
    effect: tuple[Effect, ...] = ()
    on_take: tuple[Effect, ...] = ()
    text: str = ""
    candle: bool = False
    copies: int = Field(1, ge=1, le=40)

    _range_in = field_validator("range", mode="before")(_coerce_range)

    @field_validator("symbols")
    @classmethod
    def _at_most_two(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if len(value) > 2:
            raise ValueError(f"{list(value)!r}: a card carries at most two symbols")
        return value


class SkillCard(_Frozen):
    """A Skill card: its effect is shown to the referee; initiative decides the first player."""

    name: str = Field(min_length=1, max_length=60)
    initiative: int = Field(ge=0, le=99)
    text: str = ""


class CostItem(_Frozen):
    """One symbol of a Special Attack cost. Two or more ``any_of`` = an alternative payment."""

    any_of: tuple[Annotated[str, Field(pattern=SYMBOL_PATTERN)], ...] = Field(min_length=1)


def _coerce_cost(value: Any) -> Any:
    # "block" or "block|dash" (Siege Storm alternative payment) in data files.
    if isinstance(value, (list, tuple)):
        return tuple(CostItem(any_of=tuple(v.split("|"))) if isinstance(v, str) else v for v in value)
    return value


class SpecialAttack(_Frozen):
    """A Special Attack on a fighter sheet. Reactions say what triggers them."""

    name: str = Field(min_length=1, max_length=60)
    type: AttackType = AttackType.STRIKE
    range: RangeField
    cost: tuple[CostItem, ...] = ()
    heavy: int = Field(0, ge=0, le=20)
    light: int = Field(0, ge=0, le=20)
    ko: bool = False
    effect: tuple[Effect, ...] = ()
    trigger: Literal["", "opponent_moves", "attacked"] = ""
    text: str = ""

    _range_in = field_validator("range", mode="before")(_coerce_range)
    _cost_in = field_validator("cost", mode="before")(_coerce_cost)

    @model_validator(mode="after")
    def _reaction_has_trigger(self) -> "SpecialAttack":
        if (self.type is AttackType.REACTION) != bool(self.trigger):
            raise ValueError("a Reaction needs a trigger (opponent_moves or attacked), and only a Reaction has one")
        return self


class Fighter(_Frozen):
    """A fighter sheet."""

    name: str = Field(min_length=1, max_length=60)
    fighter_class: str = Field("", alias="class")
    box: str = ""
    ko_effect: str = ""
    specials: tuple[SpecialAttack, ...] = ()
    tokens: dict[Annotated[str, Field(pattern=TOKEN_PATTERN)], int] = Field(default_factory=dict)
    practice: bool = False

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @model_validator(mode="after")
    def _unique_specials(self) -> "Fighter":
        names = [s.name for s in self.specials]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"Special Attack names must be unique; repeated: {dupes!r}")
        return self

    def special(self, name: str) -> SpecialAttack | None:
        for s in self.specials:
            if s.name == name:
                return s
        return None


class Space(_Frozen):
    id: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    grid: tuple[int, int]
    board_mm: tuple[float, float] = (0.0, 0.0)
    marks: tuple[str, ...] = ()
    adjacent: tuple[str, ...] | None = None
    # Nemesis Technical Corridors: the wound suffered on arriving here through a corridor.
    corridor_wound: Literal["", "heavy", "light"] = ""


class Marker(_Frozen):
    id: int = Field(ge=0, le=49)
    board_mm: tuple[float, float]
    size_mm: float = Field(gt=0)


KNOWN_MARKS = {"corridor", "dangerous_edge", "candle_slot"}


class ArenaLayout(_Frozen):
    """An arena: a side-view grid of spaces (a row in every known box)."""

    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    name: str = ""
    box: str = ""
    board_mm: tuple[float, float] = (440.0, 160.0)
    space_mm: float = 36.0
    spaces: tuple[Space, ...] = Field(min_length=2)
    starting: tuple[str, str]
    edges: tuple[str, ...] = ()
    centre: str = ""
    markers: tuple[Marker, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> "ArenaLayout":
        ids = [s.id for s in self.spaces]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"space ids must be unique; repeated: {dupes!r}")
        cells = [s.grid for s in self.spaces]
        if len(set(cells)) != len(cells):
            raise ValueError("two spaces share one grid cell")
        known = set(ids)
        for field_name, values in (("starting", self.starting), ("edges", self.edges)):
            for v in values:
                if v not in known:
                    raise ValueError(f"{field_name}: {v!r} is not a space of this arena")
        if self.starting[0] == self.starting[1]:
            raise ValueError(f"starting: the two starting spaces must differ, got {list(self.starting)!r}")
        if self.centre and self.centre not in known:
            raise ValueError(f"centre: {self.centre!r} is not a space of this arena")
        for s in self.spaces:
            for mark in s.marks:
                if mark not in KNOWN_MARKS:
                    raise ValueError(f"space {s.id}: unknown mark {mark!r}; known: {sorted(KNOWN_MARKS)!r}")
            for a in s.adjacent or ():
                if a not in known:
                    raise ValueError(f"space {s.id}: adjacent {a!r} is not a space of this arena")
        marker_ids = [m.id for m in self.markers]
        if len(set(marker_ids)) != len(marker_ids):
            raise ValueError("marker ids must be unique")
        # Connected: every space reachable from the first.
        seen = {ids[0]}
        todo = [ids[0]]
        neighbours = self.neighbours
        while todo:
            for n in neighbours[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        if seen != known:
            raise ValueError(f"the arena is not connected: {sorted(known - seen)!r} cannot be reached")
        return self

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        by_cell = {s.grid: s.id for s in self.spaces}
        out: dict[str, set[str]] = {s.id: set() for s in self.spaces}
        for s in self.spaces:
            if s.adjacent is not None:
                adj = set(s.adjacent)
            else:
                col, row = s.grid
                adj = {by_cell[c] for c in ((col - 1, row), (col + 1, row)) if c in by_cell}
            for a in adj:
                out[s.id].add(a)
                out[a].add(s.id)  # adjacency is symmetric
        return {k: tuple(sorted(v, key=self.index.__getitem__)) for k, v in out.items()}

    @cached_property
    def index(self) -> dict[str, int]:
        return {s.id: i for i, s in enumerate(self.spaces)}

    @cached_property
    def by_id(self) -> dict[str, Space]:
        return {s.id: s for s in self.spaces}

    @cached_property
    def distances(self) -> dict[str, dict[str, int]]:
        """All-pairs walking distance in spaces (BFS over adjacency)."""
        out: dict[str, dict[str, int]] = {}
        for start in self.index:
            dist = {start: 0}
            frontier = [start]
            while frontier:
                nxt = []
                for sp in frontier:
                    for n in self.neighbours[sp]:
                        if n not in dist:
                            dist[n] = dist[sp] + 1
                            nxt.append(n)
                frontier = nxt
            out[start] = dist
        return out

    def has_mark(self, space: str, mark: str) -> bool:
        return mark in self.by_id[space].marks

    def spaces_with(self, mark: str) -> list[str]:
        return [s.id for s in self.spaces if mark in s.marks]

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_defaults=False)


def describe_validation_error(source: str, item: str, err: ValidationError) -> str:
    """One readable line per problem: source, item, field, the value and what is wrong."""
    lines = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "(item)"
        value = e.get("input")
        lines.append(f"{source}: {item}: field {loc!r} = {value!r}: {e['msg']}")
    return "\n".join(lines)


def parse_model(model: type[BaseModel], data: Any, *, source: str, item: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise InvalidData(describe_validation_error(source, item, err)) from None


Effect.model_rebuild()
