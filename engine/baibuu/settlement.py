"""Settling a seat against the house: mis-sets, naturals, high against high and low against low, commission."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from enum import Enum

from engine.baibuu.hands import TwoCardHand, compare, is_mis_set
from engine.baibuu.naturals import Natural, compare_naturals, natural_of
from engine.baibuu.settings import CopyRule, Settings
from engine.cards import Card, CardError, check_no_duplicates
from engine.common import HOUSE, JSON, Party, Payment, nets_from_payments
from engine.phrases import PhraseTemplate


class Outcome(Enum):
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    MIS_SET = "mis-set"
    NATURAL = "natural"
    """The seat's natural beat the house: paid even money less commission, like any win."""

    @property
    def seat_wins(self) -> bool:
        return self in (Outcome.WIN, Outcome.NATURAL)


@dataclass(frozen=True, slots=True)
class SetHand:
    """Four cards as set on the felt: a high hand and a low hand."""

    high: TwoCardHand
    low: TwoCardHand

    def __post_init__(self) -> None:
        check_no_duplicates(self.cards)

    @staticmethod
    def of(high: tuple[Card, Card] | list[Card], low: tuple[Card, Card] | list[Card]) -> SetHand:
        if len(high) != 2 or len(low) != 2:
            raise CardError(f"a set hand is 2 cards high and 2 low, got {len(high)} high and {len(low)} low")
        return SetHand(TwoCardHand.of(high[0], high[1]), TwoCardHand.of(low[0], low[1]))

    @property
    def cards(self) -> tuple[Card, Card, Card, Card]:
        return (*self.high.cards, *self.low.cards)

    @property
    def natural(self) -> Natural | None:
        return natural_of(self.cards)

    @property
    def is_mis_set(self) -> bool:
        """Low above high, for a hand that is not a natural (a natural is compared whole, however it lies)."""
        return self.natural is None and is_mis_set(self.high, self.low)

    def describe(self) -> str:
        return SET_HAND(high=self.high.describe(), low=self.low.describe())

    def to_json(self) -> dict[str, JSON]:
        return {"high": self.high.to_json(), "low": self.low.to_json()}


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    bet: int
    outcome: Outcome
    net: int
    """What the seat gains (positive) or loses (negative), after commission."""
    commission: int
    reasons: tuple[str, ...]

    def describe(self) -> str:
        money: str
        if self.outcome.seat_wins and self.commission:
            money = LESS_COMMISSION(net=self.net, bet=self.bet, commission=self.commission)
        elif self.outcome.seat_wins:
            money = f"+{self.net}"
        elif self.outcome is Outcome.PUSH:
            money = BET_RETURNED()
        else:
            money = f"{self.net}"
        return SEAT_OUTCOMES[self.outcome](seat=self.seat, money=money)

    def payment(self) -> Payment | None:
        if self.net > 0:
            return Payment(HOUSE, self.seat, self.net, self.describe())
        if self.net < 0:
            return Payment(self.seat, HOUSE, -self.net, self.describe())
        return None

    def to_json(self) -> dict[str, JSON]:
        return {
            "outcome": self.outcome.value,
            "net": self.net,
            "bet": self.bet,
            "commission": self.commission,
            "reasons": list(self.reasons),
        }


def commission_on(win: int, settings: Settings) -> int:
    """The commission on a win, rounded down to the smallest chip (never more than the stated rate)."""
    chip = settings.smallest_chip
    chips = (Decimal(win) * settings.commission / chip).to_integral_value(rounding=ROUND_FLOOR)
    return int(chips) * chip


# A set hand and a seat's result, as phrases (a payment's reason, a line of the round's log).
SET_HAND = PhraseTemplate("baibuu.set_hand", "high {high}, low {low}")
SEAT_OUTCOMES = {
    Outcome.WIN: PhraseTemplate("baibuu.outcome.wins", "seat {seat} wins: {money}"),
    Outcome.NATURAL: PhraseTemplate("baibuu.outcome.natural", "seat {seat} wins with a natural: {money}"),
    Outcome.PUSH: PhraseTemplate("baibuu.outcome.push", "seat {seat} pushes: {money}"),
    Outcome.LOSE: PhraseTemplate("baibuu.outcome.loses", "seat {seat} loses: {money}"),
    Outcome.MIS_SET: PhraseTemplate("baibuu.outcome.mis_set", "seat {seat} is mis-set and loses: {money}"),
}
LESS_COMMISSION = PhraseTemplate("baibuu.money.less_commission", "+{net} ({bet} less {commission} commission)")
BET_RETURNED = PhraseTemplate("baibuu.money.bet_returned", "bet returned")

