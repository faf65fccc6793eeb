"""Schmier: the 6-player partnership game with bauers and a joker (``../shared/spec/schmier.md``).

A ``State`` is one hand from the deal to its score (``settle()`` gives the points, the match score and no
payments: Schmier is played for points); a ``Match`` chains hands to 21.
"""

from engine.schmier.actions import Action, Bid, Discard, NameTrump, Pass, Play, Record, action_from_json
from engine.schmier.deal import Deal, DealError, arrange_deal, deal_from_json, random_deal
from engine.schmier.discards import DiscardOptions
from engine.schmier.match import Match
from engine.schmier.ranks import effective_suit, is_trump, protected_trumps, strength, team_of
from engine.schmier.scoring import POINTS, PointAward, Settlement, game_winner
from engine.schmier.settings import GAME_TARGET, Settings, settings_from_json
from engine.schmier.state import GAME, Phase, State, replay
from engine.schmier.tricks import Trick, trick_winner

__all__ = [
    "GAME",
    "GAME_TARGET",
    "POINTS",
    "Action",
    "Bid",
    "Deal",
    "DealError",
    "Discard",
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
    "Trick",
    "action_from_json",
    "arrange_deal",
    "deal_from_json",
    "effective_suit",
    "game_winner",
    "is_trump",
    "protected_trumps",
    "random_deal",
    "replay",
    "settings_from_json",
    "strength",
    "team_of",
    "trick_winner",
]
