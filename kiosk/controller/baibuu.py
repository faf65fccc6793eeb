"""The Bài Bửu round as the dealer lives it: shake → dice → house hand → house way → seats → results → close.

Plain Python, no Kivy. Inputs: commands (screen or button panel), dice events, the camera's reads per place.
Output: ``view()``, a frozen ``BaiBuuView``. Every action goes through the engine (``engine.baibuu.State``) and into
the journal *before* the screen shows what it caused; when the journal refuses a write, nothing is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from engine.baibuu import HandClass, Settings, State, TwoCardHand, house_way, replay
from engine.baibuu.actions import upgrade
from engine.cards import Card
from engine.clock import Clock
from engine.common import IllegalAction
from engine.errors import InputError
from journal import Entry, Journal, OpenRound
from journal.events import CardsCorrected, CardsRead, DiceReshaken, DiceRolled, HouseSplitShown, Note
from kiosk.controller.baibuu_view import BaiBuuView, DiceView, HouseWayView, Phase, SeatView
from kiosk.controller.places import PlaceReads, cards_seen_twice, place_problem
from kiosk.controller.view import CardRead, Command, PlaceView, Refused
from kiosk.evidence import EvidenceFrame
from kiosk.i18n import TEXTS, Msg

SHAKE_TIMEOUT_S = 8.0
CONFIRM_REPEAT_S = 1.0
"""A CONFIRM this soon after one that moved the round on is the same press twice (screen and panel, or a bounce):
ignored, so it never acts on the step that follows."""
Shaker = Callable[[], "int | None"]
"""Starts a shake and returns its id, or None when the shaker is offline."""


def zone(position: int, hand: str) -> str:
    """The layout's zone for a hand (``vision.layout.hand_zone`` names them the same way)."""
    return f"house.{hand}" if position == 1 else f"seat{position}.{hand}"


