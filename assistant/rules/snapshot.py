"""``Match.snapshot()``: the match state as a JSON object (schema documented in docs/state-schema.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.rules.schema import AttackCard, Effect

if TYPE_CHECKING:  # pragma: no cover
    from assistant.rules.match import Match

STATE_SCHEMA_VERSION = 1


def effect_text(effects: tuple[Effect, ...]) -> str:
    parts = []
    for e in effects:
        if e.op == "manual":
            parts.append(e.text)
        else:
            parts.append(e.text or e.op.replace("_", " "))
    return "; ".join(parts)


def card_json(card: AttackCard) -> dict[str, Any]:
    return {
        "name": card.name,
        "heavy": card.heavy,
        "light": card.light,
        "ko": card.ko,
        "range": str(card.range),
        "type": card.type.value,
        "symbols": list(card.symbols),
        "text": card.text or effect_text(card.effect),
        "manual": any(e.op == "manual" for e in card.effect + card.on_take),
    }


def snapshot(m: "Match") -> dict[str, Any]:
    s = m.state
    setup = m.setup
    players = []
    for i, p in enumerate(s.players):
        fighter = setup.fighters[i]
        players.append({
            "name": setup.players[i],
            "fighter": fighter.name,
            "class": fighter.fighter_class,
            "space": p.space,
            "wounds": {"heavy": p.heavy, "light": p.light},
            "hand": list(p.hand),
            "hand_size": len(p.hand),
            "victory_tokens": p.victories,
            "skills": {
                "face_up": [{"name": n, "initiative": m._skills[n].initiative, "text": m._skills[n].text}
                            for n in p.face_up],
                "face_down": p.face_down,
                "kept": list(p.kept),
                "dealt": list(p.dealt),
            },
            "tokens": dict(sorted(p.tokens.items())),
        })
    resolving = None
    if s.ctx is not None:
        resolving = {k: s.ctx[k] for k in ("kind", "stage", "name", "attacker", "player", "to") if k in s.ctx}
    pending = None if s.pending is None else {k: (list(v) if isinstance(v, (list, tuple)) else v)
                                               for k, v in s.pending.items()}
    return {
        "schema": STATE_SCHEMA_VERSION,
        "phase": s.phase,
        "round": s.round,
        "turn": s.turn,
        "active": s.active,
        "first": s.first,
        "actions_left": max(0, 2 - s.actions_taken) if s.phase == "playing" else 0,
        "combo": None if s.combo is None else {
            "used": list(s.combo["used"]), "dash_moves": s.combo["dash_moves"], "steps": s.combo["steps"]},
        "players": players,
        "row": [card_json(m.card(n)) for n in s.row],
        "deck_count": s.deck_count,
        "discard_count": len(s.discard),
        "pending": pending,
        "resolving": resolving,
        "arena": {
            "id": setup.arena.id,
            "spaces": [sp.id for sp in setup.arena.spaces],
            "candles": list(s.candles),
            "corridors": setup.arena.spaces_with("corridor"),
            "dangerous_edges": setup.arena.spaces_with("dangerous_edge"),
            "space_tokens": {k: dict(v) for k, v in sorted(s.space_tokens.items())},
        },
        "variant": setup.variant,
        "rounds": [dict(r) for r in s.rounds],
        "winner": s.winner,
        "events": len(m.events),
        "log": [dict(entry) for entry in m.log],
    }
