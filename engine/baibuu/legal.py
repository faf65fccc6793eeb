"""What a Bài Bửu round offers now, listed exactly: every seat's sets at every bet the table takes.

A seat may bet any whole number of the table's smallest chip from the table minimum to its maximum (or, with no
maximum, to the most chips any table takes): far too many amounts to write out, so the offer is a sequence that
works them out when asked. Its length, its indexing and ``in`` are exact; ``bets`` is the range of amounts.

>>> from engine.baibuu.actions import Roll, SetSeat
>>> from engine.cards import parse_cards
>>> high, low = parse_cards("AS AH"), parse_cards("KS 9H")
>>> offer = LegalActions((), ((2, high, low),), range(10, 101, 5))
>>> len(offer), offer[0].bet, offer[-1].bet
(19, 10, 100)
>>> SetSeat(2, 55, high, low) in offer, SetSeat(2, 52, high, low) in offer, SetSeat(2, 105, high, low) in offer
(True, False, False)
>>> LegalActions((Roll((1, 2, 3)),), (), range(1, 2)) == (Roll((1, 2, 3)),)
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from engine.baibuu.actions import Action, SetSeat
from engine.cards import Card

SeatChoice = tuple[int, tuple[Card, ...], tuple[Card, ...]]
"""A seat and one way its cards may be set: (seat, high, low)."""


class LegalActions(Sequence[Action]):
    """The actions listed one by one (the roll, the house's), then each seat's set at each bet of ``bets``."""

    __slots__ = ("_index", "bets", "listed", "seat_sets")

    def __init__(self, listed: Sequence[Action], seat_sets: Sequence[SeatChoice], bets: range) -> None:
        self.listed = tuple(listed)
        self.seat_sets = tuple(seat_sets)
        self.bets = bets
        self._index = {seat_set: n for n, seat_set in enumerate(self.seat_sets)}

    def __len__(self) -> int:
        return len(self.listed) + len(self.seat_sets) * len(self.bets)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, index: int | slice) -> Action | tuple[Action, ...]:
        if isinstance(index, slice):
            return tuple(self[n] for n in range(len(self))[index])
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("legal action index out of range")
        if index < len(self.listed):
            return self.listed[index]
        which, bet = divmod(index - len(self.listed), len(self.bets))
        seat, high, low = self.seat_sets[which]
        return SetSeat(seat, self.bets[bet], high, low)

    def __iter__(self) -> Iterator[Action]:
        yield from self.listed
        for seat, high, low in self.seat_sets:
            for bet in self.bets:
                yield SetSeat(seat, bet, high, low)

    def __contains__(self, action: object) -> bool:
        if isinstance(action, SetSeat):
            if type(action.bet) is not int or action.bet not in self.bets:  # a bool or 10.0 is no bet
                return False
            try:
                return (action.seat, action.high, action.low) in self._index
            except TypeError:  # cards given as lists: not an action the offer lists
                return False
        return action in self.listed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(mine == theirs for mine, theirs in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({len(self.listed)} listed, {len(self.seat_sets)} seat sets × bets {self.bets})"
