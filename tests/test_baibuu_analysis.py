"""The game's numbers (``engine.baibuu.analysis``): exact counts checked by hand, against the engine's own settling of
every deal of small decks, against the engine hand by hand on the full deck, and against whole rounds played through
``State``."""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.baibuu import CopyRule, Settings, house_way
from engine.baibuu.analysis import (
    GameCount,
    cards_of,
    game_count,
    house_edge,
    pattern_of,
    patterns,
    rank_way_table,
    rule_frequencies,
    simulate_rounds,
)
from engine.baibuu.house_way import all_splits
from engine.baibuu.settlement import Outcome, SetHand, settle_seat
from engine.cards import Card, parse_cards, standard_deck

HOUSE_HANDS = comb(48, 4)


def odds_of(count: GameCount, pattern: tuple[int, ...]):  # type: ignore[no-untyped-def]
    return next(odds for odds in count.odds if odds.pattern == pattern)


# ---------------------------------------------------------------- counted by hand


def test_a_deck_of_four_aces_and_four_kings_counted_by_hand() -> None:
    # 70 deals. AAAA beats KKKK (1 deal), AAAK's three aces beat AKKK's three kings (16); the reverse two lose
    # (17), and AAKK meets AAKK (36): both places copy, the house takes both copies under either rule.
    for rule in CopyRule:
        counts = GameCount(rule, deck={14: 4, 13: 4}).house_way()
        assert (counts.pairs, counts.win, counts.push, counts.lose) == (70, 17, 0, 53)
        assert counts.natural_win == 17 and counts.natural_beaten == 17
        assert counts.expected_value(Decimal("0.05")) == Fraction(17 * 95 - 53 * 100, 7000)


def test_four_aces_win_against_every_house_hand_and_four_kings_lose_only_to_four_aces() -> None:
    count = game_count(CopyRule.HOUSE)
    aces, kings = odds_of(count, (14, 14, 14, 14)), odds_of(count, (13, 13, 13, 13))
    assert aces.hands == 1 and aces.house_hands == HOUSE_HANDS
    assert (aces.choices[0].win, aces.choices[0].lose) == (HOUSE_HANDS, 0)
    assert (kings.choices[0].win, kings.choices[0].lose) == (HOUSE_HANDS - 1, 1)


def test_three_twos_lose_to_every_higher_natural_the_other_48_cards_can_make() -> None:
    # Four of a kind of 3 … K: 11 hands. Three of a kind of 3 … K: 4 ways × 44 other cards × 11 ranks = 1,936.
    # Three aces (three of the four aces are left, the player holds one): 1 × 45 other cards.
    choice = odds_of(game_count(CopyRule.HOUSE), (14, 2, 2, 2)).choices[0]
    assert choice.lose == 11 + 1936 + 45
    assert choice.win == HOUSE_HANDS - choice.lose


def test_aces_high_pictures_low_lose_only_to_the_other_aces_with_as_much_low_or_a_natural() -> None:
    # Player A A K Q: pair of aces high, K+Q low. The house ties the high only with the other two aces, and then
    # takes the low with a pair (K: 3 ways, Q: 3, each of the 10 ranks 2 … J: 6; 66 in all) or, copies to the
    # house, with two pictures (K+Q 9, K+J 12, Q+J 12). Naturals of the 48 cards: four of a kind of 2 … J (10),
    # three kings (1 × 45 other cards), three queens (45), three of a kind of 2 … J (10 × 4 × 44).
    naturals = 10 + 45 + 45 + 10 * 4 * 44
    house_rule = odds_of(game_count(CopyRule.HOUSE), (14, 14, 13, 12)).choices[0]
    assert house_rule.lose == 66 + 9 + 12 + 12 + naturals
    assert house_rule.house_natural == naturals
    # By the highest card, the house's Q+J loses the low to K+Q: that deal becomes a push.
    by_card = odds_of(game_count(CopyRule.HIGHEST_CARD), (14, 14, 13, 12)).choices[0]
    assert by_card.lose == 66 + 9 + 12 + naturals


