"""What the screen shows of a Bài Bửu round: ``view()`` and what it is made of (the house's places and the house way
checked as it is set, each seat's places and result, the prompt, the commands open now, the alert).

``BaiBuuController`` (``kiosk.controller.baibuu``) takes the round through its steps and inherits this half, which
only reads the round: a reader finds the round's commands there and its picture here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.baibuu import HandClass, Settings, State, TwoCardHand
from engine.cards import Card
from kiosk.controller.baibuu_view import BaiBuuView, DiceView, HouseWayView, Phase, SeatView
from kiosk.controller.places import PlaceReads, place_problem
from kiosk.controller.view import CardRead, Command, PlaceView
from kiosk.i18n import Msg


def zone(position: int, hand: str) -> str:
    """The layout's zone for a hand (``vision.layout.hand_zone`` names them the same way)."""
    return f"house.{hand}" if position == 1 else f"seat{position}.{hand}"


def hand_value(hand: TwoCardHand) -> Msg:
    """A two-card hand's class and value, as a message the screen shows in the dealer's language."""
    hand_class = hand.hand_class
    if hand_class is HandClass.PAIR:
        return Msg("hand.pair", {"rank": hand.cards[0].rank.text})
    if hand_class is HandClass.KONG:
        return Msg("hand.kong")
    if hand_class is HandClass.TWO_PICTURES:
        return Msg("hand.pictures")
    return Msg("hand.points", {"n": hand.points})


def _same_set(split: Any, high: Sequence[Card], low: Sequence[Card]) -> bool:
    if len(high) != 2 or len(low) != 2 or len({*high, *low}) != 4:
        return False
    return bool(split.same_set(TwoCardHand.of(high[0], high[1]), TwoCardHand.of(low[0], low[1])))


def _pretty(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty for card in cards)


