"""What pays for what: Special Attack costs against the symbols of a hand.

Whether a hand can pay a cost depends only on the symbols its cards carry, not on which cards
carry them: cards that pay exist exactly when every cost symbol can be matched to a symbol of
its own in the hand (the cards so used are then all used, as the Combo rule asks). So a hand
is reduced to its symbol multiset, packed into one int (four bits a symbol), and the answers
are memoised on that. Hands repeat their symbols far more often than their cards.

A :class:`CostBook` belongs to one set-up: its card symbols and its fighters' costs never
change, so every match played with the set-up shares one book (``CostBook.of(setup)``) and a
simulation of many matches warms it once. Pure: the memos only ever save work.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Iterable

from assistant.rules.schema import AttackCard, CostItem

BITS = 4  # per symbol: a hand of at most 7 two-symbol cards holds at most 14 of one symbol
MASK = (1 << BITS) - 1
WILD = "wild"
MEMO_LIMIT = 50_000  # entries per memo; cleared when full (hands repeat, so this is rarely reached)
BOOKS_KEPT = 8  # set-ups whose books are kept (a service plays one; tests and tools a few)

class CostBook:
    """Memoised payment questions for one set-up's cards and costs."""

    _books: "OrderedDict[int, tuple[object, CostBook]]" = OrderedDict()

    def __init__(self, cards: Iterable[AttackCard]) -> None:
        self._shift: dict[str, int] = {}
        self.card_codes: dict[str, int] = {c.name: self.code(c.symbols) for c in cards}
        self._costs: dict[int, tuple[tuple[CostItem, ...], tuple[frozenset[str] | None, ...]]] = {}
        self._can_pay: dict[tuple[int, int], bool] = {}
        # Memos that Match fills (they need its rules): payments by hand of catalog cards, and
        # whether a Combo has anything to do.
        self.payments: dict[tuple, tuple[tuple[str, ...], ...]] = {}
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
        key = (code, id(cost))
        known = self._can_pay.get(key)
        if known is None:
            counts = {sym: (code >> shift) & MASK for sym, shift in self._shift.items()}
            known = _matchable(self._compiled(cost), {s: n for s, n in counts.items() if n})
            if len(self._can_pay) >= MEMO_LIMIT:
                self._can_pay.clear()
            self._can_pay[key] = known
        return known

    def _compiled(self, cost: tuple[CostItem, ...]) -> tuple[frozenset[str] | None, ...]:
        kept = self._costs.get(id(cost))
        if kept is None or kept[0] is not cost:
            kept = self._costs[id(cost)] = (
                cost, tuple(None if WILD in i.any_of else frozenset(i.any_of) for i in cost))
        return kept[1]


def remember(memo: dict, key: object, value: object) -> None:
    """Store in a bounded memo (cleared when full: a match's hands repeat, so it rarely is)."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value


def _matchable(items: tuple[frozenset[str] | None, ...], slots: dict[str, int]) -> bool:
    """Whether every cost item gets a symbol of its own from ``slots`` (a Wild symbol fits any item)."""
    if not items:
        return True
    accepts, rest = items[0], items[1:]
    for sym, n in slots.items():
        if n and (accepts is None or sym == WILD or sym in accepts):
            slots[sym] = n - 1
            ok = _matchable(rest, slots)
            slots[sym] = n
            if ok:
                return True
    return False
