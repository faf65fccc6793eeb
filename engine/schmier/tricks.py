"""Following suit and winning tricks, by effective suit (the left bauer and the joker are trump)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.common import IllegalAction
from engine.schmier.ranks import effective_suit, is_trump, strength, trump_name


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its number (1–6), who led, the cards in play order, and who won it."""

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)


def legal_plays(hand: Sequence[Card], led: Card | None, trump: Suit, trump_anytime: bool) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick led by ``led`` (None: this player leads)."""
    if led is None:
        return tuple(hand)
    suit = effective_suit(led, trump)
    following = tuple(card for card in hand if effective_suit(card, trump) is suit)
    if not following:
        return tuple(hand)
    if trump_anytime:
        return tuple(card for card in hand if card in following or is_trump(card, trump))
    return following


def check_play(seat: int, hand: Sequence[Card], card: Card, led: Card | None, trump: Suit, trump_anytime: bool) -> None:
    if card not in hand:
        raise IllegalAction(f"seat {seat + 1} does not hold the {card.name}")
    if card in legal_plays(hand, led, trump, trump_anytime):
        return
    assert led is not None
    suit = effective_suit(led, trump)
    followers = [c for c in hand if effective_suit(c, trump) is suit]
    what = "trump" if suit is trump else suit.word
    held = ", ".join(trump_name(c, trump) for c in followers)
    raise IllegalAction(f"must follow {what}: seat {seat + 1} holds {held}")


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit) -> int:
    """The highest trump wins; with no trump, the highest card of the suit led."""
    trumps = [(seat, card) for seat, card in plays if is_trump(card, trump)]
    if trumps:
        return max(trumps, key=lambda play: strength(play[1], trump))[0]
    led = effective_suit(plays[0][1], trump)
    followed = [(seat, card) for seat, card in plays if effective_suit(card, trump) is led]
    return max(followed, key=lambda play: strength(play[1], trump))[0]
