"""Three dice → which position gets the first stack and which stack is the house's.

The seven positions are counted from the house as position 1, counter-clockwise by default (the ``direction``
setting); seats are named by their position (2-7). The first stack goes to position ((total - 1) mod 7) + 1, the
others follow in the counting direction, and the house takes the stack that lands on position 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.errors import InputError
from engine.phrases import PhraseTemplate

POSITIONS = 7
HOUSE_POSITION = 1
SEAT_POSITIONS = tuple(range(2, POSITIONS + 1))


class DiceError(InputError):
    """Dice that are no result: the dice are shaken again."""


class Direction(Enum):
    COUNTER_CLOCKWISE = "counter_clockwise"
    CLOCKWISE = "clockwise"

    @property
    def words(self) -> str:
        return self.value.replace("_", "-")


@dataclass(frozen=True, slots=True)
class Dice:
    values: tuple[int, int, int]

    def __post_init__(self) -> None:
        check_dice(self.values)

    @property
    def total(self) -> int:
        return sum(self.values)

    def __str__(self) -> str:
        return " ".join(map(str, self.values))


def check_dice(values: Sequence[object]) -> tuple[int, int, int]:
    """Three whole numbers 1-6, or a ``DiceError`` saying what is wrong and to shake again."""
    shown = " ".join(map(str, values)) or "none"
    if len(values) != 3:
        raise DiceError(f"dice {shown}: need 3 dice, got {len(values)}; shake again")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise DiceError(f"dice {shown}: a die shows 1 to 6, not {value!r}; shake again")
    a, b, c = values
    assert isinstance(a, int) and isinstance(b, int) and isinstance(c, int)
    return (a, b, c)


def read_dice(values: Sequence[object]) -> Dice:
    return Dice(check_dice(values))


@dataclass(frozen=True, slots=True)
class StackAssignment:
    """Where the seven stacks go for one roll. Stacks are numbered 1-7 in the order they are dealt."""

    dice: Dice
    direction: Direction

    @property
    def first_position(self) -> int:
        return (self.dice.total - 1) % POSITIONS + 1

    def stack_for(self, position: int) -> int:
        """The number (1-7, in dealing order) of the stack that lands on ``position``."""
        if not 1 <= position <= POSITIONS:
            raise InputError(f"position {position}: positions are 1 (the house) to {POSITIONS}")
        return (position - self.first_position) % POSITIONS + 1

    def position_of(self, stack: int) -> int:
        """The position that stack number ``stack`` lands on."""
        if not 1 <= stack <= POSITIONS:
            raise InputError(f"stack {stack}: stacks are numbered 1 to {POSITIONS}")
        return (self.first_position - 1 + stack - 1) % POSITIONS + 1

    @property
    def house_stack(self) -> int:
        return self.stack_for(HOUSE_POSITION)

    @property
    def dealing_order(self) -> tuple[int, ...]:
        """Positions in the order they receive stacks, starting with the first position."""
        return tuple(self.position_of(stack) for stack in range(1, POSITIONS + 1))

    def describe(self) -> str:
        first = self.first_position
        direction = _DIRECTION_WORDS[self.direction]()
        if first == HOUSE_POSITION:
            return DICE_TO_HOUSE(dice=self.dice, total=self.dice.total, stack=self.house_stack, direction=direction)
        return DICE_TO_POSITION(
            dice=self.dice, total=self.dice.total, position=first, stack=self.house_stack, direction=direction
        )


_DIRECTION_WORDS = {
    Direction.COUNTER_CLOCKWISE: PhraseTemplate("baibuu.direction.counter_clockwise", "counter-clockwise"),
    Direction.CLOCKWISE: PhraseTemplate("baibuu.direction.clockwise", "clockwise"),
}
DICE_TO_HOUSE = PhraseTemplate(
    "baibuu.record.dice_house",
    "dice {dice} = {total}: first stack to the house, the house takes stack {stack} (counting {direction} from the "
    "house)",
)
DICE_TO_POSITION = PhraseTemplate(
    "baibuu.record.dice_position",
    "dice {dice} = {total}: first stack to position {position}, the house takes stack {stack} (counting {direction} "
    "from the house)",
)


def assign_stacks(dice: Sequence[object], direction: Direction = Direction.COUNTER_CLOCKWISE) -> StackAssignment:
    return StackAssignment(read_dice(dice), direction)
