"""The Knockdown rules tracker: a match is a fold over an append-only list of events.

``Match.apply(event)`` checks the event against the rules (the "checked path") and either
advances the state or raises :class:`IllegalAction` naming the rule; the state is then
unchanged. ``pop()`` undoes the last event (the same as replaying one event fewer; a stack
of earlier states makes it O(1)). ``legal_actions()`` lists the decisions open now.

Two paths, as in python-chess (``push_san`` beside ``push``):

* checked, ``apply``: for anything a person or a file sends. The event's shape is checked,
  the engine keeps its own copy, and the rules run on a copy of the state, so a state a
  caller holds never changes. The service, records and undo use it.
* unchecked, ``apply_unchecked``: for events the engine itself listed (simulation, search).
  No shape check, no copies: the state changes in place and only a checkpoint every
  ``CHECKPOINT_EVERY`` events is kept. The rules still run; an event that breaks one still
  raises and the state is rebuilt by replay, and ``pop()`` rebuilds the same way.

Both fold the same handlers, so they reach the same state (tested on random matches).

Randomness is physical: the deck and the skill cards are shuffled by hand at the table, so
every card that comes up is a ``reveal`` (or ``deal_skills``) event that says which card it
was. The engine never draws from a hidden shuffle.

Rule names in error messages follow the rulebook's headings (Setup 4, Move, Attack,
Combo, Blocking, Hand Limit, Knockdown Test, End of the Round, ...).
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Iterable

from assistant.rules.costs import CostBook, remember
from assistant.rules.effects import EFFECT_OPS
from assistant.rules.errors import IllegalAction, InvalidData, MalformedEvent, RecordError
from assistant.rules.events import ADJUSTMENTS, SCHEMA, check_shape
from assistant.rules.legal import legal_actions
from assistant.rules.schema import AttackCard, AttackType, CostItem, Range, SpecialAttack, parse_model
from assistant.rules.setup import CANDLE, Setup
from assistant.rules.snapshot import snapshot
from assistant.rules.state import PlayerState, State

RECORD_FORMAT = "knockdown-match"
RECORD_VERSION = 1
HAND_LIMIT = 6
ROW_SIZE = 4
ACTIONS_PER_TURN = 2
CHECKPOINT_EVERY = 32  # the unchecked path keeps a state to replay from this often
CUSTOM = "?"  # deck key for cards of a custom deck not yet revealed

STRIKE = AttackType.STRIKE.value
_TYPE_NAMES = {t: t.value for t in AttackType}  # an enum's .value is slow on a hot path

CANDLE_CARD = AttackCard(name=CANDLE, candle=True, text="Fading Menhir: discard, move the Candle tokens")


class Match:
    """One match of Knockdown. See the module docstring; ``snapshot()`` is the state schema."""

    def __init__(self, setup: Setup) -> None:
        if not isinstance(setup, Setup):
            raise TypeError(f"Match(setup): expected a Setup, got {type(setup).__name__}")
        self.setup = setup
        self._catalog: dict[str, AttackCard] = {c.name: c for c in setup.deck.cards}
        self._catalog[CANDLE] = CANDLE_CARD
        self._skills = {s.name: s for s in setup.skills}
        self._reactions: list[dict[str, list[SpecialAttack]]] = [{}, {}]
        for i, f in enumerate(setup.fighters):
            for sp in f.specials:
                if sp.trigger:
                    self._reactions[i].setdefault(sp.trigger, []).append(sp)
        self._events: list[dict[str, Any]] = []
        self._stack: list[State] = []
        # What each event caused, in words (derived, so it lives beside the states, not in them).
        self._logs: list[list[dict[str, Any]]] = []
        self._new_log: list[dict[str, Any]] = []
        self._symbol_cache: dict[str, tuple[str, ...]] = {}  # catalog cards only (custom ones can change on undo)
        self._book = CostBook.of(setup, lambda: self._catalog.values())
        self._dangerous_edges = bool(setup.arena.spaces_with("dangerous_edge"))
        self._corridors = tuple(setup.arena.spaces_with("corridor"))
        self._distances = setup.arena.distances
        self._names = tuple(f.name for f in setup.fighters)
        self._combo_specials = tuple(
            tuple((sp.name, sp.range, sp.cost) for sp in f.specials if sp.type is not AttackType.REACTION)
            for f in setup.fighters
        )
        self._state = self._initial_state()
        self._s = self._state
        self._event: Any = None
        self._chooser: int | None = None

    # ------------------------------------------------------------------ public API
    def __repr__(self) -> str:
        s = self._state
        return (
            f"<Match {self.setup.fighters[0].name} vs {self.setup.fighters[1].name} "
            f"round={s.round} phase={s.phase!r} events={len(self._events)}>"
        )

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        return tuple(self._events)

    @property
    def event_count(self) -> int:
        """How many events the match has folded (``len(events)`` without copying them)."""
        return len(self._events)

    @property
    def state(self) -> State:
        """The current state (read-only by convention; use snapshot() for a JSON view)."""
        return self._state

    @property
    def is_over(self) -> bool:
        return self._state.phase == "finished"

    def apply(self, event: dict[str, Any]) -> None:
        """Check and apply one event, or raise IllegalAction and change nothing.

        The checked path: the event's shape is checked, the engine keeps its own copy, and the
        rules run on a copy of the state, so the state a caller holds never changes.
        """
        etype = check_shape(event)
        event = _own(event)
        s = self._state.clone()
        try:
            self._run(s, event, etype)
        except BaseException:  # IllegalAction, or a bug: either way the current state stays as it was
            self._s = self._state
            raise
        self._stack.append(self._state)
        self._state = s
        self._events.append(event)
        self._logs.append(self._new_log)

    push = apply

    def apply_unchecked(self, event: dict[str, Any]) -> None:
        """Apply an event taken from ``legal_actions()`` (or ``reveal_options()``) of this state.

        The unchecked path, for simulation and search (like python-chess's ``push`` beside
        ``push_san``): no shape check, no private copy of the event (do not change it
        afterwards), and the current state object changes in place. The rules still run, and an
        event that breaks one still raises and leaves the match as it was: the state is then
        rebuilt from the last checkpoint. ``pop()`` rebuilds the same way (an undo is a replay).
        """
        s = self._state
        n = len(self._events)
        # Every CHECKPOINT_EVERY events, keep a copy to replay from; otherwise nothing.
        self._stack.append(s.clone() if n % CHECKPOINT_EVERY == 0 else None)
        try:
            self._run(s, event, event["type"])
        except BaseException as err:
            self._stack.pop()
            self._state = self._s = self._state_at(n)
            if isinstance(err, Exception):
                try:
                    check_shape(event)  # a malformed event is named as such, not by what it broke
                except MalformedEvent as bad:
                    raise bad from None
            raise
        self._events.append(event)
        self._logs.append(self._new_log)

    def _run(self, s: State, event: dict[str, Any], etype: str) -> None:
        """Fold one event into ``s`` in place (the rules; the callers own the copying)."""
        self._s = s
        self._event = event
        self._new_log = []
        if s.phase == "finished":
            self._reject("End of the Round", "the match is over")
        if etype in ADJUSTMENTS:
            self._adjust(etype, event)
        else:
            _HANDLERS[etype](self, event)

    def _state_at(self, n: int) -> State:
        """The state after the first ``n`` events, replayed from the nearest kept state."""
        j = n
        while j > 0 and (j >= len(self._stack) or self._stack[j] is None):
            j -= 1
        base = self._stack[j] if j < len(self._stack) and self._stack[j] is not None else None
        s = base.clone() if base is not None else self._initial_state()
        saved = self._new_log
        for event in self._events[j:n]:
            self._run(s, event, event["type"])
        self._new_log = saved
        self._s = s
        return s

    def pop(self) -> dict[str, Any]:
        """Undo the last event and return it."""
        if not self._events:
            raise IndexError("pop from a match with no events")
        before = self._stack.pop()
        event = self._events.pop()
        self._logs.pop()
        self._state = self._s = before if before is not None else self._state_at(len(self._events))
        return event

    def copy(self) -> "Match":
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other._events = self._events[:]
        other._stack = self._stack[:]
        other._logs = self._logs[:]
        # The unchecked path changes the current state in place: each match needs its own.
        other._state = other._s = self._state.clone()
        return other

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[dict[str, Any]]) -> "Match":
        m = cls(setup)
        for e in events:
            m.apply(e)
        return m

    # ------------------------------------------------------------------ records
    @staticmethod
    def header(setup: Setup) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "setup": setup.to_dict()}

    def to_record(self) -> str:
        lines = [json.dumps(self.header(self.setup), sort_keys=True)]
        lines += [json.dumps(e, sort_keys=True) for e in self._events]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_record(cls, text: str) -> "Match":
        """Replay a match record; errors name the line (see docs/match-record.md)."""
        lines = text.splitlines()
        if not lines or not lines[0].strip():
            raise RecordError(1, "empty record: line 1 must be the header")
        header = _parse_line(lines[0], 1)
        if not isinstance(header, dict) or header.get("format") != RECORD_FORMAT:
            raise RecordError(1, f"not a {RECORD_FORMAT} record (line 1 must be its header)")
        version = header.get("version")
        if version != RECORD_VERSION:
            raise RecordError(1, f"unknown record version {version!r} (this build reads {RECORD_VERSION})")
        try:
            setup = Setup.from_dict(header.get("setup"), source="header")
        except InvalidData as err:
            raise RecordError(1, f"bad setup: {err}") from None
        m = cls(setup)
        for n, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            event = _parse_line(line, n)
            try:
                m.apply(event)
            except IllegalAction as err:
                raise RecordError(n, str(err)) from None
        return m

    # ------------------------------------------------------------------ queries
    def card(self, name: str) -> AttackCard:
        return self._card(name)

    def reveal_options(self) -> dict[str, Any] | None:
        """What the table may reveal now: skill deals or an Attack card (physical randomness)."""
        s = self._state
        if s.phase == "skill_draft":
            dealt = {c for p in s.players for c in p.dealt}
            for i, p in enumerate(s.players):
                if not p.dealt:
                    return {"kind": "skills", "player": i, "count": 3,
                            "cards": [n for n in self._skills if n not in dealt]}
            return None
        if s.pending and s.pending["kind"] == "reveal":
            names = sorted(n for n, k in s.deck.items() if k > 0 and n != CUSTOM)
            return {"kind": "card", "cards": names, "custom": s.deck.get(CUSTOM, 0) > 0}
        return None

    # ------------------------------------------------------------------ internals: helpers
    def _reject(self, rule: str, reason: str) -> None:
        raise IllegalAction(self._event, rule, reason)

    def _initial_state(self) -> State:
        s = State()
        supply = dict(self.setup.tokens)
        s.token_supply = supply
        for i, f in enumerate(self.setup.fighters):
            s.players.append(PlayerState(self.setup.starts[i], f.tokens))
        s.deck = self._full_deck(with_candles=False)
        return s

    def _full_deck(self, *, with_candles: bool) -> dict[str, int]:
        d = self.setup.deck
        deck = {c.name: c.copies for c in d.cards} if d.cards else {CUSTOM: d.custom}
        if with_candles and self.setup.candles:
            deck[CANDLE] = self.setup.candles
        return deck

    def _card(self, name: str) -> AttackCard:
        card = self._catalog.get(name) or self._s.custom_cards.get(name)
        if card is None:
            self._reject("Attack cards", f"no card named {name!r} in this match")
        return card

    def _log(self, kind: str, text: str, **data: Any) -> None:
        self._new_log.append({"seq": len(self._events) + 1, "kind": kind, "text": text, **data})

    @property
    def log(self) -> list[dict[str, Any]]:
        """What happened, in words, oldest first: every wound with its cause, hazards, tests, rounds."""
        return [entry for entries in self._logs for entry in entries]

    def _ask(self, player: int, prompt: str, options: list[str]) -> bool:
        self._s.pending = {"kind": "choice", "player": player, "prompt": prompt, "options": options}
        return False

    def _free(self, space: str) -> bool:
        a, b = self._s.players
        return a.space != space and b.space != space

    def _sorted_spaces(self, spaces: Iterable[str]) -> list[str]:
        return sorted(spaces, key=self.setup.arena.index.__getitem__)

    def _occupant(self, space: str) -> int | None:
        for i, p in enumerate(self._s.players):
            if p.space == space:
                return i
        return None

    def _col(self, space: str) -> tuple[int, int]:
        return self.setup.arena.by_id[space].grid

    def _direction(self, frm: str, towards: str) -> int:
        return 1 if self._col(towards)[0] > self._col(frm)[0] else -1

    def _step(self, space: str, direction: int) -> str | None:
        col, row = self._col(space)
        for n in self.setup.arena.neighbours[space]:
            if self._col(n) == (col + direction, row):
                return n
        return None

    def _slide(self, player: int, direction: int, n: int, why: str) -> None:
        p = self._s.players[player]
        moved = 0
        while moved < n:
            nxt = self._step(p.space, direction)
            if nxt is None or not self._free(nxt):
                break
            p.space = nxt
            moved += 1
        if moved:
            self._log("moved", f"{why}: {self._names[player]} to {p.space}", player=player, space=p.space)

    def _place(self, player: int, space: str, why: str) -> None:
        self._s.players[player].space = space
        self._log("moved", f"{self._names[player]} to {space} ({why})", player=player, space=space)

    def _reachable(self, player: int, steps: int) -> list[str]:
        """Spaces reachable by up to ``steps`` normal moves (never through the other fighter)."""
        start = self._s.players[player].space
        seen = {start}
        frontier = [start]
        for _ in range(steps):
            nxt = []
            for sp in frontier:
                for n in self.setup.arena.neighbours[sp]:
                    if n not in seen and self._free(n):
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        seen.discard(start)
        return list(seen)

    def _range_ok(self, rng: Range, frm: str, to: str) -> bool:
        arena = self.setup.arena
        d = arena.distances[frm][to]
        if rng.kind == "any":
            return True
        if rng.kind == "fixed":
            return d == rng.low
        if rng.kind == "span":
            return rng.low <= d <= rng.high
        # Projectile: an unbroken straight line of spaces from the attacker's space.
        (c1, r1), (c2, r2) = arena.by_id[frm].grid, arena.by_id[to].grid
        if r1 != r2:
            return False
        cells = {s.grid for s in arena.spaces}
        step = 1 if c2 > c1 else -1
        return all((c, r1) in cells for c in range(c1 + step, c2, step))

    def _in_range(self, rng: Range, attacker: int) -> bool:
        kind = rng.kind
        if kind == "any":
            return True
        a, b = self._s.players
        frm, to = (a.space, b.space) if attacker == 0 else (b.space, a.space)
        if kind == "projectile":
            return self._range_ok(rng, frm, to)
        return rng.low <= self._distances[frm][to] <= rng.high  # fixed: low == high

    def _wound(self, player: int, heavy: int, light: int, cause: str) -> None:
        p = self._s.players[player]
        p.heavy = max(0, p.heavy + heavy)
        p.light = max(0, p.light + light)
        if heavy or light:
            self._log("wound", f"{self._names[player]}: {heavy:+d} heavy, {light:+d} light ({cause})",
                      player=player, heavy=heavy, light=light, cause=cause)

    def _supply_left(self, token: str) -> bool:
        supply = self._s.token_supply.get(token)
        if supply is None:
            return True
        used = sum(p.tokens.get(token, 0) for p in self._s.players)
        used += sum(t.get(token, 0) for t in self._s.space_tokens.values())
        return used < supply

    def _tokens(self, player: int, token: str, delta: int) -> None:
        p = self._s.players[player]
        have = p.tokens.get(token, 0)
        if delta > 0:
            added = 0
            while added < delta and self._supply_left(token):
                p.tokens[token] = p.tokens.get(token, 0) + 1
                added += 1
            delta = added
        else:
            delta = max(delta, -have)
            p.tokens[token] = have + delta
            if p.tokens[token] == 0:
                del p.tokens[token]
        if delta:
            self._log("token", f"{self._names[player]}: {delta:+d} {token}", player=player, token=token, delta=delta)

    def _discard_from_hand(self, player: int, card: str, why: str) -> None:
        hand = self._s.players[player].hand
        if card not in hand:
            self._reject("Attack cards", f"{card!r} is not in {self._names[player]}'s hand")
        hand.remove(card)
        self._s.players[player].hand_code -= self._card_code(card)
        self._s.discard += (card,)
        self._log("discard", f"{self._names[player]} discards {card} ({why})", player=player, card=card)

    def _symbols(self, card: str) -> tuple[str, ...]:
        cached = self._symbol_cache.get(card)
        if cached is None:
            cached = self._card(card).symbols
            if card in self._catalog:
                self._symbol_cache[card] = cached
        return cached

    def _card_code(self, card: str) -> int:
        """One card's symbols, packed."""
        code = self._book.card_codes.get(card)
        return self._book.code(self._symbols(card)) if code is None else code

    def _hand_code(self, hand: Iterable[str]) -> int:
        """The hand's symbols, packed (see assistant.rules.costs)."""
        try:
            return sum(map(self._book.card_codes.__getitem__, hand))  # catalog cards: one C loop
        except KeyError:  # a custom card (entered at the table): its symbols come from the state
            return sum(map(self._card_code, hand))

    # ------------------------------------------------------------------ payments
    def _pays(self, cost: tuple[CostItem, ...], cards: list[str]) -> bool:
        """True if these cards pay exactly this cost: every cost symbol covered, every card used.

        Wild on a card pays any symbol; Wild in a cost takes any symbol. A two-symbol card may
        cover two symbols of the same cost (it pays for a single Special Attack only).
        """
        if not cost or len(cards) > len(cost):
            return not cost and not cards
        codes = self._book.card_codes
        if all(c in codes for c in cards):  # catalog cards: the answer is the set-up's, memoised
            key = (tuple(sorted(cards)), id(cost))
            known = self._book.pays.get(key)
            if known is None:
                known = self._search_payment(cost, cards)
                remember(self._book.pays, key, known)
            return known
        return self._search_payment(cost, cards)

    def _search_payment(self, cost: tuple[CostItem, ...], cards: list[str]) -> bool:
        slots = [(i, sym) for i, c in enumerate(cards) for sym in self._symbols(c)]
        used_cards = [0] * len(cards)

        def fits(item: CostItem, sym: str) -> bool:
            return sym == "wild" or "wild" in item.any_of or sym in item.any_of

        taken = [False] * len(slots)

        def assign(k: int) -> bool:
            if k == len(cost):
                return all(used_cards)
            for j, (ci, sym) in enumerate(slots):
                if not taken[j] and fits(cost[k], sym):
                    taken[j] = True
                    used_cards[ci] += 1
                    if assign(k + 1):
                        return True
                    taken[j] = False
                    used_cards[ci] -= 1
            return False

        return assign(0)

    def _payments(self, player: int, cost: tuple[CostItem, ...]) -> list[list[str]]:
        """Every distinct way (by card names) to pay the cost from hand."""
        if not cost:
            return [[]]
        book = self._book
        # Every card paid must pay a symbol, so only cards with a symbol the cost takes count.
        cards = tuple(sorted(c for c in self._s.players[player].hand if book.could_pay(self._card_code(c), cost)))
        # Shared with the set-up's other matches, so only for catalog cards.
        shared = all(c in book.card_codes for c in cards)
        key = (cards, id(cost))
        memo = book.payments.get(key) if shared else None
        if memo is not None:
            return [list(p) for p in memo]
        out: list[list[str]] = []
        if book.can_pay(self._hand_code(cards), cost):
            seen: set[tuple[str, ...]] = set()
            for size in range(max(1, (len(cost) + 1) // 2), min(len(cost), len(cards)) + 1):
                for combo in itertools.combinations(cards, size):
                    if combo not in seen:
                        seen.add(combo)
                        if self._pays(cost, list(combo)):
                            out.append(list(combo))
        if shared:
            remember(book.payments, key, tuple(tuple(p) for p in out))
        return out

    def _can_pay(self, player: int, cost: tuple[CostItem, ...]) -> bool:
        """Whether some cards in hand pay the cost (only the hand's symbols matter)."""
        return not cost or self._book.can_pay(self._s.players[player].hand_code, cost)

    def _take_payment(self, player: int, cost: tuple[CostItem, ...], pay: list[str], rule: str, what: str) -> None:
        hand = list(self._s.players[player].hand)
        for c in pay:
            if c not in hand:
                self._reject(rule, f"{c!r} is not in {self._names[player]}'s hand")
            hand.remove(c)
        if not self._pays(cost, pay):
            wanted = " + ".join("/".join(i.any_of) for i in cost) or "nothing"
            self._reject(rule, f"{pay!r} does not pay the cost of {what!r} ({wanted}); every discarded card must "
                               f"pay a symbol, and a two-symbol card pays for a single Special Attack only")
        for c in pay:
            self._discard_from_hand(player, c, f"paid for {what}")

    # ------------------------------------------------------------------ set-up events
    def _on_deal_skills(self, e: dict[str, Any]) -> None:
        s, p = self._s, e["player"]
        if s.phase != "skill_draft":
            self._reject("Setup 4", "Skill cards are dealt only during set-up")
        if s.players[p].dealt:
            self._reject("Setup 4", f"{self._names[p]} was already dealt {list(s.players[p].dealt)!r}")
        cards = e["cards"]
        if len(set(cards)) != 3:
            self._reject("Setup 4", f"three different Skill cards are dealt, got {cards!r}")
        taken = set(s.players[1 - p].dealt)
        for c in cards:
            if c not in self._skills:
                self._reject("Setup 4", f"{c!r} is not a Skill card of this match")
            if c in taken:
                self._reject("Setup 4", f"{c!r} was dealt to the other player")
        s.players[p].dealt = tuple(cards)

    def _on_keep_skill(self, e: dict[str, Any]) -> None:
        s, p, card = self._s, e["player"], e["card"]
        me, other = s.players[p], s.players[1 - p]
        if s.phase != "skill_draft" or me.placed:
            self._reject("Setup 4", "Skill cards are kept only during the skill draft")
        if not me.dealt:
            self._reject("Setup 4", f"{self._names[p]} has not been dealt Skill cards yet")
        if not me.kept:
            if card not in me.dealt:
                self._reject("Setup 4", f"keep one of the three dealt cards {list(me.dealt)!r}, not {card!r}")
            me.kept = (card,)
            return
        if len(me.kept) == 2:
            self._reject("Setup 4", f"{self._names[p]} has already kept two Skill cards")
        if not other.kept:
            self._reject("Setup 4", "wait until your opponent has kept one card and passed you the other two")
        received = [c for c in other.dealt if c != other.kept[0]]
        if card not in received:
            self._reject("Setup 4", f"keep one of the two cards received {received!r}, not {card!r}")
        me.kept = me.kept + (card,)

    def _on_place_skills(self, e: dict[str, Any]) -> None:
        s, p, up = self._s, e["player"], e["face_up"]
        me = s.players[p]
        if s.phase != "skill_draft" or me.placed:
            self._reject("Setup 4", "Skill cards are placed once, at the end of the skill draft")
        if len(me.kept) != 2:
            self._reject("Setup 4", f"{self._names[p]} must keep two Skill cards before placing them")
        if up not in me.kept:
            self._reject("Setup 4", f"put one of your kept cards {list(me.kept)!r} face up, not {up!r}")
        me.face_up = (up,)
        me.face_down = next(c for c in me.kept if c != up)
        me.placed = True
        if all(pl.placed for pl in s.players):
            a, b = (self._skills[pl.face_up[0]].initiative for pl in s.players)
            if a == b:
                s.phase = "first_player"
                s.pending = {"kind": "first_player", "player": None}
            else:
                self._begin_row_draft(0 if a > b else 1)

    def _on_first_player(self, e: dict[str, Any]) -> None:
        if self._s.phase != "first_player":
            self._reject("Setup 6", "the first player is chosen by hand only when initiatives tie")
        self._s.pending = None
        self._begin_row_draft(e["player"])

    def _begin_row_draft(self, first: int) -> None:
        s = self._s
        s.first = s.active = first
        s.phase = "row_draft"
        self._log("setup", f"{self._names[first]} goes first (Setup 6)", player=first)
        s.pending = {"kind": "reveal", "player": None}

    def _on_draft(self, e: dict[str, Any]) -> None:
        s, p, card = self._s, e["player"], e["card"]
        pend = s.pending
        if not pend or pend["kind"] != "draft":
            self._reject("Setup 6", "no opening Attack Row draft pick is due now")
        if p != pend["player"]:
            self._reject("Setup 6", f"it is {self._names[pend['player']]}'s pick (first 1, second 2, first the last)")
        if card not in s.row:
            self._reject("Setup 6", f"{card!r} is not in the Attack Row {s.row!r}")
        s.row.remove(card)
        s.players[p].hand.append(card)
        s.players[p].hand_code += self._card_code(card)
        picks = pend["pick"] + 1
        order = (s.first, 1 - s.first, 1 - s.first, s.first)
        if picks < len(order):
            s.pending = {"kind": "draft", "player": order[picks], "pick": picks}
        else:
            s.pending = {"kind": "reveal", "player": None}

    # ------------------------------------------------------------------ reveals and the row
    def _on_reveal(self, e: dict[str, Any]) -> None:
        s = self._s
        if not s.pending or s.pending["kind"] != "reveal":
            self._reject("Game Turn", "no Attack card is to be revealed now (the Row is refilled at the start of a turn)")
        if ("card" in e) == ("custom" in e):
            self._reject("Event format", "a reveal names a 'card' or gives a 'custom' card, exactly one of them")
        if "custom" in e:
            if s.deck.get(CUSTOM, 0) <= 0:
                self._reject("Custom cards", "this match's deck is a catalog deck: reveal cards by name")
            try:
                card = parse_model(AttackCard, e["custom"], source="reveal", item="custom card")
            except InvalidData as err:
                self._reject("Custom cards", str(err))
            if card.candle or card.name in self._catalog:
                self._reject("Custom cards", f"{card.name!r} is a reserved card name")
            known = s.custom_cards.get(card.name)
            if known is not None and known != card:
                self._reject("Custom cards", f"{card.name!r} was entered before with other printed values")
            if known is None:
                s.custom_cards = {**s.custom_cards, card.name: card}
            s.deck[CUSTOM] -= 1
            name = card.name
        else:
            name = e["card"]
            key = name
            if name not in self._catalog and name in s.custom_cards:
                key = CUSTOM  # a custom card seen in an earlier round comes up again
            if s.deck.get(key, 0) <= 0:
                where = "in the deck" if name in self._catalog or name in s.custom_cards else "in this match"
                self._reject("Attack deck", f"no {name!r} card is left {where} (deck: {s.deck_count} cards)")
            s.deck[key] -= 1
        if name == CANDLE:
            self._candle_drawn()
        else:
            s.row.append(name)
            self._log("reveal", f"{name} revealed to the Attack Row", card=name)
        self._after_reveal()

    def _after_reveal(self) -> None:
        s = self._s
        if s.phase == "row_draft":
            if len(s.row) < ROW_SIZE:
                if s.deck_count == 0:  # only with a deck below the validated minimum
                    self._reject("Setup 5", "the deck ran out during set-up")
                return
            if any(p.hand for p in s.players):
                # The draft is done and the Row refilled: Setup 7, then the first turn.
                s.deck = {**s.deck, **({CANDLE: self.setup.candles} if self.setup.candles else {})}
                if self.setup.candles:
                    self._log("setup", f"{self.setup.candles} Candle cards shuffled into the deck (Setup 7)")
                s.phase = "playing"
                s.turn = 1
                s.active = s.first
                self._start_turn()
            else:
                s.pending = {"kind": "draft", "player": s.first, "pick": 0}
            return
        self._refill_or_end()

    def _candle_drawn(self) -> None:
        s = self._s
        s.discard += (CANDLE,)
        arena = self.setup.arena
        if not s.candles:
            s.candles = self._sorted_spaces(arena.edges)[:2] if arena.edges else []
            text = f"first Candle: Candle tokens placed under {s.candles}"
        else:
            centre = arena.centre
            moved = []
            for sp in s.candles:
                if centre and sp != centre:
                    dist = arena.distances[centre]
                    sp = min(arena.neighbours[sp], key=lambda n: (dist[n], arena.index[n]))
                moved.append(sp)
            s.candles = moved
            text = f"Candle: Candle tokens move towards the centre, now under {s.candles}"
        self._log("candle", text + " (Fading Menhir)", spaces=list(s.candles))

    def _start_turn(self) -> None:
        s = self._s
        s.actions_taken = 0
        s.combo = None
        s.ctx = None
        self._log("turn", f"turn {s.turn}: {self._names[s.active]}", player=s.active)
        self._refill_or_end()

    def _refill_or_end(self) -> None:
        s = self._s
        if len(s.row) >= ROW_SIZE:
            s.pending = None
        elif s.deck_count == 0:
            s.pending = None
            self._end_round_deck_out()
        else:
            s.pending = {"kind": "reveal", "player": None}

    # ------------------------------------------------------------------ turn actions
    def _require_turn_action(self, e: dict[str, Any], rule: str) -> int:
        s, p = self._s, e["player"]
        if s.phase != "playing":
            self._reject(rule, "actions are taken only once the match is under way")
        if s.pending is not None or s.ctx is not None:
            self._reject(rule, f"first resolve what is pending: {self._describe_pending()}")
        if p != s.active:
            self._reject("Game Turn", f"it is {self._names[s.active]}'s turn")
        if s.combo is not None:
            self._reject("Combo", "finish the Combo first (end_combo)")
        return p

    def _describe_pending(self) -> str:
        s = self._s
        if s.pending:
            who = s.pending.get("player")
            return s.pending["kind"] + ("" if who is None else f" by {self._names[who]}")
        return "an action being resolved"

    def _check_move(self, p: int, to: str, rule: str) -> None:
        here = self._s.players[p].space
        if to not in self.setup.arena.by_id:
            self._reject(rule, f"{to!r} is not a space of this arena: you cannot move your fighter off the Arena")
        if to not in self.setup.arena.neighbours[here]:
            self._reject(rule, f"{to!r} is not adjacent to {here!r}: move to an adjacent Arena space")
        if not self._free(to):
            self._reject(rule, f"{to!r} holds {self._names[1 - p]}: you cannot end your movement in, or move "
                               "through, a space containing another fighter")

    def _on_move(self, e: dict[str, Any]) -> None:
        s, p = self._s, e["player"]
        if s.combo is not None and s.pending is None and s.ctx is None and p == s.active:
            if s.combo["dash_moves"] <= 0:
                self._reject("Combo", "a Move inside a Combo is a Dash: discard a card with the Dash symbol first")
            self._check_move(p, e["to"], "Dash")
            s.combo["dash_moves"] -= 1
            dash = True
        else:
            self._require_turn_action(e, "Move")
            self._check_move(p, e["to"], "Move")
            s.actions_taken += 1
            dash = False
        s.ctx = {"kind": "move", "player": p, "to": e["to"], "dash": dash, "stage": "react"}
        self._advance()

    def _on_attack(self, e: dict[str, Any]) -> None:
        s = self._s
        p = self._require_turn_action(e, "Attack")
        name = e["card"]
        if name not in s.row:
            self._reject("Attack", f"{name!r} is not in the Attack Row {s.row!r}")
        s.row.remove(name)
        s.actions_taken += 1
        card = self._catalog.get(name) or self._card(name)
        self._start_sequence(p, "row", name, card.type, card.heavy, card.light, card.ko, card.range, card.effect)

    def _start_sequence(self, p: int, source: str, name: str, atype: AttackType, heavy: int, light: int,
                        ko: bool, rng: Range, effect: tuple) -> None:
        s = self._s
        in_range = self._in_range(rng, p)
        self._log("attack", f"{self._names[p]} attacks with {name}" + ("" if in_range else " (out of range)"),
                  player=p, card=name, in_range=in_range)
        s.ctx = {
            "kind": "attack", "source": source, "name": name, "attacker": p, "defender": 1 - p,
            "type": _TYPE_NAMES[atype], "heavy": heavy, "light": light, "ko": ko, "effect": effect,
            "stage": "react" if in_range else "take", "cancel_effect": False, "reduce": (0, 0), "queue": (),
        }
        self._advance()

    def _on_combo(self, e: dict[str, Any]) -> None:
        s = self._s
        p = self._require_turn_action(e, "Combo")
        if not self._combo_options(p, used=()):
            self._reject("Combo", "you cannot pay for any Special Attack or Dash")
        s.actions_taken += 1
        s.combo = {"used": [], "dash_moves": 0, "steps": 0}
        self._log("combo", f"{self._names[p]} starts a Combo", player=p)

    def _require_combo_step(self, e: dict[str, Any], rule: str) -> int:
        s, p = self._s, e["player"]
        if s.combo is None or p != s.active:
            self._reject(rule, "only during your own Combo action")
        if s.pending is not None or s.ctx is not None:
            self._reject(rule, f"first resolve what is pending: {self._describe_pending()}")
        return p

    def _combo_options(self, p: int, used: Iterable[str]) -> bool:
        """Whether a Combo could do anything now (a Dash card, or an affordable Special in range)."""
        s = self._s
        book = self._book
        code = s.players[p].hand_code
        key = (p, code, tuple(used))
        # What the hand's symbols allow wherever the fighters stand: a Dash, or these Specials.
        allowed = book.combos.get(key)
        if allowed is None:
            allowed = (book.count(code, "dash") > 0, tuple(
                rng for name, rng, cost in self._combo_specials[p]
                if name not in key[2] and book.can_pay(code, cost)
            ))
            remember(book.combos, key, allowed)
        if allowed[0]:
            return True
        for rng in allowed[1]:
            if self._in_range(rng, p):
                return True
        return False

    def _on_special(self, e: dict[str, Any]) -> None:
        s = self._s
        p = self._require_combo_step(e, "Combo")
        sp = self.setup.fighters[p].special(e["name"])
        if sp is None:
            self._reject("Combo", f"{self._names[p]} has no Special Attack {e['name']!r}")
        if sp.type is AttackType.REACTION:
            self._reject("Combo", f"{sp.name!r} is a Reaction: it is played in response to the opponent")
        if sp.name in s.combo["used"]:
            self._reject("Combo", f"you cannot perform {sp.name!r} more than once during a single Combo action")
        if not self._in_range(sp.range, p):
            self._reject("Attack Sequence", f"your opponent must be within range ({sp.range or 'any'}) of {sp.name!r}")
        self._take_payment(p, sp.cost, e["pay"], "Combo", sp.name)
        s.combo["used"].append(sp.name)
        s.combo["steps"] += 1
        self._start_sequence(p, "special", sp.name, sp.type, sp.heavy, sp.light, sp.ko, sp.range, sp.effect)

    def _on_dash(self, e: dict[str, Any]) -> None:
        s = self._s
        p = self._require_combo_step(e, "Dash")
        card = e["pay"]
        if card not in s.players[p].hand:
            self._reject("Dash", f"{card!r} is not in your hand")
        dashes = self._symbols(card).count("dash")
        if not dashes:
            self._reject("Dash", f"{card!r} has no Dash symbol")
        self._discard_from_hand(p, card, "Dash")
        s.combo["dash_moves"] += dashes
        s.combo["steps"] += 1

    def _on_end_combo(self, e: dict[str, Any]) -> None:
        s = self._s
        self._require_combo_step(e, "Combo")
        if s.combo["steps"] == 0:
            self._reject("Combo", "perform at least one Special Attack or Dash before ending the Combo")
        self._end_combo()

    def _end_combo(self) -> None:
        self._s.combo = None
        self._finish_action()

    def _on_corridor(self, e: dict[str, Any]) -> None:
        s, p, to = self._s, e["player"], e["to"]
        arena = self.setup.arena
        rule = "Technical Corridors"
        if s.phase != "playing" or p != s.active:
            self._reject(rule, "a fighter may use Technical Corridors only during their own turn")
        if s.pending is not None or s.ctx is not None or s.combo is not None:
            self._reject(rule, "not while resolving an Action (e.g. in between Special Attacks during a Combo)")
        here = s.players[p].space
        if not arena.has_mark(here, "corridor"):
            self._reject(rule, f"{here!r} has no Technical Corridor entrance")
        if to not in arena.by_id or not arena.has_mark(to, "corridor"):
            self._reject(rule, f"{to!r} has no Technical Corridor entrance")
        if to == here:
            self._reject(rule, "move to another corridor space")
        if not self._free(to):
            self._reject(rule, f"{to!r} holds {self._names[1 - p]}")
        s.players[p].space = to
        self._log("corridor", f"{self._names[p]} takes the Technical Corridors to {to}", player=p, space=to)
        wound = arena.by_id[to].corridor_wound or (
            "light" if to == arena.centre else "heavy" if to in arena.edges else ""
        )
        if wound:
            self._wound(p, int(wound == "heavy"), int(wound == "light"), "Technical Corridors")

    # ------------------------------------------------------------------ the resolution driver
    def _advance(self) -> None:
        """Run the action being resolved until it needs a player's input or is done."""
        s = self._s
        while s.ctx is not None and s.pending is None and s.phase == "playing":
            ctx = s.ctx
            _STAGES[ctx["kind"], ctx["stage"]](self)

    def _reaction_options(self, player: int, trigger: str) -> list[SpecialAttack]:
        return [sp for sp in self._reactions[player].get(trigger, ()) if self._can_pay(player, sp.cost)]

    def _open_reaction(self, player: int, trigger: str, next_stage: str) -> None:
        s = self._s
        s.ctx["stage"] = next_stage
        options = self._reaction_options(player, trigger)
        if options:
            s.pending = {"kind": "reaction", "player": player, "trigger": trigger,
                         "options": [sp.name for sp in options]}

    # moves
    def _move_react(self) -> None:
        ctx = self._s.ctx
        self._open_reaction(1 - ctx["player"], "opponent_moves", "apply")

    def _move_apply(self) -> None:
        s = self._s
        ctx = s.ctx
        if not ctx.get("cancelled"):
            self._place(ctx["player"], ctx["to"], "Dash" if ctx["dash"] else "Move")
        s.ctx = None
        if ctx["dash"]:
            self._after_combo_step()
        else:
            self._finish_action()

    # attacks and Special Attacks: the Attack Sequence
    def _attack_react(self) -> None:
        self._open_reaction(self._s.ctx["defender"], "attacked", "block")

    def _attack_block(self) -> None:
        s = self._s
        ctx = s.ctx
        ctx["stage"] = "wounds"
        if ctx.get("cancelled"):
            ctx["stage"] = "take"
            self._log("reaction", "the entire Attack Sequence is ignored")
            return
        d = ctx["defender"]
        if ctx["type"] == STRIKE and self._book.count(s.players[d].hand_code, "block"):
            s.pending = {"kind": "block", "player": d, "attack": ctx["name"],
                         "heavy": ctx["heavy"] + self._edge_bonus(), "light": ctx["light"]}

    def _edge_bonus(self) -> int:
        """Siege Storm Dangerous Edges: +1 heavy when attacked on one from an adjacent space."""
        if not self._dangerous_edges:
            return 0
        s = self._s
        ctx = s.ctx
        dspace = s.players[ctx["defender"]].space
        aspace = s.players[ctx["attacker"]].space
        arena = self.setup.arena
        return int(arena.has_mark(dspace, "dangerous_edge") and arena.distances[aspace][dspace] == 1)

    def _attack_wounds(self) -> None:
        s = self._s
        ctx = s.ctx
        bonus = self._edge_bonus()
        if bonus:
            self._log("hazard", "Dangerous Edge: +1 heavy wound in the Wound Pool", player=ctx["defender"])
        rh, rl = ctx["reduce"]
        self._wound(ctx["defender"], max(0, ctx["heavy"] + bonus - rh), max(0, ctx["light"] - rl), ctx["name"])
        if ctx["cancel_effect"] or not ctx["effect"]:
            ctx["stage"] = "ko"  # no effect to resolve (the common case: skip the empty stage)
        else:
            ctx["stage"] = "effects"
            ctx["queue"] = tuple((eff, ctx["attacker"]) for eff in ctx["effect"])

    def _attack_effects(self) -> None:
        if self._run_queue():
            self._s.ctx["stage"] = "ko"

    def _run_queue(self) -> bool:
        ctx = self._s.ctx
        while ctx["queue"]:
            eff, actor = ctx["queue"][0]
            if not EFFECT_OPS[eff.op](self, eff, actor, None):
                return False
            ctx["queue"] = ctx["queue"][1:]
        return True

    def _attack_ko(self) -> None:
        s = self._s
        ctx = s.ctx
        ctx["stage"] = "take"
        if ctx["ko"]:
            s.pending = {"kind": "knockdown_offer", "player": ctx["attacker"], "attack": ctx["name"],
                         "ko_effect": self.setup.fighters[ctx["attacker"]].ko_effect}

    def _attack_take(self) -> None:
        s = self._s
        ctx = s.ctx
        if ctx["source"] != "row":
            ctx["stage"] = "done"
            return
        p = ctx["attacker"]
        s.players[p].hand.append(ctx["name"])
        s.players[p].hand_code += self._card_code(ctx["name"])
        on_take = (self._catalog.get(ctx["name"]) or self._card(ctx["name"])).on_take
        if on_take:
            ctx["stage"] = "take_effects"
            ctx["queue"] = tuple((eff, p) for eff in on_take)
        else:
            ctx["stage"] = "limit"  # nothing taken-on effect to resolve: straight to the hand limit
            self._attack_limit()

    def _attack_take_effects(self) -> None:
        if self._run_queue():
            self._s.ctx["stage"] = "limit"

    def _attack_limit(self) -> None:
        s = self._s
        p = s.ctx["attacker"]
        if len(s.players[p].hand) > HAND_LIMIT:
            s.pending = {"kind": "discard", "player": p, "count": len(s.players[p].hand) - HAND_LIMIT}
        else:
            s.ctx["stage"] = "done"

    def _attack_done(self) -> None:
        s = self._s
        source = s.ctx["source"]
        s.ctx = None
        if source == "special":
            self._after_combo_step()
        else:
            self._finish_action()

    def _after_combo_step(self) -> None:
        s = self._s
        p = s.active
        if s.combo is not None and s.combo["dash_moves"] == 0 and not self._combo_options(p, s.combo["used"]):
            self._log("combo", "the Combo ends: nothing more can be paid for")
            self._end_combo()

    def _finish_action(self) -> None:
        s = self._s
        if s.phase == "playing" and s.combo is None and s.actions_taken >= ACTIONS_PER_TURN:
            self._end_turn()

    def _end_turn(self) -> None:
        s = self._s
        p = s.active
        self._candle_hazard(p)
        s.active = 1 - p
        s.turn += 1
        self._start_turn()

    def _candle_hazard(self, p: int) -> None:
        """Fading Menhir: ending a turn above a Candle token, or further out, costs 1 heavy wound."""
        s = self._s
        arena = self.setup.arena
        if not s.candles or not arena.centre:
            return
        here = s.players[p].space
        centre = arena.centre
        dist = arena.distances[centre]
        ccol = self._col(centre)[0]
        side = (self._col(here)[0] > ccol) - (self._col(here)[0] < ccol)
        for token in s.candles:
            tside = (self._col(token)[0] > ccol) - (self._col(token)[0] < ccol)
            if here == token or (side == tside and side != 0 and dist[here] > dist[token]):
                self._log("hazard", f"Fading Menhir: {self._names[p]} ends the turn on {here}, at or beyond a "
                                    "Candle token: 1 heavy wound", player=p, space=here)
                self._wound(p, 1, 0, "Fading Menhir")
                return

    # ------------------------------------------------------------------ responses
    def _expect(self, e: dict[str, Any], kind: str, rule: str) -> dict[str, Any]:
        pend = self._s.pending
        if not pend or pend["kind"] != kind:
            self._reject(rule, f"nothing of that kind is pending now; pending: {self._describe_pending() if pend else 'none'}")
        if pend.get("player") is not None and e.get("player", pend["player"]) != pend["player"]:
            self._reject(rule, f"it is {self._names[pend['player']]} who must answer")
        return pend

    def _block_cards(self, p: int) -> list[str]:
        return [c for c in self._s.players[p].hand if "block" in self._symbols(c)]

    def _on_block(self, e: dict[str, Any]) -> None:
        s = self._s
        pend = self._expect(e, "block", "Blocking")
        p = pend["player"]
        cards = e["cards"]
        hand = list(s.players[p].hand)
        for c in cards:
            if c not in hand:
                self._reject("Blocking", f"{c!r} is not in your hand")
            hand.remove(c)
            if "block" not in self._symbols(c):
                self._reject("Blocking", f"{c!r} has no Block symbol")
        reduce = e.get("reduce") or {}
        rh, rl = reduce.get("heavy", 0), reduce.get("light", 0)
        cancel = bool(e.get("cancel_effect"))
        if len(cards) == 1 and bool(rh or rl) == cancel:
            self._reject("Blocking", "one Block card either reduces the wounds or cancels the effect; "
                                     "discard two Block cards to do both")
        if len(cards) == 2 and not cancel:
            self._reject("Blocking", "two Block cards ignore both the wounds and the effect: set cancel_effect")
        left = len(hand)  # the discarded Block cards do not count
        if 2 * rh + rl > left:
            self._reject("Blocking", f"with {left} cards left in hand you may ignore 1 heavy wound per 2 cards "
                                     f"(rounded down) or 1 light wound per card; {rh} heavy + {rl} light is too many")
        if rh > pend["heavy"] or rl > pend["light"]:
            self._reject("Blocking", f"the Wound Pool has {pend['heavy']} heavy and {pend['light']} light wounds")
        for c in cards:
            self._discard_from_hand(p, c, "Block")
        s.ctx["reduce"] = (rh, rl)
        s.ctx["cancel_effect"] = cancel
        self._log("block", f"{self._names[p]} blocks: ignores {rh} heavy, {rl} light"
                           + (", cancels the effect" if cancel else ""), player=p)
        s.pending = None
        self._advance()

    def _on_no_block(self, e: dict[str, Any]) -> None:
        self._expect(e, "block", "Blocking")
        self._s.pending = None
        self._advance()

    def _on_react(self, e: dict[str, Any]) -> None:
        s = self._s
        pend = self._expect(e, "reaction", "Reactions")
        p = pend["player"]
        if e["name"] not in pend["options"]:
            self._reject("Reactions", f"{e['name']!r} is not a Reaction {self._names[p]} can play now; "
                                      f"options: {pend['options']!r}")
        sp = self.setup.fighters[p].special(e["name"])
        self._take_payment(p, sp.cost, e["pay"], "Reactions", sp.name)
        self._log("reaction", f"{self._names[p]} reacts with {sp.name}", player=p, name=sp.name)
        s.pending = None
        ctx = s.ctx
        saved = ctx["queue"] if "queue" in ctx else ()
        ctx["queue"] = tuple((eff, p) for eff in sp.effect)
        if not self._run_queue():
            self._reject("Reactions", "a Reaction's effect must resolve at once")
        ctx["queue"] = saved
        self._advance()

    def _on_no_reaction(self, e: dict[str, Any]) -> None:
        self._expect(e, "reaction", "Reactions")
        self._s.pending = None
        self._advance()

    def _on_choose(self, e: dict[str, Any]) -> None:
        s = self._s
        pend = self._expect(e, "choice", "Effects")
        if e["option"] not in pend["options"]:
            self._reject("Effects", f"{e['option']!r} is not one of the options {pend['options']!r}")
        s.pending = None
        ctx = s.ctx
        eff, actor = ctx["queue"][0]
        self._chooser = pend["player"]
        done = EFFECT_OPS[eff.op](self, eff, actor, e["option"])
        self._chooser = None
        if done:
            ctx["queue"] = ctx["queue"][1:]
        if s.pending is None:
            self._advance()

    def _on_resolve_manual(self, e: dict[str, Any]) -> None:
        s = self._s
        self._expect(e, "manual", "Golden Rule")
        s.pending = None
        s.ctx["queue"] = s.ctx["queue"][1:]
        self._log("manual", "manual effect carried out" + (f": {e['note']}" if e.get("note") else ""))
        self._advance()

    def _on_discard(self, e: dict[str, Any]) -> None:
        s = self._s
        pend = self._expect(e, "discard", "Hand Limit")
        self._discard_from_hand(pend["player"], e["card"], "Hand Limit")
        s.pending = None
        self._advance()

    # ------------------------------------------------------------------ the Knockdown Test
    def _on_knockdown_test(self, e: dict[str, Any]) -> None:
        s = self._s
        self._expect(e, "knockdown_offer", "Knockdown Test")
        if not e["initiate"]:
            s.pending = None
            self._advance()
            return
        d = s.ctx["defender"]
        me = s.players[d]
        s.pending = {"kind": "knockdown_test", "player": d, "attacker": e["player"], "heavy": me.heavy,
                     "light": me.light, "variant": self.setup.variant}
        self._log("knockdown", f"Knockdown Test for {self._names[d]}: {me.heavy} heavy + {me.light} light cubes",
                  player=d, heavy=me.heavy, light=me.light)

    def _on_tower(self, e: dict[str, Any]) -> None:
        pend = self._expect(e, "knockdown_test", "Knockdown Test")
        if pend["variant"] != "tower":
            self._reject("Knockdown Test", "this match plays the dice variant: record the three dice")
        self._test_result(pend, e["passed"], f"tower ({e['source']})")

    def _on_dice(self, e: dict[str, Any]) -> None:
        pend = self._expect(e, "knockdown_test", "Knockdown Test - Dice Variant")
        total = sum(e["dice"])
        wounds = pend["heavy"] + pend["light"]
        self._test_result(pend, total >= wounds, f"dice {e['dice']} = {total} against {wounds} wounds")

    def _test_result(self, pend: dict[str, Any], passed: bool, how: str) -> None:
        s = self._s
        d = pend["player"]
        if passed:
            me = s.players[d]
            lost = me.light // 2
            self._log("knockdown", f"{self._names[d]} passes the Knockdown Test ({how}): discards {lost} light "
                                   "wounds (half, rounded down)", player=d, passed=True)
            self._wound(d, 0, -lost, "Knockdown Test passed")
            s.pending = None
            self._advance()
        else:
            self._log("knockdown", f"{self._names[d]} fails the Knockdown Test ({how})", player=d, passed=False)
            self._end_round(1 - d, "ko")

    # ------------------------------------------------------------------ rounds
    def _end_round_deck_out(self) -> None:
        s = self._s
        a, b = s.players
        if a.heavy != b.heavy:
            winner, why = (0 if a.heavy < b.heavy else 1), "fewest heavy wounds"
        elif a.light != b.light:
            winner, why = (0 if a.light < b.light else 1), "fewest light wounds"
        else:
            winner, why = s.active, "tie: the player starting their turn"
        self._log("round", f"the Attack deck is out: {self._names[winner]} wins the round ({why})", player=winner)
        self._end_round(winner, "deck_out")

    def _end_round(self, winner: int, reason: str) -> None:
        s = self._s
        loser = 1 - winner
        s.rounds = s.rounds + ({
            "round": s.round, "winner": winner, "reason": reason,
            "wounds": [[p.heavy, p.light] for p in s.players],
        },)
        s.ctx = None
        s.pending = None
        s.combo = None
        s.players[winner].victories += 1
        if s.players[winner].victories >= 2:
            s.winner = winner
            s.phase = "finished"
            self._log("match", f"{self._names[winner]} wins the match", player=winner)
            return
        self._log("round", f"{self._names[winner]} wins round {s.round} ({reason})", player=winner)
        lp = s.players[loser]
        if lp.face_down:
            lp.face_up = lp.face_up + (lp.face_down,)
            self._log("skill", f"{self._names[loser]} reveals {lp.face_down}", player=loser)
            lp.face_down = None
        s.round += 1
        for i, p in enumerate(s.players):
            p.heavy = p.light = 0
            p.hand = []
            p.hand_code = 0
            p.space = self.setup.starts[i]
        s.row = []
        s.discard = ()
        s.candles = []
        s.deck = self._full_deck(with_candles=True)
        s.first = s.active = loser
        s.turn += 1
        self._start_turn()

    # ------------------------------------------------------------------ referee adjustments
    def _adjust(self, etype: str, e: dict[str, Any]) -> None:
        s = self._s
        reason = e.get("reason", "")
        if etype == "adjust_wounds":
            p = e["player"]
            h, li = e.get("heavy", 0), e.get("light", 0)
            me = s.players[p]
            if me.heavy + h < 0 or me.light + li < 0:
                self._reject("Adjustments", f"{self._names[p]} has {me.heavy} heavy and {me.light} light wounds")
            self._wound(p, h, li, reason or "referee")
            return
        if s.phase not in ("playing",):
            self._reject("Adjustments", "adjustments are recorded once the match is under way")
        if etype == "place_fighter":
            p, sp = e["player"], e["space"]
            if sp not in self.setup.arena.by_id:
                self._reject("Adjustments", f"{sp!r} is not a space of this arena")
            if self._occupant(sp) not in (None, p):
                self._reject("Adjustments", f"{sp!r} holds {self._names[1 - p]}")
            self._place(p, sp, reason or "referee")
        elif etype == "discard_card":
            self._discard_from_hand(e["player"], e["card"], reason or "referee")
            if s.pending and s.pending["kind"] == "discard" and len(s.players[e["player"]].hand) <= HAND_LIMIT:
                s.pending = None
                self._advance()
        elif etype == "adjust_tokens":
            token, delta = e["token"], e["delta"]
            if ("player" in e) == ("space" in e):
                self._reject("Adjustments", "a token adjustment names a 'player' or a 'space', exactly one")
            if "player" in e:
                have = s.players[e["player"]].tokens.get(token, 0)
                if have + delta < 0:
                    self._reject("Adjustments", f"{self._names[e['player']]} has {have} {token} tokens")
                if delta > 0 and token in s.token_supply:
                    before = have
                    self._tokens(e["player"], token, delta)
                    if s.players[e["player"]].tokens.get(token, 0) - before != delta:
                        self._reject("Adjustments", f"the box has only {s.token_supply[token]} {token} tokens")
                else:
                    self._tokens(e["player"], token, delta)
            else:
                sp = e["space"]
                if sp not in self.setup.arena.by_id:
                    self._reject("Adjustments", f"{sp!r} is not a space of this arena")
                here = s.space_tokens.setdefault(sp, {})
                if here.get(token, 0) + delta < 0:
                    self._reject("Adjustments", f"{sp} has {here.get(token, 0)} {token} tokens")
                if delta > 0 and token in s.token_supply:
                    for _ in range(delta):
                        if not self._supply_left(token):
                            self._reject("Adjustments", f"the box has only {s.token_supply[token]} {token} tokens")
                        here[token] = here.get(token, 0) + 1
                else:
                    here[token] = here.get(token, 0) + delta
                if not here.get(token):
                    here.pop(token, None)
                if not here:
                    del s.space_tokens[sp]
                self._log("token", f"{sp}: {delta:+d} {token}", space=sp, token=token, delta=delta)

    # ------------------------------------------------------------------ legal actions
    # Every decision event legal now (reveals are listed by card name; skill deals are physical).
    legal_actions = legal_actions

    def snapshot(self) -> dict[str, Any]:
        return snapshot(self)


# Event type -> handler, and (action kind, stage) -> step of the resolution driver: looked up
# once here rather than by building method names for every event.
_HANDLERS = {t: getattr(Match, "_on_" + t) for t in SCHEMA if t not in ADJUSTMENTS}
_STAGES = {
    tuple(name[1:].split("_", 1)): fn
    for name, fn in vars(Match).items()
    if name.startswith(("_move_", "_attack_")) and callable(fn)
}


def _own(event: dict[str, Any]) -> dict[str, Any]:
    """A private copy of an event (deep where it nests), so callers cannot change history."""
    out = {}
    for k, v in event.items():
        if isinstance(v, list):
            v = v[:]
        elif isinstance(v, dict):
            v = json.loads(json.dumps(v))
        out[k] = v
    return out


def _parse_line(line: str, n: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as err:
        raise RecordError(n, f"not valid JSON: {err.msg} (column {err.colno})") from None
