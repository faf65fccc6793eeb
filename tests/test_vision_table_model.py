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


def test_the_shipped_model_reads_a_synthetic_round_into_its_places() -> None:
    source = SyntheticTableSource(load_layout(), size=(1920, 1080), deck="five-card-draw", seed=1)
    for zone, cards in ROUND.items():
        source.place(zone, cards)
    table = TableReader(source, settings=StabilitySettings(frames_to_place=2, frames_to_remove=2))
    for _ in range(3):
        snapshot = table.step()
    assert snapshot.problem is None
    wrong = {
        zone: [str(c) for c in snapshot.cards_in(zone)]
        for zone, cards in ROUND.items()
        if set(snapshot.cards_in(zone)) != set(parse_cards(cards))
    }
    assert not wrong, f"read differently: {wrong}"
    assert not snapshot.off_zone
    assert all(not snapshot.cards_in(zone) for zone in load_layout().zone_names if zone not in ROUND)
