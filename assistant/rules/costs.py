"""What pays for what: Special Attack costs against the symbols of a hand.

Whether a hand can pay a cost depends only on the symbols its cards carry, not on which cards
carry them: cards that pay exist exactly when every cost symbol can be matched to a symbol of
its own in the hand (the cards so used are then all used, as the Combo rule asks). So a hand
is reduced to its symbol multiset, packed into one int (six bits a symbol: five for the count
and a guard bit), and a cost to the few symbol multisets that would pay it. "This hand holds
at least that multiset" is then one subtraction on the packed ints (SWAR: the guard bits catch
any field that would go negative).

A :class:`CostBook` belongs to one set-up: its card symbols and its fighters' costs never
change, so every match played with the set-up shares one book (``CostBook.of(setup)``) and a
simulation of many matches warms it once. Pure: the memos only ever save work.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from typing import Callable, Iterable

from assistant.rules.schema import AttackCard, CostItem

BITS = 6  # per symbol: a count up to 31 (a hand over its limit, 7 two-symbol cards, holds 14) + a guard bit
MASK = (1 << (BITS - 1)) - 1
GUARD = 1 << (BITS - 1)
WILD = "wild"
MEMO_LIMIT = 50_000  # entries per memo; cleared when full (hands repeat, so this is rarely reached)
BOOKS_KEPT = 8  # set-ups whose books are kept (a service plays one; tests and tools a few)


class CostBook:
    """Memoised payment questions for one set-up's cards and costs."""

    _books: "OrderedDict[int, tuple[object, CostBook]]" = OrderedDict()

    def __init__(self, cards: Iterable[AttackCard]) -> None:
        self._shift: dict[str, int] = {WILD: 0}  # symbol -> bit offset of its field
        self.card_codes: dict[str, int] = {c.name: self.code(c.symbols) for c in cards}
        self._costs: dict[int, tuple] = {}  # id(cost) -> what _compile made of it
        # Memos that Match fills (they need its rules): payments by hand of catalog cards,
        # whether some cards pay a cost exactly, and whether a Combo has anything to do.
        self.payments: dict[tuple, tuple[tuple[str, ...], ...]] = {}
        self.pays: dict[tuple, bool] = {}
        self.combos: dict[tuple, bool] = {}

    @classmethod
    def of(cls, setup: object, cards: Callable[[], Iterable[AttackCard]]) -> "CostBook":
        """The book of this set-up object, made from ``cards()`` the first time."""
        key = id(setup)
        kept = cls._books.get(key)
        if kept is not None and kept[0] is setup:
            cls._books.move_to_end(key)
            return kept[1]
        book = cls(cards())
        cls._books[key] = (setup, book)  # holding the set-up keeps its id from being reused
        while len(cls._books) > BOOKS_KEPT:
            cls._books.popitem(last=False)
        return book

    # ------------------------------------------------------------------ codes
    def code(self, symbols: Iterable[str]) -> int:
        """The packed symbol counts of one card (or of any list of symbols)."""
        out = 0
        for sym in symbols:
            shift = self._shift.get(sym)
            if shift is None:
                shift = self._shift[sym] = BITS * len(self._shift)
            out += 1 << shift
        return out

    def count(self, code: int, symbol: str) -> int:
        """How many of ``symbol`` a packed code holds."""
        shift = self._shift.get(symbol)
        return 0 if shift is None else (code >> shift) & MASK

    # ------------------------------------------------------------------ questions
    def can_pay(self, code: int, cost: tuple[CostItem, ...]) -> bool:
        """Whether a hand with these packed symbols can pay ``cost``."""
        kept = self._costs.get(id(cost))
        if kept is None or kept[0] is not cost or kept[1] != len(self._shift):
            kept = self._compile(cost)
        guards = kept[2]
        high = code | guards
        for need in kept[3]:
            if (high - need) & guards == guards:  # no field of the hand fell below the need
                return True
        return False

    def could_pay(self, code: int, cost: tuple[CostItem, ...]) -> bool:
        """Whether a card with this packed code could pay some symbol of ``cost`` (a card that
        cannot is never part of a payment: every card paid must pay a symbol)."""
        kept = self._costs.get(id(cost))
        if kept is None or kept[0] is not cost or kept[1] != len(self._shift):
            kept = self._compile(cost)
        return bool(code & kept[4])

    def _compile(self, cost: tuple[CostItem, ...]) -> tuple:
        """``(cost, symbols known, guard bits, the packed symbol multisets that pay it (any one),
        the mask of every symbol field that pays some item of it)``, kept by the cost's id."""
        for item in cost:  # make sure every symbol named has its field
            self.code(sym for sym in item.any_of if sym not in self._shift)
        known = list(self._shift)
        choices = [known if WILD in item.any_of else [*item.any_of, WILD] for item in cost]
        needs = {sum(1 << self._shift[sym] for sym in pick) for pick in itertools.product(*choices)}
        guards = sum(GUARD << shift for shift in self._shift.values())
        useful = sum(MASK << self._shift[sym] for sym in {sym for pick in choices for sym in pick})
        kept = self._costs[id(cost)] = (cost, len(self._shift), guards, tuple(sorted(needs)), useful)
        return kept


def remember(memo: dict, key: object, value: object) -> None:
    """Store in a bounded memo (cleared when full: a match's hands repeat, so it rarely is)."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
