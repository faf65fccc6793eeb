"""The synthetic training data: card faces, drawing a face at a quadrilateral, seeded scenes and their labels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import deck_with_joker, parse_card, standard_deck
from engine.errors import InputError
from vision.reader_classes import CLASS_INDEX, CLASS_NAMES, card_of_class_name
from vision.synth.dataset import detector_tiles, write_scenes, yolo_label_lines
from vision.synth.faces import FACE_SIZE, FIVE_CARD_DRAW, available_decks, load_deck, paste_card
from vision.synth.scene import LABEL_MIN_VISIBLE, render_scene

SMALL = (640, 360)


def test_five_card_draw_deck_has_every_card_and_the_joker() -> None:
    faces = load_deck(FIVE_CARD_DRAW)
    assert set(faces) == set(deck_with_joker())
    for face in faces.values():
        assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) and face.dtype == np.uint8
    # the faces differ from one another (no placeholder images)
    assert len({face.tobytes() for face in faces.values()}) == 53


def test_every_available_deck_has_the_52_cards() -> None:
    decks = available_decks()
    assert decks[0] == FIVE_CARD_DRAW
    for name in decks:
        assert set(standard_deck()) <= set(load_deck(name)), name


def test_unknown_deck_is_refused_with_the_known_names() -> None:
    from engine.errors import InputError

    with pytest.raises(InputError, match="five-card-draw"):
        load_deck("no-such-deck")


def test_paste_card_puts_the_face_inside_the_quadrilateral_only() -> None:
    canvas = np.zeros((300, 400, 3), np.uint8)
    face = np.full((FACE_SIZE[1], FACE_SIZE[0], 3), 255, np.uint8)
    corners = np.float32([[100, 50], [200, 60], [190, 200], [90, 190]])
    mask = paste_card(canvas, face, corners)
    inside = np.zeros((300, 400), np.uint8)
    cv2.fillConvexPoly(inside, corners.astype(np.int32), 1)
    eroded = cv2.erode(inside, np.ones((9, 9), np.uint8))
    assert (canvas[eroded == 1] > 240).all()  # the face covers the quadrilateral
    outside = cv2.dilate(inside, np.ones((5, 5), np.uint8)) == 0
    assert (canvas[outside] == 0).all() and (mask[outside] == 0).all()  # and nothing else


def test_paste_card_keeps_orientation() -> None:
    """The face's top-left corner lands on the first corner given."""
    face = np.zeros((FACE_SIZE[1], FACE_SIZE[0], 3), np.uint8)
    face[: FACE_SIZE[1] // 4, : FACE_SIZE[0] // 4] = (0, 0, 255)  # a red top-left quarter
    canvas = np.zeros((400, 400, 3), np.uint8)
    # rotated by 90 degrees clockwise: top-left lands at the top-right of the picture
    paste_card(canvas, face, [[300, 100], [300, 200], [160, 200], [160, 100]])
    assert canvas[110, 290, 2] > 200 and canvas[190, 170, 2] < 50


def test_same_seed_same_scene_and_labels() -> None:
    a, b = render_scene(11, SMALL), render_scene(11, SMALL)
    assert np.array_equal(a.image, b.image)
    assert [(p.card, p.visible) for p in a.cards] == [(p.card, p.visible) for p in b.cards]
    assert all(np.array_equal(p.corners, q.corners) for p, q in zip(a.cards, b.cards, strict=True))
    assert not np.array_equal(a.image, render_scene(12, SMALL).image)


def test_written_dataset_is_reproducible(tmp_path: Path) -> None:
    write_scenes(tmp_path / "a", range(3), SMALL)
    write_scenes(tmp_path / "b", range(3), SMALL)
    for name in ("labels/scene_0000000.txt", "labels/scene_0000002.txt", "scenes.jsonl"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    # written again into the same folder: nothing is redone or duplicated
    write_scenes(tmp_path / "a", range(3), SMALL)
    assert len((tmp_path / "a" / "scenes.jsonl").read_text().splitlines()) == 3


def test_scenes_are_not_written_from_fewer_decks_than_the_built_in_ones(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without the Debian decks would draw other scenes from the same seeds: refused, with what to
    install, and nothing written; asked for by name, the decks it has still draw."""
    import vision.synth.faces as faces

    monkeypatch.setattr(faces, "DEBIAN_DECKS_DIR", tmp_path / "no-decks-here")
    with pytest.raises(faces.DeckNotAvailable, match="kdegames-card-data-kf5") as refused:
        write_scenes(tmp_path / "scenes", range(2), SMALL)
    assert "standard" in str(refused.value)
    assert not (tmp_path / "scenes" / "scenes.jsonl").exists()
    write_scenes(tmp_path / "mine", range(2), SMALL, decks=[FIVE_CARD_DRAW])
    assert len((tmp_path / "mine" / "scenes.jsonl").read_text().splitlines()) == 2


def test_detector_tiles_are_cut_from_the_scene_with_its_card_boxes(tmp_path: Path) -> None:
    scenes = write_scenes(tmp_path / "scenes", range(3, 6))
    tiles = detector_tiles(scenes, tmp_path / "tiles", tile=640, per_scene=2, seed=1)
    names = sorted(p.stem for p in (tiles / "images").glob("*.jpg"))
    assert len(names) == 6
    labelled = 0
    for name in names:
        scene_name, x, y = name.rsplit("_", 2)
        ox, oy = int(x[1:]), int(y[1:])
        scene = cv2.imread(str(scenes / "images" / f"{scene_name}.jpg"))
        tile = cv2.imread(str(tiles / "images" / f"{name}.jpg"))
        assert tile.shape == (640, 640, 3)
        # the tile is the scene's pixels where it was cut (up to JPEG noise)
        assert np.abs(tile.astype(int) - scene[oy : oy + 640, ox : ox + 640].astype(int)).mean() < 4
        scene_boxes = []
        for row in (scenes / "labels" / f"{scene_name}.txt").read_text().splitlines():
            _, cx, cy, bw, bh = (float(v) for v in row.split())
            scene_boxes.append(((cx - bw / 2) * 1280 - ox, (cy - bh / 2) * 720 - oy,
                                (cx + bw / 2) * 1280 - ox, (cy + bh / 2) * 720 - oy))
        for row in (tiles / "labels" / f"{name}.txt").read_text().splitlines():
            cls, cx, cy, bw, bh = (float(v) for v in row.split())
            box = ((cx - bw / 2) * 640, (cy - bh / 2) * 640, (cx + bw / 2) * 640, (cy + bh / 2) * 640)
            assert cls == 0
            # every tile label is a scene card's box, clipped to the tile
            assert any(all(abs(a - max(min(b, 640.0), 0.0)) < 1.0 for a, b in zip(box, sb, strict=True))
                       for sb in scene_boxes), (name, box)
            labelled += 1
    assert labelled >= 3
    # cut again: the same tiles, nothing added
    detector_tiles(scenes, tmp_path / "tiles", tile=640, per_scene=2, seed=1)
    assert sorted(p.stem for p in (tiles / "images").glob("*.jpg")) == names


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_scene_invariants(seed: int) -> None:
    scene = render_scene(seed, SMALL)
    h, w = scene.image.shape[:2]
    assert (w, h) == SMALL
    cards = [p.card for p in scene.cards]
    assert len(cards) == len(set(cards))  # one deck: no card twice
    for placed in scene.cards:
        assert 0.0 <= placed.visible <= 1.0
        assert placed.labelled == (placed.visible >= LABEL_MIN_VISIBLE)
    lines = yolo_label_lines(scene)
    assert len(lines) == len(scene.labelled_cards)
    for line, placed in zip(lines, scene.labelled_cards, strict=True):
        cls, cx, cy, bw, bh = line.split()
        assert CLASS_NAMES[int(cls)] == str(placed.card)
        assert all(0.0 <= float(v) <= 1.0 for v in (cx, cy, bw, bh))


def _warp_to_face(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    w, h = FACE_SIZE
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(image, matrix, (w, h))


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    x = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float32).ravel()
    y = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY).astype(np.float32).ravel()
    x, y = x - x.mean(), y - y.mean()
    return float((x @ y) / (np.linalg.norm(x) * np.linalg.norm(y) + 1e-6))


def test_labels_read_back_onto_the_image_show_the_labelled_card() -> None:
    """Render, then cut each fully visible card out of the picture by its labelled corners: of all the deck's
    faces, the labelled card's face is the one it looks most like (perspective, lens, light and noise included)."""
    checked = right = 0
    for seed in range(6):
        scene = render_scene(seed, (1280, 720))
        faces = load_deck(scene.deck)
        for placed in scene.cards:
            if placed.visible < 0.98:
                continue
            cut = _warp_to_face(scene.image, placed.corners)
            scores = {card: _ncc(cut, face) for card, face in faces.items()}
            checked += 1
            right += max(scores, key=scores.__getitem__) == placed.card
    assert checked >= 10
    assert right / checked >= 0.9


def test_class_names_are_card_texts_and_word_names_map_to_them() -> None:
    assert len(CLASS_NAMES) == 53 and CLASS_NAMES[-1] == "JK"
    assert CLASS_NAMES[CLASS_INDEX[parse_card("10H")]] == "10H"
    assert card_of_class_name("jack  of clubs") == parse_card("JC")
    assert card_of_class_name("10 of diamonds") == parse_card("10D")
    assert card_of_class_name("Ace of Spades") == parse_card("AS")
    assert card_of_class_name("QH") == parse_card("QH")
    from engine.errors import InputError

    with pytest.raises(InputError, match="suit"):
        card_of_class_name("10 of cups")


def test_proposal_crops_are_named_after_the_card_the_detector_boxed(tmp_path: Path) -> None:
    from vision.synth.dataset import proposal_crops

    seeds = range(6_000_000, 6_000_003)
    written = proposal_crops(tmp_path / "crops", seeds, tmp_path / "done.txt", hard_copies=2)
    crops = sorted((tmp_path / "crops").glob("*/*.jpg"))
    assert written == len(crops) >= 6
    scenes = {seed: render_scene(seed) for seed in seeds}
    for crop in crops:
        seed = crop.stem.split("_")[1]
        scene = scenes[int(seed)]
        card = next(c for c in scene.labelled_cards if str(c.card) == crop.parent.name)  # a card of that scene
        boxed = len(list(crop.parent.glob(f"proposal_{seed}_[0-9]*.jpg")))  # each detector box on the card…
        again = len(list(crop.parent.glob(f"proposal_{seed}_hard_*.jpg")))
        # …and two more copies of it when the card shows less than 3/4 of its face
        assert again == (2 * boxed if card.visible < 0.75 else 0), (crop, card.visible)
        assert cv2.imread(str(crop)).shape == (160, 160, 3)
    # run again: the scenes in the log are not redone
    assert proposal_crops(tmp_path / "crops", seeds, tmp_path / "done.txt") == 0


def _off_the_cards(scene) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The scene's pixels that no card covers."""
    mask = np.zeros(scene.image.shape[:2], np.uint8)
    for placed in scene.cards:
        cv2.fillConvexPoly(mask, placed.corners.astype(np.int32), 1)
    return scene.image[mask == 0]


def test_a_scene_drawn_on_another_table_top_keeps_its_cards_and_changes_only_the_top() -> None:
    default, white, stone = (render_scene(7_500_003, surface=s) for s in (None, "paper", "stone"))
    for other in (white, stone):
        assert [(str(c.card), c.corners.tolist(), c.visible) for c in other.cards] == \
               [(str(c.card), c.corners.tolist(), c.visible) for c in default.cards]
        assert not np.array_equal(other.image, default.image)
    white_top, stone_top = _off_the_cards(white).astype(np.float32), _off_the_cards(stone).astype(np.float32)
    assert np.median(white_top) > np.median(stone_top)  # a white table is brighter than grey stone
    assert np.median(white_top.max(axis=1) - white_top.min(axis=1)) < 30  # and nearly colourless, as card stock is
    with pytest.raises(InputError, match="unknown table surface 'marble'; one of felt, wood, cloth, stone, paper"):
        render_scene(1, surface="marble")
