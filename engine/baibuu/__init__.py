"""Bài Bửu: hands, naturals, the house way, dice, settlement, table settings and the round state.

The package has the shape every game engine shares (see ``engine/common.py``):
``GAME``, ``Settings`` / ``settings_from_json``, ``State`` (a ``Round``), ``deal_from_json`` and ``replay``.
"""

from engine.baibuu.dice import Dice, DiceError, Direction, StackAssignment, assign_stacks, read_dice
from engine.baibuu.hands import Hand, HandClass, card_points, compare, is_mis_set
from engine.baibuu.house_way import STANDARD_HOUSE_WAY, HouseWay, HouseWayRule, Split, house_way
from engine.baibuu.naturals import Natural, NaturalKind, natural_of
from engine.baibuu.round import (
    GAME,
    Deal,
    HouseRevealed,
    HouseSet,
    LegalAction,
    Rolled,
    Round,
    SeatSet,
    State,
    deal_from_json,
    replay,
)
from engine.baibuu.settings import CopyRule, Settings, settings_from_json
from engine.baibuu.settlement import Outcome, SeatResult, SetHand, Settlement, commission_on, settle_seat

__all__ = [
    "GAME",
    "STANDARD_HOUSE_WAY",
    "CopyRule",
    "Deal",
    "Dice",
    "DiceError",
    "Direction",
    "Hand",
    "HandClass",
    "HouseRevealed",
    "HouseSet",
    "HouseWay",
    "HouseWayRule",
    "LegalAction",
    "Natural",
    "NaturalKind",
    "Outcome",
    "Rolled",
    "Round",
    "SeatResult",
    "SeatSet",
    "SetHand",
    "Settings",
    "Settlement",
    "Split",
    "StackAssignment",
    "State",
    "assign_stacks",
    "card_points",
    "commission_on",
    "compare",
    "deal_from_json",
    "house_way",
    "is_mis_set",
    "natural_of",
    "read_dice",
    "replay",
    "settings_from_json",
    "settle_seat",
]
