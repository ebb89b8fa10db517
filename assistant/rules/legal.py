"""``Match.legal_actions()``: the decision events legal now, as complete event dicts.

Physical randomness is not a decision: skill deals are listed by ``Match.reveal_options()``,
and Attack card reveals are listed here one per distinct card name still in the deck.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from assistant.rules.schema import AttackType

if TYPE_CHECKING:  # pragma: no cover
    from assistant.rules.match import Match

# One canonical roll per possible sum: the dice variant only cares about the sum.
_DICE_BY_SUM = {}
for _roll in itertools.product(range(1, 7), repeat=3):
    _DICE_BY_SUM.setdefault(sum(_roll), sorted(_roll))


def legal_actions(m: "Match") -> list[dict[str, Any]]:
    """Every decision event legal now, as complete events (``Match.legal_actions()``)."""
    s = m._state
    m._s = s
    if s.phase == "finished":
        return []
    if s.phase == "skill_draft":
        return _skill_draft(m)
    if s.pending is not None:
        return _answers(m, s.pending)
    p = s.active
    out: list[dict[str, Any]] = []
    if s.combo is not None:
        if s.combo["dash_moves"] > 0:
            out += _moves(m, p)
        fighter = m.setup.fighters[p]
        for sp in fighter.specials:
            if sp.type is AttackType.REACTION or sp.name in s.combo["used"] or not m._in_range(sp.range, p):
                continue
            out += [{"type": "special", "player": p, "name": sp.name, "pay": pay} for pay in m._payments(p, sp.cost)]
        dash_cards = sorted({c for c in s.players[p].hand if "dash" in m._symbols(c)})
        out += [{"type": "dash", "player": p, "pay": c} for c in dash_cards]
        if s.combo["steps"]:
            out.append({"type": "end_combo", "player": p})
        return out
    here = s.players[p].space
    out += _moves(m, p)
    out += [{"type": "attack", "player": p, "card": c} for c in dict.fromkeys(s.row)]  # each name once
    if m._combo_options(p, used=()):
        out.append({"type": "combo", "player": p})
    if here in m._corridors:
        out += [{"type": "corridor", "player": p, "to": sp} for sp in m._corridors if sp != here and m._free(sp)]
    return out


def _moves(m: "Match", p: int) -> list[dict[str, Any]]:
    players = m._s.players
    other = players[1 - p].space  # the only fighter that can be in the way
    return [{"type": "move", "player": p, "to": n} for n in m.setup.arena.neighbours[players[p].space] if n != other]


def _skill_draft(m: "Match") -> list[dict[str, Any]]:
    s = m._s
    out: list[dict[str, Any]] = []
    for p, me in enumerate(s.players):
        other = s.players[1 - p]
        if not me.dealt or me.placed:
            continue
        if not me.kept:
            out += [{"type": "keep_skill", "player": p, "card": c} for c in me.dealt]
        elif len(me.kept) == 1 and other.kept:
            out += [{"type": "keep_skill", "player": p, "card": c} for c in other.dealt if c != other.kept[0]]
        elif len(me.kept) == 2:
            out += [{"type": "place_skills", "player": p, "face_up": c} for c in me.kept]
    return out


def _answers(m: "Match", pend: dict[str, Any]) -> list[dict[str, Any]]:
    s = m._s
    kind = pend["kind"]
    p = pend.get("player")
    if kind == "first_player":
        return [{"type": "first_player", "player": i} for i in (0, 1)]
    if kind == "reveal":
        names = sorted(n for n, k in s.deck.items() if k > 0 and n in m._catalog)
        if s.deck.get("?", 0) > 0:
            names += sorted(s.custom_cards)
        return [{"type": "reveal", "card": n} for n in names]
    if kind == "draft":
        return [{"type": "draft", "player": p, "card": c} for c in sorted(set(s.row))]
    if kind == "block":
        return _blocks(m, pend)
    if kind == "reaction":
        out = [{"type": "no_reaction", "player": p}]
        for name in pend["options"]:
            sp = m.setup.fighters[p].special(name)
            out += [{"type": "react", "player": p, "name": name, "pay": pay} for pay in m._payments(p, sp.cost)]
        return out
    if kind == "choice":
        return [{"type": "choose", "player": p, "option": o} for o in pend["options"]]
    if kind == "manual":
        return [{"type": "resolve_manual"}]
    if kind == "discard":
        return [{"type": "discard", "player": p, "card": c} for c in sorted(set(s.players[p].hand))]
    if kind == "knockdown_offer":
        return [{"type": "knockdown_test", "player": p, "initiate": flag} for flag in (True, False)]
    if kind == "knockdown_test":
        if pend["variant"] == "tower":
            return [{"type": "tower", "player": p, "passed": flag, "source": "referee"} for flag in (True, False)]
        return [{"type": "dice", "player": p, "dice": roll} for roll in _DICE_BY_SUM.values()]
    raise AssertionError(f"unknown pending kind {kind!r}")  # pragma: no cover


def _blocks(m: "Match", pend: dict[str, Any]) -> list[dict[str, Any]]:
    s = m._s
    p = pend["player"]
    hand = s.players[p].hand
    out: list[dict[str, Any]] = [{"type": "no_block", "player": p}]
    block_cards = sorted(set(m._block_cards(p)))
    choices: list[list[str]] = [[c] for c in block_cards]
    choices += [list(pair) for pair in sorted(set(itertools.combinations(sorted(m._block_cards(p)), 2)))]
    for cards in choices:
        left = len(hand) - len(cards)
        reductions = [
            (h, li)
            for h in range(min(pend["heavy"], left // 2) + 1)
            for li in range(min(pend["light"], left - 2 * h) + 1)
        ]
        if len(cards) == 1:
            out.append({"type": "block", "player": p, "cards": cards, "cancel_effect": True})
            out += [
                {"type": "block", "player": p, "cards": cards, "reduce": {"heavy": h, "light": li}}
                for h, li in reductions if h or li
            ]
        else:
            out += [
                {"type": "block", "player": p, "cards": cards, "reduce": {"heavy": h, "light": li},
                 "cancel_effect": True}
                for h, li in reductions
            ]
    return out