class BaiBuuController:
    def __init__(
        self,
        settings: Settings,
        journal: Journal,
        clock: Clock,
        shaker: Shaker | None = None,
        default_bet: int | None = None,
        shake_timeout_s: float = SHAKE_TIMEOUT_S,
        dealer: str = "dealer",
        table_reset: Callable[[float], None] | None = None,
        confirm_repeat_s: float = CONFIRM_REPEAT_S,
    ) -> None:
        """``table_reset(since)`` tells the camera that a round was shaken at ``since`` (the clock's monotonic
        seconds): it forgets what it held as placed, and reads the felt afresh from frames taken from then on."""
        self.table_settings = settings
        self.journal = journal
        self.clock = clock
        self.shaker = shaker
        self.shake_timeout_s = shake_timeout_s
        self.confirm_repeat_s = confirm_repeat_s
        self.dealer = dealer
        self.table_reset = table_reset
        self.last_hands: dict[int, frozenset[Card]] = previous_hands(journal)
        """Position → the four cards it held last round (1: the house): a hand seen again is flagged."""
        self.default_bet = default_bet if default_bet is not None else settings.min_bet
        self.bets: dict[int, int] = dict.fromkeys(settings.seats, self.default_bet)
        self.places = PlaceReads()
        self.seen_frame: EvidenceFrame | None = None
        """The camera frame the latest reads came from: the evidence kept with the readings journaled."""
        self.listeners: list[Callable[[BaiBuuView], None]] = []
        self._new_round_state()

    def _new_round_state(self) -> None:
        self.phase = Phase.READY
        self.state: State | None = None
        self.round_id: int | None = None
        self.alert: Msg | None = None
        self.pending_shake: int | None = None
        self.shake_deadline: float | None = None
        self.shakes = 0
        self.void_reason: str | None = None
        self.shown_split: tuple[Card, ...] | None = None
        self.flagged_set: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self.epoch: float | None = None
        """When this round was shaken (clock monotonic seconds): only frames taken since count for it."""
        self.repeats_warned: frozenset[tuple[int, frozenset[Card]]] = frozenset()
        """Last round's hands the dealer was warned of at CONFIRM: a second CONFIRM accepts them."""
        self.places.clear()
        self.seen_frame = None  # a new round cites no frame of the last one
        self.confirmed_at: float | None = None
        """When the last CONFIRM that moved the round on was taken (clock monotonic seconds)."""

    # ---- settings ------------------------------------------------------------------------------------------
    def apply_settings(self, settings: Settings, default_bet: int | None = None) -> None:
        """New table settings take effect from the next round (refused while a round is open)."""
        if self.round_id is not None and self.phase not in (Phase.CLOSED, Phase.VOIDED):
            raise Refused(Msg("setup.round_open"))
        self.table_settings = settings
        if default_bet is not None:
            self.default_bet = default_bet
        self.bets = {seat: self.bets.get(seat, self.default_bet) for seat in settings.seats}

    # ---- inputs ------------------------------------------------------------------------------------------
    def command(self, name: str, **params: Any) -> None:
        """A command from the screen or the button panel. Problems become the alert line, never an exception."""
        if name == "confirm" and self._confirm_repeated():
            return
        self.alert = None
        try:
            handler = getattr(self, "_cmd_" + name)
        except AttributeError:
            self.alert = Msg("alert.unknown_command", {"command": name})
            return
        try:
            handler(**params)
        except Refused as refusal:
            self.alert = refusal.msg
        except InputError as error:  # IllegalAction, JournalError, bad bets: show, keep the round as it was
            self.alert = Msg("alert.illegal", {"error": reason_of(error)})

    def on_button(self, button: str) -> None:
        """A press on the serial button panel: SHAKE, CONFIRM, NEXT, VOID (VOID on the panel gives no reason)."""
        mapping = {"SHAKE": "shake", "CONFIRM": "confirm", "NEXT": "next", "VOID": "void"}
        name = mapping.get(button)
        if name == "shake" and self.phase is Phase.SHAKING:
            name = "reshake"
        if name == "void":
            self.command("void", reason="dealer pressed VOID on the panel")
        elif name is not None:
            self.command(name)

    def on_table(
        self, reads: Mapping[str, Sequence[CardRead]], frame: EvidenceFrame | None = None,
        taken_at: float | None = None,
    ) -> None:
        """The camera's stable reads; ``taken_at``: when the frame they come from was asked for (monotonic seconds).

        A hand counts for a round only when read after that round's shake: before it the places stay empty, and a
        reading from a frame taken before it is not this round's (the old cards may just have left the felt)."""
        if self.phase in (Phase.READY, Phase.SHAKING):
            return
        if taken_at is not None and self.epoch is not None and taken_at < self.epoch:
            return
        self.seen_frame = frame
        self.places.update(reads)
        try:
            self._note_house_split()
        except InputError as error:  # not journaled: tried again at the next reading, the dealer told meanwhile
            self.alert = Msg("alert.illegal", {"error": reason_of(error)})
        if self.alert is not None and self._alert_cause_gone(self.alert):
            self.alert = None

    def on_dice(self, shake_id: int, values: tuple[int, int, int]) -> None:
        if self.phase is not Phase.SHAKING or shake_id != self.pending_shake:
            return  # a late result of a shake given up on: ignore it
        self.alert = None
        try:
            self._roll(values, manual=False)
        except InputError as error:
            self.alert = Msg("alert.illegal", {"error": reason_of(error)})

    def on_dice_fault(self, shake_id: int, reason: str, message: str) -> None:
        if self.phase is not Phase.SHAKING or shake_id != self.pending_shake:
            return
        self.pending_shake = None
        self.shake_deadline = None
        self._journal_event(DiceReshaken(reason=reason, raw=message))
        worded = f"dice_fault.{reason.lower()}"  # the shaker's own message is English: on record, not on screen
        self.alert = Msg("alert.dice_fault", {"reason": Msg(worded) if worded in TEXTS else reason})

    def tick(self) -> None:
        if self.shake_deadline is not None and self.clock.monotonic() > self.shake_deadline:
            self.pending_shake = None
            self.shake_deadline = None
            self._journal_event(DiceReshaken(reason="no result from the shaker in time"))
            self.alert = Msg("alert.shaker_timeout")

    # ---- commands ----------------------------------------------------------------------------------------
    def _cmd_shake(self) -> None:
        if self.phase not in (Phase.READY, Phase.SHAKING):
            raise IllegalAction("the dice are already rolled this round")
        if self.phase is Phase.SHAKING and self.pending_shake is not None:
            return  # already shaking
        self._begin_round()
        self.phase = Phase.SHAKING
        self._shake()

    def _cmd_reshake(self) -> None:
        if self.phase is not Phase.SHAKING:
            raise IllegalAction("the dice are already rolled this round")
        self._journal_event(DiceReshaken(reason="dealer asked"))
        self._shake()

    def _shake(self) -> None:
        self._read_afresh()
        shake_id = self.shaker() if self.shaker is not None else None
        if shake_id is None:
            self.pending_shake = None
            self.shake_deadline = None
            self.alert = Msg("alert.shaker_offline")
            return
        self.shakes += 1
        self.pending_shake = shake_id
        self.shake_deadline = self.clock.monotonic() + self.shake_timeout_s

    def _cmd_manual_dice(self, dice: Sequence[int]) -> None:
        if self.phase not in (Phase.READY, Phase.SHAKING):
            raise IllegalAction("the dice are already rolled this round")
        State(self.table_settings).verify_roll(list(dice), True)  # refuse a 7 before a round is begun for it
        self._read_afresh()
        with self._step():
            self._begin_round()
            self._roll(tuple(dice), manual=True)  # type: ignore[arg-type]

    def _cmd_bet(self, seat: int, amount: int) -> None:
        if seat not in self.table_settings.seats:
            raise IllegalAction(f"seat {seat} is not in use at this table")
        if amount == 0:
            if self.phase is not Phase.READY:
                raise IllegalAction("a seat can sit out only before the shake")
        else:
            problem = self.table_settings.check_bet(amount)
            if problem:
                raise IllegalAction(problem)
            if self.bets.get(seat, 0) == 0 and self.phase is not Phase.READY:
                raise IllegalAction("a seat can join only before the shake")
            if self.state is not None and seat in self.state.seats:
                raise IllegalAction(f"seat {seat} is already settled this round")
        self.bets[seat] = amount

    def _cmd_correct(self, zone: str, index: int, card: Card | None) -> None:
        if self.phase in (Phase.RESULTS, Phase.CLOSED, Phase.VOIDED):
            raise IllegalAction("the results are recorded: void the round to change a card")
        correction = self.places.correct(zone, index, card)
        self._journal_event(
            CardsCorrected(
                zone=zone,
                before=tuple(map(str, correction.before)),
                after=tuple(map(str, correction.after)),
                by=self.dealer,
                reason="corrected on the card picker",
            )
        )
        self._note_house_split()

    def _cmd_confirm(self) -> None:
        if self.phase is Phase.HOUSE:
            self._confirm_house()
        elif self.phase is Phase.SEATS:
            self._confirm_seats()
        elif self.phase is Phase.RESULTS:
            assert self.state is not None and self.round_id is not None
            self.journal.close_round(self.round_id, self.state.settle(), confirmed_by=self.dealer)
            self.phase = Phase.CLOSED
        else:
            raise IllegalAction("nothing to confirm now")
        self.confirmed_at = self.clock.monotonic()

    def _confirm_repeated(self) -> bool:
        return self.confirmed_at is not None and self.clock.monotonic() - self.confirmed_at < self.confirm_repeat_s

    def _alert_cause_gone(self, alert: Msg) -> bool:
        """An alert about what lies on the felt clears by itself once the felt no longer shows it (the seat's cards
        read, the doubt resolved); any other alert stays until the next command."""
        key = alert.key
        if key == "alert.seats_incomplete":
            return self.phase is not Phase.SEATS or not self._seat_problems()
        if key == "alert.house_incomplete":
            high, low = self._house_cards()
            return self.phase is not Phase.HOUSE or (len(high) == 2 and len(low) == 2)
        if key == "alert.house_wrong_set":
            return self.phase is not Phase.HOUSE or self._house_check()[1] is not False
        if key == "alert.read_problem":
            return not self._any_doubt()
        if key == "alert.last_round":
            return not self._repeats(self._open_positions())
        return False

    def _cmd_void(self, reason: str) -> None:
        if self.round_id is None or self.phase in (Phase.CLOSED, Phase.VOIDED):
            raise IllegalAction("no round is open")
        self.journal.void_round(self.round_id, by=self.dealer, reason=reason)
        self.void_reason = reason
        self.phase = Phase.VOIDED
        self.pending_shake = None
        self.shake_deadline = None

    def _cmd_next(self) -> None:
        if self.phase not in (Phase.CLOSED, Phase.VOIDED):
            raise IllegalAction("CONFIRM or VOID the round first")
        hands = hands_of(self.state) if self.state is not None else {}
        if hands:
            self.last_hands = hands
        self._new_round_state()

    # ---- the round's steps -------------------------------------------------------------------------------
    @contextmanager
    def _step(self) -> Iterator[None]:
        """One step of the round: its journal writes are recorded together or not at all (a crash half way
        included), and when they are not, the round goes back to what the journal holds."""
        round_id, state = self.round_id, self.state
        done = len(state.history) if state is not None else 0
        try:
            with self.journal.step():
                yield
        except BaseException:
            self.round_id = round_id
            if state is not None:
                self.state = replay(state.settings, state.deal_to_json(), [r.to_json() for r in state.history[:done]])
            else:
                self.state = None
            raise

    def _read_afresh(self) -> None:
        """The round's shake: the places empty, and only what the camera reads from now on counts for the round."""
        self.epoch = self.clock.monotonic()
        self.places.clear()
        if self.table_reset is not None:
            self.table_reset(self.epoch)

    def _begin_round(self) -> None:
        if self.round_id is not None:
            return
        in_play = tuple(seat for seat in self.table_settings.seats if self.bets.get(seat, 0) > 0)
        if not in_play:
            raise IllegalAction("no seat has a bet: give at least one seat a bet")
        settings = replace(self.table_settings, seats=in_play)
        state = State(settings)
        self.round_id = self.journal.begin_round("baibuu", settings, state.deal_to_json())
        self.state = state

    def _roll(self, dice: tuple[int, int, int], manual: bool) -> None:
        assert self.state is not None and self.round_id is not None
        self.state.verify_roll(list(dice), manual)
        with self._step():  # the shaker's result and the roll it makes are one step: a restart never shakes again
            if not manual:
                self._journal_event(DiceRolled(dice=dice, shake=max(1, self.shakes)))
            record = self.state.roll(list(dice), manual)
            self.journal.record_action(self.round_id, record)
        self.pending_shake = None
        self.shake_deadline = None
        self.phase = Phase.HOUSE

    def _house_cards(self) -> tuple[tuple[CardRead, ...], tuple[CardRead, ...]]:
        return self.places.cards(zone(1, "high")), self.places.cards(zone(1, "low"))

    def _note_house_split(self) -> None:
        """Journal each new house-way split before the screen shows it."""
        if self.phase is not Phase.HOUSE or self.round_id is None:
            return
        split = self._house_split()
        if split is None:
            return
        key = tuple(sorted(split.cards, key=Card.sort_key))
        if key != self.shown_split:
            self._journal_event(
                HouseSplitShown(high=tuple(split.high.to_json()), low=tuple(split.low.to_json()), rule=split.rule)
            )
            self.shown_split = key
        high, low = self._house_cards()
        felt = (tuple(str(r.card) for r in high), tuple(str(r.card) for r in low))
        wrong = len(high) == 2 and len(low) == 2 and not _same_set(split, [r.card for r in high], [r.card for r in low])
        if wrong and felt != self.flagged_set:
            # the supervisor's evidence: the house hand lay on the felt not set the house way
            self._journal_event(
                Note(
                    text=f"house hand set {' '.join(felt[0])} high, {' '.join(felt[1])} low: not the house way "
                    f"(high {split.high.cards_text}, low {split.low.cards_text}); flagged to the dealer",
                    by="kiosk",
                )
            )
            self.flagged_set = felt

    def _house_split(self) -> Any:
        high, low = self._house_cards()
        cards = [read.card for read in (*high, *low)]
        if len(cards) != 4 or len(set(cards)) != 4 or any(read.doubtful for read in (*high, *low)):
            return None
        try:
            return house_way(cards, self.table_settings.house_way)
        except InputError:
            return None

    def _confirm_house(self) -> None:
        assert self.state is not None and self.round_id is not None
        high, low = self._house_cards()
        reads = (*high, *low)
        if len(reads) != 4:
            raise Refused(Msg("alert.house_incomplete"))
        if any(read.doubtful for read in reads):
            raise Refused(Msg("alert.read_problem"))
        split = self._house_split()
        high_cards = [read.card for read in high]
        low_cards = [read.card for read in low]
        if split is None or not _same_set(split, high_cards, low_cards):
            raise Refused(Msg("alert.house_wrong_set"))
        cards = [read.card for read in reads]
        opened = self.state.house_cards  # opened already: a journal of old, stopped between opening and setting
        if opened is not None and set(opened) != set(cards):
            raise IllegalAction(f"the house hand was opened as {_text(opened)} before the kiosk stopped: lay those "
                                "four cards in the house places")
        accepted = self._check_repeats([1])
        with self._step():
            self._record_reads([zone(1, "high"), zone(1, "low")])
            self._note_accepted(accepted)
            if opened is None:
                self.journal.record_action(self.round_id, self.state.reveal_house(cards))
            self.journal.record_action(self.round_id, self.state.set_house(high_cards, low_cards))
        self.phase = Phase.SEATS

    def _confirm_seats(self) -> None:
        assert self.state is not None and self.round_id is not None
        state = self.state
        problems = self._seat_problems()
        if problems:
            seat, problem = problems[0]
            raise Refused(Msg("alert.seats_incomplete", {"seat": seat, "problem": problem}))
        plan = []
        for seat in state.waiting_seats:
            high = [read.card for read in self.places.cards(zone(seat, "high"))]
            low = [read.card for read in self.places.cards(zone(seat, "low"))]
            plan.append((seat, self.bets[seat], high, low))
        # Check every seat on a copy first, so a bad seat leaves no half-settled round behind.
        trial = state.copy()
        for seat, bet, high, low in plan:
            trial.set_seat(seat, bet, high, low)
        accepted = self._check_repeats([seat for seat, *_ in plan])
        with self._step():  # every seat and the results, or (a crash half way) none of them
            self._record_reads([zone(seat, hand) for seat, *_ in plan for hand in ("high", "low")])
            self._note_accepted(accepted)
            for seat, bet, high, low in plan:
                self.journal.record_action(self.round_id, state.set_seat(seat, bet, high, low))
            self._show_results()  # written first ...
        self.phase = Phase.RESULTS  # ... then shown

    def _show_results(self) -> None:
        assert self.state is not None and self.round_id is not None
        lines = [record.result.describe() for record in self.state.seats.values()]
        self.journal.show_results(self.round_id, self.state.settle(), lines)

    def _repeats(self, positions: Sequence[int]) -> dict[int, frozenset[Card]]:
        """Of ``positions`` (1: the house), those whose four cards on the felt were a hand last round: cards left
        lying from the last round, or a deck not shuffled. The dealer looks before they count."""
        last = set(self.last_hands.values())
        found = {}
        for position in positions:
            cards = frozenset(read.card for hand in ("high", "low") for read in self.places.cards(zone(position, hand)))
            if len(cards) == 4 and cards in last:
                found[position] = cards
        return found

    def _open_positions(self) -> list[int]:
        """The hands the next CONFIRM records: the house's, then the seats still waiting."""
        if self.state is None or self.phase not in (Phase.HOUSE, Phase.SEATS):
            return []
        return [1] if self.phase is Phase.HOUSE else list(self.state.waiting_seats)

    def _check_repeats(self, positions: Sequence[int]) -> dict[int, frozenset[Card]]:
        """A CONFIRM over hands the same as last round's: the first is refused with a warning, the next accepts
        them (returned, to be put on record with the step)."""
        repeats = self._repeats(positions)
        if not frozenset(repeats.items()) <= self.repeats_warned:
            self.repeats_warned = self.repeats_warned | frozenset(repeats.items())
            raise Refused(Msg("alert.last_round"))
        return repeats

    def _note_accepted(self, repeats: Mapping[int, frozenset[Card]]) -> None:
        for position, cards in sorted(repeats.items()):
            self._journal_event(
                Note(
                    text=f"{_place_name(position)} hand {_text(cards)} is the same as a hand of the last round "
                    "(cards left from it?); the dealer was warned and confirmed it",
                    by=self.dealer,
                )
            )

    def _seat_problems(self) -> list[tuple[int, Msg]]:
        assert self.state is not None
        twice = self._seen_twice()
        problems = []
        for seat in self.state.waiting_seats:
            for hand in ("high", "low"):
                problem = place_problem(self.places.cards(zone(seat, hand)), 2, twice)
                if problem is not None:
                    problems.append((seat, problem))
                    break
        return problems

    def _seen_twice(self) -> set[Card]:
        zones = [zone(1, "high"), zone(1, "low")]
        zones += [zone(seat, hand) for seat in self.table_settings.seats for hand in ("high", "low")]
        return cards_seen_twice(self.places.cards(z) for z in zones)

    def _record_reads(self, zones: Sequence[str]) -> None:
        seen = self.seen_frame
        frame = seen.store(self.journal) if seen is not None else None  # on disk before the events citing it
        for name in zones:
            reads = self.places.cards(name)
            # A corrected card lies where the reader read the card it replaced (a labelled example); one set by hand
            # has no box.
            boxes = seen.boxes(name, [r.read_as if r.corrected else r.card for r in reads]) if seen is not None else ()
            self._journal_event(
                CardsRead(
                    zone=name, cards=tuple(str(r.card) for r in reads), confidences=tuple(r.confidence for r in reads),
                    frame=frame, boxes=boxes,
                )
            )

    def _journal_event(self, event: Any) -> None:
        self.journal.append(event)

    # ---- resume after a restart --------------------------------------------------------------------------
    def resume(self, open_round: OpenRound) -> None:
        """Take up the round the journal found open: replay its actions and go back to the step it was at.

        The step is the journal's alone. Each step is written as one transaction, so a stop leaves it done or not
        begun; a journal of old may hold one half done, and it is completed here from what the journal says: the
        shaker's dice journaled without their roll (rolled now: the round never shakes twice), every seat set
        without the results shown (shown now, so a round is never paid on results nobody saw recorded). A house hand
        opened but not set is set by the next CONFIRM."""
        self._new_round_state()
        state = replay(open_round.settings, open_round.deal, list(open_round.actions))
        self.state = state
        self.round_id = open_round.round_id
        for record in state.seats.values():
            self.bets[record.seat] = record.bet
        for seat in self.table_settings.seats:
            if seat not in state.settings.seats:
                self.bets[seat] = 0
        with self._step():
            self.journal.resume_round(open_round.round_id)
            dice = unrolled_dice(open_round.entries) if state.assignment is None else None
            if dice is not None and state.can_roll(list(dice)):
                shown = " ".join(map(str, dice))
                self._journal_event(Note(f"the shaker's dice {shown} were journaled before the kiosk stopped: the "
                                         "round goes on with them", by="kiosk"))
                self.journal.record_action(self.round_id, state.roll(list(dice)))
            if state.is_over and open_round.step != "results_shown":
                self._journal_event(Note("every seat was set before the kiosk stopped: the results are shown now",
                                         by="kiosk"))
                self._show_results()
        if state.is_over:
            self.phase = Phase.RESULTS
        elif state.house is not None:
            self.phase = Phase.SEATS
        elif state.assignment is not None:
            self.phase = Phase.HOUSE
        else:
            self.phase = Phase.SHAKING
        self._read_afresh()  # the felt is read anew: nothing read before the stop is taken on trust
        self.alert = Msg("alert.resumed", {"round": open_round.round_id})

    # ---- output ------------------------------------------------------------------------------------------
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


