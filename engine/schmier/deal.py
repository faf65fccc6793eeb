"""The deal of one hand: who deals, the scores going in, six hands of 6 and the dealer's 17 kept cards."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.cards import Card, CardError, check_no_duplicates, deck_with_joker, parse_card
from engine.common import JSON
from engine.errors import InputError
from engine.schmier.ranks import SEATS, TEAMS
from engine.schmier.settings import HAND_SIZE, KEPT_SIZE


class DealError(InputError):
    """A deal that cannot be real: wrong counts, a card twice or missing, a dealer who is not a seat."""


@dataclass(frozen=True, slots=True)
class Deal:
    dealer: int
    scores: tuple[int, int, int]
    hands: tuple[tuple[Card, ...], ...]
    kept: tuple[Card, ...]
    """The cards the dealer keeps face down, in the order they are given out as replacements."""

    def __post_init__(self) -> None:
        if isinstance(self.dealer, bool) or not isinstance(self.dealer, int) or not 0 <= self.dealer < SEATS:
            raise DealError(f"dealer {self.dealer!r} is not a seat: seats are 0 to {SEATS - 1}")
        if len(self.scores) != TEAMS or any(isinstance(s, bool) or not isinstance(s, int) for s in self.scores):
            raise DealError(f"scores {list(self.scores)!r}: give 3 whole numbers, one per team")
        if len(self.hands) != SEATS:
            raise DealError(f"{len(self.hands)} hands dealt: Schmier deals one hand to each of {SEATS} seats")
        for seat, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZE:
                raise DealError(f"seat {seat + 1} was dealt {len(hand)} cards: each seat gets {HAND_SIZE}")
        if len(self.kept) != KEPT_SIZE:
            raise DealError(f"the dealer keeps {len(self.kept)} cards: the dealer keeps the other {KEPT_SIZE}")
        everything = [card for hand in self.hands for card in hand] + list(self.kept)
        try:
            check_no_duplicates(everything)
        except CardError as error:
            raise DealError(f"{error}; check the deal") from None
        missing = sorted(set(deck_with_joker()) - set(everything), key=Card.sort_key)
        if missing:  # cannot happen with 53 distinct cards, but say so plainly if it ever does
            raise DealError(f"the deal lacks {' '.join(map(str, missing))}: deal all 53 cards")

    def to_json(self) -> dict[str, JSON]:
        return {
            "dealer": self.dealer,
            "scores": list(self.scores),
            "hands": [[str(card) for card in hand] for hand in self.hands],
            "kept": [str(card) for card in self.kept],
        }


def deal_from_json(data: Mapping[str, JSON]) -> Deal:
    """Read the deal part of a hand file; other keys (``game``, ``actions``) are ignored here."""
    if not isinstance(data, Mapping):
        raise DealError("a Schmier deal is an object with dealer, scores, hands and kept")
    for key in ("dealer", "scores", "hands", "kept"):
        if key not in data:
            raise DealError(f"the deal has no {key!r}: a deal gives dealer, scores, hands and kept")
    scores = data["scores"]
    if not isinstance(scores, list):
        raise DealError(f"scores {scores!r}: give a list of 3 whole numbers, one per team")
    hands = data["hands"]
    if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
        raise DealError("hands: give a list of 6 lists of 6 cards, one per seat")
    return Deal(
        dealer=data["dealer"],
        scores=tuple(scores),  # checked by Deal
        hands=tuple(_cards(hand, f"seat {seat + 1}'s hand") for seat, hand in enumerate(hands)),
        kept=_cards(data["kept"], "kept"),
    )


def _cards(tokens: JSON, where: str) -> tuple[Card, ...]:
    if not isinstance(tokens, list) or not all(isinstance(token, str) for token in tokens):
        raise DealError(f'{where}: give a list of card texts such as "10H", "JK"')
    try:
        return tuple(parse_card(token) for token in tokens)
    except CardError as error:
        raise DealError(f"{where}: {error}") from None


def random_deal(rng: random.Random, dealer: int, scores: Sequence[int] = (0, 0, 0)) -> Deal:
    """Shuffle the 53 cards with ``rng`` and deal 6 to each seat; the dealer keeps the other 17."""
    deck = list(deck_with_joker())
    rng.shuffle(deck)
    hands = tuple(tuple(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(SEATS))
    return Deal(dealer, (scores[0], scores[1], scores[2]), hands, tuple(deck[SEATS * HAND_SIZE :]))


def arrange_deal(dealer: int, hands: Sequence[str], kept_first: str = "", scores: Sequence[int] = (0, 0, 0)) -> Deal:
    """A scripted deal: six hands as card texts ("AH KH 2C …"), the kept cards given out first (in order),
    and the rest of the 53 cards kept after them in deck order."""
    dealt = tuple(_cards(hand.split(), f"seat {seat + 1}'s hand") for seat, hand in enumerate(hands))
    first = _cards(kept_first.split(), "kept")
    used = {card for hand in dealt for card in hand} | set(first)
    rest = tuple(card for card in deck_with_joker() if card not in used)
    return Deal(dealer, (scores[0], scores[1], scores[2]), dealt, first + rest)