class RoundScreen:
    """The round as the screen shows it, read from the controller's state (never changing it)."""

    table_settings: Settings
    state: State | None
    phase: Phase
    round_id: int | None
    alert: Msg | None
    pending_shake: int | None
    void_reason: str | None
    bets: dict[int, int]
    places: PlaceReads

    # what the controller works out of the felt, used here as there
    def _seen_twice(self) -> set[Card]: ...
    def _repeats(self, positions: Sequence[int]) -> dict[int, frozenset[Card]]: ...
    def _open_positions(self) -> list[int]: ...
    def _house_cards(self) -> tuple[tuple[CardRead, ...], tuple[CardRead, ...]]: ...
    def _house_split(self) -> Any: ...
    def _seat_problems(self) -> list[tuple[int, Msg]]: ...

    @property
    def round_open(self) -> bool:
        """A round is under way: the game or the table may not change until it is closed or voided."""
        return self.round_id is not None and self.phase.value not in ("closed", "voided", "ready")

    def view(self) -> BaiBuuView:
        state = self.state
        dice = None
        if state is not None and state.assignment is not None:
            a = state.assignment
            dice = DiceView(
                values=a.dice.values,
                total=a.dice.total,
                first_position=a.first_position,
                house_stack=a.house_stack,
                stack_of_position={p: a.stack_for(p) for p in range(1, 8)},
                clockwise=a.direction.value == "clockwise",
                manual=bool(state.history and getattr(state.history[0], "manual", False)),
            )
        twice = self._seen_twice()
        repeats = self._repeats(self._open_positions())
        house_high, house_low = self._house_places(twice, repeats)
        way_view, set_ok, set_msg = self._house_check()
        seats = tuple(self._seat_view(seat, twice, repeats) for seat in self.table_settings.seats)
        house_net = None
        if self.phase in (Phase.RESULTS, Phase.CLOSED) and state is not None and state.is_over:
            house_net = -sum(record.result.net for record in state.seats.values())
        alert = self.alert
        if alert is None and self.phase in (Phase.HOUSE, Phase.SEATS) and self._any_doubt():
            alert = Msg("alert.read_problem")
        if alert is None and repeats:
            alert = Msg("alert.last_round")
        if alert is None and set_ok is False:  # a wrong set is the banner itself, not a line in the house's panel
            alert = set_msg
        return BaiBuuView(
            prompt=self._prompt(set_ok),
            alert=alert,
            commands=self._commands(set_ok),
            round_id=self.round_id,
            phase=self.phase,
            dice=dice,
            house_high=house_high,
            house_low=house_low,
            house_way=way_view,
            house_set_ok=set_ok,
            house_set_msg=set_msg,
            house_misplaced=self._misplaced() if set_ok is False else frozenset(),
            seats=seats,
            house_net=house_net,
        )

    def _any_doubt(self) -> bool:
        zones = [zone(1, "high"), zone(1, "low")] + [
            zone(seat, hand) for seat in self.table_settings.seats for hand in ("high", "low")
        ]
        return any(read.doubtful for z in zones for read in self.places.cards(z))

    def _house_places(self, twice: set[Card], repeats: Mapping[int, object]) -> tuple[PlaceView, PlaceView]:
        views = []
        for hand in ("high", "low"):
            name = zone(1, hand)
            cards = self.places.cards(name)
            if self.state is not None and self.state.house is not None and self.phase is not Phase.HOUSE:
                set_hand = self.state.house.high if hand == "high" else self.state.house.low
                cards = tuple(CardRead(c) for c in set_hand.cards)
            problem = place_problem(cards, 2, twice) if self.phase is Phase.HOUSE else None
            if problem is None and 1 in repeats:
                problem = Msg("read.last_round")
            views.append(PlaceView(name, Msg("bb." + hand), cards, 2, problem))
        return views[0], views[1]

    def _house_check(self) -> tuple[HouseWayView | None, bool | None, Msg | None]:
        state = self.state
        split = state.house_split if state is not None and state.house_split is not None else None
        if split is None and self.phase is Phase.HOUSE:
            split = self._house_split()
        if split is None:
            return None, None, None
        way = HouseWayView(
            high=split.high.cards,
            low=split.low.cards,
            high_value=hand_value(split.high),
            low_value=hand_value(split.low),
            rule=split.rule,
            rule_name=split.rule_name,
        )
        if self.phase is not Phase.HOUSE:
            return way, True, Msg("bb.set_ok")
        high, low = self._house_cards()
        if len(high) != 2 or len(low) != 2:
            return way, None, None
        ok = _same_set(split, [r.card for r in high], [r.card for r in low])
        if ok:
            return way, True, Msg("bb.set_ok")
        return way, False, Msg("bb.set_wrong", {"high": _pretty(split.high.cards), "low": _pretty(split.low.cards)})

    def _misplaced(self) -> frozenset[Card]:
        """The house's cards on the felt in the hand the house way does not put them in."""
        split = self._house_split()
        if split is None:
            return frozenset()
        high, low = self._house_cards()
        way_high = set(split.high.cards)
        return frozenset(r.card for r in high if r.card not in way_high) | frozenset(
            r.card for r in low if r.card in way_high
        )

    def _seat_view(self, seat: int, twice: set[Card], repeats: Mapping[int, object]) -> SeatView:
        state = self.state
        in_play = self.bets.get(seat, 0) > 0 if state is None else seat in state.settings.seats
        record = state.seats.get(seat) if state is not None else None
        places = []
        for hand in ("high", "low"):
            name = zone(seat, hand)
            if record is not None:
                set_hand = record.hand.high if hand == "high" else record.hand.low
                cards = tuple(CardRead(c) for c in set_hand.cards)
                problem = None
            else:
                cards = self.places.cards(name) if in_play else ()
                problem = place_problem(cards, 2, twice) if in_play and self.phase is Phase.SEATS else None
                if problem is None and seat in repeats:
                    problem = Msg("read.last_round")
            places.append(PlaceView(name, Msg("bb." + hand), cards, 2, problem))
        if record is None:
            return SeatView(seat, self.bets.get(seat, 0), in_play, places[0], places[1])
        result = record.result
        return SeatView(
            seat,
            record.bet,
            True,
            places[0],
            places[1],
            outcome=result.outcome.value,
            net=result.net,
            commission=result.commission,
            reasons=result.reasons,
        )

    def _prompt(self, set_ok: bool | None) -> Msg:
        phase = self.phase
        # the prompt says what is true now: shaking only while a shake is awaited, SHAKE only when it can be pressed
        if phase is Phase.READY:
            return Msg("bb.prompt.shaking" if self.pending_shake is not None else "bb.prompt.shake")
        if phase is Phase.SHAKING:
            return Msg("bb.prompt.shaking" if self.pending_shake is not None else "bb.prompt.shake_stopped")
        if phase is Phase.HOUSE:
            assert self.state is not None and self.state.assignment is not None
            if set_ok:
                return Msg("bb.prompt.house_ok")
            high, low = self._house_cards()
            if not high and not low:
                return Msg("bb.prompt.deal", {"first": self.state.assignment.first_position})
            if self._house_split() is not None:
                return Msg("bb.prompt.house_set")
            return Msg("bb.prompt.house")
        if phase is Phase.SEATS:
            return Msg("bb.prompt.seats")
        if phase is Phase.RESULTS:
            return Msg("bb.prompt.results")
        if phase is Phase.CLOSED:
            return Msg("bb.prompt.closed")
        return Msg("bb.prompt.voided", {"reason": self.void_reason or ""})

    def _commands(self, set_ok: bool | None) -> tuple[Command, ...]:
        phase = self.phase
        open_round = self.round_id is not None and phase not in (Phase.CLOSED, Phase.VOIDED)
        confirm = (
            (phase is Phase.HOUSE and bool(set_ok))
            or (phase is Phase.SEATS and not self._seat_problems())
            or phase is Phase.RESULTS
        )
        shake_label = "button.reshake" if phase is Phase.SHAKING else "button.shake"
        return (
            Command("shake", Msg(shake_label), phase in (Phase.READY, Phase.SHAKING) and self.pending_shake is None),
            Command("manual_dice", Msg("button.manual_dice"), phase in (Phase.READY, Phase.SHAKING)),
            Command("confirm", Msg("button.confirm"), confirm),
            Command("void", Msg("button.void"), open_round),
            Command("next", Msg("button.next"), phase in (Phase.CLOSED, Phase.VOIDED)),
        )