# Why a seat won or lost, as phrases (a screen can word them in its language).
PLACES = {"high": PhraseTemplate("place.high", "high"), "low": PhraseTemplate("place.low", "low")}
VERSUS = PhraseTemplate("reason.versus", "{place}: {seat} against the house's {house}")
DUEL_SEAT_WINS = PhraseTemplate("reason.seat_wins", "{versus}: seat wins")
DUEL_HOUSE_WINS = PhraseTemplate("reason.house_wins", "{versus}: house wins")
COPY_SEAT_CARD_HIGHER = PhraseTemplate(
    "reason.copy_seat_card_higher", "{versus}: copy, the seat's highest card is higher: seat wins"
)
COPY_HOUSE_CARD_HIGHER = PhraseTemplate(
    "reason.copy_house_card_higher", "{versus}: copy, the house's highest card is higher: house wins"
)
COPY_CARDS_EQUAL = PhraseTemplate(
    "reason.copy_cards_equal", "{versus}: copy, highest cards equal too: house wins the copy"
)
COPY_HOUSE_WINS = PhraseTemplate("reason.copy_house_wins", "{versus}: copy, house wins the copy")
NATURAL_BEATEN = PhraseTemplate("reason.natural_beaten", "{seat} against the house's higher {house}: house wins")
NATURAL_BEATS_HOUSE = PhraseTemplate("reason.natural_beats_house", "{seat} beats the house's {house}: seat wins")
NATURAL_BEATS_ANY = PhraseTemplate("reason.natural_beats_any", "{seat} beats any hand that is not a natural: seat wins")
MIS_SET = PhraseTemplate("reason.mis_set", "mis-set: low {low} ranks above high {high}: house wins")
HOUSE_NATURAL = PhraseTemplate(
    "reason.house_natural", "the house's {house} beats any hand that is not a higher natural"
)


def _duel(place: str, seat: TwoCardHand, house: TwoCardHand, copy_rule: CopyRule) -> tuple[int, str]:
    """+1 if the seat wins this place, -1 if the house does; the reason in words."""
    versus = VERSUS(place=PLACES[place](), seat=seat.describe(), house=house.describe())
    result = compare(seat, house)
    if result > 0:
        return 1, DUEL_SEAT_WINS(versus=versus)
    if result < 0:
        return -1, DUEL_HOUSE_WINS(versus=versus)
    if copy_rule is CopyRule.HIGHEST_CARD:
        seat_top, house_top = seat.highest_rank, house.highest_rank
        if seat_top > house_top:
            return 1, COPY_SEAT_CARD_HIGHER(versus=versus)
        if seat_top < house_top:
            return -1, COPY_HOUSE_CARD_HIGHER(versus=versus)
        return -1, COPY_CARDS_EQUAL(versus=versus)
    return -1, COPY_HOUSE_WINS(versus=versus)


def settle_seat(seat: int, bet: int, hand: SetHand, house: SetHand, settings: Settings) -> SeatResult:
    reasons: list[str] = []
    seat_natural, house_natural = hand.natural, house.natural
    outcome: Outcome
    if seat_natural is not None:
        if house_natural is not None and compare_naturals(house_natural, seat_natural) >= 0:
            reasons.append(NATURAL_BEATEN(seat=seat_natural.describe(), house=house_natural.describe()))
            outcome = Outcome.LOSE
        else:
            if house_natural is not None:
                reasons.append(NATURAL_BEATS_HOUSE(seat=seat_natural.describe(), house=house_natural.describe()))
            else:
                reasons.append(NATURAL_BEATS_ANY(seat=seat_natural.describe()))
            outcome = Outcome.NATURAL
    elif hand.is_mis_set:
        reasons.append(MIS_SET(low=hand.low.describe(), high=hand.high.describe()))
        outcome = Outcome.MIS_SET
    elif house_natural is not None:
        reasons.append(HOUSE_NATURAL(house=house_natural.describe()))
        outcome = Outcome.LOSE
    else:
        high, high_reason = _duel("high", hand.high, house.high, settings.copy_rule)
        low, low_reason = _duel("low", hand.low, house.low, settings.copy_rule)
        reasons += [high_reason, low_reason]
        outcome = {2: Outcome.WIN, 0: Outcome.PUSH, -2: Outcome.LOSE}[high + low]
    if outcome.seat_wins:
        commission = commission_on(bet, settings)
        net = bet - commission
    elif outcome is Outcome.PUSH:
        commission, net = 0, 0
    else:
        commission, net = 0, -bet
    return SeatResult(seat, bet, outcome, net, commission, tuple(reasons))


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every seat's result and the money of one round; ``nets`` hold the house too and sum to zero."""

    first_position: int
    house_stack: int
    house: SetHand
    house_rule: str
    """The house-way rule for the house cards."""
    house_way_followed: bool
    seats: Mapping[int, SeatResult]

    @property
    def payments(self) -> tuple[Payment, ...]:
        return tuple(p for result in self.seats.values() if (p := result.payment()) is not None)

    @property
    def nets(self) -> dict[Party, int]:
        return nets_from_payments(self.payments, [HOUSE, *self.seats])

    def to_json(self) -> dict[str, JSON]:
        return {
            "house": {**self.house.to_json(), "rule": self.house_rule, "house_way": self.house_way_followed},
            "first_position": self.first_position,
            "house_stack": self.house_stack,
            "seats": {str(seat): result.to_json() for seat, result in self.seats.items()},
            "payments": [payment.to_json() for payment in self.payments],
            "nets": {str(party): net for party, net in self.nets.items()},
        }
