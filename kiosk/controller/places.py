"""Cards per place on the felt, as the camera reads them and as the dealer corrected them.

A correction holds while the camera keeps reading that place the same way; when the read changes (the dealer
moved the cards) the new read wins, because it is what is on the felt now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.cards import Card
from kiosk.controller.view import CardRead
from kiosk.i18n import Msg

LOW_CONFIDENCE = "low_confidence"
DUPLICATE = "duplicate"


@dataclass(frozen=True)
class Correction:
    zone: str
    before: tuple[Card, ...]
    after: tuple[Card, ...]


class PlaceReads:
    def __init__(self) -> None:
        self._raw: dict[str, tuple[CardRead, ...]] = {}
        self._fixed: dict[str, tuple[tuple[CardRead, ...], tuple[CardRead, ...]]] = {}

    def update(self, reads: Mapping[str, Iterable[CardRead]]) -> bool:
        """Take the camera's latest stable reads (zones not named are empty). Returns whether anything changed."""
        new = {zone: tuple(cards) for zone, cards in reads.items() if tuple(cards)}
        if new == self._raw:
            return False
        self._raw = new
        for zone in list(self._fixed):
            # A dealer's fix stands while the camera sees the same cards there (its confidence may flicker from
            # frame to frame); a card put down or taken away there is a new read, and the fix gives way to it.
            if _cards_of(self._fixed[zone][0]) != _cards_of(self._raw.get(zone, ())):
                del self._fixed[zone]
        return True

    def cards(self, zone: str) -> tuple[CardRead, ...]:
        fixed = self._fixed.get(zone)
        return fixed[1] if fixed is not None else self._raw.get(zone, ())

    def correct(self, zone: str, index: int, card: Card | None) -> Correction:
        """Put ``card`` in slot ``index`` of ``zone`` (or take the card there away when ``card`` is None)."""
        current = list(self.cards(zone))
        before = tuple(read.card for read in current)
        if card is None:
            if index < len(current):
                del current[index]
        elif index < len(current):
            read = current[index]
            current[index] = CardRead(card, 1.0, frozenset(), corrected=True,
                                      read_as=read.read_as if read.corrected else read.card)
        else:
            current.append(CardRead(card, 1.0, frozenset(), corrected=True))
        self._fixed[zone] = (self._raw.get(zone, ()), tuple(current))
        return Correction(zone, before, tuple(read.card for read in current))

    def clear(self) -> None:
        self._raw.clear()
        self._fixed.clear()

    def forget_fixes(self) -> None:
        """Drop every correction: a new hand reads the felt afresh (what the camera sees now stands)."""
        self._fixed.clear()


def _cards_of(reads: tuple[CardRead, ...]) -> tuple[Card, ...]:
    return tuple(read.card for read in reads)


def place_problem(cards: tuple[CardRead, ...], expected: int, seen_twice: set[Card]) -> Msg | None:
    """What keeps a place from being used, in the dealer's words; None when it is fine."""
    if len(cards) > expected:
        return Msg("read.too_many", {"count": len(cards), "expected": expected})
    for read in cards:
        if read.corrected:
            continue
        if read.card in seen_twice or DUPLICATE in read.flags:
            return Msg("read.duplicate")
        if read.flags:
            return Msg("read.low_confidence")
    for read in cards:
        if read.card in seen_twice:
            return Msg("read.same_card_twice", {"card": read.card.pretty})
    if len(cards) < expected:
        return Msg("read.too_few", {"count": len(cards), "expected": expected})
    return None


def cards_seen_twice(places: Iterable[tuple[CardRead, ...]]) -> set[Card]:
    seen: set[Card] = set()
    twice: set[Card] = set()
    for cards in places:
        for read in cards:
            if read.card in seen:
                twice.add(read.card)
            seen.add(read.card)
    return twice
