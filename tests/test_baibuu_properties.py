"""Properties of the Bài Bửu engine over random hands, sets, bets and rounds (hypothesis)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.baibuu import (
    CopyRule,
    Outcome,
    SetHand,
    Settings,
    TwoCardHand,
    assign_stacks,
    commission_on,
    house_way,
    settle_seat,
)
from engine.cards import Card, standard_deck

DECK = standard_deck()
cards = st.permutations(DECK).map(lambda deck: deck[:8])
rates = st.sampled_from(["0", "0.01", "0.025", "0.05", "0.07", "0.1"]).map(Decimal)
table = st.builds(
    lambda rate, chip, rule: Settings(commission=rate, smallest_chip=chip, min_bet=chip, copy_rule=rule),
    rates,
    st.sampled_from([1, 5, 25]),
    st.sampled_from(list(CopyRule)),
)


def felt(four: list[Card] | tuple[Card, ...]) -> SetHand:
    return SetHand(TwoCardHand.of(four[0], four[1]), TwoCardHand.of(four[2], four[3]))


@settings(deadline=None)  # a loaded CI machine must not turn slowness into a failure
@given(cards)
def test_a_split_uses_exactly_the_four_cards_whatever_their_order(eight: list[Card]) -> None:
    four = eight[:4]
    split = house_way(four)
    assert sorted(split.cards, key=Card.sort_key) == sorted(four, key=Card.sort_key)
    assert house_way(list(reversed(four))) == split
    assert house_way(eight[2:4] + eight[:2]) == split


@settings(deadline=None)  # a loaded CI machine must not turn slowness into a failure
@given(cards, table, st.integers(1, 200))
def test_a_mis_set_always_loses_its_bet(eight: list[Card], rules: Settings, chips: int) -> None:
    bet = chips * rules.smallest_chip
    seat = felt(eight[:4])
    house_split = house_way(eight[4:])
    house = SetHand(house_split.high, house_split.low)
    result = settle_seat(2, bet, seat, house, rules)
    if seat.is_mis_set:
        assert result.outcome is Outcome.MIS_SET and result.net == -bet
    else:
        assert result.outcome is not Outcome.MIS_SET


@settings(deadline=None)  # a loaded CI machine must not turn slowness into a failure
@given(cards, table)
def test_swapping_high_and_low_of_a_valid_set_never_helps(eight: list[Card], rules: Settings) -> None:
    seat = felt(eight[:4])
    if seat.is_mis_set:
        seat = SetHand(seat.low, seat.high)
    swapped = SetHand(seat.low, seat.high)
    house_split = house_way(eight[4:])
    house = SetHand(house_split.high, house_split.low)
    assume(swapped.is_mis_set)  # equal hands swap into another valid set; naturals are never mis-set
    valid = settle_seat(2, 100, seat, house, rules)
    after = settle_seat(2, 100, swapped, house, rules)
    assert after.outcome is Outcome.MIS_SET
    assert after.net <= valid.net


@settings(deadline=None)  # a loaded CI machine must not turn slowness into a failure
@given(cards, table, st.integers(1, 400))
def test_a_result_is_the_bet_won_less_commission_returned_or_lost(
    eight: list[Card], rules: Settings, chips: int
) -> None:
    bet = chips * rules.smallest_chip
    house_split = house_way(eight[4:])
    result = settle_seat(2, bet, felt(eight[:4]), SetHand(house_split.high, house_split.low), rules)
    if result.outcome in (Outcome.WIN, Outcome.NATURAL):
        assert result.net == bet - result.commission
        assert 0 <= result.commission <= bet * rules.commission
        assert result.commission % rules.smallest_chip == 0
        assert bet * rules.commission - result.commission < rules.smallest_chip  # rounded down, by less than a chip
    elif result.outcome is Outcome.PUSH:
        assert result.net == 0
    else:
        assert result.net == -bet
    assert result.reasons


@settings(deadline=None)  # a loaded CI machine must not turn slowness into a failure
@given(st.integers(0, 100_000), rates, st.sampled_from([1, 5, 25, 100]))
def test_commission_never_exceeds_the_stated_rate(win: int, rate: Decimal, chip: int) -> None:
    commission = commission_on(win, Settings(commission=rate, smallest_chip=chip, min_bet=chip))
    assert 0 <= commission <= win * rate and commission % chip == 0


@settings(deadline=None)  # a loaded CI machine must not turn slowness into a failure
@given(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)))
def test_every_roll_gives_each_position_one_stack_and_the_house_one(dice: tuple[int, int, int]) -> None:
    assignment = assign_stacks(list(dice))
    assert sorted(assignment.stack_for(position) for position in range(1, 8)) == list(range(1, 8))
    assert assignment.position_of(assignment.house_stack) == 1
    assert assignment.position_of(1) == assignment.first_position
