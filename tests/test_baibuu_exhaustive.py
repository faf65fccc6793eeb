"""Exhaustive checks of the house way: all 270,725 four-card hands, and all 1,820 hands of ranks against an
independent implementation of the spec written here on plain numbers."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, permutations

from engine.baibuu import STANDARD_HOUSE_WAY, house_way, natural_of
from engine.baibuu.house_way import card_order
from engine.cards import Card, Rank, standard_deck

ALL_HANDS = 270_725


def test_every_hand_gets_one_split_of_its_own_four_cards_never_mis_set() -> None:
    rules: Counter[str] = Counter()
    count = 0
    for hand in combinations(standard_deck(), 4):
        split = house_way(hand)
        assert sorted(map(card_order, split.cards)) == sorted(map(card_order, hand))
        is_natural = len({int(card.rank) for card in hand}) <= 2 and natural_of(hand) is not None
        assert is_natural == (split.rule_name == "natural")
        assert split.high.strength >= split.low.strength, (hand, split)  # never mis-set, naturals included
        rules[split.rule_name] += 1
        count += 1
    assert count == ALL_HANDS
    # Naturals: 13 fours + 13·4·48 threes; two pairs: C(13,2)·6·6.
    assert rules["natural"] == 13 + 13 * 4 * 48
    assert rules["two pairs"] == 78 * 36
    assert sum(rules.values()) == ALL_HANDS


# ---- an independent reading of the spec, on rank numbers 1 (ace) … 13 (king)

ZERO = {10, 11, 12, 13}
PICTURE = {11, 12, 13}


def order(rank: int) -> int:
    return 14 if rank == 1 else rank


def points(a: int, b: int) -> int:
    return ((0 if a >= 10 else a) + (0 if b >= 10 else b)) % 10


def key(a: int, b: int) -> tuple[int, int]:
    if a == b:
        return (3, order(a))
    if a in PICTURE and b in PICTURE:
        return (2, 0)
    if {a, b} == {1, 9}:
        return (1, 0)
    return (0, points(a, b))


def pair_splits(pair: int, x: int, y: int) -> bool:
    both = {x, y}
    z = lambda r: r in ZERO  # noqa: E731
    if pair == 2:
        return both in ({3, 7}, {4, 7}, {5, 7}, {6, 7}, {5, 6})
    if pair == 3:
        return both in ({4, 6}, {5, 6})
    if pair == 6:
        return both <= {1, 2, 3} or (2 in both and (z(x) or z(y))) or (3 in both and (z(x) or z(y)))
    if pair == 7:
        in_set = lambda r: r in (1, 2) or z(r)  # noqa: E731
        return (in_set(x) and in_set(y)) or both == {2, 9}
    if pair in (8, 9):
        return 1 in both and (z(x) or z(y))
    return False


def oracle(ranks: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(high ranks, low ranks), each sorted, for four ranks, straight from the spec's wording."""
    counts = Counter(ranks)
    (top, n), *_ = counts.most_common()
    if n == 4:
        return (top, top), (top, top)
    if n == 3:
        (kicker,) = [r for r in ranks if r != top]
        return (top, top), tuple(sorted((top, kicker)))  # type: ignore[return-value]
    pairs = sorted((r for r, c in counts.items() if c == 2), key=order)
    if len(pairs) == 2:
        return (pairs[1], pairs[1]), (pairs[0], pairs[0])
    if len(pairs) == 1:
        p = pairs[0]
        x, y = [r for r in ranks if r != p]
        if pair_splits(p, x, y):
            one, two = tuple(sorted((p, x))), tuple(sorted((p, y)))
            return (one, two) if (key(*one), order(x)) >= (key(*two), order(y)) else (two, one)  # type: ignore
        return (p, p), tuple(sorted((x, y)))  # type: ignore[return-value]
    pictures = sorted({r for r in ranks if r in PICTURE}, key=order, reverse=True)
    if len(pictures) >= 2:
        high = tuple(sorted(pictures[:2]))
        rest = list(ranks)
        rest.remove(high[0])
        rest.remove(high[1])
        return high, tuple(sorted(rest))  # type: ignore[return-value]
    if 1 in ranks and 9 in ranks:
        rest = list(ranks)
        rest.remove(1)
        rest.remove(9)
        return (1, 9), tuple(sorted(rest))  # type: ignore[return-value]
    a, b, c, d = ranks
    options = []
    for one, two in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
        high, low = (one, two) if points(*one) >= points(*two) else (two, one)
        if points(*one) == points(*two):  # equal hands: the one with the higher card counts as high
            high, low = (one, two) if max(map(order, one)) > max(map(order, two)) else (two, one)
        options.append((points(*high), points(*low), sorted(map(order, high), reverse=True), high, low))
    good = [option for option in options if option[1] >= 4] or options
    best = max(good, key=lambda option: (option[0], option[1], option[2]))
    return tuple(sorted(best[3])), tuple(sorted(best[4]))  # type: ignore[return-value]


def test_all_1820_hands_of_ranks_match_an_independent_reading_of_the_spec() -> None:
    suits = ("S", "H", "D", "C")
    count = 0
    for combo in combinations_with_replacement(range(1, 14), 4):
        seen: Counter[int] = Counter()
        cards = []
        for rank in combo:
            cards.append(Card(Rank(rank), _suit(suits[seen[rank]])))
            seen[rank] += 1
        split = house_way(cards)
        got = (
            tuple(sorted(int(c.rank) for c in split.high.cards)),
            tuple(sorted(int(c.rank) for c in split.low.cards)),
        )
        assert got == oracle(combo), (combo, split)
        count += 1
    assert count == 1820


def test_every_order_of_the_cards_gives_the_same_split() -> None:
    deck = standard_deck()
    for index, hand in enumerate(combinations(deck, 4)):
        if index % 149 == 0:
            first = house_way(hand)
            assert all(house_way(order) == first for order in permutations(hand)), hand


def _suit(letter: str) -> object:
    from engine.cards import Suit

    return Suit(letter)


def test_the_remembered_decision_equals_running_every_rule_on_the_very_cards() -> None:
    # The house way works each set of ranks out once; check that against a fresh decision on every 37th hand.
    for index, hand in enumerate(combinations(standard_deck(), 4)):
        if index % 37 == 0:
            assert STANDARD_HOUSE_WAY.split(hand) == STANDARD_HOUSE_WAY.split_uncached(hand), hand
