"""Procedural decks (vision/synth/procedural.py): seeded designs the reader is trained and measured on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import parse_card, standard_deck
from vision.synth import procedural
from vision.synth.faces import FACE_SIZE
from vision.synth.procedural import INDEX_SIZES, TEST_DECK_SEEDS, deck_style, index_ink, procedural_deck


def index_region(face: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The face's top-left index, cut where the deck's style says it lies (a little margin all round)."""
    w, h = FACE_SIZE
    x1, y1, x2, y2 = box
    return face[max(int((y1 - 0.01) * h), 0): int((y2 + 0.01) * h), max(int((x1 - 0.01) * w), 0): int((x2 + 0.01) * w)]


@pytest.mark.parametrize(("seed", "size"), [(7, "standard"), (8, "jumbo"), (TEST_DECK_SEEDS + 5, "large")])
def test_every_card_is_distinct_and_its_index_is_where_the_style_says(seed: int, size: str) -> None:
    deck = procedural_deck(seed, size)
    style = deck_style(seed, size)
    assert set(deck) == set(standard_deck())
    faces = [deck[card].astype(np.int16) for card in standard_deck()]
    for i, a in enumerate(faces):
        assert a.shape == (FACE_SIZE[1], FACE_SIZE[0], 3)
        for b in faces[i + 1:]:
            assert np.abs(a - b).mean() > 0.5  # no two cards look alike
    for card in standard_deck():
        face = deck[card]
        index = index_region(face, style.index_box)
        ink = np.abs(index.astype(np.int16) - np.int16(style.stock)).sum(axis=2) > 120
        assert ink.mean() > 0.03, f"{card}: no index printed at its top-left corner"
        # The same index, turned half a turn, in the bottom-right corner.
        turned = index_region(face[::-1, ::-1], style.index_box)
        assert np.abs(turned.astype(np.int16) - index.astype(np.int16)).mean() < 12, card
        # Its ink is the suit's colour.
        colour = index[ink].astype(np.int16).mean(axis=0)
        assert card.suit is not None
        assert np.abs(colour - np.int16(style.colours[card.suit])).max() < 70, card


