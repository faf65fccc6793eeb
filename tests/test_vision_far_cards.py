"""Cards far from a low-resolution camera, smaller at the detector's input than it learnt cards, are read again
from the frame enlarged (``ReaderSettings.far_cards``), their boxes in the frame's own pixels."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from tests.vision_helpers import cards_in_a_row
from vision.reader import CardReader, ReaderSettings
from vision.reader_models import DEFAULT_MODEL_DIR

CARDS = ("QH", "7C", "10S", "AD", "KS")


def _webcam_frame() -> object:
    """A 640 x 360 webcam frame of five cards 32 px wide: read at 320 px they come to 16 px across (the detector
    that learnt real designs close up boxes none at 14 px, models/README.md)."""
    return cards_in_a_row(3, CARDS, size=(640, 360), first_x=80.0, step=120.0, width=32.0)


def test_far_cards_are_read_surely_once_the_frame_is_seen_bigger() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="known"))
    read = reader.read(_webcam_frame())
    assert sorted(str(d.card) for d in read) == sorted(CARDS)
    assert not any(d.flags for d in read)
    for d in read:  # each box where its card lies in the 640 x 360 frame: 32 x 45 px, centred on the row
        x1, y1, x2, y2 = d.box
        assert 24 <= x2 - x1 <= 36 and 34 <= y2 - y1 <= 50 and abs((y1 + y2) / 2 - 180) <= 4


def test_without_the_rule_the_same_far_cards_are_missed_or_read_in_doubt() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="known", far_cards=0.0))
    assert sum(not d.flags for d in reader.read(_webcam_frame())) <= 3


@pytest.mark.parametrize(("cards", "target", "enlarge"), [(-1.0, 50.0, 2.0), (40.0, 30.0, 2.0), (32.0, 50.0, 1.0),
                                                           (32.0, 2000.0, 2.0), (32.0, 50.0, 5.0)])
def test_far_settings_out_of_range_are_refused(cards: float, target: float, enlarge: float) -> None:
    with pytest.raises(InputError, match="far_cards"):
        ReaderSettings(far_cards=cards, far_target=target, far_enlarge=enlarge)
