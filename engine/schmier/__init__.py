"""Schmier: the 6-player partnership game with bauers and a joker (``../shared/spec/schmier.md``).

A ``State`` is one hand from the deal to its score (``settle()`` gives the points, the match score and no
payments: Schmier is played for points); a ``Match`` chains hands to 21. A hand followed at a real table, the
hands unknown, is a ``TableState`` built from a ``TableDeal`` (``engine.schmier.table_hand``): its table record
replays with the same ``replay`` (a deal without ``hands``).
"""

from collections.abc import Mapping, Sequence

from engine.common import JSON
from engine.schmier.actions import (
    Action,
    Bid,
    Discard,
    DiscardCount,
    NameTrump,
    Pass,
    Play,
    Record,
    action_from_json,
)
from engine.schmier.deal import Deal, DealError, arrange_deal, deal_from_json, random_deal
from engine.schmier.discards import DiscardOptions
from engine.schmier.match import Match
from engine.schmier.ranks import effective_suit, is_trump, protected_trumps, strength, team_of
from engine.schmier.scoring import POINTS, PointAward, Settlement, game_winner
from engine.schmier.settings import GAME_TARGET, Settings, settings_from_json
from engine.schmier.state import GAME, Phase, State
from engine.schmier.state import replay as replay_dealt
from engine.schmier.table_hand import TableDeal, TableState, is_table_record, replay_table, table_record
from engine.schmier.tricks import Trick, trick_winner


def replay(settings: Settings, deal: Deal | Mapping[str, JSON], actions: Sequence[Mapping[str, JSON]]) -> State:
    """Rebuild a hand from its deal and recorded actions: a deal with ``hands`` gives a ``State``; a table deal
    (``{"dealer", "scores"}``, the hands unknown) a ``TableState``."""
    if isinstance(deal, TableDeal) or (isinstance(deal, Mapping) and "hands" not in deal):
        return replay_table(settings, deal, actions)
    return replay_dealt(settings, deal, actions)


__all__ = [
    "GAME",
    "GAME_TARGET",
    "POINTS",
    "Action",
    "Bid",
    "Deal",
    "DealError",
    "Discard",
    "DiscardCount",
    "DiscardOptions",
    "Match",
    "NameTrump",
    "Pass",
    "Phase",
    "Play",
    "PointAward",
    "Record",
    "Settings",
    "Settlement",
    "State",
    "TableDeal",
    "TableState",
    "Trick",
    "action_from_json",
    "arrange_deal",
    "deal_from_json",
    "effective_suit",
    "game_winner",
    "is_table_record",
    "is_trump",
    "protected_trumps",
    "random_deal",
    "replay",
    "replay_table",
    "settings_from_json",
    "strength",
    "table_record",
    "team_of",
    "trick_winner",
]
