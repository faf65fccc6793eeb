"""The round state and the engine contract: verify/can/act, legal actions, records, settle, JSON and replay."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.baibuu as baibuu
from engine.baibuu import (
    CopyRule,
    Deal,
    Direction,
    Outcome,
    SetSeat,
    Settings,
    State,
    house_way,
    replay,
    settings_from_json,
)
from engine.baibuu.settings import MOST_CHIPS
from engine.cards import parse_cards, shuffled, standard_deck
from engine.common import HOUSE, IllegalAction, SettingsError
from engine.games import load

C = parse_cards


def played(seats: tuple[int, ...] = (2, 3)) -> State:
    state = State(Settings(seats=seats))
    state.roll([3, 5, 6])
    state.reveal_house(C("QH 8S AD 3C"))
    state.set_house(C("QH 8S"), C("AD 3C"))
    return state


def test_the_package_follows_the_engine_contract() -> None:
    module = load("baibuu")
    assert module.GAME == "baibuu" == baibuu.GAME
    assert baibuu.State is State
    for name in ("Settings", "settings_from_json", "deal_from_json", "replay"):
        assert hasattr(module, name)


def test_a_round_follows_roll_reveal_set_house_then_seats() -> None:
    state = State(Settings(seats=(2, 5)))
    assert state.waiting_for() == ("roll",)
    rolled = state.roll([3, 5, 6])
    assert rolled.assignment.first_position == 7
    assert state.waiting_for() == ("reveal_house",)
    revealed = state.reveal_house(C("QH 8S AD 3C"))
    assert revealed.house_way.rule == "low would be 3 < 4: take the 8 high"
    assert state.waiting_for() == ("set_house",)
    house = state.set_house(C("8S QH"), C("3C AD"))
    assert house.follows_house_way
    assert state.waiting_for() == ("set_house", "set_seat", "set_seat")
    seat = state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    assert seat.result.outcome is Outcome.WIN and seat.result.net == 95
    assert state.waiting_for() == ("set_seat",) and state.waiting_seats == (5,)
    assert not state.is_over
    state.set_seat(5, 50, C("2H 2S"), C("9D 7C"))
    assert state.is_over and state.waiting_for() == () and state.legal_actions() == ()
    assert [type(record).__name__ for record in state.history] == [
        "Rolled",
        "HouseRevealed",
        "HouseSet",
        "SeatSet",
        "SeatSet",
    ]


def test_each_action_has_verify_and_can_that_agree() -> None:
    state = State()
    assert not state.can_reveal_house(C("QH 8S AD 3C"))
    with pytest.raises(IllegalAction, match="roll the dice first"):
        state.verify_reveal_house(C("QH 8S AD 3C"))
    assert not state.can_roll([3, 5, 7])
    assert state.can_roll([3, 5, 6])
    state.roll([3, 5, 6])
    with pytest.raises(IllegalAction, match="already rolled"):
        state.roll([1, 1, 1])


def test_a_bad_dice_read_is_refused_and_nothing_recorded() -> None:
    state = State()
    with pytest.raises(IllegalAction, match="dice 3 5 7: a die shows 1 to 6, not 7; shake again"):
        state.roll([3, 5, 7])
    assert state.history == () and len(state.legal_actions()) == 56  # every throw of three dice


def test_the_house_hand_must_be_four_different_cards() -> None:
    state = State()
    state.roll([1, 2, 3])
    with pytest.raises(IllegalAction, match="4 cards"):
        state.reveal_house(C("QH 8S AD"))
    with pytest.raises(IllegalAction, match="twice"):
        state.reveal_house(C("QH 8S AD AD", allow_duplicates=True))


def test_a_house_set_differing_from_the_house_way_is_flagged_and_can_be_set_again() -> None:
    state = State()
    state.roll([3, 5, 6])
    state.reveal_house(C("QH 8S AD 3C"))
    wrong = state.set_house(C("8S AD"), C("QH 3C"))  # 9 high, 3 low: not the house way
    assert not wrong.follows_house_way
    assert "NOT the house way" in wrong.describe()
    assert state.house_follows_house_way is False
    right = state.set_house(C("QH 8S"), C("AD 3C"))
    assert right.follows_house_way and state.house_follows_house_way


def test_the_house_cannot_be_mis_set_or_set_with_other_cards() -> None:
    state = State()
    state.roll([3, 5, 6])
    state.reveal_house(C("QH 8S AD 3C"))
    with pytest.raises(IllegalAction, match=r"mis-set.*house way: high QH\+8S"):
        state.set_house(C("QH 3C"), C("8S AD"))
    with pytest.raises(IllegalAction, match="same four cards"):
        state.set_house(C("QH 8S"), C("AD 4C"))


def test_the_house_cannot_be_set_again_once_a_seat_is_settled() -> None:
    state = played()
    state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    assert not state.can_set_house(C("QH 8S"), C("AD 3C"))


def test_a_seat_is_refused_before_the_house_is_set_or_when_not_in_use_or_twice() -> None:
    state = State(Settings(seats=(2, 3)))
    state.roll([3, 5, 6])
    state.reveal_house(C("QH 8S AD 3C"))
    with pytest.raises(IllegalAction, match="set the house hand first"):
        state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    state.set_house(C("QH 8S"), C("AD 3C"))
    with pytest.raises(IllegalAction, match="seat 7 is not in use"):
        state.set_seat(7, 100, C("KH QS"), C("5D 4C"))
    state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    with pytest.raises(IllegalAction, match="already settled"):
        state.set_seat(2, 100, C("KD QD"), C("5H 4H"))


def test_a_card_seen_in_another_hand_is_refused_as_a_misread() -> None:
    state = played()
    with pytest.raises(IllegalAction, match="QH already seen"):
        state.set_seat(2, 100, C("QH KS"), C("5D 4C"))
    state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    with pytest.raises(IllegalAction, match="5D already seen"):
        state.set_seat(3, 100, C("KD QD"), C("5D 2C"))


@pytest.mark.parametrize(
    ("bet", "message"), [(0, "under the table minimum"), (501, "over the table maximum"), (12, "smallest chip")]
)
def test_bets_outside_the_limits_are_refused(bet: int, message: str) -> None:
    state = State(Settings(seats=(2,), smallest_chip=5, min_bet=5, max_bet=500))
    state.roll([3, 5, 6])
    state.reveal_house(C("QH 8S AD 3C"))
    state.set_house(C("QH 8S"), C("AD 3C"))
    with pytest.raises(IllegalAction, match=message):
        state.set_seat(2, bet, C("KH QS"), C("5D 4C"))


def test_settle_before_the_end_says_what_it_waits_for() -> None:
    state = played()
    state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    with pytest.raises(IllegalAction, match="waiting for seat\\(s\\) 3"):
        state.settle()


def test_settlement_nets_sum_to_zero_with_the_house_and_match_the_issue_example() -> None:
    state = played()
    state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    state.set_seat(3, 40, C("2H 3S"), C("5C 4H"))  # mis-set
    settlement = state.settle()
    data = settlement.to_json()
    assert data["first_position"] == 7
    assert data["house"]["high"] == ["QH", "8S"] and data["house"]["rule"] == "low would be 3 < 4: take the 8 high"
    assert data["seats"]["2"]["outcome"] == "win" and data["seats"]["2"]["net"] == 95
    assert data["seats"]["3"]["outcome"] == "mis-set" and data["seats"]["3"]["net"] == -40
    assert settlement.nets == {HOUSE: -55, 2: 95, 3: -40}
    assert sum(settlement.nets.values()) == 0
    json.dumps(data)  # JSON-ready


def test_records_serialise_in_the_actions_format_and_describe_what_they_caused() -> None:
    state = played((2,))
    record = state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    assert record.to_json() == {"kind": "set_seat", "seat": 2, "bet": 100, "high": ["KH", "QS"], "low": ["5D", "4C"]}
    assert record.describe().endswith("seat 2 wins: +95 (100 less 5 commission)")
    assert [r.to_json()["kind"] for r in state.history] == ["roll", "reveal_house", "set_house", "set_seat"]


def test_replay_rebuilds_an_equal_round_and_from_json_round_trips() -> None:
    state = played()
    state.set_seat(2, 100, C("KH QS"), C("5D 4C"))
    state.set_seat(3, 40, C("2H 3S"), C("5C 4H"))
    data = json.loads(json.dumps(state.to_json()))
    again = replay(settings_from_json(data["settings"]), data["deal"], data["actions"])
    assert again == state
    assert State.from_json(data) == state
    assert again.settle() == state.settle()


def test_manual_dice_are_recorded_as_manual() -> None:
    state = State()
    record = state.roll([6, 6, 6], manual=True)
    assert record.to_json() == {"kind": "roll", "dice": [6, 6, 6], "manual": True}
    assert "entered by hand" in record.describe()
    assert replay(Settings(), None, [record.to_json()]) == state


def test_replay_names_the_index_of_an_illegal_action() -> None:
    actions = [
        {"action": "roll", "dice": [3, 5, 6]},
        {"action": "reveal_house", "cards": ["QH", "8S", "AD", "3C"]},
        {"action": "set_seat", "seat": 2, "bet": 100, "high": ["KH", "QS"], "low": ["5D", "4C"]},
    ]
    with pytest.raises(IllegalAction, match=r"^action 2: set the house hand first"):
        replay(Settings(), None, actions)
    with pytest.raises(IllegalAction, match=r"^action 0: unknown action 'shake'"):
        replay(Settings(), None, [{"action": "shake"}])
    with pytest.raises(IllegalAction, match=r"^action 1: unknown card 'XX'"):
        replay(Settings(), None, [actions[0], {"action": "reveal_house", "cards": ["XX", "8S", "AD", "3C"]}])
    with pytest.raises(IllegalAction, match=r"^action 0: roll: missing dice"):
        replay(Settings(), None, [{"action": "roll"}])


def _at_the_seats(settings: Settings) -> State:
    deal = Deal.from_deck(shuffled(standard_deck(), 11))
    state = State(settings, deal)
    state.roll([1, 1, 1])
    house = state.stack_of(1)
    assert house is not None
    state.reveal_house(house)
    split = house_way(house)
    state.set_house(split.high.cards, split.low.cards)
    return state


def test_the_seats_on_offer_take_every_bet_the_table_takes_and_no_other() -> None:
    state = _at_the_seats(Settings(seats=(2,), smallest_chip=5, min_bet=10, max_bet=100))
    offer = state.legal_actions()
    seat_actions = [action for action in offer if isinstance(action, SetSeat)]
    assert sorted({action.bet for action in seat_actions}) == list(range(10, 101, 5))
    for action in seat_actions:  # every listed action applies
        assert state.copy().apply(action).bet == action.bet
    listed = seat_actions[0]
    for amount in range(-5, 111):
        action = replace(listed, bet=amount)
        assert (action in offer) == state.can(action) == (amount in range(10, 101, 5)), amount
        if action not in offer:
            with pytest.raises(IllegalAction, match=f"seat 2: bet {amount} is (under|over|not a whole)"):
                state.verify(action)


def test_with_no_table_maximum_every_bet_up_to_the_most_chips_is_on_offer() -> None:
    state = _at_the_seats(Settings(seats=(2,), min_bet=10))
    offer = state.legal_actions()
    assert offer.bets == range(10, MOST_CHIPS + 1)  # asked, not walked: a trillion bets for each set
    assert len(offer) == len(offer.listed) + len(offer.seat_sets) * (MOST_CHIPS - 10 + 1)  # the house may re-set
    biggest = offer[-1]
    assert isinstance(biggest, SetSeat) and biggest.bet == MOST_CHIPS and state.copy().apply(biggest)
    assert replace(biggest, bet=MOST_CHIPS + 1) not in offer and not state.can(replace(biggest, bet=MOST_CHIPS + 1))


@given(chip=st.sampled_from([1, 5, 25]), least=st.integers(1, 8), span=st.none() | st.integers(0, 50),
       amount=st.integers(-100, 2000) | st.sampled_from([MOST_CHIPS, MOST_CHIPS + 1]))
def test_the_table_takes_a_bet_exactly_when_it_is_among_its_bets(
    chip: int, least: int, span: int | None, amount: int
) -> None:
    most = None if span is None else (least + span) * chip
    settings = Settings(smallest_chip=chip, min_bet=least * chip, max_bet=most)
    assert (amount in settings.bets) == (settings.check_bet(amount) is None)


def test_a_known_deal_checks_every_hand_against_its_stack() -> None:
    deal = Deal.from_deck(shuffled(standard_deck(), 11))
    state = State(Settings(seats=(2,)), deal)
    state.roll([1, 1, 1])  # total 3: first stack to position 3, the house takes stack 6
    assert state.assignment is not None and state.assignment.house_stack == 6
    house = state.stack_of(1)
    assert house == deal.stacks[5]  # type: ignore[index]
    other = state.stack_of(2)
    assert other is not None
    with pytest.raises(IllegalAction, match="the house was dealt"):
        state.reveal_house(other)
    state.reveal_house(house)
    split = house_way(house)
    state.set_house(split.high.cards, split.low.cards)
    set_aside = state.stack_of(4)  # nobody sits at position 4: its stack is never dealt
    assert set_aside is not None
    with pytest.raises(IllegalAction, match="seat 2 was dealt"):
        state.set_seat(2, 10, set_aside[:2], set_aside[2:])
    seat_split = house_way(other)
    state.set_seat(2, 10, seat_split.high.cards, seat_split.low.cards)
    data = json.loads(json.dumps(state.to_json()))
    assert State.from_json(data) == state


# ---- settings


def test_settings_default_to_the_rulebook() -> None:
    settings = Settings()
    assert settings.commission == Decimal("0.05")
    assert settings.copy_rule is CopyRule.HOUSE
    assert settings.direction is Direction.COUNTER_CLOCKWISE
    assert settings.smallest_chip == 1 and settings.seats == (2, 3, 4, 5, 6, 7)


def test_settings_round_trip_through_json() -> None:
    settings = Settings(
        commission=Decimal("0.03"),
        copy_rule=CopyRule.HIGHEST_CARD,
        direction=Direction.CLOCKWISE,
        smallest_chip=5,
        seats=(2, 4),
        min_bet=10,
        max_bet=1000,
    )
    assert settings_from_json(json.loads(json.dumps(settings.to_json()))) == settings


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"commission": 5}, "commission 5: allowed from 0 to 0.10"),
        ({"commission": -0.01}, "commission -0.01"),
        ({"commission": "lots"}, "commission 'lots'"),
        ({"copy_rule": "player"}, "copy_rule 'player': allowed 'house', 'highest_card'"),
        ({"direction": "left"}, "direction 'left'"),
        ({"smallest_chip": 0}, "smallest_chip 0: must be at least 1"),
        ({"seats": [1, 2]}, "1 is not a seat"),
        ({"seats": [2, 2]}, "listed twice"),
        ({"seats": []}, "at least one seat"),
        ({"min_bet": 7, "smallest_chip": 5}, "min_bet 7"),
        ({"max_bet": 5, "min_bet": 10}, "max_bet 5: must be at least 10"),
        ({"comission": 0.05}, "unknown Bài Bửu setting 'comission'"),
    ],
)
def test_bad_settings_name_the_setting_and_what_is_allowed(data: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError) as error:
        settings_from_json(data)  # type: ignore[arg-type]
    assert message in str(error.value)


def test_settings_accept_plain_json_values_from_python_callers() -> None:
    settings = Settings(commission=0.05, copy_rule="highest_card", direction="clockwise", seats=[2, 3])  # type: ignore[arg-type]
    assert settings == Settings(
        commission=Decimal("0.05"), copy_rule=CopyRule.HIGHEST_CARD, direction=Direction.CLOCKWISE, seats=(2, 3)
    )
    with pytest.raises(SettingsError, match="copy_rule 'dealer'"):
        Settings(copy_rule="dealer")  # type: ignore[arg-type]
