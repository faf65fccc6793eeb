"""The game's numbers: exact win / push / lose odds, the player's expected value and the house edge of a table
setting, by counting every pair of hands (the player's 4 cards, the house's 4 of the other 48), not by sampling.

No rule reads a suit (the house way, the hand ranking and both copy rules read ranks only), so the count runs over
the 1,820 multisets of four ranks ("patterns"), each weighed by how many card hands have it. The house hands that
share no card with the player's are counted by inclusion–exclusion over the player's cards: every house hand, less
those holding one of the player's cards, plus those holding two of them, and so on. How many house hands hold a
given set of cards, and how they fare against a setting, depends only on those cards' ranks, so a few hundred
cumulative tables answer every question exactly, in integers.

``GameCount(copy_rule)`` counts one setting; ``simulate_rounds`` plays whole rounds through ``State`` as a check.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import comb

from engine.baibuu.hands import TwoCardHand, is_mis_set, rank_order
from engine.baibuu.house_way import STANDARD_HOUSE_WAY, HouseWay, house_way
from engine.baibuu.naturals import natural_of
from engine.baibuu.round import Deal, State
from engine.baibuu.settings import CopyRule, Settings
from engine.baibuu.settlement import Outcome
from engine.cards import Card, CardError, Rank, Suit, shuffled, standard_deck

RANKS: tuple[int, ...] = tuple(range(14, 1, -1))
"""Ranks as the game orders them, ace (14) high down to 2."""
FULL_DECK: Mapping[int, int] = {rank: 4 for rank in RANKS}
"""A deck as how many cards of each rank it holds (the full deck: four of each)."""

Pattern = tuple[int, ...]
"""Four ranks (2 … 14, ace 14), highest first: the hand with its suits forgotten."""
Place = tuple[int, int]
"""The two ranks of a high or a low hand, higher first."""

_SUITS = tuple(Suit)
_NO_NATURAL = -1


def rank_of(order: int) -> Rank:
    return Rank.ACE if order == 14 else Rank(order)


def pattern_of(cards: Sequence[Card]) -> Pattern:
    return tuple(sorted((rank_order(card.rank) for card in cards), reverse=True))


def cards_of(pattern: Pattern) -> tuple[Card, ...]:
    """Cards with these ranks: repeats of a rank take spades, hearts, diamonds, clubs in turn."""
    seen: Counter[int] = Counter()
    cards = []
    for order in pattern:
        cards.append(Card(rank_of(order), _SUITS[seen[order]]))
        seen[order] += 1
    return tuple(cards)


def check_deck(deck: Mapping[int, int]) -> None:
    for order, count in deck.items():
        if order not in RANKS or not 0 <= count <= 4:
            raise CardError(f"a deck holds 0 to 4 cards of each rank 2-14 (ace 14), not {count} of rank {order}")
    if sum(deck.values()) < 8:
        raise CardError(f"the player and the house need 8 cards; this deck holds {sum(deck.values())}")


def patterns(deck: Mapping[int, int] = FULL_DECK) -> list[Pattern]:
    """Every pattern the deck can deal (1,820 from the full deck), highest ranks first."""
    ranks = [order for order in RANKS if deck.get(order, 0) > 0]
    return [
        combo
        for combo in combinations_with_replacement(ranks, 4)
        if all(combo.count(order) <= deck[order] for order in set(combo))
    ]


def hands_with(pattern: Pattern, deck: Mapping[int, int] = FULL_DECK) -> int:
    """How many card hands of the deck have this pattern."""
    return math.prod(comb(deck.get(order, 0), count) for order, count in Counter(pattern).items())


# ---------------------------------------------------------------- the house way by pattern


@dataclass(frozen=True, slots=True)
class PatternSplit:
    """The house way of one pattern: the ranks set high and low, and the rule that decided."""

    pattern: Pattern
    high: Place
    low: Place
    rule_name: str
    """The rule as posted: ``"one pair"``, ``"otherwise"`` …"""
    rule_key: str
    """Which branch of the rule (the key of its phrase): ``"way.pair_split"``, ``"way.low_too_small"`` …"""
    example: str
    """The rule's line for one hand of this pattern, in a dealer's words."""


_POW5 = tuple(5**face for face in range(14))  # a hand's code: how many of each rank, as base-5 digits


class RankWayTable:
    """The house way of every pattern, worked out once by the rules; ``decide`` looks any four cards up.

    The lookup reads ranks only and does not check the cards (the callers hold four distinct cards already).
    """

    def __init__(self, way: HouseWay = STANDARD_HOUSE_WAY) -> None:
        self.way = way
        self.by_pattern: dict[Pattern, PatternSplit] = {}
        self._by_code: dict[int, PatternSplit] = {}
        for pattern in patterns():
            split = way.split_uncached(cards_of(pattern))
            decided = PatternSplit(
                pattern,
                _place(split.high.cards),
                _place(split.low.cards),
                split.rule_name,
                str(getattr(split.rule, "key", split.rule_name)),
                str(split.rule),
            )
            self.by_pattern[pattern] = decided
            self._by_code[sum(_POW5[int(rank_of(order))] for order in pattern)] = decided

    def decide(self, cards: Sequence[Card]) -> PatternSplit:
        a, b, c, d = cards
        # ``_value_``, not the enum member: hashing an enum member runs Python code, and this is the hot path.
        return self._by_code[
            _POW5[a.rank._value_] + _POW5[b.rank._value_] + _POW5[c.rank._value_] + _POW5[d.rank._value_]
        ]


def _place(cards: Sequence[Card]) -> Place:
    first, second = sorted((rank_order(card.rank) for card in cards), reverse=True)
    return (first, second)


_TABLES: dict[int, RankWayTable] = {}


def rank_way_table(way: HouseWay = STANDARD_HOUSE_WAY) -> RankWayTable:
    """The table of a house way, worked out once per house way (a house way holds a dict: kept by identity)."""
    table = _TABLES.get(id(way))
    if table is None or table.way is not way:
        table = _TABLES[id(way)] = RankWayTable(way)
    return table


@dataclass(frozen=True, slots=True)
class RuleFrequency:
    rule_name: str
    rule_key: str
    hands: int
    """How many of the 270,725 four-card hands this rule (this branch of it) decides."""
    patterns: int
    example: str

    @property
    def share(self) -> Fraction:
        return Fraction(self.hands, comb(52, 4))


def rule_frequencies(way: HouseWay = STANDARD_HOUSE_WAY) -> list[RuleFrequency]:
    """How often each house-way rule (and each branch of it) decides the house hand, in the order of the rules."""
    table = rank_way_table(way)
    hands: Counter[tuple[str, str]] = Counter()
    count: Counter[tuple[str, str]] = Counter()
    example: dict[tuple[str, str], str] = {}
    for pattern, split in table.by_pattern.items():
        key = (split.rule_name, split.rule_key)
        hands[key] += hands_with(pattern)
        count[key] += 1
        example.setdefault(key, split.example)
    order = {rule.name: index for index, rule in enumerate(way.rules)}
    keys = sorted(hands, key=lambda key: (order.get(key[0], len(order)), -hands[key]))
    return [
        RuleFrequency(name, branch, hands[(name, branch)], count[(name, branch)], example[(name, branch)])
        for name, branch in keys
    ]


# ---------------------------------------------------------------- keys that order hands as the rules do


@cache
def _strength(high: int, low: int) -> tuple[tuple[int, int], int]:
    hand = TwoCardHand.of(Card(rank_of(high), Suit.SPADES), Card(rank_of(low), Suit.HEARTS))
    return hand.strength, hand.highest_rank


def place_key(place: Place, copy_rule: CopyRule) -> int:
    """An integer that orders two-card hands as a place is decided: the seat wins only with the greater key.

    With copies to the house a copy is an equal key; with ``highest_card`` the highest card joins the key, and an
    equal key again goes to the house.
    """
    (hand_class, value), top = _strength(*place)
    base = hand_class * 16 + value
    return base * 16 + top if copy_rule is CopyRule.HIGHEST_CARD else base


def natural_key(pattern: Pattern) -> int:
    """Orders naturals (four of a kind over three, then by rank); -1 for a hand that is no natural."""
    natural = natural_of(cards_of(pattern))
    if natural is None:
        return _NO_NATURAL
    kind, rank = natural.strength
    return kind * 16 + rank


_NATURAL_KEYS = 5 * 16


# ---------------------------------------------------------------- the house hands that hold given cards


class _Holding:
    """The house hands holding one given set of cards, tallied by how they stand against any player's setting."""

    __slots__ = ("_entries", "_grid", "_natural_at_least", "_natural_total", "_width", "total")

    def __init__(self, entries: list[tuple[int, int, int, int]], width: int, tabulate: bool) -> None:
        self._entries = entries  # (natural key or -1, high index, low index, hands)
        self._width = width
        self.total = sum(entry[3] for entry in entries)
        self._natural_total = sum(entry[3] for entry in entries if entry[0] != _NO_NATURAL)
        self._grid: list[list[int]] = []
        self._natural_at_least: list[int] = []
        if tabulate:
            self._tabulate()

    def _tabulate(self) -> None:
        width = self._width
        grid = [[0] * (width + 1) for _ in range(width + 1)]
        at_least = [0] * (_NATURAL_KEYS + 1)
        for natural, high, low, hands in self._entries:
            if natural == _NO_NATURAL:
                grid[high + 1][low + 1] += hands
            else:
                at_least[natural] += hands
        for i in range(1, width + 1):  # grid[i][j]: hands that are no natural with high index < i and low < j
            row, above, running = grid[i], grid[i - 1], 0
            for j in range(1, width + 1):
                running += row[j]
                row[j] = running + above[j]
        for key in range(_NATURAL_KEYS - 1, -1, -1):
            at_least[key] += at_least[key + 1]
        self._grid, self._natural_at_least = grid, at_least

    def against(self, natural: int, high: int, low: int) -> tuple[int, int, int]:
        """(hands the player beats, hands that beat the player, of those the house naturals) for one setting."""
        if self._grid:
            if natural != _NO_NATURAL:
                beaten = self._natural_at_least[natural]
                return self.total - beaten, beaten, 0
            grid, width = self._grid, self._width
            both = grid[high][low]
            lost = grid[width][width] - grid[high][width] - grid[width][low] + both
            return both, lost + self._natural_total, self._natural_total
        wins = losses = 0
        if natural != _NO_NATURAL:
            for house_natural, _, _, hands in self._entries:
                if house_natural >= natural:
                    losses += hands
            return self.total - losses, losses, 0
        for house_natural, house_high, house_low, hands in self._entries:
            if house_natural != _NO_NATURAL:
                continue
            if house_high < high and house_low < low:
                wins += hands
            elif house_high >= high and house_low >= low:
                losses += hands
        return wins, losses + self._natural_total, self._natural_total


