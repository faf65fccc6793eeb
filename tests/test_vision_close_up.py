"""A card photographed close up, bigger at the detector's input than it learnt cards, is detected again smaller."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from engine.errors import InputError
from tests.vision_helpers import cards_in_a_row
from vision.detection import iou
from vision.reader import CardReader, ReaderSettings
from vision.reader_models import DEFAULT_MODEL_DIR


def test_a_card_close_up_is_boxed_whole_and_read_surely() -> None:
    width = 450.0  # a QH filling two-thirds of a 1280 x 960 phone photo's height
    photo = cards_in_a_row(5, ("QH",), size=(1280, 960), first_x=640.0, width=width)
    card_box = (640 - width / 2, 480 - width * 0.7, 640 + width / 2, 480 + width * 0.7)
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="known"))
    read = reader.read(photo)
    assert [str(d.card) for d in read] == [str(parse_card("QH"))]
    assert iou(read[0].box, card_box) >= 0.8 and not read[0].flags


@pytest.mark.parametrize(("cards", "target"), [(-1.0, 64.0), (100.0, 0.0), (100.0, 120.0), (2000.0, 64.0)])
def test_close_up_settings_out_of_range_are_refused(cards: float, target: float) -> None:
    with pytest.raises(InputError, match="close_up"):
        ReaderSettings(close_up_cards=cards, close_up_target=target)
