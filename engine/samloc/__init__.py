"""Sâm Lốc: the 10-card shedding game, as a pure engine (rules in ``../shared/spec/samloc.md``).

Usage: ``state = State(settings, deal)``; then ``state.play(seat, cards)``, ``state.pass_(seat)``,
``state.declare_sam(seat)``, ``state.timeout(seat)`` (or ``state.apply(action)`` with one of
``state.legal_actions()``) until ``state.is_over``; ``state.settle()`` gives the money.
"""

from engine.samloc.actions import (
    Action,
    DeclareSam,
    Pass,
    Passed,
    PlayCards,
    Played,
    Record,
    SamDeclared,
    Timeout,
    action_from_json,
)
from engine.samloc.combos import Combo, Kind, all_combos, beats, classify
from engine.samloc.deal import Deal, DealError, deal_from_json, random_deal
from engine.samloc.hand import Bao1Duty, ChopChain, State, leader_of_next_hand, replay
from engine.samloc.instant import InstantWin, instant_winners
from engine.samloc.outcome import Breach, Outcome
from engine.samloc.settlement import Settlement
from engine.samloc.table import BET_LEVELS, GAME, MODES, TURN_TIMERS_S, Settings, dealt_in, settings_from_json

__all__ = [
    "BET_LEVELS",
    "GAME",
    "MODES",
    "TURN_TIMERS_S",
    "Action",
    "Bao1Duty",
    "Breach",
    "ChopChain",
    "Combo",
    "Deal",
    "DealError",
    "DeclareSam",
    "InstantWin",
    "Kind",
    "Outcome",
    "Pass",
    "Passed",
    "PlayCards",
    "Played",
    "Record",
    "SamDeclared",
    "Settings",
    "Settlement",
    "State",
    "Timeout",
    "action_from_json",
    "all_combos",
    "beats",
    "classify",
    "deal_from_json",
    "dealt_in",
    "instant_winners",
    "leader_of_next_hand",
    "random_deal",
    "replay",
    "settings_from_json",
]
