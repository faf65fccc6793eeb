"""A round's cards and steps are its own: what the camera read before the shake does not count, a hand equal to the
last round's is flagged, and a journal left half way through a step (by a kiosk of old) is taken up truthfully.

Real engine, real SQLite journal, a manual clock; the controller without Kivy."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine.baibuu import Settings, State
from engine.cards import parse_cards
from journal import Journal, JournalReader
from journal.events import CardsRead, DiceRolled
from journal.review import round_detail, summarize
from kiosk.cli import main
from kiosk.clock import ManualClock
from kiosk.controller.baibuu import BaiBuuController
from kiosk.controller.baibuu_view import Phase
from kiosk.controller.view import CardRead

ROUND_1 = {"house.high": "AD 8S", "house.low": "QH 4C", "seat2.high": "KH KS", "seat2.low": "5D 4H"}
ROUND_2 = {"house.high": "9D 6D", "house.low": "QD 4S", "seat2.high": "2C 3D", "seat2.low": "9C 7C"}


class Shaker:
    def __init__(self) -> None:
        self.shakes = 0

    def __call__(self) -> int:
        self.shakes += 1
        return self.shakes


def felt(cards: dict[str, str], *zones: str) -> dict[str, tuple[CardRead, ...]]:
    return {name: tuple(CardRead(c, 0.99) for c in parse_cards(text)) for name, text in cards.items()
            if not zones or name in zones}


def open_journal(folder: Path, clock: ManualClock) -> Journal:
    journal = Journal.open(folder / "j.sqlite3", folder / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert journal.recover().sound
    return journal


def new_controller(journal: Journal, clock: ManualClock, resets: list[float] | None = None) -> BaiBuuController:
    return BaiBuuController(Settings(seats=(2,), min_bet=10), journal, clock, Shaker(), default_bet=100,
                            table_reset=None if resets is None else resets.append, confirm_repeat_s=0)


def enabled(c: BaiBuuController) -> set[str]:
    return {command.name for command in c.view().commands if command.enabled}


def play(c: BaiBuuController, clock: ManualClock, cards: dict[str, str]) -> None:
    """One round from SHAKE to close, the camera reading ``cards`` after the dice."""
    c.command("shake")
    c.on_dice(c.pending_shake or 0, (3, 5, 6))
    clock.advance(0.5)
    c.on_table(felt(cards, "house.high", "house.low"), taken_at=clock.monotonic())
    c.command("confirm")
    c.command("confirm")  # a second press accepts a hand the first one warned of
    clock.advance(0.5)
    c.on_table(felt(cards), taken_at=clock.monotonic())
    c.command("confirm")
    c.command("confirm")
    c.command("confirm")
    assert c.phase is Phase.CLOSED, c.view().alert


def test_cards_read_before_the_shake_do_not_count_for_the_round(tmp_path: Path) -> None:
    clock = ManualClock()
    resets: list[float] = []
    c = new_controller(open_journal(tmp_path, clock), clock, resets)
    play(c, clock, ROUND_1)
    c.command("next")
    c.on_table(felt(ROUND_1), taken_at=clock.monotonic())  # last round's cards still lie there before the shake
    assert all(not seat.high.cards for seat in c.view().seats)
    clock.advance(0.1)
    frame_before_shake = clock.monotonic()
    clock.advance(0.1)
    c.command("shake")
    assert len(resets) == 2 and resets[-1] == clock.monotonic()  # the camera was told at each round's shake
    c.on_dice(c.pending_shake or 0, (1, 2, 3))
    # a frame taken just before the shake, read after the dice: the old cards, which have left the felt since
    c.on_table(felt(ROUND_1), taken_at=frame_before_shake)
    view = c.view()
    assert view.house_high is not None and view.house_high.cards == () and view.house_set_ok is None
    assert "confirm" not in enabled(c)
    c.command("confirm")
    assert c.phase is Phase.HOUSE
    clock.advance(0.3)
    c.on_table(felt(ROUND_2, "house.high", "house.low"), taken_at=clock.monotonic())
    view = c.view()
    assert view.house_high is not None and [str(r.card) for r in view.house_high.cards] == ["9D", "6D"]
    assert view.house_set_ok is True and "confirm" in enabled(c)


def test_a_hand_equal_to_the_last_rounds_is_flagged_confirmed_twice_and_shown_in_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = ManualClock()
    journal = open_journal(tmp_path, clock)
    c = new_controller(journal, clock)
    play(c, clock, ROUND_1)
    c.command("next")
    journal.close()
    journal = open_journal(tmp_path, clock)  # a restart between the rounds: the last round is read from the journal
    c = new_controller(journal, clock)
    c.command("shake")
    c.on_dice(c.pending_shake or 0, (3, 5, 6))
    clock.advance(0.5)
    c.on_table(felt(ROUND_1, "house.high", "house.low"), taken_at=clock.monotonic())  # read after the shake
    view = c.view()
    assert view.house_high is not None and view.house_high.problem is not None
    assert view.house_high.problem.key == "read.last_round"
    assert view.alert is not None and view.alert.key == "alert.last_round"
    c.command("confirm")
    assert c.phase is Phase.HOUSE and c.view().alert.key == "alert.last_round"  # the first CONFIRM only warns
    c.command("confirm")
    assert c.phase is Phase.SEATS
    round_id = c.round_id
    assert round_id is not None
    with JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key") as reader:
        notes = [e.payload["text"] for e in reader.entries(round_id=round_id, kinds=["note"])]
        assert any("house hand AD 4C 8S QH is the same as a hand of the last round" in n for n in notes), notes
        c.command("void", reason="test")
        detail = round_detail(reader, round_id)
        first = round_detail(reader, round_id - 1)
    assert detail.flags == ("the house hand 4C 8S AD QH is the house hand of round 1: cards left on the felt from it?",)
    assert first.flags == ()
    where = ["--db", str(tmp_path / "j.sqlite3"), "--key", str(tmp_path / "k.key")]
    for command in (["show", str(round_id)], ["recall", "--count", "1"]):  # what a supervisor reads
        main(["logs", *command, *where])
        out = " ".join(capsys.readouterr().out.split())
        assert "FLAG the house hand 4C 8S AD QH is the house hand of round 1" in out, out


def test_steps_half_done_in_a_journal_of_old_are_taken_up_truthfully(tmp_path: Path) -> None:
    """The three crash points of the old kiosk, written as it wrote them, then resumed by this one."""
    clock = ManualClock()
    settings = Settings(seats=(2,), min_bet=10)
    folders = {name: tmp_path / name for name in ("dice", "house", "results")}
    for name, folder in folders.items():
        journal = open_journal(folder, clock)
        state = State(settings)
        round_id = journal.begin_round("baibuu", settings, state.deal_to_json())
        journal.append(DiceRolled(dice=(3, 5, 6), shake=1))
        if name != "dice":  # killed between the dice and the roll: nothing more
            journal.record_action(round_id, state.roll([3, 5, 6]))
            journal.append(CardsRead("house.high", ("AD", "8S"), (0.99, 0.99)))
            journal.append(CardsRead("house.low", ("QH", "4C"), (0.99, 0.99)))
            journal.record_action(round_id, state.reveal_house(parse_cards("AD 8S QH 4C")))
        if name == "results":  # killed after the last seat, before results_shown
            journal.record_action(round_id, state.set_house(parse_cards("AD 8S"), parse_cards("QH 4C")))
            journal.record_action(round_id, state.set_seat(2, 100, parse_cards("KH KS"), parse_cards("5D 4H")))
        journal.close(None)

    for name, folder in folders.items():
        journal = open_journal(folder, clock)
        open_round = journal.recover().open_round
        assert open_round is not None
        c = new_controller(journal, clock)
        c.resume(open_round)
        if name == "dice":  # rolled with the journaled dice: never shaken again
            assert c.phase is Phase.HOUSE and c.state is not None and c.state.assignment is not None
            assert c.state.assignment.dice.values == (3, 5, 6)
            assert "shake" not in enabled(c)
        if name == "house":  # CONFIRM sets the house hand that was opened, instead of refusing
            c.on_table(felt(ROUND_1, "house.high", "house.low"))
            c.command("confirm")
            assert c.phase is Phase.SEATS, c.view().alert
        if name == "results":  # the results are recorded as shown before anything is paid on them
            assert c.phase is Phase.RESULTS
        while c.phase is not Phase.CLOSED:
            c.on_table(felt(ROUND_1))
            c.command("confirm")
        journal.close()
        with JournalReader.open(folder / "j.sqlite3", folder / "k.key") as reader:
            assert reader.verify().ok
            kinds = [e.kind for e in reader.entries(round_id=1)]
            assert kinds.count("dice_rolled") == 1 and kinds.count("results_shown") == 1, kinds
            assert kinds.index("results_shown") < kinds.index("round_settled")
            detail = round_detail(reader, 1, summarize(reader))
            assert detail.replayed.agrees_with_settled and detail.replayed.agrees_with_shown
            assert detail.flags == ()


class RefusingConnection:
    """The journal's connection, refusing its ``fail_at``-th event insert as a full disk would."""

    def __init__(self, connection: Any, fail_at: int) -> None:
        self._connection = connection
        self.fail_at = fail_at
        self.inserts = 0

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().upper().startswith("INSERT"):
            self.inserts += 1
            if self.inserts == self.fail_at:
                raise sqlite3.OperationalError("database or disk is full")
        return self._connection.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


