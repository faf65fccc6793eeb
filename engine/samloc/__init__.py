"""Sâm Lốc: the 10-card shedding game, as a pure engine (rules in ``../shared/spec/samloc.md``).

Usage: ``state = State(settings, deal)``; then ``state.play(seat, cards)``, ``state.pass_(seat)``,
``state.declare_sam(seat)``, ``state.timeout(seat)`` (or ``state.apply(action)`` with one of
``state.legal_actions()``) until ``state.is_over``; ``state.settle()`` gives the money.

A hand followed at a real table, the hands unknown until its end, is a ``TableState`` built from a ``TableDeal``
(``engine.samloc.table_hand``): its table record replays with the same ``replay`` (a deal without ``hands``).
"""

from collections.abc import Mapping, Sequence

from engine.common import JSON
from engine.samloc.actions import (
    Action,
    ClaimInstant,
    DeclareSam,
    InstantClaimed,
    Pass,
    Passed,
    PlayCards,
    Played,
    Record,
    SamDeclared,
    Show,
    Shown,
    Timeout,
    action_from_json,
)
from engine.samloc.combos import Combo, Kind, all_combos, beats, classify
from engine.samloc.deal import Deal, DealError, deal_from_json, random_deal
from engine.samloc.hand import Bao1Duty, ChopChain, State, leader_of_next_hand
from engine.samloc.hand import replay as replay_dealt
from engine.samloc.instant import InstantWin, instant_winners
from engine.samloc.outcome import Breach, Outcome
from engine.samloc.settlement import Settlement
from engine.samloc.table import BET_LEVELS, GAME, MODES, TURN_TIMERS_S, Settings, dealt_in, settings_from_json
from engine.samloc.table_hand import TableDeal, TableState, is_table_record, replay_table, table_record
from engine.violations import Violation


def replay(settings: Settings, deal: Mapping[str, JSON] | Deal, actions: Sequence[Mapping[str, JSON]]) -> State:
    """Rebuild a hand from its deal and recorded actions: a deal with ``hands`` (dealt by the kiosk) gives a
    ``State``; a table deal (``{"players", "leader"}``, the hands unknown) a ``TableState``."""
    if isinstance(deal, TableDeal) or (isinstance(deal, Mapping) and "hands" not in deal):
        return replay_table(settings, deal, actions)
    return replay_dealt(settings, deal, actions)


__all__ = [
    "BET_LEVELS",
    "GAME",
    "MODES",
    "TURN_TIMERS_S",
    "Action",
    "Bao1Duty",
    "Breach",
    "ChopChain",
    "ClaimInstant",
    "Combo",
    "Deal",
    "DealError",
    "DeclareSam",
    "InstantClaimed",
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
    "Show",
    "Shown",
    "State",
    "TableDeal",
    "TableState",
    "Timeout",
    "Violation",
    "action_from_json",
    "all_combos",
    "beats",
    "classify",
    "deal_from_json",
    "dealt_in",
    "instant_winners",
    "is_table_record",
    "leader_of_next_hand",
    "random_deal",
    "replay",
    "replay_table",
    "settings_from_json",
    "table_record",
]
