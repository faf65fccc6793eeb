"""The Sâm Lốc table: turns with a countdown, plays read from the centre (or picked by touch) checked by the engine.

The hands are dealt by the kiosk's table (a shuffled deal from a seed, as the demo and a card-dealing shoe do):
the engine needs every hand to check a play. A play is the cards newly laid in the centre since the last play, or
the cards the dealer picked on the screen. An illegal play is refused with the engine's reason (a phrase, which the
screen words in the dealer's language); a turn whose timer runs out is the engine's ``timeout``. Every action is
journaled before the screen shows it; the settlement (every payment, with its reason) is journaled, then shown,
then CONFIRM closes the hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.cards import Card
from engine.clock import Clock
from engine.errors import InputError
from engine.phrases import Phrase
from engine.samloc import State, leader_of_next_hand, random_deal, settings_from_json
from journal import Journal
from journal.store import OpenRound
from kiosk.controller.view import CardRead, Command, PlaceView, Refused, ScreenView
from kiosk.i18n import Msg

CENTRE = "centre"


def refusal(error: InputError) -> str | Msg:
    """What to show for a refused command: the table's message, or the engine's phrase itself (``str(error)``
    would lose its key and values), or its text."""
    if isinstance(error, Refused):
        return error.msg
    message = error.args[0] if error.args else None
    return message if isinstance(message, Phrase) else str(error)


class Phase(StrEnum):
    READY = "ready"
    PLAYING = "playing"
    RESULTS = "results"
    CLOSED = "closed"
    VOIDED = "voided"


@dataclass(frozen=True)
class PlayerView:
    seat: int
    cards_left: int
    balance: int
    to_act: bool
    passed: bool
    declared_sam: bool
    bao1: bool
    net: int | None = None
    """This hand's win or loss once settled."""


@dataclass(frozen=True)
class SamLocView(ScreenView):
    phase: Phase = Phase.READY
    players: tuple[PlayerView, ...] = ()
    turn: int | None = None
    seconds_left: int | None = None
    top: tuple[Card, ...] = ()
    top_text: str = ""
    top_seat: int | None = None
    centre: PlaceView | None = None
    hand_of_turn: tuple[Card, ...] = ()
    selected: tuple[Card, ...] = ()
    log: tuple[str, ...] = ()
    payments: tuple[Msg, ...] = ()
    """One ``sl.payment`` message per payment: who pays whom, how much, and the engine's reason (a phrase)."""
    bet: int = 0
    mode: str = "normal"
    timer_s: int = 0