def _sub_patterns(pattern: Pattern) -> Iterator[tuple[Pattern, dict[int, int]]]:
    """Every sub-multiset of the pattern's ranks, with its counts."""
    counts = Counter(pattern)
    ranks = sorted(counts, reverse=True)
    for taken in product(*(range(counts[order] + 1) for order in ranks)):
        sub = {order: k for order, k in zip(ranks, taken, strict=True) if k}
        yield tuple(order for order in ranks for _ in range(sub.get(order, 0))), sub


# ---------------------------------------------------------------- counting a setting


@dataclass(frozen=True, slots=True)
class Counts:
    """Pairs of hands (the player's four cards, the house's four of the rest) by how the player's bet ends."""

    pairs: int
    win: int
    push: int
    lose: int
    natural_win: int
    """Of ``win``: the player's natural beat the house."""
    natural_beaten: int
    """Of ``lose``: the player's natural met a house natural as high or higher."""
    house_natural: int
    """Of ``lose``: a house natural beat a player's hand that was no natural."""
    mis_set: int = 0
    """Of ``lose``: mis-set hands (none: neither the house way nor the best play ever mis-sets)."""

    def share(self, count: int) -> Fraction:
        return Fraction(count, self.pairs)

    def expected_value(self, commission: Decimal | Fraction) -> Fraction:
        """The player's expected net per unit bet: a win pays 1 less the commission, a loss takes 1."""
        rate = Fraction(commission)
        return Fraction(self.win * (1 - rate) - self.lose, self.pairs)

    def house_edge(self, commission: Decimal | Fraction) -> Fraction:
        return -self.expected_value(commission)

    def standard_deviation(self, commission: Decimal | Fraction) -> float:
        rate = Fraction(commission)
        mean = self.expected_value(rate)
        second = Fraction(self.win * (1 - rate) ** 2 + self.lose, self.pairs)
        return math.sqrt(second - mean * mean)

    def hold(self, bet: int, commission: int) -> Fraction:
        """What the house keeps on average from one flat bet whose win pays ``commission`` chips."""
        return Fraction(self.lose * bet - self.win * (bet - commission), self.pairs)

    def fields(self) -> tuple[int, ...]:
        return (
            self.pairs,
            self.win,
            self.push,
            self.lose,
            self.natural_win,
            self.natural_beaten,
            self.house_natural,
            self.mis_set,
        )


