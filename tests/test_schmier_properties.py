"""Invariants of Schmier over random legal play (hypothesis draws the seeds, the dealer and the options)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import deck_with_joker
from engine.schmier import Phase, Settings, State, random_deal
from engine.schmier.randomplay import random_action
from engine.schmier.ranks import card_points, protected_trumps, team_of

MAX_ACTIONS = 6 + 1 + 6 + 36  # bids, trump, discards, plays

seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.integers(min_value=0, max_value=5)
table_settings = st.builds(Settings, trump_anytime=st.booleans(), show_dealer_trump_discards=st.booleans())
scores = st.tuples(*(st.integers(min_value=-30, max_value=20),) * 3)


def play_out(seed: int, dealer: int, options: Settings, start: tuple[int, int, int] = (0, 0, 0)) -> State:
    rng = random.Random(seed)
    hand = State(options, random_deal(rng, dealer, start))
    for _ in range(MAX_ACTIONS):
        if hand.is_over:
            break
        hand.apply(random_action(hand, rng, pass_chance=0.5))
    return hand


@settings(max_examples=150, deadline=None)
@given(seeds, dealers, table_settings)
def test_random_legal_play_always_ends_a_hand(seed: int, dealer: int, options: Settings) -> None:
    hand = play_out(seed, dealer, options)
    assert hand.is_over
    if hand.phase is not Phase.THROWN_IN:
        assert len(hand.tricks) == 6 and all(held == [] for held in hand.hands)


@settings(max_examples=150, deadline=None)
@given(seeds, dealers, table_settings, scores)
def test_at_most_6_points_and_only_game_can_go_unawarded(
    seed: int, dealer: int, options: Settings, start: tuple[int, int, int]
) -> None:
    hand = play_out(seed, dealer, options, start)
    result = hand.settle()
    if result.thrown_in:
        assert result.points == () and result.scores_after == start
        return
    teams = result.point_teams()
    assert all(teams[point] is not None for point in ("high", "low", "right_bauer", "left_bauer", "joker"))
    assert sum(result.taken) == (6 if teams["game"] is not None else 5)
    # the score follows the rules of the bid
    assert result.bidder is not None and result.bid is not None
    bidding_team = team_of(result.bidder)
    assert result.made == (result.taken[bidding_team] >= result.bid)
    for team in range(3):
        expected = -result.bid if team == bidding_team and not result.made else result.taken[team]
        assert result.hand_points[team] == expected
        assert result.scores_after[team] == start[team] + expected
    # card points: what was played, and nothing discarded
    discarded = [card for cards in hand.discarded.values() for card in cards]
    assert sum(result.card_points) + sum(map(card_points, discarded)) == 81


@settings(max_examples=150, deadline=None)
@given(seeds, dealers, table_settings)
def test_the_five_protected_trumps_are_in_hands_after_the_discards(seed: int, dealer: int, options: Settings) -> None:
    rng = random.Random(seed)
    hand = State(options, random_deal(rng, dealer))
    while hand.phase not in (Phase.PLAY, Phase.THROWN_IN):
        hand.apply(random_action(hand, rng, pass_chance=0.5))
    if hand.phase is Phase.PLAY:
        assert hand.trump is not None
        held = {card for cards in hand.hands for card in cards}
        assert set(protected_trumps(hand.trump)) <= held
        assert [len(cards) for cards in hand.hands] == [6] * 6
        everything = held | {card for cards in hand.discarded.values() for card in cards}
        assert everything == set(deck_with_joker())


# Replay, copy and the settlement's shape: tests/test_engine_contract.py, for every game.


@settings(max_examples=60, deadline=None)
@given(seeds, dealers, table_settings)
def test_offered_plays_are_exactly_the_legal_ones(seed: int, dealer: int, options: Settings) -> None:
    rng = random.Random(seed)
    hand = State(options, random_deal(rng, dealer))
    while not hand.is_over:
        seat = hand.turn
        assert seat is not None
        if hand.phase is Phase.PLAY:
            offered = {action.card for action in hand.legal_actions()}  # type: ignore[union-attr]
            allowed = {card for card in hand.hands[seat] if hand.can_play(seat, card)}
            assert offered == allowed and offered
            everyone_else = [(other, card) for other in range(6) if other != seat for card in hand.hands[other]]
            assert not any(hand.can_play(other, card) for other, card in everyone_else)
        elif hand.phase is Phase.DISCARD:
            offered_sets = {frozenset(action.cards) for action in hand.legal_actions()}  # type: ignore[union-attr]
            allowed_sets = {
                frozenset(cards)
                for size in range(5)
                for cards in itertools.combinations(hand.hands[seat], size)
                if hand.can_discard(seat, cards)
            }
            assert offered_sets == allowed_sets
        elif hand.phase is Phase.BIDDING:
            for action in hand.legal_actions():
                assert hand.can_bid(seat, action.amount) if hasattr(action, "amount") else hand.can_pass_bid(seat)
            offered_bids = {a.amount for a in hand.legal_actions() if hasattr(a, "amount")}
            assert offered_bids == {n for n in range(0, 9) if hand.can_bid(seat, n)}
        hand.apply(random_action(hand, rng, pass_chance=0.5))


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_every_legal_dealer_discard_is_accepted_and_keeps_6(seed: int) -> None:
    rng = random.Random(seed)
    hand = State(Settings(), random_deal(rng, rng.randrange(6)))
    while hand.phase not in (Phase.DEALER_DISCARD, Phase.THROWN_IN):
        hand.apply(random_action(hand, rng, pass_chance=0.3))
    if hand.phase is Phase.THROWN_IN:
        return
    options = hand.discard_options()
    assert options.fewest == options.most == len(hand.hands[hand.dealer]) + len(hand.kept) - 6
    for _ in range(5):
        action = random_action(hand, rng)
        assert hand.can_discard(hand.dealer, action.cards)  # type: ignore[union-attr]
    hand.apply(action)
    assert len(hand.hands[hand.dealer]) == 6
