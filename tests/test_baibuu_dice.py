"""Dice → the first position and the house stack; bad dice are no result."""

from __future__ import annotations

import pytest

from engine.baibuu import DiceError, Direction, assign_stacks


@pytest.mark.parametrize("total", range(3, 19))
def test_first_stack_goes_to_position_total_minus_1_mod_7_plus_1(total: int) -> None:
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    dice = [a, b, total - a - b]
    assignment = assign_stacks(dice)
    assert assignment.dice.total == total
    assert assignment.first_position == (total - 1) % 7 + 1


def test_the_issue_example_3_5_6_first_stack_to_position_7_house_takes_stack_2() -> None:
    assignment = assign_stacks([3, 5, 6])
    assert assignment.first_position == 7
    assert assignment.house_stack == 2
    assert assignment.dealing_order == (7, 1, 2, 3, 4, 5, 6)


def test_totals_8_and_15_give_the_house_the_first_stack() -> None:
    for dice in ([2, 3, 3], [4, 5, 6]):
        assignment = assign_stacks(dice)
        assert assignment.first_position == 1 and assignment.house_stack == 1
        assert "first stack to the house" in assignment.describe()


@pytest.mark.parametrize("dice", [[1, 1, 1], [2, 3, 4], [6, 6, 6], [1, 2, 6]])
def test_stacks_follow_in_order_every_position_gets_exactly_one(dice: list[int]) -> None:
    assignment = assign_stacks(dice)
    stacks = [assignment.stack_for(position) for position in range(1, 8)]
    assert sorted(stacks) == list(range(1, 8))
    assert stacks[assignment.first_position - 1] == 1
    for stack in range(1, 8):
        assert assignment.stack_for(assignment.position_of(stack)) == stack


def test_direction_is_named_in_the_description() -> None:
    assert "counter-clockwise" in assign_stacks([1, 2, 3]).describe()
    assert "counting clockwise" in assign_stacks([1, 2, 3], Direction.CLOCKWISE).describe()


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([3, 5, 7], "1 to 6, not 7"),
        ([0, 5, 6], "not 0"),
        ([3, 5], "need 3 dice"),
        ([], "need 3 dice"),
        ([3, 5, 6, 1], "need 3 dice"),
        ([3, 5, "6"], "not '6'"),
        ([3, 5, True], "not True"),
        ([3, 5, 2.0], "not 2.0"),
    ],
)
def test_a_die_outside_1_to_6_or_not_3_dice_is_no_result_shake_again(dice: list[object], message: str) -> None:
    with pytest.raises(DiceError, match="shake again") as error:
        assign_stacks(dice)
    assert message in str(error.value)
