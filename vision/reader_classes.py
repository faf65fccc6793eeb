"""The reader's 53 classes (52 cards + the joker), named by their card text (``AS``, ``10H``, ``JK``).

Datasets from elsewhere name classes in words (``'10 of clubs'``, ``'jack  of clubs'`` with a double space, ``'ace
of spades'``); ``card_of_class_name`` accepts both styles.
"""

from __future__ import annotations

import re

from engine.cards import Card, CardError, deck_with_joker, parse_card

CARDS: tuple[Card, ...] = tuple(sorted(deck_with_joker(), key=lambda c: (c.is_joker, c.sort_key())))
CLASS_NAMES: tuple[str, ...] = tuple(str(card) for card in CARDS)
CLASS_INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}

_WORD_RANKS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "10", "two": "2", "three": "3",
               "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_WORD_SUITS = {"spades": "S", "spade": "S", "hearts": "H", "heart": "H", "diamonds": "D", "diamond": "D",
               "clubs": "C", "club": "C"}


def card_of_class_name(name: str) -> Card:
    """The card a dataset's class name means: ``'10H'``, ``'JK'``, ``'10 of hearts'``, ``'Jack  of Clubs'``."""
    text = re.sub(r"\s+", " ", name.strip().lower())
    if text in ("joker", "jk", "black joker", "red joker"):
        return parse_card("JK")
    match = re.fullmatch(r"(\w+) of (\w+)", text)
    if match:
        rank = _WORD_RANKS.get(match.group(1), match.group(1).upper())
        suit = _WORD_SUITS.get(match.group(2))
        if suit is None:
            raise CardError(f"class name {name!r}: unknown suit {match.group(2)!r}; "
                            "use spades, hearts, diamonds or clubs")
        return parse_card(rank + suit)
    try:
        return parse_card(text)
    except CardError as error:
        raise CardError(f"class name {name!r} is neither a card like '10H' nor words like '10 of hearts'") from error
