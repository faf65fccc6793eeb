"""The three table controllers keep one contract (``TableController``): the same tests run on each, with a real
journal and the engines; and the journal gate stops play at every table, not only Bài Bửu's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.baibuu import Settings
from journal import Journal
from kiosk.clock import ManualClock
from kiosk.controller.baibuu import BaiBuuController
from kiosk.controller.samloc import SamLocController
from kiosk.controller.schmier import SchmierController
from kiosk.controller.table import DiceTable, GatedTable, TableController
from kiosk.controller.view import ScreenView
from kiosk.i18n import Msg


class Shaker:
    def __init__(self) -> None:
        self.shakes = 0

    def __call__(self) -> int:
        self.shakes += 1
        return self.shakes


def _journal(folder: Path, clock: ManualClock) -> Journal:
    journal = Journal.open(folder / "j.sqlite3", folder / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert journal.recover().sound
    return journal


TABLES: dict[str, Callable[[Journal, ManualClock], Any]] = {
    "baibuu": lambda journal, clock: BaiBuuController(Settings(seats=(2, 3), min_bet=10), journal, clock, Shaker(),
                                                      default_bet=100),
    "samloc": lambda journal, clock: SamLocController({"bet": 10}, journal, clock, seed=3),
    "schmier": lambda journal, clock: SchmierController({}, journal, clock, seed=3),
}


def _start(table: Any) -> None:
    """SHAKE on the panel starts a round at every table (Bài Bửu's then waits for the dice)."""
    table.on_button("SHAKE")
    if isinstance(table, DiceTable):
        table.on_dice(1, (3, 5, 6))


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_table_keeps_the_contract(game: str, tmp_path: Path) -> None:
    clock = ManualClock()
    journal = _journal(tmp_path, clock)
    table = TABLES[game](journal, clock)
    assert isinstance(table, TableController)
    view = table.view()
    assert isinstance(view, ScreenView) and view.round_id is None and not table.round_open
    table.on_button("NO SUCH BUTTON")  # the panel's unknown buttons change nothing
    table.command("no_such_command")
    assert table.view().alert is not None and table.round_id is None
    table.on_table({}, frame=None, taken_at=clock.monotonic())
    table.tick()
    _start(table)
    assert table.round_id is not None and table.round_open
    assert table.view().round_id == table.round_id
    round_id = table.round_id
    journal.close()

    # a stop: the journal holds the round open, and a new controller picks it up where it was
    journal = _journal(tmp_path, clock)
    open_round = journal.recover().open_round
    assert open_round is not None and open_round.game == game and open_round.round_id == round_id
    again = TABLES[game](journal, clock)
    again.resume(open_round)
    assert again.round_id == round_id and again.round_open
    again.command("void", reason="test: the round is voided")
    assert not again.round_open
    journal.close()


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_journal_that_failed_its_check_stops_every_table(game: str, tmp_path: Path) -> None:
    clock = ManualClock()
    journal = _journal(tmp_path, clock)
    reason: list[Msg | None] = [Msg("sup.verify_bad", {"error": "event 7 was altered"})]
    table = GatedTable(TABLES[game](journal, clock), lambda: reason[0])
    table.on_button("SHAKE")
    table.command("void", reason="anything")
    view = table.view()
    assert view.alert == reason[0] and view.commands and not any(command.enabled for command in view.commands)
    assert view.prompt.key == "gate.stopped"  # no "Press SHAKE" while nothing can be pressed
    assert table.controller.round_id is None
    reason[0] = None  # the journal is sound again: play resumes
    table.on_button("SHAKE")
    assert table.controller.round_id is not None
    journal.close()