def face_ink(face: np.ndarray, stock: tuple[int, int, int]) -> np.ndarray:
    return (np.abs(face.astype(np.int16) - np.int16(stock)).sum(axis=2) > 120).astype(np.float32)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_index_printed_is_the_labelled_cards(seed: int) -> None:
    """At the index's place, each face shows its own card's rank and suit, not those of a card like it."""
    style = deck_style(seed)
    deck = procedural_deck(seed)
    w, h = FACE_SIZE
    mx, my = int(style.index_margin[0] * w), int(style.index_margin[1] * h)

    def expected(card: str) -> np.ndarray:
        ink = index_ink(style, parse_card(card))
        return (cv2.resize(ink, (ink.shape[1] // 2, ink.shape[0] // 2), interpolation=cv2.INTER_AREA) > 127)

    def agreement(face_of: str, index_of: str) -> float:
        want = expected(index_of)
        shown = face_ink(deck[parse_card(face_of)], style.stock)[my: my + want.shape[0], mx: mx + want.shape[1]] > 0
        size = (min(want.shape[0], shown.shape[0]), min(want.shape[1], shown.shape[1]))
        want, shown = want[: size[0], : size[1]], shown[: size[0], : size[1]]
        return float((want & shown).sum() / max((want | shown).sum(), 1))

    for card, look_alike in (("7S", "7C"), ("QH", "KH"), ("10D", "10H"), ("6C", "9C"), ("AS", "AC")):
        assert agreement(card, card) > 0.6, card
        assert agreement(card, card) > agreement(card, look_alike) + 0.01, (card, look_alike)


def test_same_seed_same_deck_and_another_seed_another() -> None:
    first, again, other = procedural_deck(3), procedural_deck(3), procedural_deck(4)
    card = parse_card("10D")
    assert all(np.array_equal(first[c], again[c]) for c in standard_deck())
    assert not np.array_equal(first[card], other[card])


def test_test_decks_never_share_a_font_with_training_decks() -> None:
    assert set(procedural.test_fonts()).isdisjoint(procedural.training_fonts())
    assert deck_style(TEST_DECK_SEEDS + 1).font in procedural.test_fonts()
    assert {deck_style(seed).font for seed in range(40)} <= set(procedural.training_fonts())


def test_forced_index_sizes_and_a_clear_message_for_an_unknown_one() -> None:
    for size in INDEX_SIZES:
        assert deck_style(5, size).index_size == size
    heights = [deck_style(5, size).rank_height for size in INDEX_SIZES]
    assert heights == sorted(heights)
    with pytest.raises(Exception, match="unknown index size 'huge'"):
        deck_style(5, "huge")


def test_training_patches_refuse_a_test_deck(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from vision.synth.procedural_patches import procedural_index_patches

    with pytest.raises(ValueError, match="test deck"):
        procedural_index_patches(tmp_path / "out", [TEST_DECK_SEEDS], tmp_path / "log.txt")


def test_face_crops_of_a_procedural_deck_are_its_labelled_cards_and_never_a_test_decks(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from vision.synth.faces import register_deck
    from vision.synth.procedural_crops import procedural_face_crops
    from vision.synth.procedural_patches import PROCEDURAL_SCENES
    from vision.synth.scene import render_scene

    log = tmp_path / "log.txt"
    written = procedural_face_crops(tmp_path / "out", [3], log, scenes_per_deck=1)
    register_deck("crops-check", procedural_deck(3))
    labelled = sorted(str(p.card) for p in render_scene(PROCEDURAL_SCENES + 3, decks=["crops-check"]).labelled_cards)
    crops = sorted(path.parent.name for path in (tmp_path / "out").glob("*/*.jpg"))
    assert written == len(labelled) > 0 and crops == labelled
    assert procedural_face_crops(tmp_path / "out", [3], log, scenes_per_deck=1) == 0  # resumed: done already
    with pytest.raises(ValueError, match="test deck"):
        procedural_face_crops(tmp_path / "out", [TEST_DECK_SEEDS], log)


def test_detector_tiles_of_a_procedural_deck_box_covered_cards_whole(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from vision.synth.faces import register_deck
    from vision.synth.procedural_patches import PROCEDURAL_SCENES
    from vision.synth.procedural_tiles import procedural_detector_tiles
    from vision.synth.scene import render_scene

    log = tmp_path / "log.txt"
    assert procedural_detector_tiles(tmp_path / "out", [3], log, scenes_per_deck=1, per_scene=1) == 1
    register_deck("tiles-check", procedural_deck(3))
    scene = render_scene(PROCEDURAL_SCENES + 3, decks=["tiles-check"])
    (label,) = (tmp_path / "out" / "labels").glob("*.txt")
    x, y = (int(v[1:]) for v in label.stem.rsplit("_", 2)[1:])
    boxes = [[(float(cx) - float(w) / 2) * 640 + x, (float(cy) - float(h) / 2) * 640 + y,
              (float(cx) + float(w) / 2) * 640 + x, (float(cy) + float(h) / 2) * 640 + y]
             for _, cx, cy, w, h in (row.split() for row in label.read_text().splitlines())]
    inside = [p for p in scene.labelled_cards  # cards lying wholly inside the tile keep their whole box
              if p.box[0] >= x and p.box[1] >= y and p.box[2] <= x + 640 and p.box[3] <= y + 640]
    assert any(p.visible < 0.95 for p in inside)  # a covered card among them
    for card in inside:
        assert any(np.allclose(box, card.box, atol=1.0) for box in boxes), card
    assert procedural_detector_tiles(tmp_path / "out", [3], log, scenes_per_deck=1) == 0  # resumed: done already
    with pytest.raises(ValueError, match="test deck"):
        procedural_detector_tiles(tmp_path / "out", [TEST_DECK_SEEDS], log)


def test_the_raster_debian_decks_give_52_distinct_faces() -> None:
    from vision.synth.raster_decks import RASTER_DECKS, raster_deck

    for name in RASTER_DECKS:
        try:
            deck = raster_deck(name)
        except Exception as error:  # the Debian decks are a system package (make system-packages)
            pytest.skip(f"{name}: {error}")
        assert set(deck) == set(standard_deck())
        assert len({deck[c].tobytes() for c in deck}) == 52
        ace, king = deck[parse_card("AS")], deck[parse_card("KS")]
        assert ace.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) and not np.array_equal(ace, king)


def test_a_procedural_decks_scenes_can_be_drawn_on_the_tops_the_built_in_scenes_lack(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import cv2

    from vision.synth.procedural_tiles import procedural_detector_tiles

    plain, white = tmp_path / "plain", tmp_path / "white"
    assert procedural_detector_tiles(plain, [3], tmp_path / "a.txt", scenes_per_deck=1, per_scene=1) == 1
    assert procedural_detector_tiles(white, [3], tmp_path / "b.txt", scenes_per_deck=1, per_scene=1,
                                     surfaces=("paper",)) == 1
    (a,), (b,) = (sorted((d / "images").iterdir()) for d in (plain, white))
    assert a.name == b.name and (plain / "labels" / f"{a.stem}.txt").read_text() == \
        (white / "labels" / f"{b.stem}.txt").read_text()  # the same cards in the same places
    assert np.median(cv2.imread(str(b))) > np.median(cv2.imread(str(a)))  # on a white table
