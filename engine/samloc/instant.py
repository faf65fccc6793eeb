"""Instant wins (tới trắng), checked on the deal before anyone may declare sâm."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, CardsText, Rank
from engine.phrases import PhraseTemplate
from engine.samloc.combos import power, sort_cards, straight_start

# The instant wins' names, as phrases (a screen words them in its language).
TEN_CARD_STRAIGHT = PhraseTemplate("samloc.instant.straight", "10-card straight")
FOUR_TWOS = PhraseTemplate("samloc.instant.four_twos", "four 2s")
TWO_QUADS = PhraseTemplate("samloc.instant.two_quads", "two quads")
ONE_COLOUR = PhraseTemplate("samloc.instant.one_colour", "ten cards of one colour")
FIVE_PAIRS = PhraseTemplate("samloc.instant.five_pairs", "five pairs")
THREE_TRIPLES = PhraseTemplate("samloc.instant.three_triples", "three triples")
SAM_NGHEO = PhraseTemplate("samloc.instant.sam_ngheo", "sâm nghèo (no 10, J, Q or K)")
SAM_GIAU = PhraseTemplate("samloc.instant.sam_giau", "sâm giàu (no 3 to 9)")
WINS_ON_DEAL = PhraseTemplate("samloc.instant.wins", "seat {seat} wins on the deal: {name} ({cards})")

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
        return WINS_ON_DEAL(seat=self.seat, name=self.name, cards=CardsText(self.cards))


def instant_wins_of(seat: int, hand: Sequence[Card], *, sam_ngheo_giau: bool) -> list[InstantWin]:
    """Every instant win this 10-card hand has."""
    counts = Counter(card.rank for card in hand)
    found: list[InstantWin] = []

    def add(name: str, cards: Sequence[Card]) -> None:
        found.append(InstantWin(seat, name, sort_cards(cards)))

    if len(counts) == len(hand) and straight_start(set(counts)) is not None:
        add(TEN_CARD_STRAIGHT(), hand)
    if counts[Rank.TWO] == 4:
        add(FOUR_TWOS(), [card for card in hand if card.rank is Rank.TWO])
    quads = {rank for rank, n in counts.items() if n == 4}
    if len(quads) >= 2:
        add(TWO_QUADS(), [card for card in hand if card.rank in quads])
    if len({card.suit.is_red for card in hand if card.suit is not None}) == 1:
        add(ONE_COLOUR(), hand)
    if sum(n // 2 for n in counts.values()) >= 5:
        add(FIVE_PAIRS(), hand)
    triples = {rank for rank, n in counts.items() if n >= 3}
    if len(triples) >= 3:
        add(THREE_TRIPLES(), [card for card in hand if card.rank in triples])
    if sam_ngheo_giau:
        if not counts.keys() & _NGHEO_MISSING:
            add(SAM_NGHEO(), hand)
        if not counts.keys() & _GIAU_MISSING:
            add(SAM_GIAU(), hand)
    return found


def instant_winners(hands: Sequence[Sequence[Card] | None], *, sam_ngheo_giau: bool) -> tuple[InstantWin, ...]:
    """The instant wins that take the hand: each seat's best one, keeping only the seats whose qualifying cards
    hold the highest card; several seats when that card's rank is equal (they share). Empty if none. A seat
    whose hand is None is not looked at (a table record's seat that claimed nothing)."""
    best: list[InstantWin] = []
    for seat, hand in enumerate(hands):
        if hand is None:
            continue
        wins = instant_wins_of(seat, hand, sam_ngheo_giau=sam_ngheo_giau)
        if wins:
            best.append(max(wins, key=lambda win: win.top_power))  # first listed wins a tie within a seat
    if not best:
        return ()
    top = max(win.top_power for win in best)
    return tuple(win for win in best if win.top_power == top)
