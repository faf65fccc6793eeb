"""Photos read together: the first ones are read again once the deck's familiarity is counted over all of them."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import parse_card
from vision.photo_batch import read_photos
from vision.reader import CardReader
from vision.reader_models import DEFAULT_MODEL_DIR
from vision.synth.faces import FIVE_CARD_DRAW, load_deck, paste_card
from vision.synth.textures import felt

HANDS = (("AS", "QD", "7H"), ("3C", "KH", "9S"), ("5D", "JC", "10H"), ("2S", "8D", "4C"))


def _photo(seed: int, cards: tuple[str, ...]) -> np.ndarray:
    """Cards of a deck the card classifier trained on, lying apart on a felt."""
    faces = load_deck(FIVE_CARD_DRAW)
    frame = felt(np.random.default_rng(seed), (1280, 720))
    for k, text in enumerate(cards):
        cx, cy, w = 250.0 + 380.0 * k, 360.0, 130.0
        corners = np.float32([[cx - w / 2, cy - w * 0.7], [cx + w / 2, cy - w * 0.7], [cx + w / 2, cy + w * 0.7],
                              [cx - w / 2, cy + w * 0.7]])
        paste_card(frame, faces[parse_card(text)], corners)
    return frame


@pytest.fixture(scope="module")
def photos() -> list[np.ndarray]:
    return [_photo(seed, hand) for seed, hand in enumerate(HANDS)]


def test_photos_read_before_the_deck_was_known_are_read_again_as_the_batch_settled(photos) -> None:  # type: ignore[no-untyped-def]
    alone = CardReader(DEFAULT_MODEL_DIR).read(photos[0])  # a fresh reader doubts the face of the first photo

    batch = CardReader(DEFAULT_MODEL_DIR)
    read = dict(read_photos(batch, range(len(photos)), photos.__getitem__))
    assert batch.deck_familiar()  # four photos of a deck it knows

    settled = CardReader(DEFAULT_MODEL_DIR)
    settled.familiarity.restore(batch.familiarity.snapshot())
    assert read[0] == settled.read(photos[0])
    assert read[0] != alone
    assert sorted(str(d.card) for d in read[0]) == sorted(str(parse_card(t)) for t in HANDS[0])


def test_the_count_a_batch_leaves_is_the_one_reading_the_photos_once_leaves(photos) -> None:  # type: ignore[no-untyped-def]
    batch, once = CardReader(DEFAULT_MODEL_DIR), CardReader(DEFAULT_MODEL_DIR)
    assert len(list(read_photos(batch, photos, lambda photo: photo))) == len(photos)
    for photo in photos:
        once.read(photo)
    assert batch.familiarity.snapshot() == once.familiarity.snapshot()
