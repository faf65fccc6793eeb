"""Two-card hands: points, the four classes, and how two hands compare.

Classes, highest first: a pair (A-A high … 2-2 low), two pictures (big công, all equal), Kong (small công, A+9)
and points 9 down to 0. Within a class the higher pair or points wins; anything else is a copy (a tie).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from engine.cards import Card, CardError, CardsText, Rank
from engine.phrases import Phrase, PhraseTemplate

PICTURES = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})
ZERO_RANKS = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})


def card_points(card: Card) -> int:
    """A = 1, 2-9 face value, 10/J/Q/K = 0."""
    if card.is_joker:
        raise CardError("Bài Bửu is played without the joker: take JK out of the deck")
    return 0 if card.rank in ZERO_RANKS else int(card.rank)


def rank_order(rank: Rank) -> int:
    """Rank with the ace high: 2 → 2 … K → 13, A → 14 (pairs, naturals and the highest card all use it)."""
    return 14 if rank is Rank.ACE else int(rank)


class HandClass(IntEnum):
    """The class of a two-card hand; a higher value beats a lower one."""

    POINTS = 0
    KONG = 1
    TWO_PICTURES = 2
    PAIR = 3

    @property
    def label(self) -> str:
        return _CLASS_LABELS[self]


_CLASS_LABELS = {
    HandClass.POINTS: "points",
    HandClass.KONG: "Kong",
    HandClass.TWO_PICTURES: "two pictures",
    HandClass.PAIR: "pair",
}


HAND_WITH_CARDS = PhraseTemplate("hand.with_cards", "{value} ({cards})")
PAIR_OF = PhraseTemplate("hand.pair_of", "pair of {rank}s")
POINTS = PhraseTemplate("hand.points", "{n} points")
ONE_POINT = PhraseTemplate("hand.one_point", "{n} point")
KONG = PhraseTemplate("hand.kong", "Kong")
TWO_PICTURES = PhraseTemplate("hand.two_pictures", "two pictures")


@dataclass(frozen=True, slots=True)
class TwoCardHand:
    """A two-card hand (high or low). Construct with ``TwoCardHand.of(a, b)``; the cards keep the order given."""

    cards: tuple[Card, Card]

    @staticmethod
    def of(first: Card, second: Card) -> TwoCardHand:
        return TwoCardHand((first, second))

    def __post_init__(self) -> None:
        if len(self.cards) != 2:
            raise CardError(f"a high or low hand holds 2 cards, not {len(self.cards)}")
        first, second = self.cards
        if first.rank is second.rank and first.suit is second.suit:
            raise CardError(f"card {first} appears twice: one deck holds each card once")
        if first.suit is None or second.suit is None:
            raise CardError("Bài Bửu is played without the joker: take JK out of the deck")

    @property
    def points(self) -> int:
        return (card_points(self.cards[0]) + card_points(self.cards[1])) % 10

    @property
    def hand_class(self) -> HandClass:
        first, second = self.cards[0].rank, self.cards[1].rank
        if first == second:
            return HandClass.PAIR
        if first in PICTURES and second in PICTURES:
            return HandClass.TWO_PICTURES
        if {first, second} == {Rank.ACE, Rank.NINE}:
            return HandClass.KONG
        return HandClass.POINTS

    @property
    def strength(self) -> tuple[int, int]:
        """A key that orders hands exactly as the rules do: equal keys are a copy."""
        hand_class = self.hand_class
        if hand_class is HandClass.PAIR:
            return (hand_class, rank_order(self.cards[0].rank))
        if hand_class is HandClass.POINTS:
            return (hand_class, self.points)
        return (hand_class, 0)

    @property
    def highest_rank(self) -> int:
        """The higher of the two cards by rank, ace high (the copy rule ``highest_card`` uses it)."""
        return max(rank_order(card.rank) for card in self.cards)

    def describe(self) -> Phrase:
        """The class and value in a dealer's words, with the cards: ``8 points (Q+8)``, ``pair of 2s (2+2)``."""
        return HAND_WITH_CARDS(value=self.value_text, cards=self.cards_text)

    @property
    def value_text(self) -> Phrase:
        hand_class = self.hand_class
        if hand_class is HandClass.PAIR:
            return PAIR_OF(rank=self.cards[0].rank.text)
        if hand_class is HandClass.POINTS:
            return (ONE_POINT if self.points == 1 else POINTS)(n=self.points)
        return KONG() if hand_class is HandClass.KONG else TWO_PICTURES()

    @property
    def cards_text(self) -> CardsText:
        """``QH+8S`` in records and logs; a screen shows ``Q♥+8♠``."""
        return CardsText(self.cards, "+")

    def to_json(self) -> list[str]:
        return [str(card) for card in self.cards]


def compare(first: TwoCardHand, second: TwoCardHand) -> int:
    """1 if ``first`` ranks above ``second``, -1 if below, 0 for a copy."""
    a, b = first.strength, second.strength
    return (a > b) - (a < b)


def is_mis_set(high: TwoCardHand, low: TwoCardHand) -> bool:
    """The low hand ranks above the high hand (equal is allowed). Naturals are exempt: see ``naturals``."""
    return compare(low, high) > 0