@dataclass(frozen=True, slots=True)
class Choice:
    """One way a player can set a pattern, and how it fares against every house hand left."""

    high: Place
    low: Place
    win: int
    lose: int
    house_natural: int

    def value(self, commission: Fraction) -> Fraction:
        return self.win * (1 - commission) - self.lose


@dataclass(frozen=True, slots=True)
class PatternOdds:
    """A player's pattern: how many card hands have it, the natural it makes, and every way to set it.

    ``choices[0]`` is the house way.
    """

    pattern: Pattern
    hands: int
    natural: bool
    choices: tuple[Choice, ...]
    house_hands: int
    """House hands against each of these player hands (the deck less the player's four cards)."""

    def best(self, commission: Fraction) -> Choice:
        """The setting with the most value at this commission; the house way when nothing does better."""
        keep, whole = commission.denominator - commission.numerator, commission.denominator  # in whole numbers
        best, most = self.choices[0], self.choices[0].win * keep - self.choices[0].lose * whole
        for choice in self.choices[1:]:
            value = choice.win * keep - choice.lose * whole
            if value > most:
                best, most = choice, value
        return best

    def counts(self, choice: Choice) -> Counts:
        push = self.house_hands - choice.win - choice.lose
        natural_win = choice.win if self.natural else 0
        natural_beaten = choice.lose if self.natural else 0
        return Counts(
            self.house_hands * self.hands,
            choice.win * self.hands,
            push * self.hands,
            choice.lose * self.hands,
            natural_win * self.hands,
            natural_beaten * self.hands,
            choice.house_natural * self.hands,
        )


