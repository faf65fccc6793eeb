"""The reader's next guesses for a card reach the dealer's card picker: the reader names them (likeliest first, the
card itself never among them), the table's stable cards keep them, and the kiosk's camera hands them to the
screen with each card it reads."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

import numpy as np

from engine.cards import parse_card, parse_cards
from vision.reader import next_guesses
from vision.stability import Stabilizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_vision_table_stability import LAYOUT, at, feed, seen


def test_the_next_guesses_are_the_likeliest_other_cards() -> None:
    cards = tuple(parse_cards("AS 2S 3S 4S 5S"))
    probabilities = np.array([0.60, 0.005, 0.25, 0.10, 0.045], np.float32)
    assert next_guesses(probabilities, 0, cards) == tuple(parse_cards("3S 4S 5S"))
    assert next_guesses(probabilities, 2, cards) == tuple(parse_cards("AS 4S 5S"))
    assert next_guesses(np.array([1.0, 0, 0, 0, 0], np.float32), 0, cards) == ()


def test_a_stable_card_keeps_the_guesses_of_its_surest_reading() -> None:
    stabilizer = Stabilizer(LAYOUT)
    guesses = tuple(parse_cards("KS KD"))
    unsure = dataclasses.replace(seen("KH", *at("house.high"), confidence=0.6, flags=["low_confidence"]),
                                 alternatives=guesses)
    for frame in range(3):
        feed(stabilizer, [unsure], frame * 0.1)
    (card,) = stabilizer.snapshot().zones["house.high"].cards
    assert card.card == parse_card("KH") and card.alternatives == guesses


def test_the_kiosk_camera_hands_the_guesses_to_the_screen() -> None:
    from journal.clock import SystemClock
    from kiosk.adapters import Camera
    from kiosk.config import load_config
    from vision.placed_reader import PlacedReader

    camera = Camera(load_config(None), SystemClock(), read=lambda frame: reader(frame))
    reader = PlacedReader(camera.source)
    try:
        camera.source.place("house.high", "KH QH")
        reader.guesses[parse_card("KH")] = tuple(parse_cards("KS KD"))
        camera.start()
        deadline = time.monotonic() + 20
        reads: dict[str, object] = {}
        while time.monotonic() < deadline and len(reads.get("house.high", ())) < 2:  # type: ignore[arg-type]
            reads = dict(camera.state().reads)
            time.sleep(0.05)
        by_card = {read.card: read for read in reads["house.high"]}  # type: ignore[attr-defined]
        assert by_card[parse_card("KH")].alternatives == tuple(parse_cards("KS KD"))
        assert by_card[parse_card("QH")].alternatives == ()
    finally:
        camera.close()
