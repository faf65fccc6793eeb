"""Cards far from a low-resolution camera, smaller at the detector's input than it learnt cards, are detected again
bigger (``ReaderSettings.far_cards``)."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from tests.vision_helpers import cards_in_a_row
from vision.reader import CardReader, ReaderSettings
from vision.reader_models import DEFAULT_MODEL_DIR

CARDS = ("QH", "7C", "10S", "AD", "KS")


def _webcam_frame() -> object:
    """A 640 x 360 webcam frame of five cards 30 px wide: read at 320 px they come to 15 px across."""
    return cards_in_a_row(3, CARDS, size=(640, 360), first_x=80.0, step=120.0, width=30.0)


def test_far_cards_are_read_surely_once_the_frame_is_seen_bigger() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="known"))
    read = reader.read(_webcam_frame())
    assert sorted(str(d.card) for d in read) == sorted(CARDS)
    assert not any(d.flags for d in read)


def test_without_the_rule_the_same_far_cards_are_read_in_doubt() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="known", far_cards=0.0))
    assert sum(bool(d.flags) for d in reader.read(_webcam_frame())) >= 2


@pytest.mark.parametrize(("cards", "target", "largest"), [(-1.0, 50.0, 1280), (40.0, 30.0, 1280),
                                                           (32.0, 50.0, 16), (32.0, 2000.0, 1280)])
def test_far_settings_out_of_range_are_refused(cards: float, target: float, largest: int) -> None:
    with pytest.raises(InputError, match="far_cards"):
        ReaderSettings(far_cards=cards, far_target=target, far_max_input=largest)
