"""The deal of a Sâm Lốc hand: ten cards to each of 2 to 4 seats (in play order) and the would-be leader."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.cards import Card, check_no_duplicates, parse_cards, standard_deck
from engine.common import JSON
from engine.errors import InputError
from engine.samloc.combos import sort_cards
from engine.samloc.table import CARDS_PER_HAND, MAX_PLAYERS, MIN_PLAYERS


class DealError(InputError):
    """A deal that cannot be played: wrong number of seats or cards, a card twice, a leader who is not seated."""


@dataclass(frozen=True, slots=True)
class Deal:
    hands: tuple[tuple[Card, ...], ...]
    leader: int

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.hands) <= MAX_PLAYERS:
            raise DealError(f"Sâm Lốc deals to {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {len(self.hands)}")
        for seat, hand in enumerate(self.hands):
            if len(hand) != CARDS_PER_HAND:
                raise DealError(f"seat {seat + 1} was dealt {len(hand)} cards; every seat gets {CARDS_PER_HAND}")
            if any(card.is_joker for card in hand):
                raise DealError(f"seat {seat + 1} holds a joker; Sâm Lốc uses the 52-card deck without jokers")
        check_no_duplicates([card for hand in self.hands for card in hand])
        if isinstance(self.leader, bool) or not isinstance(self.leader, int) or not 0 <= self.leader < len(self.hands):
            raise DealError(f"the leader must be a seat from 0 to {len(self.hands) - 1}, not {self.leader!r}")
        object.__setattr__(self, "hands", tuple(sort_cards(hand) for hand in self.hands))

    @property
    def players(self) -> int:
        return len(self.hands)

    def undealt(self) -> tuple[Card, ...]:
        """The cards of the deck nobody holds (they are not used this hand)."""
        dealt = {card for hand in self.hands for card in hand}
        return tuple(card for card in standard_deck() if card not in dealt)

    def to_json(self) -> dict[str, JSON]:
        return {"hands": [[str(card) for card in hand] for hand in self.hands], "leader": self.leader}


def deal_from_json(data: Mapping[str, JSON]) -> Deal:
    """``{"hands": [[10 cards] per seat], "leader": seat}``; bad input raises ``DealError`` saying what to fix."""
    if not isinstance(data, Mapping) or not isinstance(data.get("hands"), list):
        raise DealError('a deal is {"hands": [[10 cards], ... one list per seat], "leader": seat}')
    hands = []
    for seat, hand in enumerate(data["hands"]):
        if not isinstance(hand, list) or not all(isinstance(token, str) for token in hand):
            raise DealError(f'seat {seat + 1}\'s hand must be a list of cards such as ["3S", "10H"], not {hand!r}')
        hands.append(parse_cards(hand))
    return Deal(tuple(hands), data.get("leader"))  # type: ignore[arg-type]  # Deal checks the leader itself


def random_deal(players: int, leader: int, rng: random.Random) -> Deal:
    """A shuffled deal from the 52-card deck with the given source of randomness."""
    deck = list(standard_deck())
    rng.shuffle(deck)
    hands = tuple(tuple(deck[seat * CARDS_PER_HAND : (seat + 1) * CARDS_PER_HAND]) for seat in range(players))
    return Deal(hands, leader)
