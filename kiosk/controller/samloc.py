"""The Sâm Lốc table, played from what is seen: the dealer deals real cards, the kiosk never holds a hand.

START (screen or panel) begins a hand once the dealer has dealt. Each play is read from the centre by the camera
(the cards newly laid there) and taken with PLAY (or the panel's CONFIRM); a card the camera is unsure of is framed
orange and picked on the screen's card picker, which also adds a card the camera missed or takes one away. Passes,
báo sâm and an instant win (tới trắng) come from the screen or the panel. What can be checked at once is checked at
once by the engine's ``TableState`` (a play out of turn, a combination that does not beat the table, a card already
played, more cards than a seat has left); a refusal shows the engine's reason. When a leader's time runs out the
dealer lays the card the rule names for him (his lowest single, his highest under báo 1) and PLAY records it as
the timer's.

At the hand's end the losers lay their remaining cards face up in their own zones (``seat1`` … ``seat4``); the
camera reads them and the screen can correct them; CONFIRM records them as ``show`` actions. The hand is then
rebuilt and settled by ``TableState``: a rule broken (a hand that is not 10 cards, a card twice, báo 1's duty, an
instant win not claimed …) is a violation that holds the settlement until a supervisor signs in to release it (or
voids the hand). Every action is journaled before the screen shows it; the journal keeps the table record.

The table keeps its state between hands and across a restart: each seat's balance (a seat under the bet sits out),
who leads next, rebuilt from the journal's settled hands (``restore``). Settings changed at SET-UP apply from the
next hand; a change of the number of players starts a new table (every balance back to the starting one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.cards import Card
from engine.clock import Clock
from engine.errors import InputError
from engine.phrases import Phrase, renumber_seats
from engine.samloc import ClaimInstant, Settings, TableDeal, TableState, dealt_in, settings_from_json
from engine.samloc.actions import Passed
from engine.samloc.table import MIN_PLAYERS
from journal import Journal
from journal.events import CardsCorrected, CardsRead, Note
from journal.store import OpenRound
from kiosk.controller.places import PlaceReads
from kiosk.controller.view import CardRead, Command, PlaceView, Refused, ScreenView
from kiosk.i18n import Msg

CENTRE = "centre"
START_BALANCE = 1000


def seat_zone(seat: int) -> str:
    """The zone where table seat ``seat`` (from 0) lays the cards he shows at the end: ``seat1`` … ``seat4``."""
    return f"seat{seat + 1}"


def refusal(error: InputError) -> str | Msg:
    """What to show for a refused command: the table's message, or the engine's phrase itself (``str(error)``
    would lose its key and values), or its text."""
    if isinstance(error, Refused):
        return error.msg
    message = error.args[0] if error.args else None
    return message if isinstance(message, Phrase) else str(error)


def renumbered(text: Any, seats: Sequence[int]) -> Any:
    """An engine phrase of a hand dealt to some of the table's seats, its seats as the table numbers them
    (``engine.phrases.renumber_seats``); anything else as it is."""
    return renumber_seats(text, seats) if isinstance(text, str) else text


class Phase(StrEnum):
    READY = "ready"
    PLAYING = "playing"
    SHOWING = "showing"
    """The hand is over: the losers lay their remaining cards face up, read and confirmed."""
    RESULTS = "results"
    CLOSED = "closed"
    VOIDED = "voided"


@dataclass(frozen=True)
class PlayerView:
    seat: int
    """The table seat, from 0 (the screen says it from 1)."""
    cards_left: int
    balance: int
    to_act: bool
    passed: bool
    declared_sam: bool
    bao1: bool
    net: int | None = None
    """This hand's win or loss once settled."""
    sitting_out: bool = False
    claimed: bool = False


