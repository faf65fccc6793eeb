"""Instant wins (tới trắng), checked on the deal before anyone may declare sâm."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Rank
from engine.samloc.combos import power, sort_cards, straight_start

_NGHEO_MISSING = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})
_GIAU_MISSING = frozenset(Rank(v) for v in range(3, 10))


@dataclass(frozen=True, slots=True)
class InstantWin:
    """One way a dealt hand wins at once, with the cards that make it."""

    seat: int
    name: str
    cards: tuple[Card, ...]

    @property
    def top_power(self) -> int:
        """Power of the highest qualifying card (3 lowest … 2 highest); it breaks ties between seats."""
        return max(power(card.rank) for card in self.cards)

    def describe(self) -> str:
        return f"seat {self.seat} wins on the deal: {self.name} ({' '.join(map(str, self.cards))})"


def instant_wins_of(seat: int, hand: Sequence[Card], *, sam_ngheo_giau: bool) -> list[InstantWin]:
    """Every instant win this 10-card hand has."""
    counts = Counter(card.rank for card in hand)
    found: list[InstantWin] = []

    def add(name: str, cards: Sequence[Card]) -> None:
        found.append(InstantWin(seat, name, sort_cards(cards)))

    if len(counts) == len(hand) and straight_start(set(counts)) is not None:
        add("10-card straight", hand)
    if counts[Rank.TWO] == 4:
        add("four 2s", [card for card in hand if card.rank is Rank.TWO])
    quads = {rank for rank, n in counts.items() if n == 4}
    if len(quads) >= 2:
        add("two quads", [card for card in hand if card.rank in quads])
    if len({card.suit.is_red for card in hand if card.suit is not None}) == 1:
        add("ten cards of one colour", hand)
    if sum(n // 2 for n in counts.values()) >= 5:
        add("five pairs", hand)
    triples = {rank for rank, n in counts.items() if n >= 3}
    if len(triples) >= 3:
        add("three triples", [card for card in hand if card.rank in triples])
    if sam_ngheo_giau:
        if not counts.keys() & _NGHEO_MISSING:
            add("sâm nghèo (no 10, J, Q or K)", hand)
        if not counts.keys() & _GIAU_MISSING:
            add("sâm giàu (no 3 to 9)", hand)
    return found


def instant_winners(hands: Sequence[Sequence[Card]], *, sam_ngheo_giau: bool) -> tuple[InstantWin, ...]:
    """The instant wins that take the hand: each seat's best one, keeping only the seats whose qualifying cards
    hold the highest card; several seats when that card's rank is equal (they share). Empty if none."""
    best: list[InstantWin] = []
    for seat, hand in enumerate(hands):
        wins = instant_wins_of(seat, hand, sam_ngheo_giau=sam_ngheo_giau)
        if wins:
            best.append(max(wins, key=lambda win: win.top_power))  # first listed wins a tie within a seat
    if not best:
        return ()
    top = max(win.top_power for win in best)
    return tuple(win for win in best if win.top_power == top)
