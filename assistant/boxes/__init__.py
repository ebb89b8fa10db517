"""Box data: card catalogs, fighter sheets, skill cards and arena layouts, read from TOML.

Each box is a folder under ``assistant/boxes/data/<box>/`` (``box.toml``, ``cards.toml``,
``skills.toml``, ``fighters.toml``); arena layouts live in ``data/arenas/<id>.toml``.
Users add their own box's real cards in the same format (docs/catalog-format.md), or point
``KNOCKDOWN_BOXES`` at extra folders. Errors name the file, the item and the field.

This module reads files; the rules it feeds (:mod:`assistant.rules`) stay pure.
"""

from __future__ import annotations

import os
import random
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from pydantic import Field

from assistant.rules import ArenaLayout, AttackCard, Deck, Fighter, InvalidData, Setup, SkillCard
from assistant.rules.schema import _Frozen, parse_model

DATA_DIR = Path(__file__).with_name("data")
ARENA_DIR = DATA_DIR / "arenas"

# Short names players type for the randomizer (`--boxes tg,nemesis,siege`).
ALIASES = {"tg": "tainted-grail", "grail": "tainted-grail", "siege": "siege-storm", "ss": "siege-storm"}


class BoxError(ValueError):
    """A box, fighter, arena or combination the product cannot set up; the message says why."""


class BoxInfo(_Frozen):
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    practice: bool = False
    arenas: tuple[str, ...] = Field(min_length=1)
    candles: int = Field(0, ge=0, le=10)
    tokens: dict[str, int] = Field(default_factory=dict)
    notes: str = ""


@dataclass(frozen=True)
class Box:
    info: BoxInfo
    cards: tuple[AttackCard, ...]
    skills: tuple[SkillCard, ...]
    fighters: tuple[Fighter, ...]
    folder: Path = field(compare=False)

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def deck_size(self) -> int:
        return sum(c.copies for c in self.cards)

    def fighter(self, name: str) -> Fighter:
        for f in self.fighters:
            if f.name.lower() == name.lower():
                return f
        raise BoxError(f"box {self.id!r} has no fighter {name!r}; fighters: {[f.name for f in self.fighters]!r}")


def box_dirs() -> list[Path]:
    """Folders holding box folders: the packaged data plus any in KNOCKDOWN_BOXES (os.pathsep-separated)."""
    extra = [Path(p) for p in os.environ.get("KNOCKDOWN_BOXES", "").split(os.pathsep) if p]
    return extra + [DATA_DIR]


def list_boxes() -> list[str]:
    found: list[str] = []
    for d in box_dirs():
        if d.is_dir():
            found += [p.name for p in sorted(d.iterdir()) if (p / "box.toml").is_file() and p.name not in found]
    return found


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise BoxError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as err:
        raise InvalidData(f"{path}: not valid TOML: {err}") from None


def _items(path: Path, key: str, model: type, label: str) -> tuple[Any, ...]:
    data = _read_toml(path)
    unknown = set(data) - {key, "practice"}
    if unknown:
        raise InvalidData(f"{path}: unknown top-level keys {sorted(unknown)!r}; expected [[{key}]]")
    out = []
    for i, raw in enumerate(data.get(key, []), start=1):
        name = raw.get("name", f"#{i}") if isinstance(raw, dict) else f"#{i}"
        out.append(parse_model(model, raw, source=str(path), item=f"{label} {name!r}"))
    return tuple(out)


def resolve_box_id(box_id: str) -> str:
    return ALIASES.get(box_id.lower(), box_id.lower())


@lru_cache(maxsize=32)
def load_box(box_id: str) -> Box:
    box_id = resolve_box_id(box_id)
    for d in box_dirs():
        folder = d / box_id
        if (folder / "box.toml").is_file():
            break
    else:
        raise BoxError(f"unknown box {box_id!r}; known boxes: {list_boxes()!r}")
    info = parse_model(BoxInfo, _read_toml(folder / "box.toml"), source=str(folder / "box.toml"), item="box")
    cards = _items(folder / "cards.toml", "cards", AttackCard, "card")
    skills = _items(folder / "skills.toml", "skills", SkillCard, "skill")
    fighters = tuple(
        f.model_copy(update={"box": info.id}) for f in _items(folder / "fighters.toml", "fighters", Fighter, "fighter")
    )
    box = Box(info=info, cards=cards, skills=skills, fighters=fighters, folder=folder)
    try:  # the deck must be playable: validate it as a Setup would
        Deck(cards=cards)
    except ValueError as err:
        raise InvalidData(f"{folder / 'cards.toml'}: {err}") from None
    for a in info.arenas:
        load_layout(a)
    return box