@dataclass(frozen=True)
class SamLocView(ScreenView):
    phase: Phase = Phase.READY
    players: tuple[PlayerView, ...] = ()
    turn: int | None = None
    seconds_left: int | None = None
    timer_ran_out: bool = False
    """The leader's time ran out: the dealer lays the rule's single for him, then PLAY."""
    top: tuple[Card, ...] = ()
    top_text: str = ""
    top_seat: int | None = None
    centre: PlaceView | None = None
    shows: tuple[PlaceView, ...] = ()
    """At the hand's end: each seat that shows, its zone as read (one empty slot more to add a card)."""
    log: tuple[str, ...] = ()
    payments: tuple[Msg, ...] = ()
    """One ``sl.payment`` message per payment: who pays whom, how much, and the engine's reason (a phrase)."""
    violations: tuple[str, ...] = ()
    """What the rebuilt hand broke, one line each (engine phrases): the settlement is held for a supervisor."""
    held: bool = False
    bet: int = 0
    mode: str = "normal"
    timer_s: int = 0
    seats: tuple[int, ...] = ()
    """The table seats dealt into this hand, in play order."""


class SamLocController:
    def __init__(
        self,
        settings_json: Mapping[str, Any],
        journal: Journal,
        clock: Clock,
        players: int | None = None,
        balance: int = START_BALANCE,
        seed: int | None = None,
        dealer: str = "dealer",
    ) -> None:
        base = settings_from_json(dict(settings_json))
        self.table_players = base.seat_count or players or 4
        self.base = replace(base, players=None, balances=None, room_owner=min(base.room_owner,
                                                                             self.table_players - 1))
        self.journal = journal
        self.clock = clock
        self.start_balance = balance
        self.balances = [balance] * self.table_players
        self.leader = self.base.room_owner
        """The table seat that leads the next hand (when nobody declares sâm)."""
        self.dealer = dealer
        self.places = PlaceReads()
        self.seen_frame: Any = None
        self.restore()
        self._reset()

    def _reset(self) -> None:
        self.phase = Phase.READY
        self.hand: TableState | None = None
        self.seats: tuple[int, ...] = ()
        self.round_id: int | None = None
        self.alert: Msg | None = None
        self.turn_since = 0.0
        self.timer_ran_out = False
        self.stale: set[Card] = set()
        """Cards lying in the centre when the hand began: no play of it."""
        self.show_warned = False
        self.void_reason = ""

    # ---- the table's state, kept by the journal ------------------------------------------------------------
    def restore(self) -> None:
        """Rebuild the table from the journal: every settled Sâm Lốc hand's nets on the seats it dealt in, and who
        leads next (the last settled hand replayed). A change of the number of players at SET-UP starts anew."""
        from engine.samloc import replay

        balances = [self.start_balance] * self.table_players
        leader = self.base.room_owner
        begun: dict[int, tuple[dict[str, Any], Any]] = {}
        last: tuple[int, dict[str, Any], Any] | None = None
        for entry in self.journal.entries(kinds=["round_begun", "round_settled", "settings_changed"]):
            payload = entry.payload
            if entry.kind == "settings_changed":
                if payload.get("setting") == "samloc.players":
                    balances, leader, last = [self.start_balance] * self.table_players, self.base.room_owner, None
                continue
            if entry.round_id is None:
                continue
            if entry.kind == "round_begun":
                if payload.get("game") == "samloc":
                    begun[entry.round_id] = (payload.get("settings", {}), payload.get("deal", {}))
                continue
            if entry.round_id not in begun:
                continue
            settings, deal = begun[entry.round_id]
            for key, amount in payload.get("nets", {}).items():  # the journal names the table's seats
                if key.isdigit() and int(key) < len(balances) and isinstance(amount, int):
                    balances[int(key)] += amount
            last = (entry.round_id, settings, deal)
        if last is not None:
            round_id, settings, deal = last
            actions = [e.payload["action"] for e in self.journal.entries(round_id=round_id, kinds=["action_recorded"])]
            try:
                hand = replay(settings_from_json(settings), deal, actions)
                seats = _seats_of(deal, self.table_players)
                leader = seats[hand.next_leader()] if seats[hand.next_leader()] < self.table_players else leader
            except (InputError, IndexError):  # a hand of another table: the room owner leads
                leader = self.base.room_owner
        self.balances, self.leader = balances, leader

    def apply_settings(self, settings_json: Mapping[str, Any]) -> None:
        """SET-UP: the table's settings from the next hand. Another number of players is a new table."""
        base = settings_from_json(dict(settings_json))
        players = base.seat_count or self.table_players
        if players != self.table_players:
            self.table_players = players
            self.balances = [self.start_balance] * players
            self.leader = 0
        self.base = replace(base, players=None, balances=None, room_owner=min(base.room_owner, players - 1))

    def settings_json(self) -> dict[str, Any]:
        """The table's settings as SET-UP shows and saves them (the number of players included)."""
        return {**self.base.to_json(), "players": self.table_players}

    # ---- inputs ------------------------------------------------------------------------------------------
    def command(self, name: str, **params: Any) -> None:
        self.alert = None
        base, _, argument = name.partition(":")
        handler = getattr(self, "_cmd_" + base, None)
        if handler is None:
            self.alert = Msg("alert.unknown_command", {"command": name})
            return
        if argument:
            params = {**params, "seat": int(argument)}
        try:
            handler(**params)
        except InputError as error:
            self.alert = Msg("alert.illegal", {"error": renumbered(refusal(error), self.seats)})

    def on_button(self, button: str) -> None:
        if button == "SHAKE":
            self.command("start")
        elif button == "CONFIRM":
            self.command("play" if self.phase is Phase.PLAYING else "confirm")
        elif button == "NEXT":
            self.command("next")
        elif button == "VOID":
            self.command("void", reason="dealer pressed VOID on the panel")

    def on_table(
        self, reads: Mapping[str, Sequence[CardRead]], frame: Any = None, taken_at: float | None = None
    ) -> None:
        """The camera's stable reads: the centre (plays) and each seat's zone (the cards shown at the end)."""
        self.seen_frame = frame
        self.places.update(reads)
        self.stale &= {read.card for read in self.places.cards(CENTRE)}  # an old card taken away is no longer old

    def tick(self) -> None:
        hand = self.hand
        if self.phase is not Phase.PLAYING or hand is None or hand.turn is None or self.timer_ran_out:
            return
        if self.clock.monotonic() - self.turn_since >= hand.turn_timer_s:
            if hand.leading:  # the timer lays his single: the dealer puts it down, PLAY records it
                self.timer_ran_out = True
                self.alert = Msg("sl.timer_lays", {"player": self.seats[hand.turn]})
            else:
                self.command("timeout")

    # ---- commands ----------------------------------------------------------------------------------------
    def _cmd_start(self) -> None:
        if self.phase not in (Phase.READY, Phase.CLOSED, Phase.VOIDED):
            raise Refused(Msg("sl.refused.finish_first"))
        if self.phase is not Phase.READY:
            self._reset()
        seats = dealt_in(self.balances, self.base.bet)
        if len(seats) < MIN_PLAYERS:
            raise Refused(Msg("sl.refused.too_few", {"bet": self.base.bet}))
        leader = next(s for s in (*range(self.leader, self.table_players), *range(self.leader)) if s in seats)
        settings = replace(self.base, players=len(seats), balances=tuple(self.balances[s] for s in seats),
                           room_owner=0)
        hand = TableState(settings, TableDeal.of(len(seats), seats.index(leader)))
        deal: dict[str, Any] = dict(hand.deal.to_json())
        if seats != tuple(range(self.table_players)):
            deal["seats"] = list(seats)  # the table seats dealt in, in play order (the others sit out)
        self.round_id = self.journal.begin_round("samloc", settings, deal)
        self.hand, self.seats = hand, seats
        self.phase = Phase.PLAYING
        self.turn_since = self.clock.monotonic()
        self.stale = {read.card for read in self.places.cards(CENTRE)}  # what lay there before the hand is no play
        self.places.forget_fixes()  # last hand's corrections (the losers' cards entered by hand) are not this one's

    def _cmd_correct(self, zone: str, index: int, card: Card | None) -> None:
        """The card picker: the card in slot ``index`` of ``zone`` is ``card`` (None: no card there)."""
        if self.phase not in (Phase.PLAYING, Phase.SHOWING):
            raise Refused(Msg("sl.refused.not_playing"))
        if zone == CENTRE and index < len(self._new_reads()):
            index = self.places.cards(CENTRE).index(self._new_reads()[index])
        elif zone == CENTRE:
            index = len(self.places.cards(CENTRE))
        correction = self.places.correct(zone, index, card)
        self.journal.append(CardsCorrected(zone=zone, before=tuple(map(str, correction.before)),
                                           after=tuple(map(str, correction.after)), by=self.dealer,
                                           reason="corrected on the card picker"))

    def _cmd_play(self, cards: Sequence[Card] | None = None) -> None:
        hand = self._playing()
        reads: tuple[CardRead, ...] = ()
        if cards is None:
            reads = self._new_reads()
            if not reads:
                raise Refused(Msg("sl.refused.no_cards"))
            if any(read.doubtful for read in reads):
                raise Refused(Msg("sl.refused.camera_unsure"))
            cards = [read.card for read in reads]
        seat = hand.turn
        assert seat is not None
        cards = list(cards)
        if self.timer_ran_out:
            hand.verify_timeout(seat, cards)
        else:
            hand.verify_play(seat, cards)
        with self._step():
            if reads:
                self._record_reads(CENTRE, reads)
            record = hand.timeout(seat, cards) if self.timer_ran_out else hand.play(seat, cards)
            self._record(record)

    def _cmd_pass(self) -> None:
        hand = self._playing()
        assert hand.turn is not None
        hand.verify_pass(hand.turn)
        with self._step():
            self._record(hand.pass_(hand.turn))

    def _cmd_timeout(self) -> None:
        hand = self._playing()
        assert hand.turn is not None
        if hand.leading:
            self.timer_ran_out = True
            self.alert = Msg("sl.timer_lays", {"player": self.seats[hand.turn]})
            return
        with self._step():
            self._record(hand.timeout(hand.turn))

    def _cmd_declare_sam(self, seat: int | None = None) -> None:
        hand = self._playing()
        in_hand = hand.turn if seat is None else self._hand_seat(seat)
        assert in_hand is not None
        hand.verify_declare_sam(in_hand)
        with self._step():
            self._record(hand.declare_sam(in_hand))

    def _cmd_claim_instant(self, seat: int) -> None:
        """Tới trắng: ``seat`` (a table seat) claims an instant win on the deal; he shows his 10 cards."""
        hand = self._open_hand()
        in_hand = self._hand_seat(seat)
        hand.verify(ClaimInstant(in_hand))
        with self._step():
            self._record(hand.claim_instant(in_hand))

    def _cmd_show(self) -> None:
        """The cards each loser laid face up, as read (and corrected): recorded, then the hand is settled."""
        if self.phase is not Phase.SHOWING or self.hand is None:
            raise Refused(Msg("sl.refused.nothing_to_show"))
        hand = self.hand
        places = self._show_places()
        if any(read.doubtful for place in places for read in place.cards):
            raise Refused(Msg("sl.refused.show_unsure"))
        wrong = [place for place in places if len(place.cards) != place.expected]
        if wrong and not self.show_warned:  # the first CONFIRM warns; a second records what lies there
            self.show_warned = True
            first = wrong[0]
            raise Refused(Msg("sl.refused.show_count", {
                "player": int(first.zone.removeprefix("seat")) - 1, "count": len(first.cards),
                "expected": first.expected}))
        assert self.round_id is not None
        with self._step():
            for place in places:
                in_hand = self._hand_seat(int(place.zone.removeprefix("seat")) - 1)
                self._record_reads(place.zone, place.cards)
                self.journal.record_action(self.round_id, hand.show(in_hand, [read.card for read in place.cards]))
            self._settle()

    def _cmd_confirm(self, supervisor: str | None = None) -> None:
        """Close the hand once paid. A held settlement (violations) needs a supervisor, who releases it."""
        if self.phase is Phase.SHOWING:
            self._cmd_show()
            return
        if self.phase is not Phase.RESULTS or self.hand is None or self.round_id is None:
            raise Refused(Msg("sl.refused.nothing_to_confirm"))
        settlement = self.hand.settle()
        if settlement.held and not supervisor:
            raise Refused(Msg("sl.refused.held"))
        with self.journal.step():
            if settlement.held:
                self.journal.append(Note(text=f"{len(settlement.violations)} violation(s) looked at; the settlement "
                                         "held for them is released", by=str(supervisor)))
            self.journal.close_round(self.round_id, self._as_table(settlement), confirmed_by=supervisor or self.dealer)
        for seat, net in settlement.nets.items():
            self.balances[self.seats[seat]] += net
        self.leader = self.seats[self.hand.next_leader()]
        self.phase = Phase.CLOSED

    def _cmd_void(self, reason: str) -> None:
        if self.round_id is None or self.phase in (Phase.CLOSED, Phase.VOIDED, Phase.READY):
            raise Refused(Msg("sl.refused.no_hand_open"))
        self.journal.void_round(self.round_id, by=self.dealer, reason=reason)
        self.void_reason = reason
        self.phase = Phase.VOIDED

    def _cmd_next(self) -> None:
        if self.phase not in (Phase.CLOSED, Phase.VOIDED):
            raise Refused(Msg("sl.refused.confirm_or_void"))
        self._reset()

    # ---- helpers -----------------------------------------------------------------------------------------
    def _playing(self) -> TableState:
        if self.phase is not Phase.PLAYING or self.hand is None:
            raise Refused(Msg("sl.refused.not_playing"))
        return self.hand

    def _open_hand(self) -> TableState:
        if self.phase not in (Phase.PLAYING, Phase.SHOWING) or self.hand is None:
            raise Refused(Msg("sl.refused.not_playing"))
        return self.hand

    def _hand_seat(self, seat: int) -> int:
        if seat not in self.seats:
            raise Refused(Msg("sl.refused.sits_out", {"player": seat}))
        return self.seats.index(seat)

    def _new_reads(self) -> tuple[CardRead, ...]:
        """What lies in the centre that nobody has played yet this hand (nor lay there before it)."""
        hand = self.hand
        return tuple(read for read in self.places.cards(CENTRE)
                     if read.card not in self.stale and (hand is None or hand.played_by(read.card) is None))

    def _must_show(self) -> list[int]:
        """The hand seats that lay their cards face up: an instant win's claimers (their 10), else every seat
        left holding cards; those that have shown already are done."""
        hand = self.hand
        if hand is None or hand.outcome is None:
            return []
        seats = list(hand.claims) if hand.claims else [s for s in range(hand.players) if hand.cards_left(s)]
        return [seat for seat in sorted(seats) if hand.shown[seat] is None]

    def _show_places(self) -> tuple[PlaceView, ...]:
        hand = self.hand
        if hand is None or self.phase is not Phase.SHOWING:
            return ()
        places = []
        for seat in self._must_show():
            zone = seat_zone(self.seats[seat])
            cards = self.places.cards(zone)
            expected = 10 if hand.claims else hand.cards_left(seat)
            problem = None
            if any(read.doubtful for read in cards):
                problem = Msg("read.low_confidence")
            elif len(cards) != expected:
                problem = Msg("read.too_few" if len(cards) < expected else "read.too_many",
                              {"count": len(cards), "expected": expected})
            places.append(PlaceView(zone, Msg("sl.shows", {"player": self.seats[seat]}), cards, expected, problem))
        return tuple(places)

    def _record_reads(self, zone: str, reads: Sequence[CardRead]) -> None:
        """What the camera read (and the dealer corrected) for an action, on record with its evidence frame."""
        seen = getattr(self, "seen_frame", None)
        frame = boxes = None
        if seen is not None and hasattr(seen, "store"):
            frame = seen.store(self.journal)
            boxes = seen.boxes(zone, [r.read_as if r.corrected else r.card for r in reads])
        self.journal.append(CardsRead(zone=zone, cards=tuple(str(r.card) for r in reads),
                                      confidences=tuple(r.confidence for r in reads), frame=frame,
                                      boxes=boxes or ()))

    @contextmanager
    def _step(self) -> Iterator[None]:
        """One step's writes together or none; when they are not recorded the hand goes back to the journal's."""
        hand, done = self.hand, len(self.hand.history) if self.hand is not None else 0
        try:
            with self.journal.step():
                yield
        except BaseException:
            if hand is not None and len(hand.history) != done:
                from engine.samloc import replay

                actions = [record.to_json() for record in hand.history[:done]]
                self.hand = replay(hand.settings, hand.deal, actions)  # type: ignore[assignment]
            raise

    def _record(self, record: Any) -> None:
        assert self.round_id is not None and self.hand is not None
        self.journal.record_action(self.round_id, record)
        if isinstance(record, Passed):  # the turn moved on without a play: the cards laid or picked for this player
            self.stale |= {read.card for read in self._new_reads()}  # are not the next one's (he takes them back)
        self.turn_since = self.clock.monotonic()
        self.timer_ran_out = False
        if self.hand.is_over:
            self.phase = Phase.SHOWING
            self.show_warned = False
            if not self._must_show():
                self._settle()

    def _settle(self) -> None:
        assert self.hand is not None and self.round_id is not None
        settlement = self.hand.settle()
        lines = [renumbered(payment.reason, self.seats) for payment in settlement.payments]
        lines += [renumbered(violation.message, self.seats) for violation in settlement.violations]
        self.journal.show_results(self.round_id, self._as_table(settlement), lines)  # written first, then shown
        self.phase = Phase.RESULTS

    def _as_table(self, settlement: Any) -> dict[str, Any]:
        """A settlement as the journal keeps it: payments and nets naming the table's seats (the hand's seats
        differ from them when a seat sat out)."""
        seats = self.seats
        return {
            "payments": [{"from": seats[int(p.payer)], "to": seats[int(p.payee)], "amount": p.amount,
                          "reason": str(renumbered(p.reason, seats))} for p in settlement.payments],
            "nets": {str(seats[int(party)]): net for party, net in settlement.nets.items()},
        }

    # ---- resume after a restart --------------------------------------------------------------------------
    def resume(self, open_round: OpenRound) -> None:
        """Take up the hand the journal found open, by replaying its actions (the cards shown included)."""
        from engine.samloc import replay

        self._reset()
        settings = settings_from_json(open_round.settings)
        hand = replay(settings, open_round.deal, list(open_round.actions))
        if not isinstance(hand, TableState):  # a hand dealt by an older kiosk: void it to go on
            self.round_id = open_round.round_id
            self.phase = Phase.PLAYING
            self.alert = Msg("sl.refused.old_hand", {"round": open_round.round_id})
            return
        self.hand = hand
        self.seats = _seats_of(open_round.deal, self.table_players)
        self.round_id = open_round.round_id
        if open_round.step == "results_shown":
            self.phase = Phase.RESULTS
        elif hand.is_over:
            self.phase = Phase.SHOWING
        else:
            self.phase = Phase.PLAYING
        self.turn_since = self.clock.monotonic()  # a resumed turn has its full time
        self.journal.resume_round(open_round.round_id)
        self.alert = Msg("alert.resumed", {"round": open_round.round_id})

    # ---- output ------------------------------------------------------------------------------------------
    @property
    def round_open(self) -> bool:
        """A round is under way: the game or the table may not change until it is closed or voided."""
        return self.round_id is not None and self.phase.value not in ("closed", "voided", "ready")

    def view(self) -> SamLocView:
        hand = self.hand
        seats = self.seats
        settled = hand is not None and self.phase in (Phase.RESULTS, Phase.CLOSED)
        settlement = hand.settle() if settled and hand is not None else None
        nets = {seats[s]: net for s, net in settlement.nets.items()} if settlement is not None else {}
        players = []
        in_play = dealt_in(self.balances, self.base.bet) if hand is None else seats
        for seat in range(self.table_players):
            index = seats.index(seat) if hand is not None and seat in seats else None
            players.append(PlayerView(
                seat=seat,
                cards_left=hand.cards_left(index) if hand is not None and index is not None else 0,
                balance=self.balances[seat],
                to_act=bool(hand and index is not None and hand.turn == index and self.phase is Phase.PLAYING),
                passed=bool(hand and index in hand.passed),
                declared_sam=bool(hand and index is not None and hand.declarer == index),
                bao1=bool(hand and index is not None and hand.cards_left(index) == 1 and not hand.is_over),
                net=nets.get(seat) if settlement is not None else None,
                sitting_out=seat not in in_play,
                claimed=bool(hand and index in hand.claims),
            ))
        seconds_left = None
        if hand is not None and self.phase is Phase.PLAYING and hand.turn is not None and not self.timer_ran_out:
            seconds_left = max(0, int(hand.turn_timer_s - (self.clock.monotonic() - self.turn_since) + 0.999))
        new = self._new_reads() if self.phase is Phase.PLAYING else ()
        problem = Msg("read.low_confidence") if any(r.doubtful for r in new) else None
        centre = PlaceView(CENTRE, Msg("common.centre"), new, len(new) + 1, problem)  # one slot more: add a card
        payments: tuple[Msg, ...] = ()
        if settlement is not None:
            payments = tuple(
                Msg("sl.payment", {"payer": seats[int(p.payer)], "payee": seats[int(p.payee)], "amount": p.amount,
                                   "reason": renumbered(p.reason, seats)})
                for p in settlement.payments
            )
        return SamLocView(
            prompt=self._prompt(),
            alert=self.alert,
            commands=self._commands(),
            round_id=self.round_id,
            phase=self.phase,
            players=tuple(players),
            turn=seats[hand.turn] if hand is not None and hand.turn is not None else None,
            seconds_left=seconds_left,
            timer_ran_out=self.timer_ran_out,
            top=hand.top.cards if hand and hand.top else (),
            top_text=hand.top.describe() if hand and hand.top else "",
            top_seat=seats[hand.top_seat] if hand is not None and hand.top_seat is not None else None,
            centre=centre,
            shows=self._show_places(),
            log=tuple(renumbered(record.describe(), seats) for record in (hand.history[-6:] if hand else ())),
            payments=payments,
            violations=tuple(renumbered(v.message, seats) for v in settlement.violations) if settlement else (),
            held=bool(settlement is not None and settlement.held),
            bet=self.base.bet,
            mode=self.base.mode,
            timer_s=self.base.turn_timer_s,
            seats=seats,
        )

    def _prompt(self) -> Msg:
        hand = self.hand
        if self.phase is Phase.READY:
            return Msg("sl.prompt.start", {"player": self.leader})
        if self.phase is Phase.PLAYING and hand is not None and hand.turn is not None:
            if self.timer_ran_out:
                return Msg("sl.timer_lays", {"player": self.seats[hand.turn]})
            return Msg("sl.turn", {"player": self.seats[hand.turn]})
        if self.phase is Phase.SHOWING:
            return Msg("sl.prompt.show")
        if self.phase is Phase.RESULTS:
            held = hand is not None and hand.settle().held
            return Msg("sl.prompt.held" if held else "sl.prompt.results")
        if self.phase is Phase.CLOSED:
            return Msg("bb.prompt.closed")
        if self.phase is Phase.VOIDED:
            return Msg("bb.prompt.voided", {"reason": self.void_reason})
        return Msg("sl.prompt.start", {"player": self.leader})

    def _commands(self) -> tuple[Command, ...]:
        hand = self.hand
        playing = self.phase is Phase.PLAYING and hand is not None
        claims_open = bool(hand is not None and self.phase in (Phase.PLAYING, Phase.SHOWING) and hand._claims_open())
        return (
            Command("start", Msg("common.start"), self.phase in (Phase.READY, Phase.CLOSED, Phase.VOIDED)),
            Command("play", Msg("sl.play"), playing),
            Command("pass", Msg("sl.pass"), bool(playing and hand is not None and not hand.leading
                                                 and not self.timer_ran_out)),
            Command("declare_sam", Msg("sl.declare_sam"),
                    bool(playing and hand is not None and hand.can_declare_sam_now())),
            Command("claim_instant", Msg("sl.claim_instant"), claims_open),
            Command("confirm", Msg("button.confirm"), self.phase in (Phase.SHOWING, Phase.RESULTS)),
            Command("void", Msg("button.void"),
                    self.round_id is not None and self.phase in (Phase.PLAYING, Phase.SHOWING, Phase.RESULTS)),
        )


def _seats_of(deal: Any, table_players: int) -> tuple[int, ...]:
    """The table seats a journaled hand dealt in, in play order (all of them unless its deal names them)."""
    if isinstance(deal, Mapping):
        seats = deal.get("seats")
        if isinstance(seats, list) and all(isinstance(s, int) for s in seats):
            return tuple(seats)
        players = deal.get("players")
        if isinstance(players, int):
            return tuple(range(players))
        hands = deal.get("hands")
        if isinstance(hands, list):
            return tuple(range(len(hands)))
    return tuple(range(table_players))


__all__ = ["CENTRE", "Phase", "PlayerView", "SamLocController", "SamLocView", "Settings", "renumbered", "seat_zone"]
