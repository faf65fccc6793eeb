"""Combinations of Sâm Lốc: what a set of cards is, what beats what, and every play a hand can make.

Rank order for comparing: 3 4 5 6 7 8 9 10 J Q K A 2; suits never matter. Straights run along the sequence
A-2-3-…-K-A: the ace low or high, the 2 only near the low end, never wrapping (K-A-2 is not a straight).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, product

from engine.cards import Card, Rank, Suit
from engine.phrases import Phrase, PhraseTemplate

MIN_STRAIGHT = 3
MAX_STRAIGHT = 10

# Power of a rank for singles, pairs, triples and quads: 3 is 0 … K 10, A 11, 2 12.
_POWER = {Rank(v): v - 3 for v in range(3, 14)} | {Rank.ACE: 11, Rank.TWO: 12}
# Places along the straight sequence A-2-3-…-K-A: the ace has two (0 low, 13 high).
_STRAIGHT_RANKS: tuple[Rank, ...] = (Rank.ACE, *(Rank(v) for v in range(2, 14)), Rank.ACE)


def power(rank: Rank) -> int:
    """How strong a rank is alone or in a set: 3 lowest, 2 highest."""
    return _POWER[rank]


def card_order(card: Card) -> tuple[int, int]:
    """Sort key by Sâm Lốc rank, then a fixed suit order (suits never decide anything, they only fix a choice)."""
    return (_POWER[card.rank], card.sort_key()[1])


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=card_order))


class Kind(Enum):
    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    QUAD = "quad"
    STRAIGHT = "straight"

    @property
    def word(self) -> Phrase:
        return KIND_WORDS[self]()


# The dealer's words for combinations and why a play does not beat, as phrases (a screen words them in its
# language): ranks, suits and kinds are phrases too.
RANK_WORDS: dict[Rank, PhraseTemplate] = {
    rank: PhraseTemplate(f"samloc.rank.{rank.text}", rank.word) for rank in Rank if rank is not Rank.JOKER
}
RANK_PLURALS: dict[Rank, PhraseTemplate] = {
    rank: PhraseTemplate(f"samloc.ranks.{rank.text}", rank.plural) for rank in Rank if rank is not Rank.JOKER
}
SUIT_WORDS = {suit: PhraseTemplate(f"samloc.suit.{suit.word}", suit.word) for suit in Suit}
KIND_WORDS = {kind: PhraseTemplate(f"samloc.kind.{kind.value}", kind.value) for kind in Kind}
SINGLE = PhraseTemplate("samloc.combo.single", "the {rank} of {suit}")
SETS = {
    Kind.PAIR: PhraseTemplate("samloc.combo.pair", "a pair of {ranks}"),
    Kind.TRIPLE: PhraseTemplate("samloc.combo.triple", "a triple of {ranks}"),
    Kind.QUAD: PhraseTemplate("samloc.combo.quad", "a quad of {ranks}"),
}
STRAIGHT = PhraseTemplate("samloc.combo.straight", "a straight {ranks}")
ONLY_HIGHER_STRAIGHT = PhraseTemplate(
    "samloc.beat.only_higher_straight", "{top} can only be beaten by a higher straight of {length} cards"
)
ONLY_QUAD_ON_TWO = PhraseTemplate("samloc.beat.only_quad_on_two", "a single 2 can only be beaten by a quad")
ONLY_QUAD_ON_TWOS = PhraseTemplate("samloc.beat.only_quad_on_twos", "a pair of 2s can only be beaten by a quad")
ONLY_HIGHER_KIND = PhraseTemplate("samloc.beat.only_higher_kind", "{top} can only be beaten by a higher {kind}")
EQUAL_RANKS = PhraseTemplate("samloc.beat.equal_ranks", "{play} does not beat {top}: equal ranks never beat each other")
DOES_NOT_BEAT = PhraseTemplate("samloc.beat.lower", "{play} does not beat {top}")


_SET_KINDS = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIPLE, 4: Kind.QUAD}


@dataclass(frozen=True, slots=True)
class Combo:
    """A legal combination. ``level`` orders combos of one kind and length: the rank power for sets, the
    place of the lowest card along A-2-3-…-K-A for straights (A-2-3 is 0, Q-K-A is 11)."""

    kind: Kind
    length: int
    level: int
    cards: tuple[Card, ...]

    @property
    def has_two(self) -> bool:
        return any(card.rank is Rank.TWO for card in self.cards)

    @property
    def is_single_two(self) -> bool:
        return self.kind is Kind.SINGLE and self.cards[0].rank is Rank.TWO

    @property
    def is_pair_of_twos(self) -> bool:
        return self.kind is Kind.PAIR and self.cards[0].rank is Rank.TWO

    def describe(self) -> Phrase:
        """In a dealer's words: "a pair of 7s", "the 2 of hearts", "a straight 3-4-5"."""
        if self.kind is Kind.STRAIGHT:
            ranks = _STRAIGHT_RANKS[self.level : self.level + self.length]
            return STRAIGHT(ranks="-".join(rank.text for rank in ranks))
        card = self.cards[0]
        if self.kind is Kind.SINGLE:
            assert card.suit is not None  # Sâm Lốc is played without the joker
            return SINGLE(rank=RANK_WORDS[card.rank](), suit=SUIT_WORDS[card.suit]())
        return SETS[self.kind](ranks=RANK_PLURALS[card.rank]())


