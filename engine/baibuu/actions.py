"""The four actions of a Bài Bửu round and their JSON form, ``{"kind": …, …}`` as in every game.

``{"kind": "roll", "dice": [3, 5, 6]}`` (``"manual": true`` when typed in by hand),
``{"kind": "reveal_house", "cards": ["QH", "8S", "2D", "2C"]}``, ``{"kind": "set_house", "high": […], "low": […]}``,
``{"kind": "set_seat", "seat": 2, "bet": 100, "high": […], "low": […]}``. Journals written before the envelope
hold ``{"action": "roll", …}``; ``action_from_json`` reads both.

>>> action_from_json({"kind": "set_seat", "seat": 2, "bet": 50, "high": ["QH", "8S"], "low": ["2D", "3C"]})
SetSeat(seat=2, bet=50, high=(Card(QH), Card(8S)), low=(Card(2D), Card(3C)))
>>> action_from_json({"action": "roll", "dice": [3, 5, 6]}).to_json()
{'kind': 'roll', 'dice': [3, 5, 6]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card, CardError, parse_card
from engine.common import JSON, IllegalAction, check_keys, kind_of
from engine.errors import InputError

KINDS = ("roll", "reveal_house", "set_house", "set_seat")


def _cards_json(cards: Sequence[Card]) -> list[JSON]:
    return [str(card) for card in cards]


@dataclass(frozen=True, slots=True)
class Roll:
    dice: tuple[int, ...]
    manual: bool = False
    kind: ClassVar[str] = "roll"

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"kind": self.kind, "dice": list(self.dice)}
        if self.manual:
            data["manual"] = True
        return data


@dataclass(frozen=True, slots=True)
class RevealHouse:
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "reveal_house"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "cards": _cards_json(self.cards)}


@dataclass(frozen=True, slots=True)
class SetHouse:
    high: tuple[Card, ...]
    low: tuple[Card, ...]
    kind: ClassVar[str] = "set_house"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "high": _cards_json(self.high), "low": _cards_json(self.low)}


@dataclass(frozen=True, slots=True)
class SetSeat:
    seat: int
    bet: int
    high: tuple[Card, ...]
    low: tuple[Card, ...]
    kind: ClassVar[str] = "set_seat"

    def to_json(self) -> dict[str, JSON]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "bet": self.bet,
            "high": _cards_json(self.high),
            "low": _cards_json(self.low),
        }


Action = Roll | RevealHouse | SetHouse | SetSeat


def upgrade(data: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """An action as journals before the one envelope wrote it (``{"action": "roll", …}``), in today's form."""
    if isinstance(data, Mapping) and "kind" not in data and isinstance(data.get("action"), str):
        return {"kind": data["action"], **{key: value for key, value in data.items() if key != "action"}}
    return data


def action_from_json(data: Mapping[str, JSON]) -> Action:
    """One action of a round file or journal, in today's envelope or the older form; a malformed one raises
    ``IllegalAction`` saying what is wrong."""
    data = upgrade(data)
    if not isinstance(data, Mapping):
        raise IllegalAction('an action is an object with "kind": roll, reveal_house, set_house or set_seat')
    try:
        kind = kind_of(data, KINDS)
    except IllegalAction:
        raise IllegalAction(
            f"unknown action {data.get('kind')!r}: roll, reveal_house, set_house or set_seat"
        ) from None
    try:
        if kind == "roll":
            check_keys(data, ["dice"], ["manual"])
            dice = data["dice"]
            if not isinstance(dice, list):
                raise IllegalAction("roll: dice is a list of 3 numbers")
            return Roll(tuple(dice), manual=bool(data.get("manual", False)))
        if kind == "reveal_house":
            check_keys(data, ["cards"])
            return RevealHouse(cards_from_json(data["cards"]))
        if kind == "set_house":
            check_keys(data, ["high", "low"])
            return SetHouse(cards_from_json(data["high"]), cards_from_json(data["low"]))
        check_keys(data, ["seat", "bet", "high", "low"])
        seat, bet = data["seat"], data["bet"]
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"set_seat: seat {seat!r} is a position number 2 to 7")
        if isinstance(bet, bool) or not isinstance(bet, int):
            raise IllegalAction(f"set_seat: bet {bet!r} is a whole number of chips")
        return SetSeat(seat, bet, cards_from_json(data["high"]), cards_from_json(data["low"]))
    except IllegalAction:
        raise
    except InputError as error:
        raise IllegalAction(str(error)) from None


def parse_card_token(token: object) -> Card:
    if not isinstance(token, str):
        raise CardError(f'card {token!r}: write a card as text, e.g. "10H"')
    return parse_card(token)


def cards_from_json(tokens: JSON) -> tuple[Card, ...]:
    if not isinstance(tokens, list):
        raise IllegalAction(f'cards {tokens!r}: give a list of cards such as ["QH", "8S"]')
    return tuple(parse_card_token(token) for token in tokens)
