"""Schmier: the 6-player partnership game with bauers and a joker (``../shared/spec/schmier.md``).

A ``State`` (``Hand``) is one hand from the deal to its score; a ``Match`` chains hands to 21.
"""

from engine.schmier.actions import Action, Bid, Discard, NameTrump, Pass, Play, Record, action_from_json
from engine.schmier.deal import Deal, DealError, arrange_deal, deal_from_json, random_deal
from engine.schmier.discards import DiscardOptions
from engine.schmier.match import Match
from engine.schmier.ranks import effective_suit, is_trump, protected_trumps, strength, team_of
from engine.schmier.scoring import POINTS, HandResult, PointAward, game_winner
from engine.schmier.settings import GAME_TARGET, Settings, settings_from_json
from engine.schmier.state import GAME, Hand, Phase, replay
from engine.schmier.tricks import Trick, trick_winner

State = Hand

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
    "Hand",
    "HandResult",
    "Match",
    "NameTrump",
    "Pass",
    "Phase",
    "Play",
    "PointAward",
    "Record",
    "Settings",
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
