"""The house way: the split the dealer must give the house hand, as an ordered list of named rules.

Each rule looks at the four cards and either decides the split or passes to the next rule. The first rule that
decides wins, and the split carries a line saying why, in a dealer's words ("pair of 2s with 5+6: split").
The pair-split table and the low-hand minimum are data (``HouseWay``), so a casino can read and adapt its
posted house way; ``STANDARD_HOUSE_WAY`` is the rulebook's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from engine.baibuu.hands import PICTURES, ZERO_RANKS, HandClass, TwoCardHand, is_mis_set, rank_order
from engine.baibuu.naturals import NaturalKind, natural_of
from engine.cards import Card, CardError, Rank
from engine.phrases import PhraseTemplate


@dataclass(frozen=True, slots=True)
class Split:
    """A four-card hand set as a high and a low hand, with the house-way rule that chose it."""

    high: TwoCardHand
    low: TwoCardHand
    rule: str
    """Why, for this very hand, in a dealer's words."""
    rule_name: str = ""
    """The name of the house-way rule that decided (``"one pair"``, ``"otherwise"``, …)."""

    @property
    def cards(self) -> tuple[Card, Card, Card, Card]:
        return (*self.high.cards, *self.low.cards)

    def same_set(self, high: TwoCardHand, low: TwoCardHand) -> bool:
        """Whether ``high``/``low`` hold the same cards in the same places as this split (card order aside)."""
        return set(high.cards) == set(self.high.cards) and set(low.cards) == set(self.low.cards)

    def to_json(self) -> dict[str, object]:
        return {"high": self.high.to_json(), "low": self.low.to_json(), "rule": self.rule}


_SUIT_TIE = {"S": 3, "H": 2, "D": 1, "C": 0}


def card_order(card: Card) -> int:
    """Ace high, then spades, hearts, diamonds, clubs: how cards are shown and how ties are broken."""
    # Plain values, not the enum members: hashing an enum member runs Python code, and this is the hot path.
    rank = card.rank._value_
    suit = card.suit
    return (14 if rank == 1 else rank) * 4 + (_SUIT_TIE[suit._value_] if suit is not None else 0)


def ordered_hand(first: Card, second: Card) -> TwoCardHand:
    """A hand with the higher card first (ace high), the way the chart and the screen show it."""
    if card_order(second) > card_order(first):
        first, second = second, first
    return TwoCardHand.of(first, second)


# A pattern names the other two cards beside a pair: "5+6", "A+Z" (Z = any 0-value card: 10, J, Q or K).
PairPattern = str

# The one line that says why the house way set a hand so (phrases: a screen can word them in its language).
WAY_NATURAL_FOUR = PhraseTemplate("way.natural_four", "{natural}: set as two pairs")
WAY_NATURAL_THREE = PhraseTemplate("way.natural_three", "{natural}: pair high, the other two low")
WAY_TWO_PAIRS = PhraseTemplate("way.two_pairs", "two pairs: {high}s high, {low}s low")
WAY_PAIR_NEVER_SPLIT = PhraseTemplate("way.pair_never_split", "pair of {rank}s: never split, pair high")
WAY_PAIR_KEPT = PhraseTemplate("way.pair_kept", "pair of {rank}s with {others}: keep the pair high")
WAY_PAIR_SPLIT = PhraseTemplate("way.pair_split", "pair of {rank}s with {others}: split")
WAY_THREE_PICTURES = PhraseTemplate("way.three_pictures", "three pictures: the two highest, {cards}, high")
WAY_PICTURES_AND_KONG = PhraseTemplate("way.pictures_and_kong", "two pictures and a Kong: the pictures {cards} high")
WAY_TWO_PICTURES = PhraseTemplate("way.two_pictures", "two pictures {cards}: never broken, high")
WAY_KONG = PhraseTemplate("way.kong", "Kong A+9: never broken, high")
WAY_NO_LOW = PhraseTemplate("way.no_low", "no split leaves {minimum}+ low: take the highest high, {high}")
WAY_HIGHEST_HIGH = PhraseTemplate("way.highest_high", "highest high leaving {minimum}+ low: {high} high, {low} low")
WAY_LOW_TOO_SMALL = PhraseTemplate("way.low_too_small", "low would be {would_be} < {minimum}: take the {high} high")

STANDARD_PAIR_SPLITS: Mapping[Rank, tuple[PairPattern, ...]] = {
    Rank.TWO: ("3+7", "4+7", "5+7", "6+7", "5+6"),
    Rank.THREE: ("4+6", "5+6"),
    Rank.SIX: ("A+2", "A+3", "2+3", "2+Z", "3+Z"),  # any two of {A, 2, 3}; 2+Z; 3+Z
    Rank.SEVEN: ("A+2", "A+Z", "2+Z", "Z+Z", "2+9"),  # any two of {A, 2, Z}; 2+9
    Rank.EIGHT: ("A+Z",),
    Rank.NINE: ("A+Z",),
}
"""Pairs split only with these other two cards; a pair not listed (4, 5, 10, J, Q, K, A) is never split."""

