"""Settling a seat against the house: outcomes, copies, naturals, mis-sets and commission."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.baibuu import CopyRule, Outcome, SetHand, Settings, commission_on, settle_seat
from engine.cards import parse_cards
from engine.common import HOUSE


def felt(high: str, low: str) -> SetHand:
    return SetHand.of(parse_cards(high, count=2), parse_cards(low, count=2))


HOUSE_Q8_A3 = felt("QH 8S", "AD 3C")  # 8 high, 4 low: the example house


def settle(high: str, low: str, house: SetHand = HOUSE_Q8_A3, bet: int = 100, **settings: object) -> object:
    return settle_seat(2, bet, felt(high, low), house, Settings(**settings))  # type: ignore[arg-type]


def test_both_hands_won_is_a_win_paid_even_money_less_5_percent() -> None:
    result = settle_seat(2, 100, felt("KH QS", "5D 4C"), HOUSE_Q8_A3, Settings())
    assert result.outcome is Outcome.WIN
    assert result.net == 95 and result.commission == 5
    assert result.reasons == (
        "high: two pictures (KH+QS) against the house's 8 points (QH+8S): seat wins",
        "low: 9 points (5D+4C) against the house's 4 points (AD+3C): seat wins",
    )


def test_one_won_one_lost_is_a_push_and_returns_the_bet() -> None:
    result = settle_seat(2, 100, felt("KH QS", "2D 10C"), HOUSE_Q8_A3, Settings())
    assert result.outcome is Outcome.PUSH and result.net == 0 and result.payment() is None


def test_both_lost_is_a_loss_of_the_bet() -> None:
    result = settle_seat(2, 100, felt("5H 2S", "2D 10C"), HOUSE_Q8_A3, Settings())
    assert result.outcome is Outcome.LOSE and result.net == -100


def test_a_copy_goes_to_the_house() -> None:
    # high 8 against 8 is a copy (house), low 7 against 4 is won: a push.
    result = settle_seat(2, 100, felt("KD 8D", "5D 2C"), HOUSE_Q8_A3, Settings())
    assert result.outcome is Outcome.PUSH
    assert "copy, house wins the copy" in result.reasons[0]


def test_copy_rule_highest_card_decides_a_copy_by_the_highest_card() -> None:
    rule = Settings(copy_rule=CopyRule.HIGHEST_CARD)
    # 8 (K+8) against the house's 8 (Q+8): the king beats the queen, so the seat wins the high too.
    won = settle_seat(2, 100, felt("KD 8D", "5D 2C"), HOUSE_Q8_A3, rule)
    assert won.outcome is Outcome.WIN
    # 8 (J+8) against 8 (Q+8): the queen is higher, the house wins the copy.
    lost = settle_seat(2, 100, felt("JD 8D", "5D 2C"), HOUSE_Q8_A3, rule)
    assert lost.outcome is Outcome.PUSH


def test_copy_rule_highest_card_equal_again_stays_with_the_house() -> None:
    rule = Settings(copy_rule=CopyRule.HIGHEST_CARD)
    result = settle_seat(2, 100, felt("QD 8D", "5D 2C"), HOUSE_Q8_A3, rule)
    assert result.outcome is Outcome.PUSH
    assert "highest cards equal too" in result.reasons[0]


def test_a_mis_set_hand_loses_at_once_even_if_it_would_beat_the_house() -> None:
    result = settle_seat(2, 100, felt("5D 4C", "KH KS"), HOUSE_Q8_A3, Settings())
    assert result.outcome is Outcome.MIS_SET and result.net == -100
    assert result.reasons[0].startswith("mis-set: low pair of Ks")


def test_a_natural_beats_every_hand_that_is_not_a_higher_natural() -> None:
    house = felt("AH AS", "KD KC")  # two pairs, the best non-natural
    result = settle_seat(2, 100, felt("2H 2S", "2D 3C"), house, Settings())
    assert result.outcome is Outcome.NATURAL and result.net == 95


def test_a_natural_cannot_be_mis_set_however_it_lies() -> None:
    result = settle_seat(2, 100, felt("2D 3C", "2H 2S"), HOUSE_Q8_A3, Settings())
    assert result.outcome is Outcome.NATURAL


def test_a_house_natural_beats_a_seat_without_one() -> None:
    house = felt("5H 5S", "5D KC")
    result = settle_seat(2, 100, felt("AH AS", "KD KH"), house, Settings())
    assert result.outcome is Outcome.LOSE
    assert "three 5s" in result.reasons[0]


def test_between_naturals_four_beats_three_then_the_higher_rank() -> None:
    three_kings = felt("KH KS", "KD 2C")
    four_twos = felt("2H 2S", "2D 2C")
    three_aces = felt("AH AS", "AD 3C")
    assert settle_seat(2, 100, four_twos, three_kings, Settings()).outcome is Outcome.NATURAL
    assert settle_seat(2, 100, three_kings, four_twos, Settings()).outcome is Outcome.LOSE
    assert settle_seat(2, 100, three_aces, three_kings, Settings()).outcome is Outcome.NATURAL
    assert settle_seat(2, 100, three_kings, three_aces, Settings()).outcome is Outcome.LOSE


@pytest.mark.parametrize(
    ("bet", "rate", "chip", "commission"),
    [
        (100, "0.05", 1, 5),
        (10, "0.05", 1, 0),
        (30, "0.05", 1, 1),
        (100, "0.05", 5, 5),
        (90, "0.05", 5, 0),
        (1000, "0.10", 25, 100),
        (1000, "0.07", 25, 50),
        (100, "0", 1, 0),
        (290, "0.029", 1, 8),
    ],
)
def test_commission_is_rounded_down_to_the_smallest_chip(bet: int, rate: str, chip: int, commission: int) -> None:
    settings = Settings(commission=Decimal(rate), smallest_chip=chip, min_bet=chip)
    assert commission_on(bet, settings) == commission
    assert commission_on(bet, settings) <= bet * Decimal(rate)


def test_payment_moves_the_net_between_seat_and_house_with_the_reason() -> None:
    win = settle_seat(3, 100, felt("KH QS", "5D 4C"), HOUSE_Q8_A3, Settings())
    payment = win.payment()
    assert payment is not None
    assert (payment.payer, payment.payee, payment.amount) == (HOUSE, 3, 95)
    assert "seat 3 wins" in payment.reason
    loss = settle_seat(3, 100, felt("5H 2S", "2D 10C"), HOUSE_Q8_A3, Settings()).payment()
    assert loss is not None and (loss.payer, loss.payee, loss.amount) == (3, HOUSE, 100)
