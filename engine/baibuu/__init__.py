"""Bài Bửu: hands, naturals, the house way, dice, settlement, table settings and the round state.

The package has the shape every game engine shares (see ``engine/common.py``):
``GAME``, ``Settings`` / ``settings_from_json``, ``State`` (one round), the actions ``Roll``, ``RevealHouse``,
``SetHouse``, ``SetSeat`` / ``action_from_json``, ``deal_from_json`` and ``replay``; ``legal_actions()`` gives a
``LegalActions`` (every seat's sets at every bet of ``Settings.bets``). ``TwoCardHand`` is one two-card
hand (high or low), ``SetHand`` the four cards as set.
"""

from engine.baibuu.actions import Action, RevealHouse, Roll, SetHouse, SetSeat, action_from_json
from engine.baibuu.dice import Dice, DiceError, Direction, StackAssignment, assign_stacks, read_dice
from engine.baibuu.hands import HandClass, TwoCardHand, card_points, compare, is_mis_set
from engine.baibuu.house_way import STANDARD_HOUSE_WAY, HouseWay, HouseWayRule, Split, house_way
from engine.baibuu.legal import LegalActions
from engine.baibuu.naturals import Natural, NaturalKind, natural_of
from engine.baibuu.round import (
    GAME,
    Deal,
    HouseRevealed,
    HouseSet,
    Record,
    Rolled,
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
    "Action",
    "CopyRule",
    "Deal",
    "Dice",
    "DiceError",
    "Direction",
    "HandClass",
    "HouseRevealed",
    "HouseSet",
    "HouseWay",
    "HouseWayRule",
    "LegalActions",
    "Natural",
    "NaturalKind",
    "Outcome",
    "Record",
    "RevealHouse",
    "Roll",
    "Rolled",
    "SeatResult",
    "SeatSet",
    "SetHand",
    "SetHouse",
    "SetSeat",
    "Settings",
    "Settlement",
    "Split",
    "StackAssignment",
    "State",
    "TwoCardHand",
    "action_from_json",
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