# ---------------------------------------------------------------- against the engine


def brute_force(deck: list[Card], rule: CopyRule) -> Counter[str]:
    """Every deal of the deck settled by the engine: the player's 4 cards, the house's 4 of the rest."""
    settings_ = Settings(copy_rule=rule)
    results: Counter[str] = Counter()
    for player in combinations(deck, 4):
        split = house_way(player)
        hand = SetHand(split.high, split.low)
        rest = [card for card in deck if card not in player]
        for house in combinations(rest, 4):
            house_split = house_way(house)
            outcome = settle_seat(2, 100, hand, SetHand(house_split.high, house_split.low), settings_).outcome
            results["win" if outcome.seat_wins else outcome.value] += 1
    return results


@pytest.mark.parametrize("rule", list(CopyRule))
def test_every_deal_of_a_small_deck_counts_as_the_engine_settles_it(rule: CopyRule) -> None:
    deck = parse_cards("AS AH 9S KS QS 8S 2S 2H 2D 5S")  # a Kong, pictures, three of a kind to make
    expected = brute_force(list(deck), rule)
    counts = GameCount(rule, deck=Counter(pattern_of(deck))).house_way()
    assert (counts.win, counts.push, counts.lose) == (expected["win"], expected["push"], expected["lose"])


DECK = standard_deck()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(DECK), min_size=8, max_size=9, unique=True), st.sampled_from(list(CopyRule)))
def test_any_small_deck_counts_as_the_engine_settles_every_deal(deck: list[Card], rule: CopyRule) -> None:
    expected = brute_force(deck, rule)
    counts = GameCount(rule, deck=Counter(pattern_of(deck))).house_way()
    assert (counts.win, counts.push, counts.lose) == (expected["win"], expected["push"], expected["lose"])
    assert counts.pairs == comb(len(deck), 4) * comb(len(deck) - 4, 4)


@pytest.mark.parametrize("rule", list(CopyRule))
def test_best_play_on_a_small_deck_is_the_best_of_every_setting_the_engine_settles(rule: CopyRule) -> None:
    deck = list(parse_cards("AS 9S 9H KS QS 7S 7H 2S 3S"))
    settings_ = Settings(copy_rule=rule)
    win = lose = 0
    for player in combinations(deck, 4):
        rest = [card for card in deck if card not in player]
        houses = [house_way(house) for house in combinations(rest, 4)]
        best: tuple[int, int, int] | None = None
        for high, low in [split for pair in all_splits(player) for split in (pair, pair[::-1])]:
            hand = SetHand(high, low)
            if hand.is_mis_set:
                continue
            outcomes = Counter(
                settle_seat(2, 100, hand, SetHand(house.high, house.low), settings_).outcome for house in houses
            )
            won = outcomes[Outcome.WIN] + outcomes[Outcome.NATURAL]
            lost = outcomes[Outcome.LOSE]
            score = (won * 95 - lost * 100, won, lost)
            best = score if best is None or score[0] > best[0] else best
        assert best is not None
        win, lose = win + best[1], lose + best[2]
    count = GameCount(rule, deck=Counter(pattern_of(deck)))
    played = count.best(Decimal("0.05"))
    assert played.counts.win * 95 - played.counts.lose * 100 == win * 95 - lose * 100
    assert played.counts.expected_value(Decimal("0.05")) >= count.house_way().expected_value(Decimal("0.05"))


