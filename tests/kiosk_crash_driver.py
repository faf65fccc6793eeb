"""A Bài Bửu round played through the kiosk's round controller on a real journal, for the crash tests.

    python tests/kiosk_crash_driver.py DATA_DIR [--kill-after N]

It starts as the kiosk starts (open the journal, recover, take up the open round with ``BaiBuuController.resume``)
and plays on as a dealer would to the round's close: a re-shake, the dice, the house hand set wrong and then right,
a card corrected on the picker, the seats, the results. With ``--kill-after N`` it SIGKILLs itself at its N-th
write point: right after an event is written inside a step that is not committed yet, or right after a commit.
It prints ``resumed PHASE`` when it took up an open round (``nothing open`` when the round was closed already),
``closed ROUND`` at the close and ``points N`` (the write points it passed) when it stops by itself.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.baibuu import Settings
from engine.cards import parse_cards
from journal import Journal
from journal.clock import SystemClock
from kiosk.controller.baibuu import BaiBuuController
from kiosk.controller.baibuu_view import Phase
from kiosk.controller.view import CardRead

DICE = (3, 5, 6)
HOUSE_RIGHT = {"house.high": "AD 8S", "house.low": "QH 4C"}
HOUSE_WRONG = {"house.high": "QH 8S", "house.low": "AD 4C"}
SEATS = {"seat2.high": "KH KS", "seat2.low": "5D 4H", "seat3.high": "2C 3D", "seat3.low": "9C 9D",
         "seat5.high": "7S 7H", "seat5.low": "JD 10C"}


class WritePoints:
    """The journal's connection, counting write points and dying at the chosen one."""

    def __init__(self, connection: Any, journal: Journal, kill_after: int | None) -> None:
        self._connection = connection
        self._journal = journal
        self.kill_after = kill_after
        self.passed = 0
        self._written = False  # an event inserted in the transaction under way

    def execute(self, sql: str, *args: Any) -> Any:
        result = self._connection.execute(sql, *args)
        verb = sql.lstrip()[:8].upper()
        if verb.startswith("INSERT"):
            self._written = True
            if getattr(self._journal, "_in_step", False):
                self._point()
        elif verb.startswith("COMMIT") and self._written:  # not the commit that ends a read (the check at start)
            self._written = False
            self._point()
        elif verb.startswith("ROLLBACK"):
            self._written = False
        return result

    def _point(self) -> None:
        self.passed += 1
        if self.passed == self.kill_after:
            os.kill(os.getpid(), signal.SIGKILL)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)


def reads(cards: dict[str, str], doubt: str | None = None) -> dict[str, tuple[CardRead, ...]]:
    return {zone: tuple(CardRead(card, 0.4, frozenset({"low_confidence"})) if str(card) == doubt else CardRead(card)
                        for card in parse_cards(text)) for zone, text in cards.items()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path)
    parser.add_argument("--kill-after", type=int)
    args = parser.parse_args()
    clock = SystemClock()
    journal = Journal.open(args.data / "journal.sqlite3", args.data / "kiosk.key", kiosk_id="K1", table_id="T1",
                           clock=clock)
    points = WritePoints(journal._conn, journal, args.kill_after)
    journal._conn = points  # type: ignore[assignment]
    recovery = journal.recover()
    if not recovery.sound:
        print("unsound", recovery.problem, flush=True)
        return 3
    controller = BaiBuuController(Settings(seats=(2, 3, 5), min_bet=10), journal, clock, lambda: 1, default_bet=100,
        confirm_repeat_s=0,  # a manual clock that never moves: CONFIRMs in a row are meant
    )
    if recovery.open_round is not None:
        controller.resume(recovery.open_round)
        print("resumed", controller.phase.value, flush=True)
    elif journal.round_ids():  # the round was closed before the stop: nothing to finish
        journal.close()
        print("nothing open", flush=True)
        return 0
    reshaken = house_tried = False
    for _ in range(40):
        phase = controller.phase
        if phase is Phase.CLOSED:
            print("closed", controller.round_id, flush=True)
            break
        if phase is Phase.VOIDED:
            print("voided", controller.void_reason, flush=True)
            break
        if phase is Phase.READY:
            controller.command("shake")
        elif phase is Phase.SHAKING:
            if controller.pending_shake is None:
                controller.command("shake")
            elif not reshaken:
                controller.command("reshake")
                reshaken = True
            else:
                controller.on_dice(controller.pending_shake, DICE)
        elif phase is Phase.HOUSE:
            if not house_tried:  # set wrong, a card read unsure: flagged, then corrected on the picker
                controller.on_table(reads(HOUSE_WRONG))
                controller.on_table(reads(HOUSE_RIGHT, doubt="4C"))
                controller.command("correct", zone="house.low", index=1, card=parse_cards("4C")[0])
                house_tried = True
            controller.on_table(reads(HOUSE_RIGHT))
            controller.command("confirm")
        elif phase is Phase.SEATS:
            controller.on_table(reads({**HOUSE_RIGHT, **SEATS}))
            controller.command("confirm")
        elif phase is Phase.RESULTS:
            controller.command("confirm")
    else:
        print("stuck", controller.phase.value, controller.alert, flush=True)
        return 2
    journal.close()
    print("points", points.passed, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
