"""Naturals: four or three of a kind in the whole four-card hand, compared whole and never mis-set."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from engine.baibuu.hands import rank_order
from engine.cards import Card, Rank
from engine.phrases import Phrase, PhraseTemplate

NATURAL_FOUR = PhraseTemplate("natural.four", "natural four {rank}s")
NATURAL_THREE = PhraseTemplate("natural.three", "natural three {rank}s")


class NaturalKind(IntEnum):
    THREE_OF_A_KIND = 3
    FOUR_OF_A_KIND = 4


@dataclass(frozen=True, slots=True)
class Natural:
    kind: NaturalKind
    rank: Rank

    @property
    def strength(self) -> tuple[int, int]:
        """Four of a kind above three of a kind, then by rank with the ace high."""
        return (int(self.kind), rank_order(self.rank))

    def describe(self) -> Phrase:
        template = NATURAL_FOUR if self.kind is NaturalKind.FOUR_OF_A_KIND else NATURAL_THREE
        return template(rank=self.rank.text)


def natural_of(cards: Sequence[Card]) -> Natural | None:
    """The natural in a four-card hand, or None."""
    rank, count = Counter(card.rank for card in cards).most_common(1)[0]
    if count >= 4:
        return Natural(NaturalKind.FOUR_OF_A_KIND, rank)
    if count == 3:
        return Natural(NaturalKind.THREE_OF_A_KIND, rank)
    return None


def compare_naturals(first: Natural, second: Natural) -> int:
    a, b = first.strength, second.strength
    return (a > b) - (a < b)
