"""The five actions of a Schmier hand, their JSON form (the hand file's "actions" list) and action records.

JSON form, ``{"kind": …, …}`` as in every game: ``{"kind": "bid", "seat": 1, "amount": 3}``,
``{"kind": "pass", "seat": 2}``, ``{"kind": "trump", "seat": 1, "suit": "H"}``,
``{"kind": "discard", "seat": 2, "cards": ["2C", "3D"]}``, ``{"kind": "play", "seat": 1, "card": "AH"}``.
Hand files and journals written before the envelope hold ``{"seat": 1, "bid": 3}``; ``action_from_json`` reads both.
A table record (the hands unknown: ``engine.schmier.table_hand``) counts the discards, which stay face down:
``{"kind": "discard", "seat": 2, "count": 3}``, also written ``{"seat": 2, "discard": 3}``.

>>> action_from_json({"kind": "bid", "seat": 1, "amount": 4})
Bid(seat=1, amount=4)
>>> action_from_json({"seat": 3, "trump": "H"}).to_json()
{'kind': 'trump', 'seat': 3, 'suit': 'H'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card, CardError, Suit, parse_card
from engine.common import JSON, IllegalAction, check_keys, kind_of
from engine.phrases import PhraseTemplate, join
from engine.schmier.ranks import SEATS


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(card.pretty for card in cards)


# The log's words, as phrases a screen words in its language (the values count seats from 0, the words from 1).
BIDS = PhraseTemplate("schmier.log.bids", "seat {seat} bids {amount}")
PASSES = PhraseTemplate("schmier.log.passes", "seat {seat} passes")
NAMES_TRUMP = PhraseTemplate("schmier.log.names_trump", "seat {seat} names {suit} {symbol} trump")
KEEPS_ALL = PhraseTemplate("schmier.log.keeps_all", "seat {seat} keeps all 6 cards")
DISCARDS = PhraseTemplate("schmier.log.discards", "seat {seat} discards {count}: {cards}")
DISCARDS_FACE_DOWN = PhraseTemplate(
    "schmier.log.discards_face_down", "seat {seat} discards {count} face down"
)
PLAYS = PhraseTemplate("schmier.log.plays", "seat {seat} plays {card}")
SUIT_WORDS = {suit: PhraseTemplate(f"schmier.suit.{suit.word}", suit.word) for suit in Suit}


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    amount: int
    kind: ClassVar[str] = "bid"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "amount": self.amount}

    def text(self) -> str:
        return BIDS(seat=self.seat, amount=self.amount)


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int
    kind: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat}

    def text(self) -> str:
        return PASSES(seat=self.seat)


@dataclass(frozen=True, slots=True)
class NameTrump:
    seat: int
    suit: Suit
    kind: ClassVar[str] = "trump"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "suit": self.suit.value}

    def text(self) -> str:
        return NAMES_TRUMP(seat=self.seat, suit=SUIT_WORDS[self.suit](), symbol=self.suit.symbol)


@dataclass(frozen=True, slots=True)
class Discard:
    """A non-dealer's 0–3 cards, or the dealer's discard down to 6 after taking up the kept cards."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "cards": [str(card) for card in self.cards]}

    def text(self) -> str:
        if not self.cards:
            return KEEPS_ALL(seat=self.seat)
        return DISCARDS(seat=self.seat, count=len(self.cards), cards=_cards_text(self.cards))


@dataclass(frozen=True, slots=True)
class DiscardCount:
    """A discard as the table sees it: how many cards went face down (a table record)."""

    seat: int
    count: int
    kind: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "count": self.count}

    def text(self) -> str:
        if not self.count:
            return KEEPS_ALL(seat=self.seat)
        return DISCARDS_FACE_DOWN(seat=self.seat, count=self.count)


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card
    kind: ClassVar[str] = "play"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "card": str(self.card)}

    def text(self) -> str:
        return PLAYS(seat=self.seat, card=self.card.pretty)


Action = Bid | Pass | NameTrump | Discard | DiscardCount | Play

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
        return join("; ", [self.action.text(), self.effect]) if self.effect else self.action.text()


_FIELDS = {"bid": "amount", "pass": None, "trump": "suit", "discard": "cards", "play": "card"}
"""Each kind's field in today's envelope; before it, the value stood under the kind's own name."""


def upgrade(data: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """An action as written before the one envelope (``{"seat": 1, "bid": 3}``), in today's form; anything else
    is returned as it is (``action_from_json`` says what is wrong with it)."""
    if not isinstance(data, Mapping) or "kind" in data:
        return data
    kinds = [key for key in _KINDS if key in data]
    extra = sorted(set(data) - {"seat", *_KINDS})
    if len(kinds) != 1 or extra:
        raise IllegalAction(
            f'an action gives "seat" and exactly one of {", ".join(_KINDS)}; got {", ".join(sorted(data))}'
        )
    kind = kinds[0]
    field = _FIELDS[kind]
    if kind == "discard" and isinstance(data[kind], int) and not isinstance(data[kind], bool):
        field = "count"  # a table record's discard: a count of cards face down
    if field is None:
        if data[kind] is not True:
            raise IllegalAction(f'pass {data[kind]!r}: write "pass": true')
        return {"kind": kind, "seat": data.get("seat")}
    return {"kind": kind, "seat": data.get("seat"), field: data[kind]}


def action_from_json(data: Mapping[str, JSON]) -> Action:
    """Read one entry of the "actions" list (today's envelope or the older form); a malformed entry raises
    ``IllegalAction`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise IllegalAction(f'an action is an object such as {{"kind": "bid", "seat": 1, "amount": 3}}, not {data!r}')
    data = upgrade(data)
    kind = kind_of(data, _KINDS)
    field = _FIELDS[kind]
    if kind == "discard" and "count" in data:
        field = "count"
    check_keys(data, ["seat"] if field is None else ["seat", field])
    seat = data["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise IllegalAction(f'seat {seat!r} is not a seat: give "seat" as a number 0 to {SEATS - 1}')
    if kind == "pass":
        return Pass(seat)
    assert field is not None
    value = data[field]
    if kind == "bid":
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalAction(f"bid {value!r}: a bid is a whole number 3 to 6")
        return Bid(seat, value)
    if kind == "trump":
        suits = {suit.value: suit for suit in Suit} | {suit.symbol: suit for suit in Suit}
        suit = suits.get(value.strip().upper()) if isinstance(value, str) else None
        if suit is None:
            raise IllegalAction(f"trump {value!r}: name a suit S, H, D or C")
        return NameTrump(seat, suit)
    if field == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise IllegalAction(f"discard {value!r}: give how many cards went face down, a whole number")
        return DiscardCount(seat, value)
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
