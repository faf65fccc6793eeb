"""What the Bài Bửu table screen shows, as plain values the controller builds and the screen renders."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.baibuu.settings import Settings
from engine.cards import Card
from kiosk.controller.view import PlaceView, ScreenView
from kiosk.i18n import Msg


class Phase(StrEnum):
    """The round as the dealer lives it."""

    READY = "ready"  # waiting for SHAKE
    SHAKING = "shaking"  # the shaker is at work (or failed: re-shake or enter the dice)
    HOUSE = "house"  # dice known; the house hand is being opened and set
    SEATS = "seats"  # house set right; the seats are being opened
    RESULTS = "results"  # results journaled and shown; CONFIRM closes, VOID voids
    CLOSED = "closed"  # closed; NEXT starts the next round
    VOIDED = "voided"  # voided; NEXT starts the next round


@dataclass(frozen=True)
class DiceView:
    values: tuple[int, int, int]
    total: int
    first_position: int
    house_stack: int
    stack_of_position: dict[int, int]
    clockwise: bool
    manual: bool


@dataclass(frozen=True)
class HouseWayView:
    high: tuple[Card, Card]
    low: tuple[Card, Card]
    high_value: Msg
    low_value: Msg
    rule: str
    """The engine's line saying why, for this very hand."""
    rule_name: str = ""


@dataclass(frozen=True)
class SeatView:
    seat: int
    bet: int
    in_play: bool
    high: PlaceView
    low: PlaceView
    outcome: str | None = None  # win / push / lose / mis-set / natural
    net: int | None = None
    commission: int = 0
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class BaiBuuView(ScreenView):
    phase: Phase = Phase.READY
    dice: DiceView | None = None
    house_high: PlaceView | None = None
    house_low: PlaceView | None = None
    house_way: HouseWayView | None = None
    house_set_ok: bool | None = None  # None: not checkable yet
    house_set_msg: Msg | None = None
    house_misplaced: frozenset[Card] = frozenset()
    """The house's cards lying in the wrong hand on the felt (a wrong set): marked on the felt's picture."""
    seats: tuple[SeatView, ...] = ()
    house_net: int | None = None


def bet_choices(settings: Settings, bet: int) -> list[int]:
    """The bets the seat's dialog offers: around the seat's bet (the table's minimum when it has none), and only
    bets the table takes (within its limits, in whole smallest chips), so no choice is refused after the tap."""
    base = max(settings.min_bet, bet or settings.min_bet)
    wanted = (settings.min_bet, base // 2, base, base * 2, base * 5, base * 10)
    return sorted({amount for amount in wanted if settings.check_bet(amount) is None})
