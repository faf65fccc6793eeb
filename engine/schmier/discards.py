"""Discard and replace: non-dealers throw 0–3 non-trumps; the dealer takes up the kept cards and keeps 6.

The dealer may discard a trump only while holding more than 6 trumps, and never a protected trump (ace, right
bauer, left bauer, 2, joker). Read card by card, that means the dealer who discards any trump keeps 6 trumps.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.common import IllegalAction
from engine.schmier.ranks import is_trump, protected_trumps, trump_name
from engine.schmier.settings import HAND_SIZE, MAX_DISCARD


@dataclass(frozen=True, slots=True)
class DiscardOptions:
    """What a seat may discard now: between ``fewest`` and ``most`` cards of ``allowed``, of which at most
    ``most_trumps`` trumps."""

    seat: int
    fewest: int
    most: int
    allowed: tuple[Card, ...]
    most_trumps: int

    def combinations(self, trump: Suit) -> Iterator[tuple[Card, ...]]:
        """Every legal discard, each once (for the dealer this can be many thousands)."""
        for count in range(self.fewest, self.most + 1):
            for cards in itertools.combinations(self.allowed, count):
                if sum(is_trump(card, trump) for card in cards) <= self.most_trumps:
                    yield cards


def player_options(seat: int, hand: Sequence[Card], trump: Suit) -> DiscardOptions:
    return DiscardOptions(seat, 0, MAX_DISCARD, tuple(c for c in hand if not is_trump(c, trump)), 0)


def dealer_options(seat: int, hand: Sequence[Card], trump: Suit) -> DiscardOptions:
    protected = set(protected_trumps(trump))
    trumps = sum(is_trump(card, trump) for card in hand)
    count = len(hand) - HAND_SIZE
    allowed = tuple(card for card in hand if card not in protected)
    return DiscardOptions(seat, count, count, allowed, max(0, trumps - HAND_SIZE))


def _check_in_hand(seat: int, hand: Sequence[Card], cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise IllegalAction(f"the {card.name} is named twice: discard each card once")
        seen.add(card)
        if card not in hand:
            raise IllegalAction(f"seat {seat + 1} does not hold the {card.name}")


def check_player_discard(seat: int, hand: Sequence[Card], cards: Sequence[Card], trump: Suit) -> None:
    if len(cards) > MAX_DISCARD:
        raise IllegalAction(f"seat {seat + 1} may discard at most {MAX_DISCARD} cards, not {len(cards)}")
    _check_in_hand(seat, hand, cards)
    trumps = [card for card in cards if is_trump(card, trump)]
    if trumps:
        named = ", ".join(trump_name(card, trump) for card in trumps)
        raise IllegalAction(f"seat {seat + 1} may not discard trump: {named}")


def check_dealer_discard(seat: int, hand: Sequence[Card], cards: Sequence[Card], trump: Suit) -> None:
    count = len(hand) - HAND_SIZE
    if len(cards) != count:
        raise IllegalAction(
            f"the dealer holds {len(hand)} cards and must discard exactly {count} to keep {HAND_SIZE}, not {len(cards)}"
        )
    _check_in_hand(seat, hand, cards)
    protected = set(protected_trumps(trump))
    for card in cards:
        if card in protected:
            raise IllegalAction(f"the dealer may not discard {trump_name(card, trump)}")
    held = sum(is_trump(card, trump) for card in hand)
    thrown = sum(is_trump(card, trump) for card in cards)
    if thrown > max(0, held - HAND_SIZE):
        if held <= HAND_SIZE:
            raise IllegalAction(
                f"the dealer holds {held} trumps and may discard a trump only when holding more than {HAND_SIZE}"
            )
        raise IllegalAction(
            f"the dealer holds {held} trumps and may discard only {held - HAND_SIZE} of them, keeping {HAND_SIZE}"
        )
