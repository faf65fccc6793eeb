"""The Schmier table: bids, trump, discards, tricks read from the centre (or picked by touch), the six points,
the running score to 21. Each hand is a journal round; the hands of one game chain through the engine's ``Match``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.cards import Card, Suit
from engine.clock import Clock
from engine.errors import InputError
from engine.schmier import GAME_TARGET, Match, Phase, settings_from_json, team_of
from engine.schmier.settings import MAX_BID, MIN_BID
from journal import Journal
from journal.store import OpenRound
from kiosk.controller.view import CardRead, Command, PlaceView, Refused, ScreenView
from kiosk.i18n import Msg

CENTRE = "centre"
SEATS = 6


class Step(StrEnum):
    READY = "ready"  # DEAL starts the next hand
    PLAYING = "playing"  # bidding, trump, discards, tricks
    RESULTS = "results"  # the six points journaled and shown; CONFIRM
    CLOSED = "closed"
    VOIDED = "voided"


@dataclass(frozen=True)
class SeatView:
    seat: int
    team: int
    cards: int
    bid: str
    to_act: bool
    dealer: bool


@dataclass(frozen=True)
class SchmierView(ScreenView):
    step: Step = Step.READY
    phase: str = ""
    seats: tuple[SeatView, ...] = ()
    turn: int | None = None
    trump: Suit | None = None
    high_bid: int | None = None
    bidder: int | None = None
    trick: tuple[tuple[int, Card], ...] = ()
    trick_number: int = 0
    last_trick: Msg | None = None
    """The last trick won: its number, its cards and who took it."""
    scores: tuple[int, int, int] = (0, 0, 0)
    centre: PlaceView | None = None
    hand_of_turn: tuple[Card, ...] = ()
    selected: tuple[Card, ...] = ()
    points: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    winner: int | None = None


class SchmierController:
    def __init__(
        self,
        settings_json: Mapping[str, Any],
        journal: Journal,
        clock: Clock,
        seed: int | None = None,
        dealer: str = "dealer",
    ) -> None:
        self.settings = settings_from_json(dict(settings_json))
        self.journal = journal
        self.clock = clock
        self.rng = random.Random(seed)
        self.dealer = dealer
        self.match = Match.drawn(self.settings, self.rng)
        self._reset()

    def _reset(self) -> None:
        self.step = Step.READY
        self.round_id: int | None = None
        self.alert: Msg | None = None
        self.selected: list[Card] = []
        self.centre: tuple[CardRead, ...] = ()
        self.used_in_centre: set[Card] = set()
        self.void_reason = ""

    @property
    def phase(self) -> Step:  # the runtime and the set-up ask every controller for ``phase``
        return self.step

    @property
    def hand(self) -> Any:
        return self.match.current

    # ---- inputs ------------------------------------------------------------------------------------------
    def command(self, name: str, **params: Any) -> None:
        self.alert = None
        base, _, argument = name.partition(":")
        handler = getattr(self, "_cmd_" + base, None)
        if handler is None:
            self.alert = Msg("alert.unknown_command", {"command": name})
            return
        if argument:
            params = {**params, "value": argument}
        try:
            handler(**params)
        except InputError as error:  # the reason as a message or an engine phrase, so the screen words it
            reason = getattr(error, "msg", None) or (error.args[0] if error.args and isinstance(error.args[0], str)
                                                     else str(error))
            self.alert = Msg("alert.illegal", {"error": reason})

    def on_button(self, button: str) -> None:
        if button == "SHAKE":
            self.command("deal")
        elif button == "CONFIRM":
            self.command("confirm" if self.step is Step.RESULTS else "play")
        elif button == "NEXT":
            self.command("next")
        elif button == "VOID":
            self.command("void", reason="dealer pressed VOID on the panel")

    def on_table(
        self, reads: Mapping[str, Sequence[CardRead]], frame: Any = None, taken_at: float | None = None
    ) -> None:
        """``frame``: the camera frame the reads came from (this game journals no readings, so keeps none)."""
        self.centre = tuple(reads.get(CENTRE, ()))

    def tick(self) -> None:
        return None

    # ---- commands ----------------------------------------------------------------------------------------
    def _cmd_deal(self) -> None:
        if self.step is not Step.READY:
            raise InputError("finish this hand first")
        if self.match.is_over:
            self.match = Match.drawn(self.settings, self.rng)  # a new game to 21
        hand = self.match.deal_random(self.rng)
        self.round_id = self.journal.begin_round("schmier", self.settings, hand.deal_to_json())
        self.step = Step.PLAYING
        self.used_in_centre = {read.card for read in self.centre}

    def _cmd_bid(self, value: str | int) -> None:
        hand = self._playing()
        self._record(hand.bid(hand.turn, int(value)))

    def _cmd_pass(self) -> None:
        hand = self._playing()
        self._record(hand.pass_bid(hand.turn))

    def _cmd_trump(self, value: str) -> None:
        hand = self._playing()
        self._record(hand.name_trump(hand.turn, Suit(value)))

    def _cmd_pick(self, card: Card) -> None:
        if card in self.selected:
            self.selected.remove(card)
        else:
            self.selected.append(card)

    def _cmd_discard(self) -> None:
        """Players pick what they discard; the dealer, holding many cards, picks the six he keeps."""
        hand = self._playing()
        cards = list(self.selected)
        if hand.phase is Phase.DEALER_DISCARD:
            cards = [card for card in self._holding(hand) if card not in self.selected]
        hand.verify_discard(hand.turn, cards)
        self._record(hand.discard(hand.turn, cards))
        self.selected = []

    def _cmd_play(self, card: Card | None = None) -> None:
        hand = self._playing()
        if hand.phase is not Phase.PLAY:
            raise InputError(f"not the time to play a card: waiting for {hand.waiting_for()}")
        if card is None:
            if len(self.selected) == 1:
                card = self.selected[0]
            else:
                new = [read for read in self.centre if read.card not in self.used_in_centre]
                if len(new) != 1:
                    raise Refused(Msg("sm.refused.lay_one"))
                if new[0].doubtful:
                    raise Refused(Msg("sm.refused.camera_unsure"))
                card = new[0].card
        hand.verify_play(hand.turn, card)
        self._record(hand.play(hand.turn, card))
        self.used_in_centre.add(card)
        self.selected = []

    def _cmd_confirm(self) -> None:
        if self.step is not Step.RESULTS or self.round_id is None:
            raise InputError("nothing to confirm now")
        self.journal.close_round(self.round_id, self.hand.settle(), confirmed_by=self.dealer)
        self.step = Step.CLOSED

    def _cmd_void(self, reason: str) -> None:
        if self.round_id is None or self.step in (Step.CLOSED, Step.VOIDED):
            raise InputError("no hand is open")
        self.journal.void_round(self.round_id, by=self.dealer, reason=reason)
        self.match.hands.pop()  # a voided hand does not count toward the game
        self.void_reason = reason
        self.step = Step.VOIDED

    def _cmd_next(self) -> None:
        if self.step not in (Step.CLOSED, Step.VOIDED):
            raise InputError("CONFIRM or VOID the hand first")
        self._reset()

    def _playing(self) -> Any:
        if self.step is not Step.PLAYING or self.hand is None:
            raise InputError("no hand is being played: press DEAL")
        if self.hand.turn is None:
            raise InputError(f"nobody is to act: the hand is {self.hand.phase.value}")
        return self.hand

    def _record(self, record: Any) -> None:
        assert self.round_id is not None
        self.journal.record_action(self.round_id, record)
        hand = self.hand
        if hand.is_over:
            result = hand.settle()
            lines = [award.reason for award in result.points]
            self.journal.show_results(self.round_id, result, lines)  # written first, then shown
            self.step = Step.RESULTS

    # ---- resume after a restart --------------------------------------------------------------------------
    def resume(self, open_round: OpenRound) -> None:
        from engine.schmier import replay

        self._reset()
        hand = replay(settings_from_json(open_round.settings), open_round.deal, list(open_round.actions))
        self.match = Match(self.settings, hand.dealer)
        self.match.hands.append(hand)
        self.round_id = open_round.round_id
        self.step = Step.RESULTS if hand.is_over else Step.PLAYING
        self.journal.resume_round(open_round.round_id)
        self.alert = Msg("alert.resumed", {"round": open_round.round_id})

    # ---- output ------------------------------------------------------------------------------------------
    @property
    def round_open(self) -> bool:
        """A round is under way: the game or the table may not change until it is closed or voided."""
        return self.round_id is not None and self.phase.value not in ("closed", "voided", "ready")

    def view(self) -> SchmierView:
        hand = self.hand if self.step is not Step.READY else None
        bids: dict[int, str] = {}
        if hand is not None:
            for seat, amount in hand.bids:
                bids[seat] = "pass" if amount is None else str(amount)
        seats = tuple(
            SeatView(
                seat=seat,
                team=team_of(seat),
                cards=len(hand.hands[seat]) if hand else 0,
                bid=bids.get(seat, ""),
                to_act=bool(hand and hand.turn == seat and self.step is Step.PLAYING),
                dealer=bool(hand and hand.dealer == seat),
            )
            for seat in range(SEATS)
        )
        new_in_centre = tuple(r for r in self.centre if r.card not in self.used_in_centre)
        problem = Msg("read.low_confidence") if any(r.doubtful for r in new_in_centre) else None
        centre = PlaceView(CENTRE, Msg("common.centre"), new_in_centre, max(1, len(new_in_centre)), problem)
        points: tuple[str, ...] = ()
        winner = None
        if hand is not None and hand.result is not None:
            result = hand.result
            points = tuple(award.reason for award in result.points)
            winner = result.winner
        last = None
        if hand is not None and hand.tricks:
            trick = hand.tricks[-1]  # seats counted from 0 here; the catalogue words them from 1, as the table does
            cards = " ".join(card.pretty for card in trick.cards())
            last = Msg("sm.last_trick", {"trick": trick.number, "cards": cards, "seat": trick.winner})
        scores = hand.scores if hand is not None else self.match.scores
        return SchmierView(
            prompt=self._prompt(),
            alert=self.alert,
            commands=self._commands(),
            round_id=self.round_id,
            step=self.step,
            phase=hand.phase.value if hand else "",
            seats=seats,
            turn=hand.turn if hand else None,
            trump=hand.trump if hand else None,
            high_bid=hand.high_bid if hand else None,
            bidder=hand.bidder if hand else None,
            trick=tuple(hand.current) if hand else (),
            trick_number=len(hand.tricks) + 1 if hand else 0,
            last_trick=last,
            scores=tuple(scores),
            centre=centre,
            hand_of_turn=self._holding(hand),
            selected=tuple(self.selected),
            points=points,
            log=tuple(record.describe() for record in (hand.history[-5:] if hand else ())),
            winner=winner,
        )

    @staticmethod
    def _holding(hand: Any) -> tuple[Card, ...]:
        """The cards of the seat to act; the dealer in his discard holds his hand and the kept cards."""
        if hand is None or hand.turn is None:
            return ()
        cards = list(hand.hands[hand.turn])
        if hand.phase is Phase.DEALER_DISCARD:
            cards += list(hand.kept)
        return tuple(cards)

    def _prompt(self) -> Msg:
        if self.step is Step.READY:
            return Msg("sm.prompt.deal")
        if self.step is Step.PLAYING:
            hand = self.hand
            return Msg("sm.prompt." + hand.phase.name.lower(), {"seat": hand.turn})
        if self.step is Step.RESULTS:
            return Msg("sm.prompt.results")
        if self.step is Step.CLOSED:
            return Msg("bb.prompt.closed")
        return Msg("bb.prompt.voided", {"reason": self.void_reason})

    def _commands(self) -> tuple[Command, ...]:
        hand = self.hand if self.step is Step.PLAYING else None
        phase = hand.phase if hand is not None else None
        commands = [Command("deal", Msg("sm.deal"), self.step is Step.READY)]
        if phase is Phase.BIDDING:
            low = MIN_BID if hand.high_bid is None else hand.high_bid + 1
            commands += [
                Command(f"bid:{amount}", Msg("sm.bid", {"amount": amount})) for amount in range(low, MAX_BID + 1)
            ]
            commands.append(Command("pass", Msg("sm.pass")))
        elif phase is Phase.TRUMP:
            commands += [Command(f"trump:{suit.value}", Msg("sm.suit", {"suit": suit.symbol})) for suit in Suit]
        elif phase is Phase.DISCARD:
            commands.append(Command("discard", Msg("sm.discard", {"count": len(self.selected)})))
        elif phase is Phase.DEALER_DISCARD:
            commands.append(Command("discard", Msg("sm.keep", {"count": len(self.selected)}), len(self.selected) == 6))
        else:
            commands.append(Command("play", Msg("sm.play"), phase is Phase.PLAY))
        commands += [
            Command("confirm", Msg("button.confirm"), self.step is Step.RESULTS),
            Command("void", Msg("button.void"), self.step in (Step.PLAYING, Step.RESULTS)),
            Command("next", Msg("button.next"), self.step in (Step.CLOSED, Step.VOIDED)),
        ]
        return tuple(commands)


TARGET = GAME_TARGET
