"""The corner index reader of the corner look: index corners of real deck designs cut upright as the reader cuts
them, the shipped model's ranks and suits across designs, and a few-batch training run that gives a model the reader
loads (issue 53)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.corner_index import CORNER_CROP, SUITS, CornerIndexReader, corner_crop
from vision.corner_reader import CornerReader, quarter_turns
from vision.rank_ocr import RANK_TEXTS
from vision.reader_models import DEFAULT_MODEL_DIR
from vision.synth.design_corners import corner_index_crops, upright_turn
from vision.synth.design_crops import DEFAULT_DESIGNS, design_images

needs_designs = pytest.mark.skipif(not (DEFAULT_DESIGNS / "cards.csv").exists(), reason="card-designs not present")


@pytest.mark.parametrize("down", [(0, 1), (1, 0), (0, -1), (-1, 0), (0.7, 0.3), (-0.2, -0.9)])
def test_the_chosen_quarter_turn_points_a_corner_downwards(down: tuple[float, float]) -> None:
    arrow = np.zeros((41, 41), np.uint8)
    cv2.line(arrow, (20, 20), (int(20 + 18 * down[0]), int(20 + 18 * down[1])), 255, 3)
    turned = np.rot90(arrow, upright_turn(np.array(down, np.float64)))
    ys, xs = np.nonzero(turned)
    assert ys.mean() > 20 + 4  # the ink of the arrow lies below the centre
    assert abs(xs.mean() - 20) < abs(ys.mean() - 20)


def _laid(face: np.ndarray, quarter_turns: int) -> tuple[np.ndarray, np.ndarray]:
    """``face`` (5:7) pasted on a grey photo, turned by quarter turns anticlockwise, and its corners (face's top-left
    first, clockwise) in the photo."""
    h, w = face.shape[:2]
    photo = np.full((h + 80, h + 80, 3), 90, np.uint8)
    photo[40:40 + h, 40:40 + w] = face
    corners = np.float32([[40, 40], [40 + w, 40], [40 + w, 40 + h], [40, 40 + h]])
    size = photo.shape[0]
    for _ in range(quarter_turns):
        photo = np.ascontiguousarray(np.rot90(photo))
        corners = np.stack([corners[:, 1], size - corners[:, 0]], axis=1)
    return photo, corners.astype(np.float32)


@needs_designs
def test_a_corner_is_cut_upright_however_the_card_lies() -> None:
    [path] = [p for c, p in design_images("test") if str(c) == "7H"][:1]
    face = cv2.resize(cv2.imread(str(path)), (250, 350))
    upright = corner_crop(face, (0, 0, 0.21 * 250, 0.28 * 350)).astype(np.float32)
    rng = np.random.default_rng(0)
    for turns in range(4):
        photo, corners = _laid(face, turns)
        crops = list(corner_index_crops(photo, corners, rng))
        assert len(crops) == 2  # both index corners lie in the photo
        assert crops[0].shape == (CORNER_CROP[1], CORNER_CROP[0], 3)
        # an upright cut matches the face's own corner at 0.5-0.95 (its box jittered, scaled); a turned one under 0.35
        match = cv2.matchTemplate(crops[0].astype(np.float32), upright[8:-8, 4:-4], cv2.TM_CCOEFF_NORMED).max()
        assert match > 0.45, f"turned {turns}: the top-left corner was not cut upright ({match:.2f})"


@needs_designs
def test_a_corner_outside_the_photo_is_not_cut() -> None:
    [(_, path)] = design_images("test")[:1]
    face = cv2.resize(cv2.imread(str(path)), (250, 350))
    photo, corners = _laid(face, 0)
    corners = corners - np.float32([60, 0])  # the top-left corner leaves the photo by its left edge
    assert len(list(corner_index_crops(photo, corners, np.random.default_rng(0)))) == 1


@needs_designs
@pytest.mark.skipif(not CornerIndexReader.available(DEFAULT_MODEL_DIR), reason="no shipped corner index reader")
def test_the_shipped_corner_index_reader_names_ranks_and_suits_of_designs_it_did_not_learn() -> None:
    """card-designs' test split (its designs may repeat in training: a check of the model, not of transfer)."""
    reader = CornerIndexReader(DEFAULT_MODEL_DIR, threads=1)
    rng = np.random.default_rng(1)
    crops, truth = [], []
    for card, path in design_images("test")[::2]:
        if card.suit is None:
            continue
        face = cv2.resize(cv2.imread(str(path)), (250, 350))
        for crop in corner_index_crops(*_laid(face, int(rng.integers(4))), rng):
            crops.append(crop)
            truth.append((RANK_TEXTS.index(str(card)[:-1]), SUITS.index(str(card)[-1])))
    ranks, suits = reader.read(crops)
    assert len(crops) > 200
    assert float(np.mean(ranks.argmax(axis=1) == np.array(truth)[:, 0])) > 0.8
    assert float(np.mean(suits.argmax(axis=1) == np.array(truth)[:, 1])) > 0.85


def _ocr_reads(corners: CornerReader, monkeypatch: pytest.MonkeyPatch, by_turn: dict[int, np.ndarray]) -> None:
    """The OCR of ``corners`` made to read each turn of the corner as ``by_turn`` says."""
    monkeypatch.setattr(corners, "_ocr", lambda views, asked: np.stack([by_turn[turn] for _, turn in asked]))