_PATTERN_TOKENS: dict[str, frozenset[Rank]] = {
    "Z": ZERO_RANKS,
    **{rank.text: frozenset({rank}) for rank in Rank if rank is not Rank.JOKER},
}


def parse_pair_pattern(pattern: PairPattern) -> tuple[frozenset[Rank], frozenset[Rank]]:
    parts = pattern.upper().split("+")
    if len(parts) != 2 or any(part not in _PATTERN_TOKENS for part in parts):
        raise ValueError(f"pair-split pattern {pattern!r}: write two of A 2-10 J Q K or Z joined by '+', e.g. 'A+Z'")
    return _PATTERN_TOKENS[parts[0]], _PATTERN_TOKENS[parts[1]]


def pattern_matches(pattern: PairPattern, first: Rank, second: Rank) -> bool:
    left, right = parse_pair_pattern(pattern)
    return (first in left and second in right) or (second in left and first in right)


Decide = Callable[[tuple[Card, ...], "HouseWay"], "Split | None"]


@dataclass(frozen=True, slots=True)
class HouseWayRule:
    """One step of the house way: a name, the text posted at the table, and the decision itself."""

    name: str
    posted: str
    decide: Decide


@dataclass(frozen=True)
class HouseWay:
    """The ordered rules plus their data. ``split(cards)`` gives the one house-way split of any four cards."""

    rules: tuple[HouseWayRule, ...]
    pair_splits: Mapping[Rank, tuple[PairPattern, ...]] = field(default_factory=lambda: dict(STANDARD_PAIR_SPLITS))
    min_low_points: int = 4
    name: str = "standard"
    """How the journal and the screens name this house way (a posted variant has a name of its own)."""
    _decisions: dict[tuple[Rank, ...], tuple[tuple[int, ...], tuple[int, ...], str, str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __hash__(self) -> int:  # the pair table is a dict: hash what it holds
        return hash((self.rules, tuple(sorted(self.pair_splits.items())), self.min_low_points, self.name))

    @property
    def is_standard(self) -> bool:
        return self == STANDARD_HOUSE_WAY

    def __post_init__(self) -> None:
        for patterns in self.pair_splits.values():
            for pattern in patterns:
                parse_pair_pattern(pattern)

    def split(self, cards: Sequence[Card]) -> Split:
        """The house-way split. Suits never matter, so a decision is worked out once per set of ranks."""
        ordered = self._checked_and_ordered(cards)
        key = (ordered[0].rank, ordered[1].rank, ordered[2].rank, ordered[3].rank)
        known = self._decisions.get(key)
        if known is None:
            split = self._decide(ordered)
            high = tuple(ordered.index(card) for card in split.high.cards)
            low = tuple(ordered.index(card) for card in split.low.cards)
            self._decisions[key] = (high, low, split.rule, split.rule_name)
            return split
        (h1, h2), (l1, l2), rule, rule_name = known
        return Split(TwoCardHand((ordered[h1], ordered[h2])), TwoCardHand((ordered[l1], ordered[l2])), rule, rule_name)

    def split_uncached(self, cards: Sequence[Card]) -> Split:
        """The same split, worked out by running every rule on these very cards (for checks and benchmarks)."""
        return self._decide(self._checked_and_ordered(cards))

    def _checked_and_ordered(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        hand = tuple(sorted(cards, key=card_order, reverse=True))
        if len(hand) != 4:
            raise CardError(f"the house hand holds 4 cards, got {len(hand)}: {' '.join(map(str, cards)) or 'none'}")
        for card, following in pairwise(hand):
            if card.rank is following.rank and card.suit is following.suit:
                raise CardError(f"card {card} appears twice: one deck holds each card once")
        if hand[-1].suit is None:  # the joker sorts last
            raise CardError("Bài Bửu is played without the joker: take JK out of the deck")
        return hand

    def _decide(self, ordered: tuple[Card, ...]) -> Split:
        for rule in self.rules:
            split = rule.decide(ordered, self)
            if split is not None:
                if is_mis_set(split.high, split.low) and natural_of(ordered) is None:
                    raise AssertionError(f"house-way rule {rule.name!r} mis-set {ordered}")  # the rules forbid it
                return split
        raise AssertionError(f"no house-way rule decided {ordered}")  # the last rule always decides

    def posted_rules(self) -> list[tuple[str, str]]:
        """(name, text) of every rule in order, as a pit posts it."""
        return [(rule.name, rule.posted) for rule in self.rules]


def _by_rank(cards: Sequence[Card]) -> dict[Rank, list[Card]]:
    groups: dict[Rank, list[Card]] = {}
    for card in cards:
        groups.setdefault(card.rank, []).append(card)
    return groups


def _rest(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    return [card for card in cards if card not in taken]


def _decide_natural(cards: tuple[Card, ...], way: HouseWay) -> Split | None:
    natural = natural_of(cards)
    if natural is None:
        return None
    ranked = sorted(cards, key=card_order, reverse=True)
    if natural.kind is NaturalKind.FOUR_OF_A_KIND:
        high, low = ordered_hand(ranked[0], ranked[1]), ordered_hand(ranked[2], ranked[3])
        return Split(high, low, WAY_NATURAL_FOUR(natural=natural.describe()), "natural")
    trips = [card for card in ranked if card.rank is natural.rank]
    (kicker,) = _rest(cards, trips)
    high, low = ordered_hand(trips[0], trips[1]), ordered_hand(trips[2], kicker)
    return Split(high, low, WAY_NATURAL_THREE(natural=natural.describe()), "natural")


def _decide_two_pairs(cards: tuple[Card, ...], way: HouseWay) -> Split | None:
    groups = _by_rank(cards)
    if len(groups) != 2 or any(len(group) != 2 for group in groups.values()):
        return None
    upper, lower = sorted(groups.values(), key=lambda group: rank_order(group[0].rank), reverse=True)
    high, low = ordered_hand(*upper), ordered_hand(*lower)
    return Split(high, low, WAY_TWO_PAIRS(high=upper[0].rank.text, low=lower[0].rank.text), "two pairs")


def _decide_one_pair(cards: tuple[Card, ...], way: HouseWay) -> Split | None:
    groups = _by_rank(cards)
    pairs = [group for group in groups.values() if len(group) == 2]
    if len(pairs) != 1 or len(groups) != 3:
        return None
    pair = pairs[0]
    rank = pair[0].rank
    first, second = sorted(_rest(cards, pair), key=card_order, reverse=True)
    low_first = sorted((first.rank, second.rank))  # face value, ace first, as the pair table writes them
    others = f"{low_first[0].text}+{low_first[1].text}"
    patterns = way.pair_splits.get(rank, ())
    if not patterns:
        return Split(
            ordered_hand(*pair),
            ordered_hand(first, second),
            WAY_PAIR_NEVER_SPLIT(rank=rank.text),
            "one pair",
        )
    if not any(pattern_matches(pattern, first.rank, second.rank) for pattern in patterns):
        return Split(
            ordered_hand(*pair),
            ordered_hand(first, second),
            WAY_PAIR_KEPT(rank=rank.text, others=others),
            "one pair",
        )
    with_first, with_second = ordered_hand(pair[0], first), ordered_hand(pair[1], second)
    # The better of the two becomes high; on a copy the hand with the higher other card (``first``) goes high.
    if with_second.strength > with_first.strength:
        high, low = with_second, with_first
    else:
        high, low = with_first, with_second
    return Split(high, low, WAY_PAIR_SPLIT(rank=rank.text, others=others), "one pair")


def _decide_kong_or_pictures(cards: tuple[Card, ...], way: HouseWay) -> Split | None:
    pictures = sorted((c for c in cards if c.rank in PICTURES), key=lambda c: rank_order(c.rank), reverse=True)
    if len({card.rank for card in pictures}) >= 2:
        kept = pictures[:2]
        rest = _rest(cards, kept)
        names = f"{kept[0].rank.text}+{kept[1].rank.text}"
        if len(pictures) >= 3:
            rule = WAY_THREE_PICTURES(cards=names)
        elif {card.rank for card in rest} == {Rank.ACE, Rank.NINE}:
            rule = WAY_PICTURES_AND_KONG(cards=names)
        else:
            rule = WAY_TWO_PICTURES(cards=names)
        return Split(ordered_hand(*kept), ordered_hand(*rest), rule, "Kong or two pictures")
    aces = [card for card in cards if card.rank is Rank.ACE]
    nines = [card for card in cards if card.rank is Rank.NINE]
    if aces and nines:
        kept = [aces[0], nines[0]]
        return Split(
            ordered_hand(*kept),
            ordered_hand(*_rest(cards, kept)),
            WAY_KONG(),
            "Kong or two pictures",
        )
    return None


def _decide_otherwise(cards: tuple[Card, ...], way: HouseWay) -> Split | None:
    first = cards[0]
    candidates: list[tuple[tuple[object, ...], TwoCardHand, TwoCardHand]] = []
    for partner in cards[1:]:
        one = ordered_hand(first, partner)
        other = ordered_hand(*_rest(cards, (first, partner)))
        high, low = (one, other) if (one.strength, _ranks(one)) >= (other.strength, _ranks(other)) else (other, one)
        candidates.append(((high.strength, low.strength, _ranks(high)), high, low))
    candidates.sort(key=lambda candidate: candidate[0], reverse=True)
    best_high = candidates[0]
    enough = [candidate for candidate in candidates if _low_points(candidate[2]) >= way.min_low_points]
    minimum = way.min_low_points
    if not enough:
        _, high, low = best_high
        return Split(
            high, low, WAY_NO_LOW(minimum=minimum, high=high.value_text), "otherwise"
        )
    _, high, low = enough[0]
    if enough[0] is best_high:
        rule = WAY_HIGHEST_HIGH(minimum=minimum, high=_short(high), low=_short(low))
    else:
        rule = WAY_LOW_TOO_SMALL(would_be=_short(best_high[2]), minimum=minimum, high=_short(high))
    return Split(high, low, rule, "otherwise")


def _ranks(hand: TwoCardHand) -> tuple[int, ...]:
    return tuple(sorted((rank_order(card.rank) for card in hand.cards), reverse=True))


def _low_points(hand: TwoCardHand) -> int:
    # Only points hands reach this rule (pairs, Kong and two pictures are decided earlier); treat others as 9+.
    return hand.points if hand.hand_class is HandClass.POINTS else 10


def _short(hand: TwoCardHand) -> str:
    return str(hand.points) if hand.hand_class is HandClass.POINTS else hand.value_text


STANDARD_RULES: tuple[HouseWayRule, ...] = (
    HouseWayRule(
        "natural",
        "Natural: four of a kind as two pairs; three of a kind with the pair high and the other two low.",
        _decide_natural,
    ),
    HouseWayRule("two pairs", "Two pairs: the higher pair high, the lower pair low.", _decide_two_pairs),
    HouseWayRule(
        "one pair",
        "One pair: keep the pair high and the other two low, except the splits in the pair table "
        "(one pair card with each other card, the better hand high). 4-4, 5-5, 10-10, J-J, Q-Q, K-K, A-A: never split.",
        _decide_one_pair,
    ),
    HouseWayRule(
        "Kong or two pictures",
        "Kong (A+9) or two pictures: never broken, kept high, the other two low. Two pictures and a Kong: the "
        "pictures high. Three pictures: the two highest high.",
        _decide_kong_or_pictures,
    ),
    HouseWayRule(
        "otherwise",
        "Otherwise: of the three splits, the highest high hand that leaves 4 or more low; if none does, the highest "
        "high. Ties: the higher low, then the split keeping the highest card high.",
        _decide_otherwise,
    ),
)

STANDARD_HOUSE_WAY = HouseWay(STANDARD_RULES)


def house_way(cards: Sequence[Card], way: HouseWay = STANDARD_HOUSE_WAY) -> Split:
    """The one house-way split of four cards, with the rule that decided it.

    >>> from engine.cards import parse_cards
    >>> split = house_way(parse_cards("QH 8S AD 3C"))
    >>> split.high.cards_text, split.low.cards_text, split.rule
    ('QH+8S', 'AD+3C', 'low would be 3 < 4: take the 8 high')
    >>> house_way(parse_cards("2S 2H 5D 6C")).rule
    'pair of 2s with 5+6: split'
    """
    return way.split(cards)


def pair_table_text(way: HouseWay = STANDARD_HOUSE_WAY) -> list[tuple[str, str]]:
    """The pair-split table as (pair, "split with …") rows for charts; Z = any 0-value card (10, J, Q, K)."""
    rows = []
    for rank in sorted((r for r in Rank if r is not Rank.JOKER), key=rank_order):
        patterns = way.pair_splits.get(rank, ())
        pair = f"{rank.text}-{rank.text}"
        rows.append((pair, "split with " + ", ".join(patterns) if patterns else "never split"))
    return rows


def all_splits(cards: Sequence[Card]) -> list[tuple[TwoCardHand, TwoCardHand]]:
    """The three ways to set four cards as two hands, each with the better hand high."""
    first, *others = cards
    result = []
    for partner in others:
        one = ordered_hand(first, partner)
        other = ordered_hand(*_rest(cards, (first, partner)))
        result.append((one, other) if one.strength >= other.strength else (other, one))
    return result


__all__ = [
    "STANDARD_HOUSE_WAY",
    "STANDARD_PAIR_SPLITS",
    "HouseWay",
    "HouseWayRule",
    "Split",
    "all_splits",
    "house_way",
    "ordered_hand",
    "pair_table_text",
    "pattern_matches",
]