def _text(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in sorted(cards, key=Card.sort_key))


def _place_name(position: int) -> str:
    return "house" if position == 1 else f"seat {position}"


def hands_of(state: State) -> dict[int, frozenset[Card]]:
    """The hands a round put on record, by position (1: the house)."""
    hands = {}
    if state.house_cards is not None:
        hands[1] = frozenset(state.house_cards)
    for seat, record in state.seats.items():
        hands[seat] = frozenset(record.hand.cards)
    return hands


def previous_hands(journal: Journal) -> dict[int, frozenset[Card]]:
    """The hands of the journal's last round before the open one, when that was a Bài Bửu round."""
    try:
        ids = [round_id for round_id in journal.round_ids() if round_id != journal.open_round_id]
        if not ids:
            return {}
        entries = list(journal.entries(round_id=ids[-1], kinds=["round_begun", "action_recorded"]))
        begun = entries[0].payload
        if begun.get("game") != "baibuu":
            return {}
        return hands_of(replay(begun["settings"], begun["deal"], [entry.payload["action"] for entry in entries[1:]]))
    except (InputError, KeyError, IndexError, TypeError):  # a round the engine refuses: nothing to compare with
        return {}


def unrolled_dice(entries: Iterable[Entry]) -> tuple[int, ...] | None:
    """The shaker's dice a round journaled and never rolled (a stop between the two, in a journal of old)."""
    dice: tuple[int, ...] | None = None
    for entry in entries:
        if entry.kind == "dice_rolled":
            dice = tuple(entry.payload["dice"])
        elif entry.kind == "dice_reshaken" or (
            entry.kind == "action_recorded" and upgrade(entry.payload["action"]).get("kind") == "roll"
        ):
            dice = None
    return dice


def reason_of(error: Exception) -> Any:
    """An error's reason as the screen words it: the engine's phrase when it gave one (so it shows in the dealer's
    language), else its text."""
    reason = error.args[0] if len(error.args) == 1 else None
    return reason if isinstance(reason, str) else str(error)
