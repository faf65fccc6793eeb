"""The five actions of a Schmier hand, their JSON form (the hand file's "actions" list) and action records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.cards import Card, CardError, Suit, parse_card
from engine.common import JSON, IllegalAction
from engine.schmier.ranks import SEATS


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(card.pretty for card in cards)


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    amount: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "bid": self.amount}

    def text(self) -> str:
        return f"seat {self.seat} bids {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "pass": True}

    def text(self) -> str:
        return f"seat {self.seat} passes"


@dataclass(frozen=True, slots=True)
class NameTrump:
    seat: int
    suit: Suit

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "trump": self.suit.value}

    def text(self) -> str:
        return f"seat {self.seat} names {self.suit.word} {self.suit.symbol} trump"


@dataclass(frozen=True, slots=True)
class Discard:
    """A non-dealer's 0–3 cards, or the dealer's discard down to 6 after taking up the kept cards."""

    seat: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "discard": [str(card) for card in self.cards]}

    def text(self) -> str:
        if not self.cards:
            return f"seat {self.seat} keeps all 6 cards"
        return f"seat {self.seat} discards {len(self.cards)}: {_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "play": str(self.card)}

    def text(self) -> str:
        return f"seat {self.seat} plays {self.card.pretty}"


Action = Bid | Pass | NameTrump | Discard | Play

_KINDS = ("bid", "pass", "trump", "discard", "play")


@dataclass(frozen=True, slots=True)
class Record:
    """One applied action and what it caused (end of bidding, replacements, trick won, hand scored)."""

    action: Action
    effect: str = ""

    @property
    def seat(self) -> int:
        return self.action.seat

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        return self.action.text() + (f"; {self.effect}" if self.effect else "")


def action_from_json(data: Mapping[str, JSON]) -> Action:
    """Read one entry of the "actions" list; a malformed entry raises ``IllegalAction`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise IllegalAction(f'an action is an object such as {{"seat": 1, "bid": 3}}, not {data!r}')
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise IllegalAction(f'seat {seat!r} is not a seat: give "seat" as a number 0 to {SEATS - 1}')
    kinds = [key for key in _KINDS if key in data]
    extra = sorted(set(data) - {"seat", *_KINDS})
    if len(kinds) != 1 or extra:
        raise IllegalAction(
            f'an action gives "seat" and exactly one of {", ".join(_KINDS)}; got {", ".join(sorted(data))}'
        )
    kind = kinds[0]
    value = data[kind]
    if kind == "bid":
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalAction(f"bid {value!r}: a bid is a whole number 3 to 6")
        return Bid(seat, value)
    if kind == "pass":
        if value is not True:
            raise IllegalAction(f'pass {value!r}: write "pass": true')
        return Pass(seat)
    if kind == "trump":
        suits = {suit.value: suit for suit in Suit} | {suit.symbol: suit for suit in Suit}
        suit = suits.get(value.strip().upper()) if isinstance(value, str) else None
        if suit is None:
            raise IllegalAction(f"trump {value!r}: name a suit S, H, D or C")
        return NameTrump(seat, suit)
    if kind == "discard":
        if not isinstance(value, list) or not all(isinstance(token, str) for token in value):
            raise IllegalAction(f'discard {value!r}: give a list of cards such as ["2C", "3D"], [] for none')
        return Discard(seat, tuple(_card(token) for token in value))
    if not isinstance(value, str):
        raise IllegalAction(f'play {value!r}: give one card such as "AH"')
    return Play(seat, _card(value))


def _card(token: str) -> Card:
    try:
        return parse_card(token)
    except CardError as error:
        raise IllegalAction(str(error)) from None
