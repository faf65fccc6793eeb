"""One round of Bài Bửu as the dealer lives it: roll, reveal the house hand, set the house, set each seat.

Actions, in order: ``roll(dice)``; ``reveal_house(cards)`` (the engine gives the house-way split);
``set_house(high, low)`` (how the dealer set it on the felt; flagged when it differs from the house way, and may be
set again until the first seat is settled); ``set_seat(seat, bet, high, low)`` for every seat in use (each seat's
result is known at once). Each action has ``verify_…`` (raises ``IllegalAction`` with the reason),
``can_…``, and the action itself returning a frozen record. The round is over when every seat in use is set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.baibuu.dice import HOUSE_POSITION, POSITIONS, Dice, DiceError, StackAssignment, check_dice
from engine.baibuu.hands import Hand
from engine.baibuu.house_way import Split, house_way
from engine.baibuu.settings import Settings, settings_from_json
from engine.baibuu.settlement import SeatResult, SetHand, Settlement, settle_seat
from engine.cards import Card, CardError, parse_card
from engine.common import JSON, IllegalAction
from engine.errors import InputError

GAME = "baibuu"


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


# ---------------------------------------------------------------- the deal


@dataclass(frozen=True, slots=True)
class Deal:
    """The seven stacks in dealing order, when they are known before the round (a simulated or replayed deal).

    At a live table the stacks are unknown until opened: ``Deal()`` with ``stacks=None``; the cards then arrive
    with the actions.
    """

    stacks: tuple[tuple[Card, ...], ...] | None = None

    def __post_init__(self) -> None:
        if self.stacks is None:
            return
        if len(self.stacks) != POSITIONS or any(len(stack) != 4 for stack in self.stacks):
            raise CardError(f"a deal is {POSITIONS} stacks of 4 cards")
        cards = [card for stack in self.stacks for card in stack]
        if len(set(cards)) != len(cards):
            raise CardError("a card appears twice in the deal: one deck holds each card once")
        if any(card.is_joker for card in cards):
            raise CardError("Bài Bửu is played without the joker: take JK out of the deck")

    @staticmethod
    def from_deck(deck: Sequence[Card]) -> Deal:
        """The first 28 cards of a shuffled deck, as 7 stacks of 4 (stack 1 first)."""
        if len(deck) < 4 * POSITIONS:
            raise CardError(f"a deal needs {4 * POSITIONS} cards, got {len(deck)}")
        return Deal(tuple(tuple(deck[4 * i : 4 * i + 4]) for i in range(POSITIONS)))

    def to_json(self) -> JSON:
        if self.stacks is None:
            return None
        return {"stacks": [[str(card) for card in stack] for stack in self.stacks]}


def deal_from_json(data: JSON) -> Deal:
    if data is None:
        return Deal()
    if not isinstance(data, Mapping) or set(data) != {"stacks"} or not isinstance(data["stacks"], list):
        raise InputError('a Bài Bửu deal is null (stacks unknown) or {"stacks": [[4 cards] × 7]}')
    stacks = []
    for stack in data["stacks"]:
        if not isinstance(stack, list):
            raise InputError("each stack of the deal is a list of 4 cards")
        stacks.append(tuple(_parse_card(token) for token in stack))
    return Deal(tuple(stacks))


def _parse_card(token: object) -> Card:
    if not isinstance(token, str):
        raise CardError(f'card {token!r}: write a card as text, e.g. "10H"')
    return parse_card(token)


# ---------------------------------------------------------------- action records


@dataclass(frozen=True, slots=True)
class Rolled:
    dice: tuple[int, int, int]
    manual: bool
    assignment: StackAssignment

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"action": "roll", "dice": list(self.dice)}
        if self.manual:
            data["manual"] = True
        return data

    def describe(self) -> str:
        return self.assignment.describe() + (" (dice entered by hand)" if self.manual else "")


@dataclass(frozen=True, slots=True)
class HouseRevealed:
    cards: tuple[Card, ...]
    house_way: Split

    def to_json(self) -> dict[str, JSON]:
        return {"action": "reveal_house", "cards": [str(card) for card in self.cards]}

    def describe(self) -> str:
        split = self.house_way
        return (
            f"house cards {_cards_text(self.cards)}: the house way sets high {split.high.describe()}, "
            f"low {split.low.describe()} ({split.rule})"
        )


@dataclass(frozen=True, slots=True)
class HouseSet:
    hand: SetHand
    house_way: Split

    @property
    def follows_house_way(self) -> bool:
        return self.house_way.same_set(self.hand.high, self.hand.low)

    def to_json(self) -> dict[str, JSON]:
        return {"action": "set_house", **self.hand.to_json()}

    def describe(self) -> str:
        if self.follows_house_way:
            return f"house set {self.hand.describe()}: follows the house way"
        split = self.house_way
        return (
            f"house set {self.hand.describe()}: NOT the house way, which is high {split.high.cards_text}, "
            f"low {split.low.cards_text} ({split.rule}); re-set the house hand before settling any seat"
        )


@dataclass(frozen=True, slots=True)
class SeatSet:
    seat: int
    bet: int
    hand: SetHand
    result: SeatResult

    def to_json(self) -> dict[str, JSON]:
        return {"action": "set_seat", "seat": self.seat, "bet": self.bet, **self.hand.to_json()}

    def describe(self) -> str:
        return f"seat {self.seat} bets {self.bet}, {self.hand.describe()}: {self.result.describe()}"


ActionRecord = Rolled | HouseRevealed | HouseSet | SeatSet
_R = TypeVar("_R", Rolled, HouseRevealed, HouseSet, SeatSet)


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An action the rules allow now; ``seat`` names the seat for ``set_seat``."""

    action: str
    seat: int | None = None


