"""The real photographs' own deck: whole cards cut flat from a photo, registered as decks the generator draws; and
classifier crops of scenes rendered for their crops alone."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import parse_card
from engine.errors import InputError
from vision.enroll.matching import FaceMatcher
from vision.enroll.spread import render_spread
from vision.synth.dataset import rendered_crops
from vision.synth.faces import FIVE_CARD_DRAW, load_deck
from vision.synth.photo_deck import DECK_PREFIX, register_photo_decks, whole_cards
from vision.synth.scene import render_scene

CARDS = [parse_card(t) for t in ("AS", "7H", "10C", "QD", "2S", "9H")]


def _labels_of(spread, cover: dict[int, float] | None = None) -> list:
    """Each card's axis-aligned box, as the real photos label it; ``cover`` shrinks a card's box to the part that
    shows, as the photos label a card lying under another."""
    labels = []
    for i, (card, corners) in enumerate(zip(spread.cards, spread.corners, strict=True)):
        x1, y1 = corners.min(axis=0)
        x2, y2 = corners.max(axis=0)
        if cover and i in cover:
            x2 = x1 + (x2 - x1) * cover[i]
        labels.append((card, (float(x1), float(y1), float(x2), float(y2))))
    return labels


def test_whole_cards_are_cut_flat_and_named_by_their_labels() -> None:
    faces = load_deck(FIVE_CARD_DRAW)
    spread = render_spread(faces, CARDS, seed=11)
    cut = whole_cards(spread.image, _labels_of(spread))
    assert {card for card, _ in cut} == set(CARDS)
    matcher = FaceMatcher({card: faces[card] for card in CARDS})
    for card, face in cut:  # the flat face is that very card (either way up)
        assert matcher.match(face).card == card or matcher.match(cv2.rotate(face, cv2.ROTATE_180)).card == card


def test_a_card_labelled_by_its_visible_part_is_not_taken_as_whole() -> None:
    faces = load_deck(FIVE_CARD_DRAW)
    spread = render_spread(faces, CARDS, seed=11)
    cut = whole_cards(spread.image, _labels_of(spread, cover={2: 0.6}))
    assert CARDS[2] not in {card for card, _ in cut}
    assert len(cut) == len(CARDS) - 1


def test_photo_decks_cycle_through_each_cards_faces_and_leave_out_cards_without_one() -> None:
    faces = load_deck(FIVE_CARD_DRAW)
    ace, seven = parse_card("AS"), parse_card("7H")
    dark = (faces[ace] // 2).astype(np.uint8)
    names = register_photo_decks({ace: [faces[ace], dark], seven: [faces[seven]]}, decks=3)
    assert names == [f"{DECK_PREFIX}{k}" for k in range(3)]
    decks = [load_deck(name) for name in names]
    assert all(set(d) == {ace, seven} for d in decks)
    assert np.array_equal(decks[0][ace], decks[2][ace]) and not np.array_equal(decks[0][ace], decks[1][ace])
    scene = render_scene(4_900_000, (640, 360), decks=names)
    assert scene.deck in names and {p.card for p in scene.cards} <= {ace, seven}
    with pytest.raises(InputError, match="no card"):
        register_photo_decks({}, decks=2)


def test_rendered_crops_fill_the_class_folders_and_resume(tmp_path: Path) -> None:
    out, log = tmp_path / "cls", tmp_path / "logs" / "done.txt"
    seeds = range(4_900_100, 4_900_104)
    written = rendered_crops(out, seeds, log, size=(640, 360))
    expected = sum(len(render_scene(s, (640, 360)).labelled_cards) for s in seeds)
    assert written == expected > 0
    files = list(out.glob("*/*.jpg"))
    assert len(files) == expected
    for path in files:  # a crop sits in its card's folder and is the reader's crop size
        parse_card(path.parent.name)
        assert cv2.imread(str(path)).shape == (160, 160, 3)
    assert rendered_crops(out, seeds, log, size=(640, 360)) == 0  # done scenes are not rendered again
    assert len(list(out.glob("*/*.jpg"))) == expected


def test_every_label_fix_names_a_labelled_card_of_a_real_photo_and_corrects_it() -> None:
    from vision.train_data import (
        DEFAULT_REAL_PHOTOS,
        LABEL_FIXES,
        label_path_of,
        read_yolo_labels,
        real_class_names,
        real_labels,
        source_photo_of,
        split_real_photos,
    )

    if not DEFAULT_REAL_PHOTOS.is_dir():
        pytest.skip("the real photographs are not beside this checkout")
    names = real_class_names()
    images = [p for split in split_real_photos().values() for p in split]
    for (source, wrong), right in LABEL_FIXES.items():
        versions = [p for p in images if source_photo_of(p) == source]
        assert versions, f"no photo {source}"
        for image in versions:
            as_labelled = [names[r[0]] for r in read_yolo_labels(label_path_of(image))]
            fixed = [names[r[0]] for r in real_labels(image, names)]
            assert wrong in as_labelled and wrong not in fixed
            assert fixed.count(right) == as_labelled.count(right) + as_labelled.count(wrong)


def test_a_face_warped_from_a_wrong_outline_is_told_by_its_border() -> None:
    from vision.enroll.extract import find_cards, warp_face
    from vision.synth.photo_deck import PLAIN_BORDER, plain_border_share

    faces = load_deck(FIVE_CARD_DRAW)
    spread = render_spread(faces, CARDS, seed=11)
    found = find_cards(spread.image).cards
    assert all(plain_border_share(card.face) >= PLAIN_BORDER for card in found)
    for card in found:  # the same card warped from an outline shifted by a seventh of its width takes in the felt
        side = card.corners[1] - card.corners[0]
        shifted = warp_face(spread.image, card.corners + side / 7)
        assert plain_border_share(shifted) < PLAIN_BORDER
