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

from engine.baibuu import Settings, State, house_way, replay
from engine.baibuu.actions import upgrade
from engine.cards import Card
from engine.clock import Clock
from engine.common import IllegalAction
from engine.errors import InputError
from journal import Entry, Journal, OpenRound
from journal.events import CardsCorrected, CardsRead, DiceReshaken, DiceRolled, HouseSplitShown, Note
from kiosk.controller.baibuu_screen import RoundScreen, _same_set, zone
from kiosk.controller.baibuu_view import BaiBuuView, Phase
from kiosk.controller.places import PlaceReads, cards_seen_twice, place_problem
from kiosk.controller.view import CardRead, Refused
from kiosk.evidence import EvidenceFrame
from kiosk.i18n import TEXTS, Msg

SHAKE_TIMEOUT_S = 8.0
CONFIRM_REPEAT_S = 1.0
"""A CONFIRM this soon after one that moved the round on is the same press twice (screen and panel, or a bounce):
ignored, so it never acts on the step that follows."""
Shaker = Callable[[], "int | None"]
"""Starts a shake and returns its id, or None when the shaker is offline."""


class BaiBuuController(RoundScreen):
    """The round's commands and steps; what the screen shows of it is ``RoundScreen``'s (``baibuu_screen``)."""

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
        self.commands: dict[str, Callable[..., None]] = {
            "shake": self.shake,
            "reshake": self.reshake,
            "manual_dice": self.manual_dice,
            "bet": self.bet,
            "correct": self.correct,
            "confirm": self.confirm,
            "void": self.void,
            "next": self.next_round,
        }
        """The screen's and the panel's commands by name: each a plain method below."""
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
        handler = self.commands.get(name)
        if handler is None:
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
    def shake(self) -> None:
        if self.phase not in (Phase.READY, Phase.SHAKING):
            raise IllegalAction("the dice are already rolled this round")
        if self.phase is Phase.SHAKING and self.pending_shake is not None:
            return  # already shaking
        self._begin_round()
        self.phase = Phase.SHAKING
        self._shake()

    def reshake(self) -> None:
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

    def manual_dice(self, dice: Sequence[int]) -> None:
        if self.phase not in (Phase.READY, Phase.SHAKING):
            raise IllegalAction("the dice are already rolled this round")
        State(self.table_settings).verify_roll(list(dice), True)  # refuse a 7 before a round is begun for it
        self._read_afresh()
        with self._step():
            self._begin_round()
            self._roll(tuple(dice), manual=True)  # type: ignore[arg-type]

    def bet(self, seat: int, amount: int) -> None:
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

    def correct(self, zone: str, index: int, card: Card | None) -> None:
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

    def confirm(self) -> None:
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

    def void(self, reason: str) -> None:
        if self.round_id is None or self.phase in (Phase.CLOSED, Phase.VOIDED):
            raise IllegalAction("no round is open")
        self.journal.void_round(self.round_id, by=self.dealer, reason=reason)
        self.void_reason = reason
        self.phase = Phase.VOIDED
        self.pending_shake = None
        self.shake_deadline = None

    def next_round(self) -> None:
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
