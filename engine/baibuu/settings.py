"""Table settings for Bài Bửu: commission, copy rule, counting direction, smallest chip, seats, bet limits and the
house way the casino posts (the standard one unless a posted variant is given; see ``house_way_file``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any

from engine.baibuu.dice import SEAT_POSITIONS, Direction
from engine.baibuu.house_way import STANDARD_HOUSE_WAY, HouseWay
from engine.baibuu.house_way_file import house_way_from_json, house_way_to_json
from engine.common import JSON, SettingsError

MAX_COMMISSION = Decimal("0.10")
MOST_CHIPS = 10**12
"""No table's bet limit comes near a trillion chips: a larger bet or limit is a slip of the keyboard, and keeping
every amount this small keeps all of a round's sums far inside the journal's 64-bit integers."""


class CopyRule(Enum):
    HOUSE = "house"
    """A copy (tie) goes to the house."""
    HIGHEST_CARD = "highest_card"
    """A copy is decided by the highest card in the two hands (A high); equal again goes to the house."""


@dataclass(frozen=True, slots=True)
class Settings:
    commission: Decimal = Decimal("0.05")
    """Taken from a win, as a fraction of the bet (0 to 0.10), rounded down to the smallest chip."""
    copy_rule: CopyRule = CopyRule.HOUSE
    direction: Direction = Direction.COUNTER_CLOCKWISE
    smallest_chip: int = 1
    seats: tuple[int, ...] = SEAT_POSITIONS
    """The positions (2-7) with a player this round; the other stacks are set aside unseen."""
    min_bet: int = 1
    max_bet: int | None = None
    """None: no table maximum."""
    house_way: HouseWay = STANDARD_HOUSE_WAY
    """How the house hand is set; a posted variant is named in the journal with the settings."""

    def __post_init__(self) -> None:
        # Friendly to callers that pass plain JSON values: 0.05, "highest_card", "clockwise", [2, 3].
        if not isinstance(self.commission, Decimal):
            object.__setattr__(self, "commission", commission_from_json(self.commission))
        if isinstance(self.copy_rule, str):
            object.__setattr__(self, "copy_rule", _enum(CopyRule, "copy_rule", self.copy_rule))
        if isinstance(self.direction, str):
            object.__setattr__(self, "direction", _enum(Direction, "direction", self.direction))
        if isinstance(self.seats, list):
            object.__setattr__(self, "seats", tuple(self.seats))
        if isinstance(self.house_way, Mapping):
            object.__setattr__(self, "house_way", house_way_from_json(self.house_way))
        if not isinstance(self.house_way, HouseWay):
            raise SettingsError(f"house_way {self.house_way!r}: give a posted house way (name, pair_splits, …)")
        if not self.commission.is_finite():
            raise SettingsError(f"commission {self.commission!r}: give a number from 0 to 0.10 (0.05 is 5 %)")
        if not Decimal(0) <= self.commission <= MAX_COMMISSION:
            raise SettingsError(
                f"commission {self.commission}: allowed from 0 to 0.10 of the win (0.05 is 5 %); "
                "a rate in percent must be divided by 100"
            )
        if not isinstance(self.copy_rule, CopyRule):
            raise SettingsError(f"copy_rule {self.copy_rule!r}: allowed {_choices(CopyRule)}")
        if not isinstance(self.direction, Direction):
            raise SettingsError(f"direction {self.direction!r}: allowed {_choices(Direction)}")
        _whole("smallest_chip", self.smallest_chip, minimum=1)
        if not isinstance(self.seats, tuple) or not self.seats:
            raise SettingsError(f"seats {self.seats!r}: name at least one seat position from 2 to 7")
        for seat in self.seats:
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEAT_POSITIONS:
                raise SettingsError(f"seats: {seat!r} is not a seat; seats are positions 2 to 7 (the house is 1)")
        if len(set(self.seats)) != len(self.seats):
            raise SettingsError(f"seats {list(self.seats)}: a seat is listed twice")
        if list(self.seats) != sorted(self.seats):
            raise SettingsError(f"seats {list(self.seats)}: list them in order, e.g. {sorted(self.seats)}")
        _whole("min_bet", self.min_bet, minimum=1)
        if self.min_bet % self.smallest_chip:
            raise SettingsError(
                f"min_bet {self.min_bet}: must be a whole number of smallest chips ({self.smallest_chip})"
            )
        if self.max_bet is not None:
            _whole("max_bet", self.max_bet, minimum=self.min_bet)

    @property
    def bets(self) -> range:
        """Every bet the table takes: whole numbers of the smallest chip from the minimum to the maximum (to the
        most chips any table takes when there is no maximum); ``check_bet`` says why any other amount is not.

        >>> Settings(smallest_chip=5, min_bet=10, max_bet=100).bets
        range(10, 101, 5)
        """
        most = self.max_bet if self.max_bet is not None else MOST_CHIPS
        return range(self.min_bet, most + 1, self.smallest_chip)

    def check_bet(self, bet: object) -> str | None:
        """Why ``bet`` is not allowed at this table, or None when it is."""
        if isinstance(bet, bool) or not isinstance(bet, int):
            return f"bet {bet!r}: a bet is a whole number of chips"
        if bet < self.min_bet:
            return f"bet {bet} is under the table minimum of {self.min_bet}"
        if self.max_bet is not None and bet > self.max_bet:
            return f"bet {bet} is over the table maximum of {self.max_bet}"
        if bet > MOST_CHIPS:
            return f"bet {bet} is more than any table takes (at most {MOST_CHIPS:,} chips)"
        if bet % self.smallest_chip:
            return f"bet {bet} is not a whole number of the smallest chip ({self.smallest_chip})"
        return None

    def to_json(self) -> dict[str, JSON]:
        return {
            "commission": float(self.commission),
            "copy_rule": self.copy_rule.value,
            "direction": self.direction.value,
            "smallest_chip": self.smallest_chip,
            "seats": list(self.seats),
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            **({} if self.house_way.is_standard else {"house_way": house_way_to_json(self.house_way)}),
        }


def _choices(enum: type[Enum]) -> str:
    return ", ".join(repr(member.value) for member in enum)


def _whole(name: str, value: object, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(f"{name} {value!r}: give a whole number of chips")
    if value < minimum:
        raise SettingsError(f"{name} {value}: must be at least {minimum}")
    if value > MOST_CHIPS:
        raise SettingsError(f"{name} {value}: more than any table uses (at most {MOST_CHIPS:,} chips)")


def commission_from_json(value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise SettingsError(f"commission {value!r}: give a number from 0 to 0.10 (0.05 is 5 %)")
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise SettingsError(f"commission {value!r}: give a number from 0 to 0.10 (0.05 is 5 %)") from None


def _enum(enum: type[Any], name: str, value: object) -> Any:
    for member in enum:
        if member.value == value:
            return member
    raise SettingsError(f"{name} {value!r}: allowed {_choices(enum)}")


FIELDS = ("commission", "copy_rule", "direction", "smallest_chip", "seats", "min_bet", "max_bet", "house_way")


def settings_from_json(data: Mapping[str, JSON]) -> Settings:
    """Settings from their JSON form; missing keys take the defaults, unknown keys are an error."""
    if not isinstance(data, Mapping):
        raise SettingsError(f"Bài Bửu settings must be an object with keys {', '.join(FIELDS)}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise SettingsError(f"unknown Bài Bửu setting {', '.join(map(repr, unknown))}: known are {', '.join(FIELDS)}")
    values: dict[str, Any] = {}
    if "commission" in data:
        values["commission"] = commission_from_json(data["commission"])
    if "copy_rule" in data:
        values["copy_rule"] = _enum(CopyRule, "copy_rule", data["copy_rule"])
    if "direction" in data:
        values["direction"] = _enum(Direction, "direction", data["direction"])
    if "seats" in data:
        seats = data["seats"]
        if not isinstance(seats, list | tuple):
            raise SettingsError(f"seats {seats!r}: give a list of seat positions from 2 to 7, e.g. [2, 3, 5]")
        values["seats"] = tuple(seats)
    for name in ("smallest_chip", "min_bet", "max_bet"):
        if name in data:
            values[name] = data[name]
    if "house_way" in data:
        way = data["house_way"]
        if not isinstance(way, Mapping):
            raise SettingsError(f'house_way {way!r}: give the posted house way as an object {{"name": …, …}}')
        values["house_way"] = house_way_from_json(way)
    return Settings(**values)
