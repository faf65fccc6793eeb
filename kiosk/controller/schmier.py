"""The Schmier table, played from what is seen: the dealer deals real cards, the kiosk never holds a hand.

START (screen or panel) begins a hand once the dealer has dealt 6 cards each and kept 17. The bids and passes, the
trump and each player's discard (how many: they stay face down) come from the screen; each card of a trick is read
from the centre by the camera and taken with PLAY (or the panel's CONFIRM), a card the camera is unsure of picked on
the screen's card picker. The engine's ``TableState`` checks at once what the table can see (a bid not higher, a
play out of turn, a card already played, a discard count out of range); at the hand's end it finds what needs the
whole hands (a revoke, a protected trump discarded): a violation holds the score until a supervisor releases it.

The table keeps its state between hands and across a restart: the match score to 21 and who deals next, rebuilt
from the journal's last settled hand (``restore``). Each hand is a journal round (the table record: the deal
``{"dealer", "scores"}`` and the actions).
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
from engine.schmier import GAME_TARGET, Match, Phase, TableDeal, TableState, settings_from_json, team_of
from engine.schmier.ranks import next_seat
from engine.schmier.settings import MAX_BID, MAX_DISCARD, MIN_BID
from journal import Journal
from journal.events import CardsCorrected, CardsRead, Note
from journal.store import OpenRound
from kiosk.controller.places import PlaceReads
from kiosk.controller.view import CardRead, Command, PlaceView, Refused, ScreenView
from kiosk.i18n import Msg

CENTRE = "centre"
SEATS = 6


class Step(StrEnum):
    READY = "ready"  # START begins the next hand, once dealt
    PLAYING = "playing"  # bidding, trump, discards, tricks
    RESULTS = "results"  # the six points journaled and shown; CONFIRM
    CLOSED = "closed"
    VOIDED = "voided"


@dataclass(frozen=True)
class SeatView:
    seat: int
    team: int
    cards: int
    """Cards in hand as the table counts them: 6 until the tricks begin, then 6 less those played."""
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
    points: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    winner: int | None = None
    result_lines: tuple[Msg, ...] = ()
    """The hand's result as the screen words it: each point named (High, Low, …) with its team and reason, then
    the bid made or set."""
    violations: tuple[str, ...] = ()
    held: bool = False
    dealer: int = 0
    """Who deals the hand in play, or the next one."""


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
        self.places = PlaceReads()
        self.seen_frame: Any = None
        self.restore()
        self._reset()

    def _reset(self) -> None:
        self.step = Step.READY
        self.round_id: int | None = None
        self.alert: Msg | None = None
        self.stale: set[Card] = set()
        self.void_reason = ""

    @property
    def phase(self) -> Step:  # the runtime and the set-up ask every controller for ``phase``
        return self.step

    @property
    def hand(self) -> Any:
        return self.match.current

    # ---- the table's state, kept by the journal ------------------------------------------------------------
    def restore(self) -> None:
        """The match as the journal leaves it: the last settled Schmier hand replayed gives the score to 21 and
        who deals next (a voided hand does not count). A game that was over is followed by a new one, dealt by the
        seat left of its last dealer."""
        from engine.schmier import replay

        last: int | None = None
        begun: dict[int, Any] = {}
        for entry in self.journal.entries(kinds=["round_begun", "round_settled"]):
            if entry.round_id is None:
                continue
            if entry.kind == "round_begun":
                if entry.payload.get("game") == "schmier":
                    begun[entry.round_id] = entry.payload
            elif entry.round_id in begun:
                last = entry.round_id
        if last is None:
            return
        payload = begun[last]
        actions = [e.payload["action"] for e in self.journal.entries(round_id=last, kinds=["action_recorded"])]
        try:
            hand = replay(settings_from_json(payload.get("settings", {})), payload.get("deal", {}), actions)
        except InputError:
            return
        if not hand.is_over:
            return
        if hand.phase is Phase.GAME_OVER:
            self.match = Match(self.settings, next_seat(hand.dealer))
        else:
            self.match = Match(self.settings, hand.dealer)
            self.match.hands.append(hand)

    def apply_settings(self, settings_json: Mapping[str, Any]) -> None:
        """SET-UP: the table's options from the next hand (the match score and the dealer stay)."""
        self.settings = settings_from_json(dict(settings_json))
        self.match.settings = self.settings

    def settings_json(self) -> dict[str, Any]:
        return self.settings.to_json()

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
            self.command("start")
        elif button == "CONFIRM":
            self.command("confirm" if self.step is Step.RESULTS else "play")
        elif button == "NEXT":
            self.command("next")
        elif button == "VOID":
            self.command("void", reason="dealer pressed VOID on the panel")

    def on_table(
        self, reads: Mapping[str, Sequence[CardRead]], frame: Any = None, taken_at: float | None = None
    ) -> None:
        """The camera's stable reads: the centre takes each trick's cards."""
        self.seen_frame = frame
        self.places.update(reads)
        self.stale &= {read.card for read in self.places.cards(CENTRE)}  # an old card taken away is no longer old

    def tick(self) -> None:
        return None

    # ---- commands ----------------------------------------------------------------------------------------
    def _cmd_start(self) -> None:
        if self.step in (Step.CLOSED, Step.VOIDED):
            self._reset()
        if self.step is not Step.READY:
            raise Refused(Msg("sl.refused.finish_first"))
        if self.match.is_over:  # a new game to 21: the deal passes on to the left
            self.match = Match(self.settings, next_seat(self.match.hands[-1].dealer))
        deal = TableDeal.of(self.match.next_dealer, self.match.scores)
        self.match.verify_new_hand(deal)
        hand = TableState(self.settings, deal)
        self.round_id = self.journal.begin_round("schmier", self.settings, deal.to_json())
        self.match.hands.append(hand)
        self.step = Step.PLAYING
        self.stale = {read.card for read in self.places.cards(CENTRE)}
        self.places.forget_fixes()  # last hand's corrections (the losers' cards entered by hand) are not this one's

    _cmd_deal = _cmd_start

    def _cmd_bid(self, value: str | int) -> None:
        hand = self._playing()
        hand.verify_bid(hand.turn, int(value))
        self._record(hand.bid(hand.turn, int(value)))

    def _cmd_pass(self) -> None:
        hand = self._playing()
        hand.verify_pass_bid(hand.turn)
        self._record(hand.pass_bid(hand.turn))

    def _cmd_trump(self, value: str) -> None:
        hand = self._playing()
        hand.verify_name_trump(hand.turn, Suit(value))
        self._record(hand.name_trump(hand.turn, Suit(value)))

    def _cmd_discard(self, value: str | int | None = None) -> None:
        """How many cards the seat to act discarded face down (the dealer: the kept cards he took up)."""
        hand = self._playing()
        count = hand.kept_left if hand.phase is Phase.DEALER_DISCARD and value is None else int(value or 0)
        hand.verify_discard_count(hand.turn, count)
        self._record(hand.discard_count(hand.turn, count))

    def _cmd_correct(self, zone: str, index: int, card: Card | None) -> None:
        """The card picker: the card in slot ``index`` of the centre is ``card`` (None: no card there)."""
        if self.step is not Step.PLAYING:
            raise Refused(Msg("sl.refused.not_playing"))
        new = self._new_reads()
        raw = list(self.places.cards(zone))
        index = raw.index(new[index]) if zone == CENTRE and index < len(new) else len(raw) if zone == CENTRE \
            else index
        correction = self.places.correct(zone, index, card)
        self.journal.append(CardsCorrected(zone=zone, before=tuple(map(str, correction.before)),
                                           after=tuple(map(str, correction.after)), by=self.dealer,
                                           reason="corrected on the card picker"))

    def _cmd_play(self, card: Card | None = None) -> None:
        hand = self._playing()
        if hand.phase is not Phase.PLAY:
            raise Refused(Msg("sm.refused.not_play", {"seat": hand.turn}))
        reads: tuple[CardRead, ...] = ()
        if card is None:
            reads = self._new_reads()
            if len(reads) != 1:
                raise Refused(Msg("sm.refused.lay_one"))
            if reads[0].doubtful:
                raise Refused(Msg("sm.refused.camera_unsure"))
            card = reads[0].card
        hand.verify_play(hand.turn, card)
        with self.journal.step():
            if reads:
                self._record_reads(reads)
            self._record(hand.play(hand.turn, card))

    def _cmd_confirm(self, supervisor: str | None = None) -> None:
        if self.step is not Step.RESULTS or self.round_id is None:
            raise Refused(Msg("sl.refused.nothing_to_confirm"))
        result = self.hand.settle()
        if result.held and not supervisor:
            raise Refused(Msg("sl.refused.held"))
        with self.journal.step():
            if result.held:
                self.journal.append(Note(text=f"{len(result.violations)} violation(s) looked at; the score held "
                                         "for them is released", by=str(supervisor)))
            self.journal.close_round(self.round_id, result, confirmed_by=supervisor or self.dealer)
        self.step = Step.CLOSED

    def _cmd_void(self, reason: str) -> None:
        if self.round_id is None or self.step in (Step.CLOSED, Step.VOIDED, Step.READY):
            raise Refused(Msg("sl.refused.no_hand_open"))
        self.journal.void_round(self.round_id, by=self.dealer, reason=reason)
        self.match.hands.pop()  # a voided hand does not count toward the game
        self.void_reason = reason
        self.step = Step.VOIDED

    def _cmd_next(self) -> None:
        if self.step not in (Step.CLOSED, Step.VOIDED):
            raise Refused(Msg("sl.refused.confirm_or_void"))
        self._reset()

    # ---- helpers -----------------------------------------------------------------------------------------
    def _playing(self) -> Any:
        if self.step is not Step.PLAYING or self.hand is None or self.hand.turn is None:
            raise Refused(Msg("sl.refused.not_playing"))
        return self.hand

    def _new_reads(self) -> tuple[CardRead, ...]:
        hand = self.hand if self.step is Step.PLAYING else None
        return tuple(read for read in self.places.cards(CENTRE)
                     if read.card not in self.stale and (hand is None or hand.played_by(read.card) is None))

    def _record_reads(self, reads: Sequence[CardRead]) -> None:
        seen = self.seen_frame
        frame = boxes = None
        if seen is not None and hasattr(seen, "store"):
            frame = seen.store(self.journal)
            boxes = seen.boxes(CENTRE, [r.read_as if r.corrected else r.card for r in reads])
        self.journal.append(CardsRead(zone=CENTRE, cards=tuple(str(r.card) for r in reads),
                                      confidences=tuple(r.confidence for r in reads), frame=frame,
                                      boxes=boxes or ()))

    def _record(self, record: Any) -> None:
        assert self.round_id is not None
        with self.journal.step():
            self.journal.record_action(self.round_id, record)
            hand = self.hand
            if hand.is_over:
                result = hand.settle()
                lines = [award.reason for award in result.points] + [str(v.message) for v in result.violations]
                self.journal.show_results(self.round_id, result, lines)  # written first, then shown
                self.step = Step.RESULTS

    # ---- resume after a restart --------------------------------------------------------------------------
    def resume(self, open_round: OpenRound) -> None:
        from engine.schmier import replay

        self._reset()
        hand = replay(settings_from_json(open_round.settings), open_round.deal, list(open_round.actions))
        match = self.match
        if match.is_over or match.next_dealer != hand.dealer or match.scores != tuple(hand.deal.scores):
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
        hand = self.hand if self.step in (Step.PLAYING, Step.RESULTS, Step.CLOSED) else None
        bids: dict[int, str] = {}
        if hand is not None:
            for seat, amount in hand.bids:
                bids[seat] = "pass" if amount is None else str(amount)
        dealer = hand.dealer if hand is not None and self.step is not Step.CLOSED else (
            next_seat(self.match.hands[-1].dealer) if self.match.is_over else self.match.next_dealer)
        seats = tuple(
            SeatView(
                seat=seat,
                team=team_of(seat),
                cards=6 - len(hand.played[seat]) if isinstance(hand, TableState) else 0,
                bid=bids.get(seat, ""),
                to_act=bool(hand and hand.turn == seat and self.step is Step.PLAYING),
                dealer=seat == dealer,
            )
            for seat in range(SEATS)
        )
        new = self._new_reads() if hand is not None and hand.phase is Phase.PLAY else ()
        problem = Msg("read.low_confidence") if any(r.doubtful for r in new) else None
        centre = PlaceView(CENTRE, Msg("common.centre"), new, len(new) + 1 if new else 1, problem)
        points: tuple[str, ...] = ()
        winner = None
        violations: tuple[str, ...] = ()
        held = False
        lines: list[Msg] = []
        if hand is not None and hand.result is not None:
            result = hand.settle()
            points = tuple(award.reason for award in result.points)
            if result.thrown_in:
                lines.append(Msg("sm.cli.thrown_in"))
            for award in result.points:
                who = Msg("sm.cli.nobody") if award.team is None else Msg("sm.cli.team", {"team": award.team})
                lines.append(Msg("sm.cli.point", {"title": Msg(f"sm.cli.point.{award.point}"), "who": who,
                                                  "reason": award.reason}))
            if result.bidder is not None:
                team = team_of(result.bidder)
                lines.append(Msg("sm.cli.made" if result.made else "sm.cli.set", {
                    "seat": result.bidder, "team": team, "bid": result.bid, "taken": result.taken[team]}))
            winner = result.winner
            violations = tuple(v.message for v in result.violations)
            held = result.held
        last = None
        if hand is not None and hand.tricks:
            trick = hand.tricks[-1]  # seats counted from 0 here; the catalogue words them from 1, as the table does
            cards = " ".join(card.pretty for card in trick.cards())
            last = Msg("sm.last_trick", {"trick": trick.number, "cards": cards, "seat": trick.winner})
        scores = hand.scores if hand is not None else (0, 0, 0) if self.match.is_over else self.match.scores
        return SchmierView(
            prompt=self._prompt(dealer),
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
            points=points,
            result_lines=tuple(lines),
            log=tuple(record.describe() for record in (hand.history[-5:] if hand else ())),
            winner=winner,
            violations=violations,
            held=held,
            dealer=dealer,
        )

    def _prompt(self, dealer: int) -> Msg:
        if self.step is Step.READY:
            return Msg("sm.prompt.deal", {"seat": dealer})
        if self.step is Step.PLAYING:
            hand = self.hand
            key = "sm.prompt.discard_count" if hand.phase is Phase.DISCARD else "sm.prompt." + hand.phase.name.lower()
            return Msg(key, {"seat": hand.turn, "count": getattr(hand, "kept_left", 0)})
        if self.step is Step.RESULTS:
            return Msg("sl.prompt.held" if self.hand.settle().held else "sm.prompt.results")
        if self.step is Step.CLOSED:
            return Msg("bb.prompt.closed")
        return Msg("bb.prompt.voided", {"reason": self.void_reason})

    def _commands(self) -> tuple[Command, ...]:
        hand: Any = self.hand if self.step is Step.PLAYING else None
        phase = hand.phase if hand is not None else None
        commands = [Command("start", Msg("common.start"), self.step in (Step.READY, Step.CLOSED, Step.VOIDED))]
        if phase is Phase.BIDDING:
            low = MIN_BID if hand.high_bid is None else hand.high_bid + 1
            commands += [
                Command(f"bid:{amount}", Msg("sm.bid", {"amount": amount})) for amount in range(low, MAX_BID + 1)
            ]
            commands.append(Command("pass", Msg("sm.pass")))
        elif phase is Phase.TRUMP:
            commands += [Command(f"trump:{suit.value}", Msg("sm.suit", {"suit": suit.symbol})) for suit in Suit]
        elif phase is Phase.DISCARD:
            most = min(MAX_DISCARD, hand.kept_left)
            commands += [Command(f"discard:{count}", Msg("sm.discard", {"count": count})) for count in range(most + 1)]
        elif phase is Phase.DEALER_DISCARD:
            commands.append(Command("discard", Msg("sm.takes_up", {"count": hand.kept_left})))
        else:
            commands.append(Command("play", Msg("sm.play"), phase is Phase.PLAY))
        commands += [
            Command("confirm", Msg("button.confirm"), self.step is Step.RESULTS),
            Command("void", Msg("button.void"), self.step in (Step.PLAYING, Step.RESULTS)),
        ]
        return tuple(commands)


TARGET = GAME_TARGET
