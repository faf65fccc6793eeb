"""End to end with the shipped model: cards placed on the synthetic table are read into their zones.

Skipped only while ``models/`` holds no model (before the card reader's first model is committed).
"""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from vision.layout import load_layout
from vision.reader_models import DEFAULT_MODEL_DIR, MANIFEST
from vision.sources import SyntheticTableSource
from vision.stability import StabilitySettings
from vision.table_reader import TableReader

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (DEFAULT_MODEL_DIR / MANIFEST).exists(), reason="no card-reader model in models/ yet"),
]

ROUND = {
    "house.high": "KH QS",
    "house.low": "5D 4C",
    "seat2.high": "AS 9S",
    "seat3.low": "2H 3H",
    "seat5.high": "JD 10C",
    "seat7.low": "6S 7C",
}


def test_the_shipped_model_puts_every_card_of_a_round_in_its_place() -> None:
    """Geometry end to end with the real model: each place holds as many cards as were laid there, nothing lands
    outside, empty places stay empty. (Which card each one is, is the model's accuracy: ``bench/vision_table.py``
    and the reader's own tests measure it.)"""
    source = SyntheticTableSource(load_layout(), size=(1920, 1080), deck="five-card-draw", seed=1)
    for zone, cards in ROUND.items():
        source.place(zone, cards)
    table = TableReader(source, settings=StabilitySettings(frames_to_place=1, frames_to_remove=1))
    snapshot = table.step()
    assert snapshot.problem is None
    counts = {zone: len(snapshot.zone(zone).cards) for zone in load_layout().zone_names}
    assert counts == {zone: len(parse_cards(ROUND.get(zone, ""))) for zone in load_layout().zone_names}
    assert not snapshot.off_zone
    right = sum(len(set(parse_cards(cards)) & set(snapshot.cards_in(zone))) for zone, cards in ROUND.items())
    print(f"cards named right: {right} of {sum(len(parse_cards(c)) for c in ROUND.values())}")
