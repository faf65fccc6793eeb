"""Playing cards shared by all three games: rank, suit, the joker, decks and seeded shuffling.

Text form: rank ``A 2 … 10 J Q K`` followed by suit ``S H D C`` (``10H``, ``AS``); the joker is ``JK``.
The parser also accepts lower case, ``T`` for 10 and the suit symbols ♠♥♦♣.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from engine.errors import InputError


class CardError(InputError):
    """A card token or a set of cards that cannot be accepted (unknown token, duplicate, wrong count)."""


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def word(self) -> str:
        return self.name.lower()


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(IntEnum):
    """Card ranks by face value (ace 1 … king 13). Each game orders them its own way."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def text(self) -> str:
        return _RANK_TEXT[self]

    @property
    def word(self) -> str:
        return _RANK_WORDS[self]

    @property
    def plural(self) -> str:
        return self.word + ("es" if self is Rank.SIX else "s")


_RANK_TEXT = {
    Rank.JOKER: "JK",
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    **{Rank(v): str(v) for v in range(2, 11)},
}
_RANK_WORDS = {
    Rank.JOKER: "joker",
    Rank.ACE: "ace",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    **{Rank(v): str(v) for v in range(2, 11)},
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. The joker has rank ``Rank.JOKER`` and no suit."""

    rank: Rank
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise CardError("the joker has no suit and every other card has one")

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def pretty(self) -> str:
        """With the suit symbol, for screens: ``10♥``."""
        if self.suit is None:
            return "JK"
        return self.rank.text + self.suit.symbol

    @property
    def name(self) -> str:
        """In words: ``10 of hearts``, ``ace of spades``, ``joker``."""
        if self.suit is None:
            return "joker"
        return f"{self.rank.word} of {self.suit.word}"

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return self.rank.text + self.suit.value

    def __repr__(self) -> str:
        return f"Card({self})"

    def sort_key(self) -> tuple[int, int]:
        """A stable order for display and canonical forms: by rank, then suit in S H D C order."""
        suit_order = -1 if self.suit is None else _SUIT_ORDER[self.suit]
        return (int(self.rank), suit_order)


_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
JOKER = Card(Rank.JOKER, None)

_RANK_TOKENS = {rank.text: rank for rank in Rank if rank is not Rank.JOKER} | {"T": Rank.TEN}
_SUIT_TOKENS = {suit.value: suit for suit in Suit} | {suit.symbol: suit for suit in Suit}
# Variation selectors sometimes follow the suit symbols (♥️); they carry no meaning here.
_IGNORED_CHARS = {"\ufe0e", "\ufe0f"}

_HELP = "write a rank A 2-10 J Q K (or T for 10) and a suit S H D C, e.g. 10H, AS; JK for the joker"


def parse_card(token: str) -> Card:
    """Parse one card token (``10H``, ``as``, ``T♣``, ``JK``); raise ``CardError`` naming a bad token."""
    text = "".join(ch for ch in token.strip() if ch not in _IGNORED_CHARS).upper()
    if text in ("JK", "JOKER"):
        return JOKER
    if len(text) >= 2:
        rank = _RANK_TOKENS.get(text[:-1])
        suit = _SUIT_TOKENS.get(text[-1])
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise CardError(f"unknown card {token!r}: {_HELP}")


def parse_cards(
    tokens: Iterable[str] | str, *, count: int | None = None, allow_duplicates: bool = False
) -> tuple[Card, ...]:
    """Parse several tokens (an iterable, or one string separated by spaces or commas).

    ``count`` demands exactly that many cards; duplicates are refused unless allowed.
    """
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    cards = tuple(parse_card(token) for token in tokens)
    if count is not None and len(cards) != count:
        raise CardError(f"expected {count} cards, got {len(cards)}: {' '.join(map(str, cards)) or 'none'}")
    if not allow_duplicates:
        check_no_duplicates(cards)
    return cards


def check_no_duplicates(cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"card {card} appears twice: one deck holds each card once")
        seen.add(card)


class CardsText(str):
    """Cards named inside an engine's words: the text is their codes as a record writes them (``7H 8H``, what logs,
    the journal and JSON keep), and ``cards`` lets a screen show them as it shows every other card (``7♥ 8♥``)."""

    cards: tuple[Card, ...]
    separator: str

    def __new__(cls, cards: Iterable[Card], separator: str = " ") -> CardsText:
        named = tuple(cards)
        text = super().__new__(cls, separator.join(str(card) for card in named))
        text.cards = named
        text.separator = separator
        return text

    @property
    def pretty(self) -> str:
        return self.separator.join(card.pretty for card in self.cards)

    def __reduce__(self) -> tuple[object, ...]:  # copy and pickle keep the cards
        return (CardsText, (self.cards, self.separator))


def standard_deck() -> tuple[Card, ...]:
    """The 52 cards, suit by suit (spades, hearts, diamonds, clubs), ace to king."""
    return tuple(Card(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER)


def deck_with_joker() -> tuple[Card, ...]:
    """The 53-card deck used by Schmier: the 52 cards and one joker."""
    return (*standard_deck(), JOKER)


def shuffled(cards: Sequence[Card], seed: int | str | None) -> list[Card]:
    """A shuffled copy; the same seed always gives the same order. ``None`` draws from the OS."""
    rng = random.SystemRandom() if seed is None else random.Random(seed)
    deck = list(cards)
    rng.shuffle(deck)
    return deck
