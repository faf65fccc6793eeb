"""The kiosk wired up (synthetic camera read in its thread, simulated shaker on its pty, journal on disk), a few
rounds in a row as ``bench/kiosk.py`` plays them: the last round's cards leave the felt and the new ones arrive
between two frames, and no card is ever shown sure and wrong; after NEXT ROUND and SHAKE at once the house places
are empty when the dice come, and CONFIRM is off."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.baibuu import house_way
from engine.cards import Card, shuffled, standard_deck
from journal import JournalReader
from kiosk.config import load_config
from kiosk.controller.baibuu_view import Phase
from kiosk.runtime import KioskRuntime
from vision.placed_reader import PlacedReader

HOUSE = ("house.high", "house.low")


def pump(runtime: KioskRuntime, condition: Callable[[], bool], timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runtime.tick()
        if condition():
            return True
        time.sleep(0.01)
    return False


def deal(number: int, seats: tuple[int, ...]) -> dict[str, list[Card]]:
    deck = shuffled(standard_deck(), 500 + number)
    split = house_way(deck[:4])
    truth = {"house.high": list(split.high.cards), "house.low": list(split.low.cards)}
    for index, seat in enumerate(seats):
        cards = deck[4 + 4 * index : 8 + 4 * index]
        truth[f"seat{seat}.high"], truth[f"seat{seat}.low"] = list(cards[:2]), list(cards[2:])
    return truth


@pytest.mark.slow
def test_rounds_in_a_row_show_no_card_of_the_last_round(tmp_path: Path) -> None:
    holder: dict[str, PlacedReader] = {}
    runtime = KioskRuntime(
        load_config(None), tmp_path / "data", read=lambda frame: holder["r"](frame) if "r" in holder else [],
        demo_seed=2,
    )
    holder["r"] = PlacedReader(runtime.camera.source)
    runtime.demo = None  # the test lays the cards
    controller, source = runtime.controller, runtime.camera.source
    controller.confirm_repeat_s = 0  # CONFIRMs pressed by a script faster than a dealer could: each is meant
    counts = {"right": 0, "flagged": 0, "wrong": 0}
    houses = []

    def places(zones: list[str]) -> dict[str, tuple]:  # type: ignore[type-arg]
        return {name: controller.places.cards(name) for name in zones}

    def count(zones: list[str], truth: dict[str, list[Card]]) -> None:
        assert pump(runtime, lambda: all(len(cards) >= 2 for cards in places(zones).values())), controller.view()
        for name, cards in places(zones).items():
            for read in cards:
                kind = "flagged" if read.doubtful else "right" if read.card in truth[name] else "wrong"
                counts[kind] += 1

    try:
        links = runtime.devices.links
        assert pump(runtime, lambda: links["shaker"].health.value == "ok")
        for number in range(3):
            truth = deal(number, controller.table_settings.seats)
            if number == 1:  # NEXT ROUND, then SHAKE at once, the felt cleared: nothing to confirm at the dice
                source.clear_all()
                controller.command("next")
                controller.command("shake")
                assert pump(runtime, lambda: controller.phase is Phase.HOUSE)
                view = controller.view()
                assert view.house_high is not None and view.house_high.cards == () and view.house_set_ok is None
                assert not any(c.name == "confirm" and c.enabled for c in view.commands)
            else:  # the old cards leave and the new ones arrive between two frames, as in bench/kiosk.py
                if number:
                    controller.command("next")
                source.clear_all()
                controller.command("manual_dice", dice=(1, 2, number + 1))
            for name in HOUSE:
                source.place(name, truth[name])
            count(list(HOUSE), truth)
            assert pump(runtime, lambda: controller.view().house_set_ok is True), controller.view()
            controller.command("confirm")
            seats = [name for name in truth if name.startswith("seat")]
            for name in seats:
                source.place(name, truth[name])
            count(seats, truth)
            assert pump(runtime, lambda: any(c.name == "confirm" and c.enabled for c in controller.view().commands))
            controller.command("confirm")
            controller.command("confirm")
            assert controller.phase is Phase.CLOSED, controller.view().alert
            houses.append(sorted(map(str, truth["house.high"] + truth["house.low"])))
    finally:
        runtime.close()
    assert counts == {"right": 3 * 28, "flagged": 0, "wrong": 0}
    with JournalReader.open(tmp_path / "data" / "journal.sqlite3", tmp_path / "data" / "kiosk.key") as reader:
        opened = [sorted(e.payload["action"]["cards"]) for e in reader.entries(kinds=["action_recorded"])
                  if e.payload["action"]["kind"] == "reveal_house"]
    assert opened == houses  # each round's own house hand on record


def test_the_table_reader_forgets_at_the_shake_and_reads_no_frame_asked_for_before_it() -> None:
    from engine.cards import parse_cards
    from kiosk.clock import ManualClock
    from vision.sources import SyntheticTableSource
    from vision.table_reader import ReadView, TableReader

    clock = ManualClock()
    source = SyntheticTableSource(clock=clock, size=(1280, 720), noise=0)
    reader = TableReader(source, read=source.perfect_read, view=ReadView("frame"), clock=clock)

    def frames(count: int) -> None:
        for _ in range(count):
            clock.advance(0.1)
            reader.step()

    source.place("house.high", "AD 8S")
    frames(3)
    assert reader.snapshot.cards_in("house.high") == tuple(parse_cards("AD 8S"))
    reader.forget()  # the shake: the cards lying there count again only once read again for 3 frames
    assert reader.snapshot.cards_in("house.high") == ()
    frames(2)
    assert reader.snapshot.cards_in("house.high") == ()
    frames(1)
    assert reader.snapshot.cards_in("house.high") == tuple(parse_cards("AD 8S"))
    assert reader.snapshot.taken_at is not None and reader.snapshot.taken_at >= clock.monotonic() - 0.1
    reader.forget(since=clock.monotonic() + 1.0)  # frames asked for before the shake are not read into the table
    frames(5)
    assert reader.snapshot.cards_in("house.high") == ()
    frames(8)
    assert reader.snapshot.cards_in("house.high") == tuple(parse_cards("AD 8S"))
