"""Structured card effects: the mechanics the rulebook names, as data.

Each op is a function ``op(match, effect, actor, option) -> bool``. It is called with
``option=None`` to start; it returns True when the effect is fully resolved, or False
after asking a player to choose (``match._ask``), and is called again with the chosen
option. Multi-step effects keep their progress in ``match._s.ctx["estate"]``.

Anything the engine cannot automate is a ``manual`` effect: the tablet shows its text and
the referee records the outcome with ordinary adjustment events (Golden Rule: the card text
wins, and the tracker never pretends to automate what it does not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pragma: no cover
    from assistant.rules.match import Match
    from assistant.rules.schema import Effect


def _target(m: "Match", eff: "Effect", actor: int) -> int:
    return actor if eff.target == "self" else 1 - actor


def op_wound(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Extra wounds from an effect (in the Effect's frame: cancelled by a Block on a Strike)."""
    m._wound(_target(m, eff, actor), eff.heavy, eff.light, "effect")
    return True


def op_push(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Backward N: the opponent moves directly away from the actor, as far as the arena allows."""
    s = m._s
    victim = 1 - actor
    direction = m._direction(s.players[actor].space, s.players[victim].space)
    m._slide(victim, direction, eff.n, "Backward")
    return True


def op_forward(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Forward N: the actor moves directly towards the opponent, stopping before their space."""
    s = m._s
    direction = m._direction(s.players[actor].space, s.players[1 - actor].space)
    m._slide(actor, direction, eff.n, "Forward")
    return True


def op_blink(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Blink N: the actor moves up to N spaces along the row and may pass through the opponent."""
    s = m._s
    here = s.players[actor].space
    dist = m.setup.arena.distances[here]
    options = [sp for sp, d in dist.items() if 1 <= d <= eff.n and m._free(sp)]
    if option is None:
        return m._ask(actor, f"Blink up to {eff.n}: choose a space", m._sorted_spaces(options) + ["stay"])
    if option != "stay":
        m._place(actor, option, "Blink")
    return True


def op_blink_opponent(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Blink the opponent to a free space within the effect's range of the actor (Chain Pull)."""
    s = m._s
    here = s.players[actor].space
    options = [
        sp for sp in m.setup.arena.by_id
        if m._free(sp) and m._range_ok(eff.range, here, sp)
    ]
    if option is None:
        if not options:
            return True
        return m._ask(actor, "Blink your opponent: choose a space", m._sorted_spaces(options))
    m._place(1 - actor, option, "Blink")
    return True


def op_move_opponent(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Move the opponent N spaces (the actor chooses where; normal movement rules)."""
    victim = 1 - actor
    options = m._reachable(victim, eff.n)
    if option is None:
        if not options:
            return True
        return m._ask(actor, f"Move your opponent {eff.n}: choose a space", m._sorted_spaces(options))
    m._place(victim, option, "moved by effect")
    return True


def op_discard(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """The target discards N cards of their choice from hand."""
    s = m._s
    who = _target(m, eff, actor)
    est = s.ctx.setdefault("estate", {})
    if option is not None:
        m._discard_from_hand(who, option, "effect")
        est["done"] = est.get("done", 0) + 1
    hand = s.players[who].hand
    if est.get("done", 0) >= eff.n or not hand:
        s.ctx.pop("estate", None)
        return True
    return m._ask(who, "Discard a card", sorted(set(hand)))


def op_token_place(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Place a token on the target's fighter sheet (as far as the box's supply allows)."""
    m._tokens(_target(m, eff, actor), eff.token, eff.n)
    return True


def op_token_remove(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    m._tokens(_target(m, eff, actor), eff.token, -eff.n)
    return True


def op_if_token(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Run ``then`` only if the target has the token (e.g. Vengeance: if your opponent has the Curse)."""
    s = m._s
    if s.players[_target(m, eff, actor)].tokens.get(eff.token, 0) > 0:
        queue = s.ctx["queue"]
        s.ctx["queue"] = (queue[0],) + tuple((e, actor) for e in eff.then) + queue[1:]
    return True


def op_transfer_wound(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Move one wound from the actor's sheet to the opponent's (the actor may decline)."""
    me = m._s.players[actor]
    if option is None:
        options = [k for k in ("heavy", "light") if getattr(me, k) > 0]
        if not options:
            return True
        return m._ask(actor, "Move one of your wounds to your opponent", options + ["none"])
    if option != "none":
        m._wound(actor, -(option == "heavy"), -(option == "light"), "transferred")
        m._wound(1 - actor, int(option == "heavy"), int(option == "light"), "transferred")
    return True


def op_spend_tokens_to_move(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Discard any number of tokens to move 1 space for each (Suppressive Fire and Ammo)."""
    s = m._s
    have = s.players[actor].tokens.get(eff.token, 0)
    if option is None:
        options = m._reachable(actor, have)
        if not options:
            return True
        return m._ask(actor, f"Spend {eff.token} tokens to move: choose a space", m._sorted_spaces(options) + ["stay"])
    if option != "stay":
        cost = m.setup.arena.distances[s.players[actor].space][option]
        m._tokens(actor, eff.token, -cost)
        m._place(actor, option, f"spent {cost} {eff.token}")
    return True


def op_discard_for_tokens(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Discard any number of cards with the symbol to gain one token each (Reload)."""
    s = m._s
    if option is not None:
        if option == "done":
            return True
        m._discard_from_hand(actor, option, f"for {eff.token}")
        m._tokens(actor, eff.token, 1)
    cards = sorted({c for c in s.players[actor].hand if eff.symbol in m._card(c).symbols})
    if not cards or not m._supply_left(eff.token):
        return True
    return m._ask(actor, f"Discard a card with {eff.symbol} for one {eff.token} token?", cards + ["done"])


def op_reveal_discard(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """The opponent reveals N cards from hand and the actor discards one of them (Order)."""
    s = m._s
    victim = 1 - actor
    est = s.ctx.setdefault("estate", {"revealed": []})
    hand = s.players[victim].hand
    if option is not None and m._chooser == victim:
        est["revealed"] = est["revealed"] + [option]
    elif option is not None:
        m._discard_from_hand(victim, option, "Order")
        s.ctx.pop("estate", None)
        return True
    remaining = list(hand)
    for c in est["revealed"]:
        remaining.remove(c)
    if len(est["revealed"]) < eff.n and remaining:
        return m._ask(victim, "Reveal a card from your hand", sorted(set(remaining)))
    if not est["revealed"]:
        s.ctx.pop("estate", None)
        return True
    return m._ask(actor, "Discard one of the revealed cards", sorted(set(est["revealed"])))


def op_cancel_move(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Reaction: cancel the opponent's movement (Grasp of Fury)."""
    m._s.ctx["cancelled"] = True
    return True


def op_cancel_attack(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Reaction: ignore the entire Attack Sequence, Ability attacks included (Double Block)."""
    m._s.ctx["cancelled"] = True
    return True


def op_manual(m: "Match", eff: "Effect", actor: int, option: str | None) -> bool:
    """Text the engine does not automate: the referee carries it out, then resolves it."""
    if option is None:
        m._s.pending = {"kind": "manual", "player": actor, "text": eff.text, "source": m._s.ctx.get("name", "")}
        return False
    return True


EFFECT_OPS: dict[str, Callable[..., bool]] = {
    "wound": op_wound,
    "push": op_push,
    "forward": op_forward,
    "blink": op_blink,
    "blink_opponent": op_blink_opponent,
    "move_opponent": op_move_opponent,
    "discard": op_discard,
    "token_place": op_token_place,
    "token_remove": op_token_remove,
    "if_token": op_if_token,
    "transfer_wound": op_transfer_wound,
    "spend_tokens_to_move": op_spend_tokens_to_move,
    "discard_for_tokens": op_discard_for_tokens,
    "reveal_discard": op_reveal_discard,
    "cancel_move": op_cancel_move,
    "cancel_attack": op_cancel_attack,
    "manual": op_manual,
}
