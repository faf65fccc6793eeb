"""The one reader of a Bài Bửu round file: the dealer's short form that ``dealer-assist baibuu settle`` takes, or a
round as the engine saves it (``State.to_json()``: settings, deal and actions). Both go through the same actions.

The short form names the dice, the house hand (its four cards, set by the house way, or as set on the felt) and each
seat's bet and set, plus any table setting::

    {"dice": [3, 5, 6], "house": ["QH", "8S", "AD", "3C"],
     "seats": {"2": {"bet": 100, "high": ["KH", "QS"], "low": ["5D", "4C"]}}}

>>> state = read_round_file({"dice": [3, 5, 6], "house": ["QH", "8S", "AD", "3C"],
...                          "seats": {"2": {"bet": 100, "high": ["KH", "QS"], "low": ["5D", "4C"]}}})
>>> [(p.payer, p.payee, p.amount) for p in state.settle().payments]
[('house', 2, 95)]
>>> read_round_file(state.to_json()) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.baibuu.actions import RevealHouse, Roll, SetHouse, SetSeat, action_from_json, cards_from_json
from engine.baibuu.round import State
from engine.baibuu.settings import settings_from_json
from engine.common import JSON
from engine.errors import InputError

ROUND_KEYS = {
    "dice": "[3 numbers 1-6]",
    "house": '["QH","8S","AD","3C"] (set by the house way) or {"high": [2 cards], "low": [2 cards]}',
    "seats": '{"2": {"bet": 100, "high": [2 cards], "low": [2 cards]}, …}',
    "commission": "0 to 0.10 (default 0.05)",
    "copy_rule": '"house" or "highest_card"',
    "direction": '"counter_clockwise" or "clockwise"',
    "smallest_chip": "whole chips (default 1)",
    "min_bet": "whole chips",
    "max_bet": "whole chips or null",
    "manual_dice": "true when the dice were entered by hand",
    "house_way": 'the posted house way, {"name": …, "pair_splits": …} (default: the standard one)',
}
SEAT_KEYS = ("bet", "high", "low")
SEAT_NAMES = ("2", "3", "4", "5", "6", "7")


def read_round_file(data: object) -> State:
    """A round from either form of round file; a problem raises ``InputError`` naming it."""
    if isinstance(data, Mapping) and "actions" in data:
        return State.from_json(data)
    return _short_form(data)


def _short_form(data: object) -> State:
    if not isinstance(data, dict):
        raise InputError("a round is a JSON object with dice, house and seats")
    unknown = sorted(set(data) - set(ROUND_KEYS))
    if unknown:
        raise InputError(f"unknown key {', '.join(map(repr, unknown))}; a round has {', '.join(ROUND_KEYS)}")
    missing = [key for key in ("dice", "house", "seats") if key not in data]
    if missing:
        raise InputError(f"missing {', '.join(missing)}: {'; '.join(f'{k}: {ROUND_KEYS[k]}' for k in missing)}")
    seats = data["seats"]
    if not isinstance(seats, dict) or not seats:
        raise InputError(f"seats: {ROUND_KEYS['seats']}")
    positions = []
    for key in seats:
        # Written exactly as the table numbers its seats: "02" or "²" would be a second name for seat 2.
        if key not in SEAT_NAMES:
            raise InputError(f'seats: {key!r} is not a seat; write seats as the table numbers them, "2" to "7"')
        positions.append(int(key))
    setting_keys = ("commission", "copy_rule", "direction", "smallest_chip", "min_bet", "max_bet", "house_way")
    settings = settings_from_json({**{k: data[k] for k in setting_keys if k in data}, "seats": sorted(positions)})
    state = State(settings)
    dice = data["dice"]
    if not isinstance(dice, list):
        raise InputError(f"dice {dice!r}: {ROUND_KEYS['dice']}")
    manual = data.get("manual_dice", False)
    if not isinstance(manual, bool):
        raise InputError(f"manual_dice {manual!r}: {ROUND_KEYS['manual_dice']}, else false")
    state.apply(Roll(tuple(dice), manual))
    house = data["house"]
    if isinstance(house, dict):
        if set(house) != {"high", "low"}:
            raise InputError(f"house: {ROUND_KEYS['house']}")
        high, low = cards_from_json(house["high"]), cards_from_json(house["low"])
        state.apply(RevealHouse((*high, *low)))
    else:
        state.apply(RevealHouse(cards_from_json(house)))
        assert state.house_split is not None  # worked out by the table's house way when the cards were revealed
        high, low = state.house_split.high.cards, state.house_split.low.cards
    state.apply(SetHouse(high, low))
    for key in sorted(seats, key=int):
        state.apply(_seat_action(key, seats[key]))
    return state


def _seat_action(key: str, seat: Any) -> SetSeat:
    if not isinstance(seat, dict) or set(seat) != set(SEAT_KEYS):
        raise InputError(f'seat {key}: give bet, high and low, e.g. {{"bet": 100, "high": ["KH","QS"], …}}')
    bet = seat["bet"]
    if isinstance(bet, bool) or not isinstance(bet, int):
        raise InputError(f"seat {key}: bet {bet!r} is a whole number of chips")
    action: JSON = {"kind": "set_seat", "seat": int(key), **seat}
    read = action_from_json(action)
    assert isinstance(read, SetSeat)
    return read
