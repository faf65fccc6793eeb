"""A game of Schmier to 21 over several hands: the deal moves left after each hand, stays after a throw-in."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.common import JSON, IllegalAction
from engine.errors import InputError
from engine.schmier.deal import Deal, deal_from_json, random_deal
from engine.schmier.ranks import SEATS, next_seat
from engine.schmier.settings import Settings, settings_from_json
from engine.schmier.state import GAME, Phase, State, replay


class Match:
    """The hands of one game, in order. A new hand needs a deal by the right dealer at the running scores."""

    def __init__(self, settings: Settings, first_dealer: int) -> None:
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < SEATS:
            raise InputError(f"first dealer {first_dealer!r} is not a seat: seats are 0 to {SEATS - 1}")
        self.settings = settings
        self.first_dealer = first_dealer
        self.hands: list[State] = []

    @classmethod
    def drawn(cls, settings: Settings, rng: random.Random) -> Match:
        """A new game whose first dealer is drawn at random with ``rng``."""
        return cls(settings, rng.randrange(SEATS))

    @property
    def current(self) -> State | None:
        return self.hands[-1] if self.hands else None

    @property
    def scores(self) -> tuple[int, int, int]:
        return self.hands[-1].scores if self.hands else (0, 0, 0)

    @property
    def is_over(self) -> bool:
        return bool(self.hands) and self.hands[-1].phase is Phase.GAME_OVER

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return self.hands[-1].settle().winner

    @property
    def phase(self) -> str:
        """'deal' while the next hand waits for its cards, 'game over' at the end, else the hand's phase."""
        current = self.current
        if self.is_over:
            return Phase.GAME_OVER.value
        if current is None or current.is_over:
            return "deal"
        return current.phase.value

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the same dealer after a throw-in, otherwise the seat to the left."""
        if not self.hands:
            return self.first_dealer
        last = self.hands[-1]
        return last.dealer if last.phase is Phase.THROWN_IN else next_seat(last.dealer)

    def verify_new_hand(self, deal: Deal) -> None:
        if self.is_over:
            raise IllegalAction(f"the game is over: team {(self.winner or 0) + 1} won")
        current = self.current
        if current is not None and not current.is_over:
            raise IllegalAction(f"finish this hand first: waiting for {current.waiting_for()}")
        if deal.dealer != self.next_dealer:
            raise IllegalAction(f"seat {self.next_dealer + 1} deals this hand, not seat {deal.dealer + 1}")
        if deal.scores != self.scores:
            raise IllegalAction(f"the deal carries scores {list(deal.scores)}; the game stands at {list(self.scores)}")

    def new_hand(self, deal: Deal) -> State:
        self.verify_new_hand(deal)
        hand = State(self.settings, deal)
        self.hands.append(hand)
        return hand

    def deal_random(self, rng: random.Random) -> State:
        """Shuffle and deal the next hand with ``rng``."""
        return self.new_hand(random_deal(rng, self.next_dealer, self.scores))

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": GAME,
            "settings": self.settings.to_json(),
            "first_dealer": self.first_dealer,
            "hands": [{**hand.deal_to_json(), "actions": hand.to_json()["actions"]} for hand in self.hands],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Match:
        settings = settings_from_json(data.get("settings", {}))
        match = cls(settings, data.get("first_dealer"))  # type: ignore[arg-type]  # checked in __init__
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise InputError("hands: give a list of hands, each with its deal and actions")
        for number, entry in enumerate(hands, 1):
            try:
                deal = deal_from_json(entry)
                match.verify_new_hand(deal)
                match.hands.append(replay(settings, deal, entry.get("actions", [])))
            except InputError as error:
                raise type(error)(f"hand {number}: {error}") from None
        return match

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self._key() == other._key()

    def _key(self) -> tuple[Any, ...]:
        return (self.settings, self.first_dealer, self.hands)

    __hash__ = None  # type: ignore[assignment]  # mutable