@dataclass(frozen=True, slots=True)
class BestPlay:
    """The player who sets every hand the best way against the house way, at one commission."""

    counts: Counts
    house_way: Counts
    differs: int
    """Player hands (of 270,725) whose best setting is not the house way's."""
    patterns: tuple[tuple[PatternOdds, Choice], ...]
    """The patterns where it differs, with the better choice."""

    def gives_up(self, commission: Decimal | Fraction) -> Fraction:
        """How much per unit bet the house way leaves on the table against the best play."""
        return self.counts.expected_value(commission) - self.house_way.expected_value(commission)


class GameCount:
    """Every pair of hands counted for one copy rule, house way and deck (the full deck unless given)."""

    def __init__(
        self,
        copy_rule: CopyRule = CopyRule.HOUSE,
        way: HouseWay = STANDARD_HOUSE_WAY,
        deck: Mapping[int, int] = FULL_DECK,
    ) -> None:
        check_deck(deck)
        self.copy_rule = copy_rule
        self.way = way
        self.deck = dict(deck)
        self.table = rank_way_table(way)
        keys = sorted({place_key((a, b), copy_rule) for a in RANKS for b in RANKS if a >= b})
        self._index = {key: index for index, key in enumerate(keys)}
        self._width = len(keys)
        self.patterns = patterns(self.deck)
        self._holdings = self._hold()
        self.odds = tuple(self._pattern_odds(pattern) for pattern in self.patterns)
        self._house_way: Counts | None = None

    def _key(self, place: Place) -> int:
        return self._index[place_key(place, self.copy_rule)]

    def _hold(self) -> dict[Pattern, _Holding]:
        entries: dict[Pattern, list[tuple[int, int, int, int]]] = {}
        deck = self.deck
        for pattern in self.patterns:
            split = self.table.by_pattern[pattern]
            natural = natural_key(pattern)
            high, low = self._key(split.high), self._key(split.low)
            counts = Counter(pattern)
            for sub, taken in _sub_patterns(pattern):
                # House hands of this pattern that hold one given set of cards with the ranks ``sub``.
                hands = math.prod(
                    comb(deck[order] - taken.get(order, 0), counts[order] - taken.get(order, 0)) for order in counts
                )
                entries.setdefault(sub, []).append((natural, high, low, hands))
        return {sub: _Holding(found, self._width, tabulate=len(sub) <= 2) for sub, found in entries.items()}

    def _choices(self, pattern: Pattern) -> list[tuple[Place, Place]]:
        split = self.table.by_pattern[pattern]
        choices = [(split.high, split.low)]
        if natural_key(pattern) != _NO_NATURAL:
            return choices  # a natural is compared whole, however it is set
        cards = cards_of(pattern)
        first, others = cards[0], cards[1:]
        for partner in others:
            one = TwoCardHand.of(first, partner)
            rest = [card for card in others if card != partner]
            other = TwoCardHand.of(rest[0], rest[1])
            for high, low in ((one, other), (other, one)):
                setting = (_place(high.cards), _place(low.cards))
                if not is_mis_set(high, low) and setting not in choices:
                    choices.append(setting)
        return choices

    def _pattern_odds(self, pattern: Pattern) -> PatternOdds:
        natural = natural_key(pattern)
        house_hands = comb(sum(self.deck.values()) - 4, 4)
        terms = []
        for sub, taken in _sub_patterns(pattern):
            sign = -1 if len(sub) % 2 else 1
            terms.append((self._holdings[sub], sign * math.prod(comb(pattern.count(o), k) for o, k in taken.items())))
        assert sum(weight * holding.total for holding, weight in terms) == house_hands
        choices = []
        for high, low in self._choices(pattern):
            key_high, key_low = self._key(high), self._key(low)
            win = lose = house_natural = 0
            for holding, weight in terms:
                w, lost, nat = holding.against(natural, key_high, key_low)
                win += weight * w
                lose += weight * lost
                house_natural += weight * nat
            choices.append(Choice(high, low, win, lose, house_natural))
        return PatternOdds(pattern, hands_with(pattern, self.deck), natural != _NO_NATURAL, tuple(choices), house_hands)

    def house_way(self) -> Counts:
        """The player sets every hand by the house way, as the house does."""
        if self._house_way is None:
            self._house_way = _total(odds.counts(odds.choices[0]) for odds in self.odds)
        return self._house_way

    def best(self, commission: Decimal | Fraction) -> BestPlay:
        """The player sets every hand the way worth most against the house way's hands, at this commission."""
        rate = Fraction(commission)
        chosen = [(odds, odds.best(rate)) for odds in self.odds]
        changed = tuple((odds, choice) for odds, choice in chosen if choice is not odds.choices[0])
        total = _total(odds.counts(choice) for odds, choice in chosen)
        return BestPlay(total, self.house_way(), sum(odds.hands for odds, _ in changed), changed)