# ---------------------------------------------------------------- the round


class Round:
    """The state of one Bài Bửu round. Compare two rounds with ``==`` (settings, deal and actions)."""

    def __init__(self, settings: Settings | None = None, deal: Deal | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.deal = deal if deal is not None else Deal()
        self._history: list[ActionRecord] = []
        self.assignment: StackAssignment | None = None
        self.house_cards: tuple[Card, ...] | None = None
        self.house_split: Split | None = None
        """The house-way split of the house cards, once revealed."""
        self.house: SetHand | None = None
        """The house hand as set on the felt."""
        self.seats: dict[int, SeatSet] = {}

    # -- reading the state

    @property
    def history(self) -> tuple[ActionRecord, ...]:
        return tuple(self._history)

    @property
    def is_over(self) -> bool:
        return self.house is not None and all(seat in self.seats for seat in self.settings.seats)

    @property
    def waiting_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.settings.seats if seat not in self.seats)

    @property
    def results(self) -> dict[int, SeatResult]:
        return {seat: record.result for seat, record in sorted(self.seats.items())}

    @property
    def house_follows_house_way(self) -> bool | None:
        if self.house is None or self.house_split is None:
            return None
        return self.house_split.same_set(self.house.high, self.house.low)

    def legal_actions(self) -> tuple[LegalAction, ...]:
        if self.assignment is None:
            return (LegalAction("roll"),)
        if self.house_cards is None:
            return (LegalAction("reveal_house"),)
        if self.house is None:
            return (LegalAction("set_house"),)
        actions = [LegalAction("set_house")] if not self.seats else []
        return (*actions, *(LegalAction("set_seat", seat) for seat in self.waiting_seats))

    def cards_seen(self) -> set[Card]:
        seen: set[Card] = set(self.house_cards or ())
        for record in self.seats.values():
            seen.update(record.hand.cards)
        return seen

    def stack_of(self, position: int) -> tuple[Card, ...] | None:
        """The known cards of the stack landing on ``position`` (None before the roll or with an unknown deal)."""
        if self.assignment is None or self.deal.stacks is None:
            return None
        return self.deal.stacks[self.assignment.stack_for(position) - 1]

    # -- roll

    def verify_roll(self, dice: Sequence[object], manual: bool = False) -> None:
        if self.assignment is not None:
            raise IllegalAction(f"the dice were already rolled this round ({self.assignment.dice})")
        try:
            check_dice(dice)
        except DiceError as error:
            raise IllegalAction(str(error)) from None

    def can_roll(self, dice: Sequence[object], manual: bool = False) -> bool:
        return _can(self.verify_roll, dice, manual)

    def roll(self, dice: Sequence[object], manual: bool = False) -> Rolled:
        self.verify_roll(dice, manual)
        assignment = StackAssignment(Dice(check_dice(dice)), self.settings.direction)
        self.assignment = assignment
        return self._record(Rolled(assignment.dice.values, manual, assignment))

    # -- reveal the house hand

    def verify_reveal_house(self, cards: Sequence[Card]) -> None:
        if self.assignment is None:
            raise IllegalAction("roll the dice first: the dice say which stack is the house's")
        if self.house_cards is not None:
            raise IllegalAction(f"the house hand is already open: {_cards_text(self.house_cards)}")
        if len(cards) != 4:
            raise IllegalAction(f"the house hand is 4 cards, the reader gave {len(cards)}: {_cards_text(cards)}")
        _check_cards(cards, "the house hand")
        self._check_stack(cards, HOUSE_POSITION, "the house")

    def can_reveal_house(self, cards: Sequence[Card]) -> bool:
        return _can(self.verify_reveal_house, cards)

    def reveal_house(self, cards: Sequence[Card]) -> HouseRevealed:
        self.verify_reveal_house(cards)
        self.house_cards = tuple(cards)
        self.house_split = house_way(cards)
        return self._record(HouseRevealed(self.house_cards, self.house_split))

    # -- set the house hand on the felt

    def verify_set_house(self, high: Sequence[Card], low: Sequence[Card]) -> None:
        if self.house_cards is None or self.house_split is None:
            raise IllegalAction("open the house hand first")
        if self.seats:
            raise IllegalAction("seats are already being settled against the house hand as it was set")
        hand = _set_hand(high, low, "the house hand")
        if set(hand.cards) != set(self.house_cards):
            raise IllegalAction(
                f"the house hand is {_cards_text(self.house_cards)}, but it was set as "
                f"{_cards_text(hand.cards)}: use the same four cards"
            )
        if hand.is_mis_set:
            split = self.house_split
            raise IllegalAction(
                f"the house hand is mis-set: low {hand.low.describe()} ranks above high {hand.high.describe()}; "
                f"set it by the house way: high {split.high.cards_text}, low {split.low.cards_text}"
            )

    def can_set_house(self, high: Sequence[Card], low: Sequence[Card]) -> bool:
        return _can(self.verify_set_house, high, low)

    def set_house(self, high: Sequence[Card], low: Sequence[Card]) -> HouseSet:
        self.verify_set_house(high, low)
        assert self.house_split is not None
        self.house = _set_hand(high, low, "the house hand")
        return self._record(HouseSet(self.house, self.house_split))

    # -- set a seat's hand (settles it)

    def verify_set_seat(self, seat: int, bet: int, high: Sequence[Card], low: Sequence[Card]) -> None:
        if self.house is None:
            raise IllegalAction("set the house hand first: every seat is settled against it")
        if seat not in self.settings.seats:
            raise IllegalAction(f"seat {seat} is not in use at this table (seats in use: {_seats(self.settings)})")
        if seat in self.seats:
            raise IllegalAction(f"seat {seat} is already settled this round")
        problem = self.settings.check_bet(bet)
        if problem:
            raise IllegalAction(f"seat {seat}: {problem}")
        hand = _set_hand(high, low, f"seat {seat}'s hand")
        seen = self.cards_seen().intersection(hand.cards)
        if seen:
            raise IllegalAction(
                f"seat {seat}: {_cards_text(sorted(seen, key=Card.sort_key))} already seen in another hand this "
                "round; check the read"
            )
        self._check_stack(hand.cards, seat, f"seat {seat}")

    def can_set_seat(self, seat: int, bet: int, high: Sequence[Card], low: Sequence[Card]) -> bool:
        return _can(self.verify_set_seat, seat, bet, high, low)

    def set_seat(self, seat: int, bet: int, high: Sequence[Card], low: Sequence[Card]) -> SeatSet:
        self.verify_set_seat(seat, bet, high, low)
        assert self.house is not None
        hand = _set_hand(high, low, f"seat {seat}'s hand")
        record = SeatSet(seat, bet, hand, settle_seat(seat, bet, hand, self.house, self.settings))
        self.seats[seat] = record
        return self._record(record)

    # -- settling

    def settle(self) -> Settlement:
        if not self.is_over:
            if self.house is None:
                raise IllegalAction("the round is not finished: the house hand is not set yet")
            raise IllegalAction(f"the round is not finished: waiting for seat(s) {_join(self.waiting_seats)}")
        assert self.assignment is not None and self.house is not None and self.house_split is not None
        return Settlement(
            first_position=self.assignment.first_position,
            house_stack=self.assignment.house_stack,
            house=self.house,
            house_rule=self.house_split.rule,
            house_way_followed=bool(self.house_follows_house_way),
            seats=self.results,
        )

    # -- JSON and replay

    def apply_json(self, action: Mapping[str, JSON]) -> ActionRecord:
        """Apply one action given in its JSON form (the journal's and the round file's)."""
        if not isinstance(action, Mapping) or not isinstance(action.get("action"), str):
            raise IllegalAction('an action is an object with "action": roll, reveal_house, set_house or set_seat')
        kind = action["action"]
        try:
            if kind == "roll":
                _keys(action, {"dice"}, frozenset({"manual"}))
                dice = action["dice"]
                if not isinstance(dice, list):
                    raise IllegalAction("roll: dice is a list of 3 numbers")
                return self.roll(dice, manual=bool(action.get("manual", False)))
            if kind == "reveal_house":
                _keys(action, {"cards"})
                return self.reveal_house(cards_from_json(action["cards"]))
            if kind == "set_house":
                _keys(action, {"high", "low"})
                return self.set_house(cards_from_json(action["high"]), cards_from_json(action["low"]))
            if kind == "set_seat":
                _keys(action, {"seat", "bet", "high", "low"})
                seat, bet = action["seat"], action["bet"]
                if isinstance(seat, bool) or not isinstance(seat, int):
                    raise IllegalAction(f"set_seat: seat {seat!r} is a position number 2 to 7")
                if isinstance(bet, bool) or not isinstance(bet, int):
                    raise IllegalAction(f"set_seat: bet {bet!r} is a whole number of chips")
                return self.set_seat(seat, bet, cards_from_json(action["high"]), cards_from_json(action["low"]))
        except IllegalAction:
            raise
        except InputError as error:
            raise IllegalAction(str(error)) from None
        raise IllegalAction(f"unknown action {kind!r}: roll, reveal_house, set_house or set_seat")

    def deal_to_json(self) -> JSON:
        return self.deal.to_json()

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": GAME,
            "settings": self.settings.to_json(),
            "deal": self.deal.to_json(),
            "actions": [record.to_json() for record in self._history],
        }

    @staticmethod
    def from_json(data: Mapping[str, JSON]) -> Round:
        if not isinstance(data, Mapping) or data.get("game", GAME) != GAME:
            raise InputError("not a Bài Bửu round: expected an object with settings, deal and actions")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise InputError("actions must be a list")
        settings = data.get("settings", {})
        if not isinstance(settings, Mapping):
            raise InputError("settings must be an object")
        return replay(settings_from_json(settings), data.get("deal"), actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return (self.settings, self.deal, self.history) == (other.settings, other.deal, other.history)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Round({len(self._history)} actions, over={self.is_over})"

    # -- helpers

    def _record(self, record: _R) -> _R:
        self._history.append(record)
        return record

    def _check_stack(self, cards: Sequence[Card], position: int, who: str) -> None:
        stack = self.stack_of(position)
        if stack is not None and set(cards) != set(stack):
            raise IllegalAction(
                f"{who} was dealt {_cards_text(stack)}, not {_cards_text(cards)}: check the read or the stacks"
            )


State = Round


def replay(settings: Settings | Mapping[str, JSON], deal: JSON, actions: Sequence[Mapping[str, JSON]]) -> Round:
    """Rebuild a round from its settings, deal and actions (JSON forms); equal to the round that recorded them."""
    if not isinstance(settings, Settings):
        settings = settings_from_json(settings)
    state = Round(settings, deal if isinstance(deal, Deal) else deal_from_json(deal))
    for index, action in enumerate(actions):
        try:
            state.apply_json(action)
        except InputError as error:
            raise IllegalAction(f"action {index}: {error}") from None
    return state


def _can(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except InputError:
        return False
    return True


def _check_cards(cards: Sequence[Card], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"{what}: a card appears twice ({_cards_text(cards)}); check the read")
    for card in cards:
        if not isinstance(card, Card):
            raise IllegalAction(f"{what}: {card!r} is not a card")
        if card.is_joker:
            raise IllegalAction(f"{what}: Bài Bửu is played without the joker")


def _set_hand(high: Sequence[Card], low: Sequence[Card], what: str) -> SetHand:
    if len(high) != 2 or len(low) != 2:
        raise IllegalAction(f"{what}: set 2 cards high and 2 low, got {len(high)} high and {len(low)} low")
    _check_cards([*high, *low], what)
    return SetHand(Hand.of(high[0], high[1]), Hand.of(low[0], low[1]))


def cards_from_json(tokens: JSON) -> list[Card]:
    if not isinstance(tokens, list):
        raise IllegalAction(f'cards {tokens!r}: give a list of cards such as ["QH", "8S"]')
    return [_parse_card(token) for token in tokens]


def _keys(action: Mapping[str, JSON], required: set[str], optional: frozenset[str] = frozenset()) -> None:
    keys = set(action) - {"action"}
    missing = required - keys
    unknown = keys - required - optional
    if missing or unknown:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(sorted(missing)))
        if unknown:
            parts.append("unknown " + ", ".join(sorted(unknown)))
        raise IllegalAction(f"{action['action']}: {'; '.join(parts)}")


def _join(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats))


def _seats(settings: Settings) -> str:
    return _join(settings.seats)
