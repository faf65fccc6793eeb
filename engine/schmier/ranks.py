"""Card order and suits under a trump suit: the bauers, the joker, effective suits and card points."""

from __future__ import annotations

from engine.cards import JOKER, Card, Rank, Suit

SEATS = 6
TEAMS = 3

_SAME_COLOUR = {
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
}

# Trump, high to low: A K Q right-bauer left-bauer 10 9 … 2 joker. Plain suits: A K Q J 10 … 2.
_TRUMP_STRENGTH = {Rank.ACE: 16, Rank.KING: 15, Rank.QUEEN: 14, **{Rank(v): v for v in range(2, 11)}}
_RIGHT_BAUER_STRENGTH = 13
_LEFT_BAUER_STRENGTH = 12
_JOKER_STRENGTH = 1
_PLAIN_STRENGTH = {Rank.ACE: 14, **{Rank(v): v for v in range(2, 14)}}

CARD_POINTS = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10, Rank.JOKER: 1}
"""Card points towards Game: 4 × 20 + 1 for the joker = 81 in the deck."""


def team_of(seat: int) -> int:
    """Partners sit opposite: seats (0, 3), (1, 4), (2, 5) are teams 0, 1, 2."""
    return seat % TEAMS


def team_seats(team: int) -> tuple[int, int]:
    return (team, team + TEAMS)


def next_seat(seat: int, steps: int = 1) -> int:
    """Clockwise: seat i, then i + 1 mod 6."""
    return (seat + steps) % SEATS


def right_bauer(trump: Suit) -> Card:
    return Card(Rank.JACK, trump)


def left_bauer(trump: Suit) -> Card:
    return Card(Rank.JACK, _SAME_COLOUR[trump])


def is_left_bauer(card: Card, trump: Suit) -> bool:
    return card.rank is Rank.JACK and card.suit is _SAME_COLOUR[trump]


def is_trump(card: Card, trump: Suit) -> bool:
    """Trump: every card of the trump suit, the left bauer and the joker."""
    return card.is_joker or card.suit is trump or is_left_bauer(card, trump)


def effective_suit(card: Card, trump: Suit) -> Suit:
    """The suit a card leads and follows: the left bauer and the joker belong to trump and to no other suit."""
    if is_trump(card, trump):
        return trump
    assert card.suit is not None
    return card.suit


def strength(card: Card, trump: Suit) -> int:
    """Rank within the card's effective suit, higher beats lower; trumps and plain cards are not compared."""
    if card.is_joker:
        return _JOKER_STRENGTH
    if card.rank is Rank.JACK:
        if card.suit is trump:
            return _RIGHT_BAUER_STRENGTH
        if is_left_bauer(card, trump):
            return _LEFT_BAUER_STRENGTH
    if card.suit is trump:
        return _TRUMP_STRENGTH[card.rank]
    return _PLAIN_STRENGTH[card.rank]


def protected_trumps(trump: Suit) -> tuple[Card, Card, Card, Card, Card]:
    """The trumps the dealer may never discard and that carry a point each: A, right and left bauer, 2, joker."""
    return (Card(Rank.ACE, trump), right_bauer(trump), left_bauer(trump), Card(Rank.TWO, trump), JOKER)


def card_points(card: Card) -> int:
    return CARD_POINTS.get(card.rank, 0)


def trump_name(card: Card, trump: Suit) -> str:
    """A card in words, saying what it is under this trump: 'the left bauer (jack of diamonds)', 'the 2 of trump'."""
    if card.is_joker:
        return "the joker"
    if card.rank is Rank.JACK and card.suit is trump:
        return f"the right bauer ({card.name})"
    if is_left_bauer(card, trump):
        return f"the left bauer ({card.name})"
    if card.suit is trump and card.rank in (Rank.ACE, Rank.TWO):
        return f"the {card.rank.word} of trump ({card.name})"
    return f"the {card.name}"
