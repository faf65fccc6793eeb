"""One round of Bài Bửu as the dealer lives it: roll, reveal the house hand, set the house, set each seat.

Actions, in order (each also a typed value for ``apply``: ``Roll``, ``RevealHouse``, ``SetHouse``, ``SetSeat``):
``roll(dice)``; ``reveal_house(cards)`` (the engine gives the house-way split);
``set_house(high, low)`` (how the dealer set it on the felt; flagged when it differs from the house way, and may be
set again until the first seat is settled); ``set_seat(seat, bet, high, low)`` for every seat in use (each seat's
result is known at once). Each action has ``verify_…`` (raises ``IllegalAction`` with the reason),
``can_…``, and the action itself returning a frozen record. The round is over when every seat in use is set.

>>> from engine.cards import parse_cards
>>> state = State(Settings(seats=(2,)))
>>> state.roll([3, 5, 6]).describe()
'dice 3 5 6 = 14: first stack to position 7, the house takes stack 2 (counting counter-clockwise from the house)'
>>> _ = state.reveal_house(parse_cards("QH 8S 2D 2C"))
>>> state.apply(SetHouse(parse_cards("2D 2C"), parse_cards("QH 8S"))).describe()
'house set high pair of 2s (2D+2C), low 8 points (QH+8S): follows the house way'
>>> state.can(SetSeat(2, 10, parse_cards("AS AH"), parse_cards("KS 9H")))
True
>>> state.apply(SetSeat(2, 10, parse_cards("AS AH"), parse_cards("KS 9H"))).to_json()["kind"]
'set_seat'
>>> [(p.payer, p.payee, p.amount) for p in state.settle().payments]
[('house', 2, 10)]
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import TypeVar

from engine.baibuu.actions import (
    Action,
    RevealHouse,
    Roll,
    SetHouse,
    SetSeat,
    action_from_json,
    parse_card_token,
)
from engine.baibuu.dice import HOUSE_POSITION, POSITIONS, Dice, DiceError, StackAssignment, check_dice
from engine.baibuu.hands import TwoCardHand
from engine.baibuu.house_way import Split, house_way
from engine.baibuu.legal import LegalActions, SeatChoice
from engine.baibuu.settings import Settings, settings_from_json
from engine.baibuu.settlement import SeatResult, SetHand, Settlement, settle_seat
from engine.cards import Card, CardError, CardsText
from engine.common import JSON, IllegalAction, answers_yes, replay_actions
from engine.errors import InputError
from engine.phrases import PhraseTemplate

GAME = "baibuu"

# Why an action is refused, as phrases a screen words in its language (seats as the table numbers them, 2 to 7).
THE_HOUSE = PhraseTemplate("baibuu.who.house", "the house")
THE_HOUSE_HAND = PhraseTemplate("baibuu.who.house_hand", "the house hand")
SEAT = PhraseTemplate("baibuu.who.seat", "seat {seat}")
SEATS_HAND = PhraseTemplate("baibuu.who.seats_hand", "seat {seat}'s hand")
ALREADY_ROLLED = PhraseTemplate("baibuu.illegal.already_rolled", "the dice were already rolled this round ({dice})")
ROLL_FIRST = PhraseTemplate(
    "baibuu.illegal.roll_first", "roll the dice first: the dice say which stack is the house's"
)
HOUSE_ALREADY_OPEN = PhraseTemplate("baibuu.illegal.house_open", "the house hand is already open: {cards}")
HOUSE_FOUR_CARDS = PhraseTemplate(
    "baibuu.illegal.house_four", "the house hand is 4 cards, the reader gave {count}: {cards}"
)
OPEN_HOUSE_FIRST = PhraseTemplate("baibuu.illegal.open_house_first", "open the house hand first")
SEATS_ALREADY_SETTLING = PhraseTemplate(
    "baibuu.illegal.seats_settling", "seats are already being settled against the house hand as it was set"
)
HOUSE_OTHER_CARDS = PhraseTemplate(
    "baibuu.illegal.house_other_cards", "the house hand is {house}, but it was set as {set}: use the same four cards"
)
HOUSE_MIS_SET = PhraseTemplate(
    "baibuu.illegal.house_mis_set",
    "the house hand is mis-set: low {low} ranks above high {high}; set it by the house way: high {way_high}, "
    "low {way_low}",
)
SET_HOUSE_FIRST = PhraseTemplate(
    "baibuu.illegal.set_house_first", "set the house hand first: every seat is settled against it"
)
SEAT_NOT_IN_USE = PhraseTemplate(
    "baibuu.illegal.seat_not_in_use", "seat {seat} is not in use at this table (seats in use: {seats})"
)
SEAT_ALREADY_SETTLED = PhraseTemplate("baibuu.illegal.seat_settled", "seat {seat} is already settled this round")
CARDS_SEEN_BEFORE = PhraseTemplate(
    "baibuu.illegal.seen_before", "seat {seat}: {cards} already seen in another hand this round; check the read"
)
NOT_FINISHED_HOUSE = PhraseTemplate(
    "baibuu.illegal.not_finished_house", "the round is not finished: the house hand is not set yet"
)
NOT_FINISHED_SEATS = PhraseTemplate(
    "baibuu.illegal.not_finished_seats", "the round is not finished: waiting for seat(s) {seats}"
)
WRONG_STACK = PhraseTemplate(
    "baibuu.illegal.wrong_stack", "{who} was dealt {stack}, not {cards}: check the read or the stacks"
)
CARD_TWICE = PhraseTemplate("baibuu.illegal.card_twice", "{what}: a card appears twice ({cards}); check the read")
NO_JOKER = PhraseTemplate("baibuu.illegal.no_joker", "{what}: Bài Bửu is played without the joker")
TWO_AND_TWO = PhraseTemplate(
    "baibuu.illegal.two_and_two", "{what}: set 2 cards high and 2 low, got {high} high and {low} low"
)


def _cards_text(cards: Sequence[Card]) -> CardsText:
    return CardsText(cards)


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
        stacks.append(tuple(parse_card_token(token) for token in stack))
    return Deal(tuple(stacks))


# ---------------------------------------------------------------- action records


@dataclass(frozen=True, slots=True)
class Rolled:
    dice: tuple[int, int, int]
    manual: bool
    assignment: StackAssignment

    @property
    def action(self) -> Roll:
        return Roll(self.dice, self.manual)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        rolled = self.assignment.describe()
        return ROLLED_BY_HAND(dice=rolled) if self.manual else rolled


@dataclass(frozen=True, slots=True)
class HouseRevealed:
    cards: tuple[Card, ...]
    house_way: Split

    @property
    def action(self) -> RevealHouse:
        return RevealHouse(self.cards)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        split = self.house_way
        return HOUSE_REVEALED(
            cards=_cards_text(self.cards), high=split.high.describe(), low=split.low.describe(), rule=split.rule
        )


@dataclass(frozen=True, slots=True)
class HouseSet:
    hand: SetHand
    house_way: Split

    @property
    def follows_house_way(self) -> bool:
        return self.house_way.same_set(self.hand.high, self.hand.low)

    @property
    def action(self) -> SetHouse:
        return SetHouse(self.hand.high.cards, self.hand.low.cards)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        if self.follows_house_way:
            return HOUSE_SET_FOLLOWS(hand=self.hand.describe())
        split = self.house_way
        return HOUSE_SET_NOT_THE_WAY(
            hand=self.hand.describe(), high=split.high.cards_text, low=split.low.cards_text, rule=split.rule
        )


@dataclass(frozen=True, slots=True)
class SeatSet:
    seat: int
    bet: int
    hand: SetHand
    result: SeatResult

    @property
    def action(self) -> SetSeat:
        return SetSeat(self.seat, self.bet, self.hand.high.cards, self.hand.low.cards)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        return SEAT_SET(seat=self.seat, bet=self.bet, hand=self.hand.describe(), result=self.result.describe())


# The round's log lines (the supervisor's recall words them in the screen's language; the CLI's logs in English).
ROLLED_BY_HAND = PhraseTemplate("baibuu.record.dice_by_hand", "{dice} (dice entered by hand)")
HOUSE_REVEALED = PhraseTemplate(
    "baibuu.record.house_revealed", "house cards {cards}: the house way sets high {high}, low {low} ({rule})"
)
HOUSE_SET_FOLLOWS = PhraseTemplate("baibuu.record.house_set", "house set {hand}: follows the house way")
HOUSE_SET_NOT_THE_WAY = PhraseTemplate(
    "baibuu.record.house_set_not_the_way",
    "house set {hand}: NOT the house way, which is high {high}, low {low} ({rule}); re-set the house hand before "
    "settling any seat",
)
SEAT_SET = PhraseTemplate("baibuu.record.seat_set", "seat {seat} bets {bet}, {hand}: {result}")

Record = Rolled | HouseRevealed | HouseSet | SeatSet
_R = TypeVar("_R", Rolled, HouseRevealed, HouseSet, SeatSet)


# ---------------------------------------------------------------- the round


class State:
    """The state of one Bài Bửu round. Compare two rounds with ``==`` (settings, deal and actions)."""

    def __init__(self, settings: Settings | None = None, deal: Deal | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.deal = deal if deal is not None else Deal()
        self._history: list[Record] = []
        self.assignment: StackAssignment | None = None
        self.house_cards: tuple[Card, ...] | None = None
        self.house_split: Split | None = None
        """The house-way split of the house cards, once revealed."""
        self.house: SetHand | None = None
        """The house hand as set on the felt."""
        self.seats: dict[int, SeatSet] = {}

    # -- reading the state

    @property
    def history(self) -> tuple[Record, ...]:
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

    def waiting_for(self) -> tuple[str, ...]:
        """The kinds of action the round waits for now (``set_seat`` once for each seat still to set)."""
        if self.assignment is None:
            return ("roll",)
        if self.house_cards is None:
            return ("reveal_house",)
        if self.house is None:
            return ("set_house",)
        return (*(["set_house"] if not self.seats else []), *("set_seat" for _ in self.waiting_seats))

    def legal_actions(self) -> LegalActions:
        """Exactly the actions ``apply`` takes now (up to the order of the cards inside a hand), when the deal is
        known: every throw of the dice (in rising order: the order of the dice changes nothing), the house stack's
        cards, every way to set them that is not mis-set, and every seat's possible sets at every bet the table
        takes (``Settings.bets``: too many to write out, so the sequence works each one out when asked). With the
        stacks unknown (a live table) the cards come from the reader, so only the roll is listed; ``waiting_for()``
        says what comes next."""
        bets = self.settings.bets
        if self.is_over:
            return LegalActions((), (), bets)
        if self.assignment is None:
            return LegalActions([Roll(dice) for dice in combinations_with_replacement(range(1, 7), 3)], (), bets)
        house = self.stack_of(HOUSE_POSITION)
        if house is None:
            return LegalActions((), (), bets)
        if self.house_cards is None:
            return LegalActions((RevealHouse(house),), (), bets)
        listed: list[Action] = []
        if not self.seats:
            listed.extend(SetHouse(high, low) for high, low in _sets(self.house_cards))
        seat_sets: list[SeatChoice] = []
        if self.house is not None:
            for seat in self.waiting_seats:
                stack = self.stack_of(seat)
                assert stack is not None
                # the cards and the bet are checked apart, so a set that takes the minimum takes every bet
                seat_sets.extend((seat, high, low) for high, low in _sets(stack)
                                 if self.can(SetSeat(seat, self.settings.min_bet, high, low)))
        return LegalActions([action for action in listed if self.can(action)], seat_sets, bets)

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
            raise IllegalAction(ALREADY_ROLLED(dice=str(self.assignment.dice)))
        try:
            check_dice(dice)
        except DiceError as error:
            raise IllegalAction(str(error)) from None

    def can_roll(self, dice: Sequence[object], manual: bool = False) -> bool:
        return answers_yes(self.verify_roll, dice, manual)

    def roll(self, dice: Sequence[object], manual: bool = False) -> Rolled:
        self.verify_roll(dice, manual)
        assignment = StackAssignment(Dice(check_dice(dice)), self.settings.direction)
        self.assignment = assignment
        return self._record(Rolled(assignment.dice.values, manual, assignment))

    # -- reveal the house hand

    def verify_reveal_house(self, cards: Sequence[Card]) -> None:
        if self.assignment is None:
            raise IllegalAction(ROLL_FIRST())
        if self.house_cards is not None:
            raise IllegalAction(HOUSE_ALREADY_OPEN(cards=_cards_text(self.house_cards)))
        if len(cards) != 4:
            raise IllegalAction(HOUSE_FOUR_CARDS(count=len(cards), cards=_cards_text(cards)))
        _check_cards(cards, THE_HOUSE_HAND())
        self._check_stack(cards, HOUSE_POSITION, THE_HOUSE())

    def can_reveal_house(self, cards: Sequence[Card]) -> bool:
        return answers_yes(self.verify_reveal_house, cards)

    def reveal_house(self, cards: Sequence[Card]) -> HouseRevealed:
        self.verify_reveal_house(cards)
        self.house_cards = tuple(cards)
        self.house_split = house_way(cards, self.settings.house_way)
        return self._record(HouseRevealed(self.house_cards, self.house_split))

    # -- set the house hand on the felt

    def verify_set_house(self, high: Sequence[Card], low: Sequence[Card]) -> None:
        if self.house_cards is None or self.house_split is None:
            raise IllegalAction(OPEN_HOUSE_FIRST())
        if self.seats:
            raise IllegalAction(SEATS_ALREADY_SETTLING())
        hand = _set_hand(high, low, THE_HOUSE_HAND())
        if set(hand.cards) != set(self.house_cards):
            raise IllegalAction(
                HOUSE_OTHER_CARDS(house=_cards_text(self.house_cards), set=_cards_text(hand.cards))
            )
        if hand.is_mis_set:
            split = self.house_split
            raise IllegalAction(
                HOUSE_MIS_SET(
                    low=hand.low.describe(), high=hand.high.describe(), way_high=split.high.cards_text,
                    way_low=split.low.cards_text,
                )
            )

    def can_set_house(self, high: Sequence[Card], low: Sequence[Card]) -> bool:
        return answers_yes(self.verify_set_house, high, low)

    def set_house(self, high: Sequence[Card], low: Sequence[Card]) -> HouseSet:
        self.verify_set_house(high, low)
        assert self.house_split is not None
        self.house = _set_hand(high, low, THE_HOUSE_HAND())
        return self._record(HouseSet(self.house, self.house_split))

    # -- set a seat's hand (settles it)

    def verify_set_seat(self, seat: int, bet: int, high: Sequence[Card], low: Sequence[Card]) -> None:
        if self.house is None:
            raise IllegalAction(SET_HOUSE_FIRST())
        if seat not in self.settings.seats:
            raise IllegalAction(SEAT_NOT_IN_USE(seat=seat, seats=_seats(self.settings)))
        if seat in self.seats:
            raise IllegalAction(SEAT_ALREADY_SETTLED(seat=seat))
        problem = self.settings.check_bet(bet)
        if problem:
            raise IllegalAction(f"seat {seat}: {problem}")
        hand = _set_hand(high, low, SEATS_HAND(seat=seat))
        seen = self.cards_seen().intersection(hand.cards)
        if seen:
            raise IllegalAction(
                CARDS_SEEN_BEFORE(seat=seat, cards=_cards_text(sorted(seen, key=Card.sort_key)))
            )
        self._check_stack(hand.cards, seat, SEAT(seat=seat))

    def can_set_seat(self, seat: int, bet: int, high: Sequence[Card], low: Sequence[Card]) -> bool:
        return answers_yes(self.verify_set_seat, seat, bet, high, low)

    def set_seat(self, seat: int, bet: int, high: Sequence[Card], low: Sequence[Card]) -> SeatSet:
        self.verify_set_seat(seat, bet, high, low)
        assert self.house is not None
        hand = _set_hand(high, low, SEATS_HAND(seat=seat))
        record = SeatSet(seat, bet, hand, settle_seat(seat, bet, hand, self.house, self.settings))
        self.seats[seat] = record
        return self._record(record)

    # -- settling

    def settle(self) -> Settlement:
        if not self.is_over:
            if self.house is None:
                raise IllegalAction(NOT_FINISHED_HOUSE())
            raise IllegalAction(NOT_FINISHED_SEATS(seats=_join(self.waiting_seats)))
        assert self.assignment is not None and self.house is not None and self.house_split is not None
        return Settlement(
            first_position=self.assignment.first_position,
            house_stack=self.assignment.house_stack,
            house=self.house,
            house_rule=self.house_split.rule,
            house_way_followed=bool(self.house_follows_house_way),
            seats=self.results,
        )

    # -- any action as a value

    def verify(self, action: Action) -> None:
        """Raise ``IllegalAction`` with the reason when ``action`` may not be applied now."""
        if isinstance(action, Roll):
            self.verify_roll(action.dice, action.manual)
        elif isinstance(action, RevealHouse):
            self.verify_reveal_house(action.cards)
        elif isinstance(action, SetHouse):
            self.verify_set_house(action.high, action.low)
        elif isinstance(action, SetSeat):
            self.verify_set_seat(action.seat, action.bet, action.high, action.low)
        else:
            raise IllegalAction(f"{action!r} is not a Bài Bửu action")

    def can(self, action: Action) -> bool:
        return answers_yes(self.verify, action)

    def apply(self, action: Action) -> Record:
        if isinstance(action, Roll):
            return self.roll(action.dice, action.manual)
        if isinstance(action, RevealHouse):
            return self.reveal_house(action.cards)
        if isinstance(action, SetHouse):
            return self.set_house(action.high, action.low)
        if isinstance(action, SetSeat):
            return self.set_seat(action.seat, action.bet, action.high, action.low)
        raise IllegalAction(f"{action!r} is not a Bài Bửu action")

    # -- JSON and replay

    def copy(self) -> State:
        return copy.deepcopy(self)

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
    def from_json(data: Mapping[str, JSON]) -> State:
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
        if not isinstance(other, State):
            return NotImplemented
        return (self.settings, self.deal, self.history) == (other.settings, other.deal, other.history)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"State({len(self._history)} actions, over={self.is_over})"

    # -- helpers

    def _record(self, record: _R) -> _R:
        self._history.append(record)
        return record

    def _check_stack(self, cards: Sequence[Card], position: int, who: str) -> None:
        stack = self.stack_of(position)
        if stack is not None and set(cards) != set(stack):
            raise IllegalAction(WRONG_STACK(who=who, stack=_cards_text(stack), cards=_cards_text(cards)))


def replay(settings: Settings | Mapping[str, JSON], deal: JSON, actions: Sequence[Mapping[str, JSON]]) -> State:
    """Rebuild a round from its settings, deal and actions (JSON forms, today's or older); equal to the round that
    recorded them."""
    if not isinstance(settings, Settings):
        settings = settings_from_json(settings)
    state = State(settings, deal if isinstance(deal, Deal) else deal_from_json(deal))
    return replay_actions(state, actions, action_from_json)


def _sets(cards: Sequence[Card]) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every way to set four cards as two high and two low (mis-set ones included; ``can`` sorts them out)."""
    first, *rest = cards
    ways = []
    for partner in rest:
        pair = (first, partner)
        others = tuple(card for card in rest if card != partner)
        ways.extend([(pair, others), (others, pair)])
    return ways


def _check_cards(cards: Sequence[Card], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise IllegalAction(CARD_TWICE(what=what, cards=_cards_text(cards)))
    for card in cards:
        if not isinstance(card, Card):
            raise IllegalAction(f"{what}: {card!r} is not a card")
        if card.is_joker:
            raise IllegalAction(NO_JOKER(what=what))


def _set_hand(high: Sequence[Card], low: Sequence[Card], what: str) -> SetHand:
    if len(high) != 2 or len(low) != 2:
        raise IllegalAction(TWO_AND_TWO(what=what, high=len(high), low=len(low)))
    _check_cards([*high, *low], what)
    return SetHand(TwoCardHand.of(high[0], high[1]), TwoCardHand.of(low[0], low[1]))


def _join(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats))


def _seats(settings: Settings) -> str:
    return _join(settings.seats)
