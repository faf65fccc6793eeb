"""The demo croupier on the real synthetic table: a wrong house set is put right, seats are dealt from the deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.baibuu import Settings, house_way
from journal import Journal, JournalReader
from kiosk.clock import ManualClock
from kiosk.controller.baibuu import BaiBuuController
from kiosk.controller.view import CardRead
from kiosk.demo import LOOKS_BEFORE_FIX, DemoCroupier
from vision.sources import SyntheticTableSource


def demo_table(folder: Path) -> tuple[ManualClock, BaiBuuController, SyntheticTableSource]:
    """A Bài Bửu controller on a fresh journal, and the synthetic felt the croupier deals onto."""
    clock = ManualClock()
    journal = Journal.open(folder / "j", folder / "k", kiosk_id="K", table_id="T", clock=clock)
    journal.recover()
    controller = BaiBuuController(Settings(min_bet=10), journal, clock, lambda: None, default_bet=10,
        confirm_repeat_s=0,  # a manual clock that never moves: CONFIRMs in a row are meant
    )
    return clock, controller, SyntheticTableSource()


def test_the_croupier_sets_the_house_wrong_then_right_and_deals_every_seat(tmp_path: Path) -> None:
    clock, controller, table = demo_table(tmp_path)
    croupier = DemoCroupier(controller, table, clock.monotonic, seed=1, wrong_set_rate=1.0)

    def felt() -> dict[str, tuple[CardRead, ...]]:
        return {zone: tuple(CardRead(card) for card in cards) for zone, cards in table.placed.items()}

    croupier.tick()
    controller.command("manual_dice", dice=(2, 2, 2))
    croupier.tick()
    clock.advance(1.5)
    croupier.tick()
    controller.on_table(felt())
    assert controller.view().house_set_ok is False  # set wrong on purpose, so the check shows
    clock.advance(5)
    croupier.tick()
    controller.on_table(felt())
    view = controller.view()
    assert view.house_set_ok is True
    cards = [*table.placed["house.high"], *table.placed["house.low"]]
    assert set(house_way(cards).high.cards) == set(table.placed["house.high"])
    controller.command("confirm")
    croupier.tick()
    clock.advance(1.5)
    croupier.tick()
    placed = table.placed
    for seat in range(2, 8):
        assert len(placed[f"seat{seat}.high"]) == 2 and len(placed[f"seat{seat}.low"]) == 2
    all_cards = [card for cards in placed.values() for card in cards]
    assert len(all_cards) == len(set(all_cards)) == 28


def test_autoplay_fixes_what_the_screen_marks_unsure_and_the_fix_is_journaled(tmp_path: Path) -> None:
    clock, controller, table = demo_table(tmp_path)
    pressed: list[str] = []
    croupier = DemoCroupier(controller, table, clock.monotonic, press=pressed.append, seed=3, wrong_set_rate=0.0)
    controller.command("manual_dice", dice=(2, 2, 2))
    croupier.tick()
    clock.advance(1.5)
    croupier.tick()
    high, low = table.placed["house.high"], table.placed["house.low"]
    # The camera: the high place's first card read unsure, the low place's second card not seen at all.
    controller.on_table({"house.high": (CardRead(high[0], 0.4, frozenset({"low_confidence"})), CardRead(high[1])),
                         "house.low": (CardRead(low[0]),)})
    croupier.tick()
    clock.advance(2.5)
    croupier.tick()
    assert controller.view().house_high.cards[0].doubtful  # nothing judged before the camera took its frames
    for _ in range(LOOKS_BEFORE_FIX):
        table.read()
    croupier.tick()
    assert controller.view().house_way is None  # nothing fixed before the dealer had a look
    clock.advance(2.5)
    croupier.tick()  # the unsure card confirmed…
    assert controller.view().house_way is None  # …one fix per look: the low place still lacks a card
    croupier.tick()
    clock.advance(2.5)
    croupier.tick()  # the card the camera missed picked in
    view = controller.view()
    assert [r.card for r in view.house_high.cards] == list(high)
    assert [r.card for r in view.house_low.cards] == list(low)
    assert view.house_set_ok is True
    with JournalReader.open(tmp_path / "j", tmp_path / "k") as reader:
        corrections = [entry for entry in reader.entries() if entry.kind == "cards_corrected"]
    assert len(corrections) == 2


def test_at_four_times_a_dealers_pace_the_croupier_waits_a_quarter_as_long_but_still_for_the_camera(
        tmp_path: Path) -> None:
    clock, controller, table = demo_table(tmp_path)
    croupier = DemoCroupier(controller, table, clock.monotonic, press=lambda button: None, seed=1, wrong_set_rate=0.0,
                            pace=4)
    controller.command("manual_dice", dice=(2, 2, 2))
    croupier.tick()
    clock.advance(0.2)  # a dealer waits 1 s before laying the house cards: a quarter of it is not yet enough
    croupier.tick()
    assert "house.high" not in table.placed
    clock.advance(0.1)
    croupier.tick()
    high = table.placed["house.high"]
    # an unsure reading: at 4× it is fixed after 0.5 s of doubt, not 2 s, but only once the camera had its look
    controller.on_table({"house.high": (CardRead(high[0], 0.4, frozenset({"low_confidence"})), CardRead(high[1])),
                         "house.low": tuple(CardRead(card) for card in table.placed["house.low"])})
    clock.advance(1.0)
    croupier.tick()
    assert controller.view().house_high.cards[0].doubtful  # the camera has not taken its frames yet
    for _ in range(LOOKS_BEFORE_FIX):
        table.read()
    croupier.tick()
    clock.advance(0.5)
    croupier.tick()
    assert not controller.view().house_high.cards[0].doubtful
    with pytest.raises(ValueError, match="positive speed"):
        DemoCroupier(controller, table, clock.monotonic, pace=0)