@pytest.mark.parametrize("rule", list(CopyRule))
def test_full_deck_hands_count_as_the_engine_settles_them_against_every_house_hand(rule: CopyRule) -> None:
    count = game_count(rule)
    settings_ = Settings(copy_rule=rule)
    houses = [(pattern, house_way(cards_of(pattern))) for pattern in patterns()]
    for pattern in [(12, 9, 5, 3), (7, 7, 13, 12), (14, 9, 6, 4)]:
        pattern = tuple(sorted(pattern, reverse=True))
        split = house_way(cards_of(pattern))
        hand, mine = SetHand(split.high, split.low), Counter(pattern)
        results: Counter[str] = Counter()
        for house_pattern, house_split in houses:
            # Card hands of this house pattern among the 48 cards the player left.
            hands = math.prod(comb(4 - mine[rank], k) for rank, k in Counter(house_pattern).items())
            if hands:
                house = SetHand(house_split.high, house_split.low)
                outcome = settle_seat(2, 100, hand, house, settings_).outcome
                results["win" if outcome.seat_wins else outcome.value] += hands
        choice = odds_of(count, pattern).choices[0]
        assert (choice.win, choice.lose) == (results["win"], results["lose"]), pattern
        assert HOUSE_HANDS - choice.win - choice.lose == results["push"]


def test_the_rank_pattern_table_splits_every_hand_as_the_house_way_does() -> None:
    table = rank_way_table()
    for hand in list(combinations(DECK, 4))[::11]:
        split, looked_up = house_way(hand), table.decide(hand)
        assert pattern_of(split.high.cards) == looked_up.high
        assert pattern_of(split.low.cards) == looked_up.low
        assert split.rule_name == looked_up.rule_name


# ---------------------------------------------------------------- the whole game


def test_every_pair_of_hands_is_counted_once_and_naturals_meet_symmetrically() -> None:
    for rule in CopyRule:
        counts = game_count(rule).house_way()
        assert counts.pairs == comb(52, 4) * comb(48, 4) == 52_677_670_500
        assert counts.win + counts.push + counts.lose == counts.pairs
        assert counts.mis_set == 0
        # The house holds a natural exactly as often as the player does.
        assert counts.house_natural + counts.natural_beaten * 2 == counts.natural_win + counts.natural_beaten


def test_the_house_edge_rises_with_the_commission_and_is_lower_when_copies_go_by_the_highest_card() -> None:
    edges = {
        rule: [house_edge(Settings(commission=Decimal(p) / 100, copy_rule=rule)) for p in range(11)]
        for rule in CopyRule
    }
    for rule in CopyRule:
        assert edges[rule] == sorted(edges[rule])
    assert all(h > c for h, c in zip(edges[CopyRule.HOUSE], edges[CopyRule.HIGHEST_CARD], strict=True))


def test_the_best_play_never_does_worse_than_the_house_way_and_sets_some_hands_otherwise() -> None:
    count = game_count(CopyRule.HOUSE)
    for rate in (Decimal(0), Decimal("0.05"), Decimal("0.10")):
        played = count.best(rate)
        assert played.gives_up(rate) > 0
        assert 0 < played.differs < comb(52, 4)
    # The house way splits 7-7 beside two pictures (7+Z and 7+Z, 7 points each); keeping the pair high wins more.
    kq77 = next(odds for odds, _ in count.best(Decimal("0.05")).patterns if odds.pattern == (13, 12, 7, 7))
    assert kq77.best(Fraction(1, 20)).high == (7, 7)


def test_rule_shares_cover_every_house_hand() -> None:
    shares = rule_frequencies()
    assert sum(rule.hands for rule in shares) == comb(52, 4)
    by_key = {rule.rule_key: rule.hands for rule in shares}
    assert by_key["way.natural_four"] == 13
    assert by_key["way.natural_three"] == 13 * 4 * 48
    assert by_key["way.two_pairs"] == comb(13, 2) * 6 * 6


@pytest.mark.parametrize("rule", list(CopyRule))
def test_whole_rounds_through_the_engine_agree_with_the_exact_figures(rule: CopyRule) -> None:
    sample = simulate_rounds(Settings(copy_rule=rule), rounds=700, seed=2026)
    exact = game_count(rule).house_way()
    figures = {
        "win": exact.share(exact.win),
        "push": exact.share(exact.push),
        "lose": exact.share(exact.lose),
        "ev": exact.expected_value(Decimal("0.05")),
    }
    for figure, value in figures.items():
        estimate = sample.estimate(figure)
        assert estimate.holds(float(value)), (figure, float(value), estimate)