def classify(cards: Sequence[Card]) -> Combo | None:
    """The combination these cards make, or ``None`` if they make none."""
    count = len(cards)
    if count == 0:
        return None
    ranks = {card.rank for card in cards}
    ordered = sort_cards(cards)
    if len(ranks) == 1 and count in _SET_KINDS:
        return Combo(_SET_KINDS[count], count, _POWER[cards[0].rank], ordered)
    if len(ranks) != count or not MIN_STRAIGHT <= count <= MAX_STRAIGHT:
        return None
    level = straight_start(ranks)
    if level is None:
        return None
    by_place = tuple(sorted(cards, key=lambda card: _straight_place(card.rank, level)))
    return Combo(Kind.STRAIGHT, count, level, by_place)


def straight_start(ranks: set[Rank]) -> int | None:
    """The lowest place of a run of distinct ranks along A-2-…-K-A, or ``None`` if they are not a run."""
    count = len(ranks)
    for start in range(0, len(_STRAIGHT_RANKS) - count + 1):
        if set(_STRAIGHT_RANKS[start : start + count]) == ranks:
            return start
    return None


def _straight_place(rank: Rank, start: int) -> int:
    if rank is Rank.ACE:
        return 0 if start == 0 else 13
    return int(rank) - 1


def beats(top: Combo, play: Combo, *, quad_beats_pair_of_twos: bool) -> bool:
    """Whether ``play`` may be played on ``top``."""
    if play.kind is Kind.QUAD and (top.is_single_two or (quad_beats_pair_of_twos and top.is_pair_of_twos)):
        return True
    return play.kind is top.kind and play.length == top.length and play.level > top.level


def why_not_beaten(top: Combo, play: Combo, *, quad_beats_pair_of_twos: bool) -> Phrase | None:
    """``None`` if ``play`` beats ``top``; otherwise the reason, in words."""
    if beats(top, play, quad_beats_pair_of_twos=quad_beats_pair_of_twos):
        return None
    if play.kind is not top.kind or play.length != top.length:
        if top.kind is Kind.STRAIGHT:
            return ONLY_HIGHER_STRAIGHT(top=top.describe(), length=top.length)
        if top.is_single_two:
            return ONLY_QUAD_ON_TWO()
        if quad_beats_pair_of_twos and top.is_pair_of_twos:
            return ONLY_QUAD_ON_TWOS()
        return ONLY_HIGHER_KIND(top=top.describe(), kind=top.kind.word)
    if play.level == top.level and top.kind is not Kind.STRAIGHT:
        return EQUAL_RANKS(play=play.describe(), top=top.describe())
    return DOES_NOT_BEAT(play=play.describe(), top=top.describe())


def all_combos(
    hand: Sequence[Card], *, set_sizes: Iterable[int] = (1, 2, 3, 4), straight_lengths: Iterable[int] | None = None
) -> list[Combo]:
    """Every distinct combination (as a set of cards) that can be made from ``hand``; optionally only sets of the
    given sizes and straights of the given lengths (all lengths when ``None``)."""
    by_rank: dict[Rank, list[Card]] = {}
    for card in sort_cards(hand):
        by_rank.setdefault(card.rank, []).append(card)
    found: list[Combo] = []
    sizes = tuple(set_sizes)
    for rank, cards in by_rank.items():
        for size in sizes:
            for chosen in combinations(cards, size):
                found.append(Combo(_SET_KINDS[size], size, _POWER[rank], chosen))
    lengths = range(MIN_STRAIGHT, MAX_STRAIGHT + 1) if straight_lengths is None else tuple(straight_lengths)
    if not lengths:
        return found
    places = len(_STRAIGHT_RANKS)
    longest = max(lengths)
    for start in range(places - MIN_STRAIGHT + 1):
        for length in range(MIN_STRAIGHT, min(longest, places - start) + 1):
            run = _STRAIGHT_RANKS[start : start + length]
            if any(rank not in by_rank for rank in run):
                break  # a longer run from this start lacks the same rank
            if length not in lengths:
                continue
            for chosen in product(*(by_rank[rank] for rank in run)):
                found.append(Combo(Kind.STRAIGHT, length, start, tuple(chosen)))
    return found


def combos_beating(hand: Sequence[Card], top: Combo | None, *, quad_beats_pair_of_twos: bool) -> list[Combo]:
    """Every combination from ``hand`` that may be played on ``top`` (any combination when leading)."""
    if top is None:
        return all_combos(hand)
    if top.kind is Kind.STRAIGHT:
        candidates = all_combos(hand, set_sizes=(), straight_lengths=(top.length,))
    else:
        candidates = all_combos(hand, set_sizes=sorted({top.length, 4}), straight_lengths=())
    return [combo for combo in candidates if beats(top, combo, quad_beats_pair_of_twos=quad_beats_pair_of_twos)]