def test_a_model_folder_without_a_corner_index_reader_reads_suits_with_the_index_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "card-corner.onnx").write_bytes((DEFAULT_MODEL_DIR / "card-corner.onnx").read_bytes())

    def index_reader(batch: np.ndarray) -> np.ndarray:
        probs = np.zeros((len(batch), 3), np.float32)
        probs[:, 1] = 1.0  # every patch read as the second class: 5♦
        return probs

    corners = CornerReader(tmp_path, index_reader, ("AS", "5D", "none"), threads=1)
    ocr = np.full((1, len(RANK_TEXTS)), 0.5 / 12)
    ocr[0, RANK_TEXTS.index("9")] = 0.5
    _ocr_reads(corners, monkeypatch, {0: ocr[0]})
    view = (np.full((80, 80, 3), 230, np.uint8), (10.0, 10.0, 40.0, 70.0))
    turns, ranks, suits = corners._upright_reading([[view] * 4], [(0, 0)])
    assert turns == [0] and SUITS[int(suits[0].argmax())] == "D" and suits[0].max() == pytest.approx(1.0)
    assert np.array_equal(ranks, ocr)  # the OCR's rank alone


def _printed_corner() -> np.ndarray:
    """A red 7 over an H, upright, on card paper."""
    frame = np.full((200, 200, 3), 235, np.uint8)
    cv2.putText(frame, "7", (80, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (30, 30, 200), 4)
    cv2.putText(frame, "H", (84, 140), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (30, 30, 200), 3)
    return frame


def _ocr(rank: str, share: float) -> np.ndarray:
    probs = np.full(len(RANK_TEXTS), (1 - share) / (len(RANK_TEXTS) - 1))
    probs[RANK_TEXTS.index(rank)] = share
    return probs


@pytest.fixture(scope="module")
def shipped_corners() -> CornerReader:
    if not CornerIndexReader.available(DEFAULT_MODEL_DIR):
        pytest.skip("no shipped corner index reader")
    return CornerReader(DEFAULT_MODEL_DIR, lambda batch: np.zeros((len(batch), 1)), ("none",), threads=1)


def test_the_ranks_two_looks_are_multiplied_so_one_doubting_look_keeps_a_rank_unsure(
        shipped_corners: CornerReader, monkeypatch: pytest.MonkeyPatch) -> None:
    views = quarter_turns(_printed_corner(), (70.0, 60.0, 120.0, 150.0))
    net_ranks, _ = CornerIndexReader(DEFAULT_MODEL_DIR, threads=1).read([corner_crop(*views[0])])
    _ocr_reads(shipped_corners, monkeypatch, {0: _ocr("7", 0.999)})
    _, together, _ = shipped_corners._upright_reading([views], [(0, 0)])
    _ocr_reads(shipped_corners, monkeypatch, {0: _ocr("7", 1 / 13)})
    _, alone, _ = shipped_corners._upright_reading([views], [(0, 0)])
    assert np.allclose(alone, net_ranks)  # an OCR that cannot tell leaves the network's look as it is
    seven = RANK_TEXTS.index("7")
    assert net_ranks[0, seven] > 0.5  # the network reads the printed 7 ...
    assert together[0, seven] > max(0.99, net_ranks[0, seven])  # ... and an OCR sure of it too makes it sure
    assert np.allclose(together.sum(axis=1), 1.0)


@pytest.mark.parametrize("by_network", [True, False])
def test_the_upright_turn_is_not_where_the_ocr_is_surest(
        shipped_corners: CornerReader, monkeypatch: pytest.MonkeyPatch, by_network: bool) -> None:
    views = quarter_turns(_printed_corner(), (70.0, 60.0, 120.0, 150.0))
    # the OCR reads the upside-down view as an ace more surely than the upright one as a 7
    asked: list[list[tuple[int, int]]] = []
    monkeypatch.setattr(shipped_corners, "turn_by_network", by_network)
    monkeypatch.setattr(shipped_corners, "_ocr", lambda views, turns: asked.append(turns) or np.stack(
        [{0: _ocr("7", 0.7), 2: _ocr("A", 0.9)}[turn] for _, turn in turns]))
    turns, ranks, suits = shipped_corners._upright_reading([views], [(0, 0), (0, 2)])
    assert turns == [0] and RANK_TEXTS[int(ranks[0].argmax())] == "7"
    assert SUITS[int(suits[0].argmax())] == "H"
    # the network's surest turn is read by the OCR alone; the agreement needs the OCR of both
    assert asked == ([[(0, 0)]] if by_network else [[(0, 0), (0, 2)]])


@needs_designs
def test_a_few_batches_of_training_give_a_model_the_reader_loads(tmp_path: Path) -> None:
    from vision.train_corner_index import main

    out = tmp_path / "corner-index"
    assert main(["--out", str(out), "--limit", "40", "--epochs", "1", "--copies", "1", "--threads", "1",
                 "--cache", str(tmp_path / "cache")]) == 0
    ranks, suits = CornerIndexReader(out, threads=1).read([np.full((CORNER_CROP[1], CORNER_CROP[0], 3), 200,
                                                                   np.uint8)] * 3)
    assert ranks.shape == (3, len(RANK_TEXTS)) and suits.shape == (3, len(SUITS))
    assert np.allclose(ranks.sum(axis=1), 1.0) and np.allclose(suits.sum(axis=1), 1.0)
    assert (out / "train-examples.png").exists()


def test_training_refuses_a_count_under_one_and_a_missing_designs_folder_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.train_corner_index import main

    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "run"), "--epochs", "0"])
    assert "--epochs must be 1 or more (got 0)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "run"), "--designs", str(tmp_path)])
    assert "has no cards.csv" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()  # nothing started