@pytest.mark.parametrize("fail_at", range(1, 15))  # each event insert of the round refused in turn, then none
def test_a_write_refused_inside_a_step_leaves_the_round_as_the_journal_holds_it(tmp_path: Path, fail_at: int) -> None:
    folder = tmp_path
    clock = ManualClock()
    journal = open_journal(folder, clock)
    journal._conn = RefusingConnection(journal._conn, fail_at)  # type: ignore[assignment]
    c = new_controller(journal, clock)
    for _ in range(20):
        if c.phase is Phase.CLOSED:
            break
        if c.phase in (Phase.READY, Phase.SHAKING):
            if c.pending_shake is None:
                c.command("shake")
            else:
                c.on_dice(c.pending_shake, (3, 5, 6))
        else:
            c.on_table(felt(ROUND_1))
            c.command("confirm")
        recorded = [e.payload["action"] for e in journal.entries(kinds=["action_recorded"])]
        shown = [record.to_json() for record in c.state.history] if c.state is not None else []
        assert shown == recorded  # what the screen shows is what the journal holds, after a refusal too
    assert c.phase is Phase.CLOSED
    kinds = [e.kind for e in journal.entries(round_id=c.round_id)]
    assert kinds.count("dice_rolled") == 1 and kinds.count("results_shown") == 1 and journal.verify().ok
