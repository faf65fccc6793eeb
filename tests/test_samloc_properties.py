"""Invariants of Sâm Lốc over random deals and random legal play (hypothesis)."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import standard_deck
from engine.samloc import PlayCards, Settings, State, classify, random_deal

MAX_STEPS = 400  # far above any real hand: 40 cards at one card per play, with passes between


@st.composite
def hands(draw: st.DrawFn) -> State:
    players = draw(st.integers(2, 4))
    table = Settings(
        bet=draw(st.sampled_from((10, 100, 10_000))),
        mode=draw(st.sampled_from(("normal", "sam_ngheo_giau"))),
        quad_beats_pair_of_twos=draw(st.booleans()),
    )
    deal = random_deal(players, draw(st.integers(0, players - 1)), random.Random(draw(st.integers(0, 2**32))))
    return State.start(table, deal)


def play_randomly(hand: State, data: st.DataObject) -> None:
    steps = 0
    while not hand.is_over:
        actions = hand.legal_actions()
        hand.apply(actions[data.draw(st.integers(0, len(actions) - 1))])
        steps += 1
        assert steps < MAX_STEPS, "the hand did not end"


# Ending, cards kept, money summing to zero and replay: tests/test_engine_contract.py, for every game.


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(), data=st.data())
def test_every_offered_play_is_accepted_and_every_other_play_is_refused(hand: State, data: st.DataObject) -> None:
    steps = 0
    while not hand.is_over and steps < 40:
        seat = hand.turn
        assert seat is not None
        offered = {frozenset(action.cards) for action in hand.legal_actions() if isinstance(action, PlayCards)}
        cards = hand.hands[seat]
        for size in range(1, len(cards) + 1):
            for subset in combinations(cards, size):
                assert hand.can_play(seat, subset) == (frozenset(subset) in offered), subset
        other = (seat + 1) % hand.players
        assert not any(hand.can_play(other, (card,)) for card in hand.hands[other])
        assert hand.can_pass(seat) == (hand.top is not None)
        for action in hand.legal_actions():
            trial = hand.copy()
            trial.apply(action)  # never raises
        actions = hand.legal_actions()
        hand.apply(actions[data.draw(st.integers(0, len(actions) - 1))])
        steps += 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(standard_deck()), min_size=1, max_size=10, unique=True))
def test_a_combination_does_not_depend_on_the_order_of_its_cards(cards: list) -> None:  # type: ignore[type-arg]
    assert classify(cards) == classify(list(reversed(cards)))