@lru_cache(maxsize=64)
def load_layout(layout: str) -> ArenaLayout:
    """An arena layout by id (``line-9``) or by the path of a TOML file."""
    path = Path(layout)
    if not (path.suffix == ".toml" and path.is_file()):
        path = ARENA_DIR / f"{layout}.toml"
        if not path.is_file():
            known = sorted(p.stem for p in ARENA_DIR.glob("*.toml"))
            raise BoxError(f"unknown arena layout {layout!r}; known layouts: {known!r} (or a path to a .toml file)")
    return parse_model(ArenaLayout, _read_toml(path), source=str(path), item="arena layout")


def new_setup(
    boxes: Sequence[str] = ("practice",),
    *,
    fighters: Sequence[str] | None = None,
    players: Sequence[str] = ("Player 1", "Player 2"),
    variant: str = "tower",
    arena: str | None = None,
    arena_box: str | None = None,
    skills_box: str | None = None,
    seed: int | None = None,
) -> Setup:
    """Build a validated Setup from box data.

    With several boxes, unspecified choices are made like the Randomizer tokens (Merging
    Knockdown Boxes): fighters, a skill set and an arena drawn from all the boxes, using a
    seeded shuffle. The arena always brings its own box's Attack deck and setup (Candle
    cards with the Tainted Grail arena, and so on).
    """
    _check_names("boxes", boxes)
    _check_names("players", players, count=2)
    if fighters is not None:
        _check_names("fighters", fighters)
    for option, value in (("variant", variant), ("arena", arena), ("arena_box", arena_box), ("skills_box", skills_box)):
        if value is not None and not isinstance(value, str):
            raise BoxError(f"{option!r} = {value!r}: must be a name (a string)")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise BoxError(f"'seed' = {seed!r}: must be an integer")
    ids = [resolve_box_id(b) for b in boxes]
    if not ids:
        raise BoxError("choose at least one box")
    loaded = [load_box(b) for b in ids]
    rng = random.Random(seed)
    by_id = {b.id: b for b in loaded}

    if arena_box is not None:
        arena_box = resolve_box_id(arena_box)
        if arena_box not in by_id:
            raise BoxError(f"arena box {arena_box!r} is not among the chosen boxes {ids!r}")
    if arena is not None and arena_box is None:
        owners = [b.id for b in loaded if arena in b.info.arenas]
        arena_box = owners[0] if owners else None
        if arena_box is None and Path(arena).suffix != ".toml":
            raise BoxError(f"arena {arena!r} belongs to none of the chosen boxes {ids!r}")
    if arena_box is None:
        arena_box = rng.choice(ids) if len(ids) > 1 else ids[0]
    home = by_id.get(arena_box) or loaded[0]
    layout = load_layout(arena or (rng.choice(home.info.arenas) if len(home.info.arenas) > 1 else home.info.arenas[0]))
    if layout.box and layout.box != home.id:
        raise BoxError(
            f"Merging Knockdown Boxes: the {layout.name or layout.id} arena must be played with its own box "
            f"({layout.box!r}) Attack deck and setup, not {home.id!r}'s"
        )

    pool = [f for b in loaded for f in b.fighters]
    if fighters:
        if len(fighters) != 2:
            raise BoxError(f"choose two fighters, got {list(fighters)!r}")
        chosen = [_find_fighter(pool, name, ids) for name in fighters]
    else:
        chosen = rng.sample(pool, 2)

    skill_home = by_id[resolve_box_id(skills_box)] if skills_box else (rng.choice(loaded) if len(loaded) > 1 else home)
    tokens: dict[str, int] = {}
    for b in loaded:
        for k, v in b.info.tokens.items():
            tokens[k] = max(tokens.get(k, 0), v)
    try:
        return Setup(
            boxes=tuple(ids),
            arena_box=home.id,
            players=tuple(players),
            fighters=tuple(chosen),
            arena=layout,
            deck=Deck(cards=home.cards),
            candles=home.info.candles,
            skills=skill_home.skills,
            variant=variant,
            tokens=tokens,
        )
    except ValueError as err:
        raise BoxError(str(err)) from None


def _check_names(option: str, value: Any, *, count: int | None = None) -> None:
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise BoxError(f"{option!r} = {value!r}: must be a list of names (strings)")
    if count is not None and len(value) != count:
        raise BoxError(f"{option!r} = {list(value)!r}: give {count} names")


def _find_fighter(pool: Iterable[Fighter], name: str, ids: list[str]) -> Fighter:
    for f in pool:
        if f.name.lower() == name.lower():
            return f
    raise BoxError(f"no fighter {name!r} in boxes {ids!r}; fighters: {[f.name for f in pool]!r}")