def _total(parts: Iterable[Counts]) -> Counts:
    sums = [0] * 8
    for part in parts:
        for index, value in enumerate(part.fields()):
            sums[index] += value
    return Counts(*sums)


_COUNTS: dict[tuple[CopyRule, int], GameCount] = {}


def game_count(copy_rule: CopyRule = CopyRule.HOUSE, way: HouseWay = STANDARD_HOUSE_WAY) -> GameCount:
    """The full-deck count of a copy rule and house way, kept once worked out."""
    count = _COUNTS.get((copy_rule, id(way)))
    if count is None or count.way is not way:
        count = _COUNTS[(copy_rule, id(way))] = GameCount(copy_rule, way)
    return count


def house_edge(settings: Settings, way: HouseWay = STANDARD_HOUSE_WAY) -> Fraction:
    """The house edge per unit bet of a table's settings, the player setting by the house way."""
    return game_count(settings.copy_rule, way).house_way().house_edge(settings.commission)


# ---------------------------------------------------------------- the check: whole rounds played through State


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sampled figure and its confidence interval."""

    value: float
    low: float
    high: float

    def holds(self, exact: float) -> bool:
        return self.low <= exact <= self.high


@dataclass(frozen=True, slots=True)
class Simulation:
    """Seats' results over whole rounds played through ``State``; every seat sets by the house way."""

    seats: int
    bet: int
    per_round: tuple[tuple[int, int, int, int], ...]
    """Each round's seats that won, pushed and lost, and their net in chips."""

    @property
    def rounds(self) -> int:
        return len(self.per_round)

    def estimate(self, figure: str, z: float = 3.29) -> Estimate:
        """``win``, ``push``, ``lose`` (shares of seats) or ``ev`` (net per unit bet), with a z-sigma interval
        (3.29: 99.9 %). Seats of one round share the house hand, so the spread is taken between rounds."""
        column = ("win", "push", "lose", "ev").index(figure)
        scale = self.bet * self.seats if figure == "ev" else self.seats
        values = [result[column] / scale for result in self.per_round]
        mean = sum(values) / len(values)
        variance = sum((value - mean) ** 2 for value in values) / max(1, len(values) - 1)
        half = z * math.sqrt(variance / len(values))
        return Estimate(mean, mean - half, mean + half)


