"""Bidding: one chance each, clockwise from the dealer's left, strictly higher, 3 to 6."""

from __future__ import annotations

from engine.common import IllegalAction
from engine.schmier.ranks import SEATS, next_seat
from engine.schmier.settings import MAX_BID, MIN_BID


def bidding_order(dealer: int) -> tuple[int, ...]:
    """The seats in the order they bid: the dealer's left first, the dealer last."""
    return tuple(next_seat(dealer, step) for step in range(1, SEATS + 1))


def legal_bids(high: int | None) -> range:
    """The amounts a player may bid over the current highest bid (None: nobody has bid)."""
    return range(MIN_BID if high is None else high + 1, MAX_BID + 1)


def check_bid(amount: int, high: int | None, high_seat: int | None) -> None:
    if not MIN_BID <= amount <= MAX_BID:
        raise IllegalAction(f"a bid of {amount} is out of range: bids are {MIN_BID} to {MAX_BID}")
    if high is not None and amount <= high:
        raise IllegalAction(
            f"a bid must be higher than seat {_from_one(high_seat)}'s {high}: bid {high + 1} or more, or pass"
            if high < MAX_BID
            else f"seat {_from_one(high_seat)} bid {high}, the most there is: pass"
        )


def _from_one(seat: int | None) -> int | None:
    """A seat as people count it (from 1)."""
    return None if seat is None else seat + 1
