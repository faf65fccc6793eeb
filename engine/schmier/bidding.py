"""Bidding: one chance each, clockwise from the dealer's left, strictly higher, 3 to 6."""

from __future__ import annotations

from engine.common import IllegalAction
from engine.phrases import PhraseTemplate
from engine.schmier.ranks import SEATS, next_seat
from engine.schmier.settings import MAX_BID, MIN_BID

BID_RANGE = PhraseTemplate("schmier.illegal.bid_range", "a bid of {amount} is out of range: bids are {low} to {high}")
BID_HIGHER = PhraseTemplate(
    "schmier.illegal.bid_higher", "a bid must be higher than seat {seat}'s {high}: bid {next} or more, or pass"
)
BID_MOST = PhraseTemplate("schmier.illegal.bid_most", "seat {seat} bid {high}, the most there is: pass")


def bidding_order(dealer: int) -> tuple[int, ...]:
    """The seats in the order they bid: the dealer's left first, the dealer last."""
    return tuple(next_seat(dealer, step) for step in range(1, SEATS + 1))


def legal_bids(high: int | None) -> range:
    """The amounts a player may bid over the current highest bid (None: nobody has bid)."""
    return range(MIN_BID if high is None else high + 1, MAX_BID + 1)


def check_bid(amount: int, high: int | None, high_seat: int | None) -> None:
    if not MIN_BID <= amount <= MAX_BID:
        raise IllegalAction(BID_RANGE(amount=amount, low=MIN_BID, high=MAX_BID))
    if high is not None and amount <= high:
        raise IllegalAction(BID_HIGHER(seat=high_seat, high=high, next=high + 1) if high < MAX_BID
                            else BID_MOST(seat=high_seat, high=high))