class SamLocController:
    def __init__(
        self,
        settings_json: Mapping[str, Any],
        journal: Journal,
        clock: Clock,
        players: int = 4,
        balance: int = 1000,
        seed: int | None = None,
        dealer: str = "dealer",
    ) -> None:
        self.base = settings_from_json(dict(settings_json))
        self.journal = journal
        self.clock = clock
        self.players = players
        self.balances = [balance] * players
        self.rng = random.Random(seed)
        self.dealer = dealer
        self.previous: State | None = None
        self._reset()

    def _reset(self) -> None:
        self.phase = Phase.READY
        self.hand: State | None = None
        self.round_id: int | None = None
        self.alert: Msg | None = None
        self.turn_since = 0.0
        self.selected: list[Card] = []
        self.centre: tuple[CardRead, ...] = ()
        self.used_in_centre: set[Card] = set()
        self.void_reason = ""

    # ---- inputs ------------------------------------------------------------------------------------------
    def command(self, name: str, **params: Any) -> None:
        self.alert = None
        handler = getattr(self, "_cmd_" + name, None)
        if handler is None:
            self.alert = Msg("alert.unknown_command", {"command": name})
            return
        try:
            handler(**params)
        except InputError as error:
            self.alert = Msg("alert.illegal", {"error": refusal(error)})

    def on_button(self, button: str) -> None:
        mapping = {"SHAKE": "start", "CONFIRM": "play", "NEXT": "next", "VOID": "void"}
        name = mapping.get(button)
        if name == "play" and self.phase is Phase.RESULTS:
            name = "confirm"
        if name == "void":
            self.command("void", reason="dealer pressed VOID on the panel")
        elif name is not None:
            self.command(name)

    def on_table(
        self, reads: Mapping[str, Sequence[CardRead]], frame: Any = None, taken_at: float | None = None
    ) -> None:
        """``frame``: the camera frame the reads came from (this game journals no readings, so keeps none)."""
        self.centre = tuple(reads.get(CENTRE, ()))

    def tick(self) -> None:
        hand = self.hand
        if self.phase is not Phase.PLAYING or hand is None or hand.turn is None:
            return
        if self.clock.monotonic() - self.turn_since >= hand.turn_timer_s:
            self.command("timeout")

    # ---- commands ----------------------------------------------------------------------------------------
    def _cmd_start(self) -> None:
        if self.phase not in (Phase.READY, Phase.CLOSED, Phase.VOIDED):
            raise Refused(Msg("sl.refused.finish_first"))
        if self.phase is not Phase.READY:
            self._reset()
        settings = replace(self.base, players=self.players, balances=tuple(self.balances))
        leader = leader_of_next_hand(settings, self.previous)
        deal = random_deal(self.players, leader, self.rng)
        hand = State.start(settings, deal)
        self.round_id = self.journal.begin_round("samloc", settings, hand.deal_to_json())
        self.hand = hand
        self.phase = Phase.PLAYING
        self.turn_since = self.clock.monotonic()
        self.used_in_centre = {read.card for read in self.centre}  # what lay there before the hand is no play
        if hand.is_over:  # an instant win (tới trắng)
            self._settle()

    def _cmd_pick(self, card: Card) -> None:
        if card in self.selected:
            self.selected.remove(card)
        else:
            self.selected.append(card)

    def _cmd_play(self, cards: Sequence[Card] | None = None) -> None:
        hand = self._playing()
        if cards is None:
            cards = list(self.selected) or [r.card for r in self.centre if r.card not in self.used_in_centre]
        if not cards:
            raise Refused(Msg("sl.refused.no_cards"))
        doubtful = [r for r in self.centre if r.card in cards and r.doubtful]
        if doubtful and not self.selected:
            raise Refused(Msg("sl.refused.camera_unsure"))
        assert hand.turn is not None
        hand.verify_play(hand.turn, cards)
        self._record(hand.play(hand.turn, cards))
        self.used_in_centre.update(cards)
        self.selected = []

    def _cmd_pass(self) -> None:
        hand = self._playing()
        assert hand.turn is not None
        hand.verify_pass(hand.turn)
        self._record(hand.pass_(hand.turn))

    def _cmd_timeout(self) -> None:
        hand = self._playing()
        assert hand.turn is not None
        self._record(hand.timeout(hand.turn))

    def _cmd_declare_sam(self, seat: int | None = None) -> None:
        hand = self._playing()
        seat = hand.turn if seat is None else seat
        assert seat is not None
        hand.verify_declare_sam(seat)
        self._record(hand.declare_sam(seat))

    def _cmd_confirm(self) -> None:
        if self.phase is not Phase.RESULTS or self.hand is None or self.round_id is None:
            raise Refused(Msg("sl.refused.nothing_to_confirm"))
        settlement = self.hand.settle()
        self.journal.close_round(self.round_id, settlement, confirmed_by=self.dealer)
        self.balances = list(settlement.balances_after(self.balances))
        self.previous = self.hand
        self.phase = Phase.CLOSED

    def _cmd_void(self, reason: str) -> None:
        if self.round_id is None or self.phase in (Phase.CLOSED, Phase.VOIDED):
            raise Refused(Msg("sl.refused.no_hand_open"))
        self.journal.void_round(self.round_id, by=self.dealer, reason=reason)
        self.void_reason = reason
        self.phase = Phase.VOIDED

    def _cmd_next(self) -> None:
        if self.phase not in (Phase.CLOSED, Phase.VOIDED):
            raise Refused(Msg("sl.refused.confirm_or_void"))
        self._reset()

    def _playing(self) -> State:
        if self.phase is not Phase.PLAYING or self.hand is None:
            raise Refused(Msg("sl.refused.not_playing"))
        return self.hand

    def _record(self, record: Any) -> None:
        assert self.round_id is not None and self.hand is not None
        self.journal.record_action(self.round_id, record)
        self.turn_since = self.clock.monotonic()
        if self.hand.is_over:
            self._settle()

    def _settle(self) -> None:
        assert self.hand is not None and self.round_id is not None
        settlement = self.hand.settle()
        lines = [payment.reason for payment in settlement.payments]
        self.journal.show_results(self.round_id, settlement, lines)  # written first, then shown
        self.phase = Phase.RESULTS

    # ---- resume after a restart --------------------------------------------------------------------------
    def resume(self, open_round: OpenRound) -> None:
        """Take up the hand the journal found open, by replaying its actions through the engine."""
        from engine.samloc import replay

        self._reset()
        settings = settings_from_json(open_round.settings)
        hand = replay(settings, open_round.deal, list(open_round.actions))
        self.hand = hand
        self.round_id = open_round.round_id
        if settings.balances is not None:
            self.balances = list(settings.balances)
        self.phase = Phase.RESULTS if hand.is_over or open_round.step == "results_shown" else Phase.PLAYING
        self.turn_since = self.clock.monotonic()
        self.journal.resume_round(open_round.round_id)
        self.alert = Msg("alert.resumed", {"round": open_round.round_id})

    # ---- output ------------------------------------------------------------------------------------------
    @property
    def round_open(self) -> bool:
        """A round is under way: the game or the table may not change until it is closed or voided."""
        return self.round_id is not None and self.phase.value not in ("closed", "voided", "ready")

    def view(self) -> SamLocView:
        hand = self.hand
        players = []
        nets = hand.settle().nets if hand is not None and self.phase in (Phase.RESULTS, Phase.CLOSED) else {}
        for seat in range(self.players):
            players.append(
                PlayerView(
                    seat=seat,
                    cards_left=len(hand.hands[seat]) if hand else 0,
                    balance=self.balances[seat],
                    to_act=bool(hand and hand.turn == seat and self.phase is Phase.PLAYING),
                    passed=bool(hand and seat in hand.passed),
                    declared_sam=bool(hand and hand.declarer == seat),
                    bao1=bool(hand and len(hand.hands[seat]) == 1),
                    net=nets.get(seat),
                )
            )
        seconds_left = None
        if hand is not None and self.phase is Phase.PLAYING and hand.turn is not None:
            seconds_left = max(0, int(hand.turn_timer_s - (self.clock.monotonic() - self.turn_since) + 0.999))
        new_in_centre = tuple(r for r in self.centre if r.card not in self.used_in_centre)
        problem = Msg("read.low_confidence") if any(r.doubtful for r in new_in_centre) else None
        centre = PlaceView(CENTRE, Msg("common.centre"), new_in_centre, max(1, len(new_in_centre)), problem)
        payments: tuple[Msg, ...] = ()
        if hand is not None and self.phase in (Phase.RESULTS, Phase.CLOSED):
            payments = tuple(
                Msg("sl.payment", {"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason})
                for p in hand.settle().payments
            )
        return SamLocView(
            prompt=self._prompt(),
            alert=self.alert,
            commands=self._commands(),
            round_id=self.round_id,
            phase=self.phase,
            players=tuple(players),
            turn=hand.turn if hand else None,
            seconds_left=seconds_left,
            top=hand.top.cards if hand and hand.top else (),
            top_text=hand.top.describe() if hand and hand.top else "",
            top_seat=hand.top_seat if hand else None,
            centre=centre,
            hand_of_turn=hand.hands[hand.turn] if hand and hand.turn is not None else (),
            selected=tuple(self.selected),
            log=tuple(record.describe() for record in (hand.history[-6:] if hand else ())),
            payments=payments,
            bet=self.base.bet,
            mode=self.base.mode,
            timer_s=self.base.turn_timer_s,
        )

    def _prompt(self) -> Msg:
        if self.phase is Phase.READY:
            return Msg("sl.prompt.start")
        if self.phase is Phase.PLAYING:
            assert self.hand is not None
            return Msg("sl.turn", {"player": self.hand.turn})
        if self.phase is Phase.RESULTS:
            return Msg("sl.prompt.results")
        if self.phase is Phase.CLOSED:
            return Msg("bb.prompt.closed")
        return Msg("bb.prompt.voided", {"reason": self.void_reason})

    def _commands(self) -> tuple[Command, ...]:
        hand = self.hand
        playing = self.phase is Phase.PLAYING and hand is not None
        return (
            Command("start", Msg("common.start"), self.phase is Phase.READY),
            Command("play", Msg("sl.play"), playing),
            Command("pass", Msg("sl.pass"), bool(playing and hand is not None and not hand.leading)),
            Command(
                "declare_sam", Msg("sl.declare_sam"), bool(playing and hand is not None and hand.can_declare_sam_now())
            ),
            Command("confirm", Msg("button.confirm"), self.phase is Phase.RESULTS),
            Command(
                "void", Msg("button.void"), self.round_id is not None and self.phase in (Phase.PLAYING, Phase.RESULTS)
            ),
            Command("next", Msg("button.next"), self.phase in (Phase.CLOSED, Phase.VOIDED)),
        )