def simulate_rounds(settings: Settings, rounds: int, seed: int, bet: int = 100) -> Simulation:
    """Shuffle, deal, roll, set the house by the house way and every seat the same way, settle: ``rounds`` times.

    The commission on ``bet`` is rounded down to the smallest chip as at the table (none at 5 % of 100).
    """
    rng = random.Random(seed)
    deck = standard_deck()
    per_round = []
    for _ in range(rounds):
        state = State(settings, Deal.from_deck(shuffled(deck, rng.randrange(2**32))))
        state.roll([rng.randint(1, 6) for _ in range(3)])
        state.reveal_house(state.stack_of(1) or ())
        split = state.house_split
        assert split is not None
        state.set_house(split.high.cards, split.low.cards)
        outcomes: Counter[str] = Counter()
        net = 0
        for seat in settings.seats:
            seat_split = house_way(state.stack_of(seat) or ())
            result = state.set_seat(seat, bet, seat_split.high.cards, seat_split.low.cards).result
            outcomes["win" if result.outcome.seat_wins else "push" if result.outcome is Outcome.PUSH else "lose"] += 1
            net += result.net
        per_round.append((outcomes["win"], outcomes["push"], outcomes["lose"], net))
    return Simulation(len(settings.seats), bet, tuple(per_round))
