"""The card reader with the shipped model: rendered scenes with known answers, flags, ONNX vs PyTorch agreement."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from engine.cards import parse_card
from engine.errors import InputError
from vision.detection import DUPLICATE, LOW_CONFIDENCE, PARTLY_COVERED, Detection
from vision.eval import EvalResult, iou, score_image
from vision.reader import CardReader, RawReading, ReaderSettings, flag_readings, merge_double_boxes, suit_from_index
from vision.reader_crops import CROP_MARGIN, SECOND_LOOK_MARGINS, square_crop
from vision.reader_familiar import IndexEvidence
from vision.reader_index import fuse_index, index_patches
from vision.reader_models import DEFAULT_MODEL_DIR, letterbox, to_tensor
from vision.reader_outline import (
    outline_box,
    outline_patches,
    pair_outlines,
    straightened_card,
    upright_outline,
)
from vision.synth.faces import FIVE_CARD_DRAW, load_deck, paste_card
from vision.synth.scene import render_scene
from vision.synth.textures import felt

# Seeds no training or validation scene uses (train 0…, val 1 000 000…, test 2 000 000…).
UNSEEN_SEEDS = range(7_000_000, 7_000_008)


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader(DEFAULT_MODEL_DIR, backend="onnx", threads=2)


def _truth(scene):  # type: ignore[no-untyped-def]
    h, w = scene.image.shape[:2]
    out = []
    for p in scene.labelled_cards:
        x1, y1, x2, y2 = p.box
        out.append((p.card, (max(x1, 0.0), max(y1, 0.0), min(x2, float(w)), min(y2, float(h)))))
    return out


def _table(seed: int, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    return felt(np.random.default_rng(seed), size)


def _card_corners(cx: float, cy: float, width: float = 130.0) -> np.ndarray:
    h = width * 1.4
    return np.float32([[cx - width / 2, cy - h / 2], [cx + width / 2, cy - h / 2], [cx + width / 2, cy + h / 2],
                       [cx - width / 2, cy + h / 2]])


# Regression floors for the shipped model on unseen rendered scenes, a margin under what it measured (see
# models/HISTORY.md). They are under the targets (99.5 % right, nothing extra), which this model misses.
SCENES_RIGHT_FLOOR = 0.80  # measured 0.89 on these scenes (88 % on the 100 test scenes)
SCENES_EXTRA_CEILING = 0.2  # share of the reported boxes that match no card: measured 4 of 47


def test_reads_unseen_rendered_scenes(reader: CardReader) -> None:
    result = EvalResult()
    for seed in UNSEEN_SEEDS:
        scene = render_scene(seed)
        score_image(result, _truth(scene), reader.read(scene.image))
    assert result.truth_cards >= 30
    summary = result.summary()
    assert result.cards_right >= SCENES_RIGHT_FLOOR, summary
    assert result.extra <= SCENES_EXTRA_CEILING * result.reported, summary


def test_cards_laid_apart_are_read_with_their_boxes(reader: CardReader) -> None:
    faces = load_deck(FIVE_CARD_DRAW)
    frame = _table(1)
    laid = {"AS": (250.0, 250.0), "10H": (640.0, 300.0), "QD": (1000.0, 420.0)}
    for text, (cx, cy) in laid.items():
        paste_card(frame, faces[parse_card(text)], _card_corners(cx, cy))
    found = reader.read(frame)
    for text, (cx, cy) in laid.items():  # a box on every card…
        at = [d for d in found if abs(d.center[0] - cx) < 30 and abs(d.center[1] - cy) < 30]
        assert at, f"nothing read at {text}"
        for d in at:  # …and any reading there that is not the card laid says it is unsure
            assert str(d.card) == text or d.flags, d
    for d in found:
        assert any(abs(d.center[0] - cx) < 60 and abs(d.center[1] - cy) < 60 for cx, cy in laid.values()), d


def test_a_wide_frame_is_padded_only_to_the_models_stride_not_to_a_square() -> None:
    frame = np.full((720, 1280, 3), 200, np.uint8)
    padded, scale, (pad_x, pad_y) = letterbox(frame, 640, stride=32)
    assert padded.shape == (384, 640, 3) and scale == 0.5 and (pad_x, pad_y) == (0.0, 12.0)
    assert (padded[:12] == 114).all() and (padded[12:372] == 200).all() and (padded[372:] == 114).all()
    square, _, (_, square_pad_y) = letterbox(frame, 640)
    assert square.shape == (640, 640, 3) and square_pad_y == 140.0


@pytest.mark.parametrize("stride", [-32, 20])
def test_an_input_stride_the_models_cannot_take_is_refused(stride: int) -> None:
    with pytest.raises(InputError, match=r"input_stride must be 0 .* or a multiple of 32"):
        ReaderSettings(input_stride=stride)


def test_the_stride_padded_input_boxes_the_cards_where_the_square_one_does(reader: CardReader) -> None:
    scene = render_scene(UNSEEN_SEEDS[0])
    square = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(input_stride=0)).read(scene.image)
    padded = reader.read(scene.image)
    assert reader.settings.input_stride == 32 and len(padded) == len(square) >= 4
    for d in padded:
        twin = max(square, key=lambda s: iou(s.box, d.box))
        assert twin.card == d.card and iou(twin.box, d.box) > 0.9, (d, twin)


def test_empty_table_has_no_cards(reader: CardReader) -> None:
    assert reader.read(_table(2)) == []


def test_the_same_card_twice_is_flagged_on_both(reader: CardReader) -> None:
    faces = load_deck(FIVE_CARD_DRAW)
    frame = _table(3)
    paste_card(frame, faces[parse_card("AS")], _card_corners(350, 360))
    paste_card(frame, faces[parse_card("AS")], _card_corners(900, 360))
    found = reader.read(frame)
    aces = [d for d in found if str(d.card) == "AS"]
    assert any(d.center[0] < 640 for d in aces) and any(d.center[0] > 640 for d in aces)  # both read as AS…
    assert all(DUPLICATE in d.flags for d in aces)  # …and every reading of it says it is doubled


def test_a_card_half_under_another_is_flagged_partly_covered() -> None:
    cautious = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(agree_clears_cover=1.0))
    faces = load_deck(FIVE_CARD_DRAW)
    frame = _table(4)
    paste_card(frame, faces[parse_card("7S")], _card_corners(560, 360))
    paste_card(frame, faces[parse_card("9D")], _card_corners(625, 380))  # covers half of the 7
    under = [d for d in cautious.read(frame) if str(d.card) == "7S"]
    assert under and all(PARTLY_COVERED in d.flags for d in under)


def test_on_an_unfamiliar_deck_an_overlapped_card_is_cleared_only_when_face_and_index_both_name_it_surely() -> None:
    frame = _table(4)
    cards = tuple(parse_card(n) for n in ("7S", "9D", "8S"))
    boxes = [(500.0, 250.0, 620.0, 420.0), (560.0, 270.0, 680.0, 440.0)]  # the second covers half the first
    for x1, y1, x2, y2 in boxes:
        frame[int(y1) : int(y2), int(x1) : int(x2)] = 245  # card stock, so only the overlap can flag it

    def flags_of(face_card: int, face_prob: float, index_card: int, index_sure: float) -> frozenset[str]:
        under = RawReading(boxes[0], 0.9, np.array([0.97, 0.02, 0.01], np.float32), face_card, face_prob,
                           index_card, index_sure, familiar=False)
        over = RawReading(boxes[1], 0.9, np.array([0.01, 0.98, 0.01], np.float32), 1, 0.98, 1, 0.99, False)
        read = flag_readings(frame, [under, over], cards, ReaderSettings())
        return next(d.flags for d in read if d.card == cards[0])

    assert PARTLY_COVERED not in flags_of(0, 0.97, 0, 0.95)  # two independent looks name the 7S
    assert PARTLY_COVERED in flags_of(0, 0.97, 2, 0.95)  # the index reads an 8S
    assert PARTLY_COVERED in flags_of(0, 0.97, 0, 0.6)  # the index is unsure
    assert PARTLY_COVERED in flags_of(0, 0.7, 0, 0.95)  # the face is unsure
    assert PARTLY_COVERED in flags_of(0, 0.97, -1, 0.0)  # no index read (a model folder without one)


def _two_cards_apart() -> np.ndarray:
    """The AS and the QD lying apart on a felt: read surely, so looked at once."""
    faces = load_deck(FIVE_CARD_DRAW)
    frame = _table(5)
    for text, (cx, cy) in {"AS": (250.0, 250.0), "QD": (1000.0, 420.0)}.items():
        paste_card(frame, faces[parse_card(text)], _card_corners(cx, cy))
    return frame


class _CountingBackend:
    """The reader's own backend, counting the crops it is asked to classify."""

    def __init__(self, backend) -> None:  # type: ignore[no-untyped-def]
        self.backend, self.crops, self.patches, self.outline_looks, self.straight = backend, 0, 0, 0, 0
        self.any_patches = 0
        self.name = backend.name
        self.has_index_reader = backend.has_index_reader
        self.has_any_index_reader = backend.has_any_index_reader
        self.has_outline_model = backend.has_outline_model
        self.has_any_classifier = backend.has_any_classifier

    def read_index(self, batch):  # type: ignore[no-untyped-def]
        self.patches += len(batch)
        return self.backend.read_index(batch)

    def read_any_index(self, batch):  # type: ignore[no-untyped-def]
        self.any_patches += len(batch)
        return self.backend.read_any_index(batch)

    def outline_raw(self, batch):  # type: ignore[no-untyped-def]
        self.outline_looks += 1
        return self.backend.outline_raw(batch)

    def detect_raw(self, batch):  # type: ignore[no-untyped-def]
        return self.backend.detect_raw(batch)

    def classify(self, batch):  # type: ignore[no-untyped-def]
        self.crops += len(batch)
        return self.backend.classify(batch)

    def classify_straight(self, batch):  # type: ignore[no-untyped-def]
        self.straight += len(batch)
        return self.backend.classify_straight(batch)

    def classify_any(self, batch):  # type: ignore[no-untyped-def]
        self.crops += len(batch)
        return self.backend.classify_any(batch)


def test_only_doubtful_readings_get_a_second_look() -> None:
    # boxes left where the detector put them, so that the views can be cut by hand below
    reader = CardReader(DEFAULT_MODEL_DIR, backend="onnx", threads=2,
                        settings=ReaderSettings(second_look=True, index_look=False, outline_boxes=False,
                                                straight_look=False))
    counting = _CountingBackend(reader.backend)
    reader.backend = counting
    apart = _two_cards_apart()
    found = reader.read(apart)
    assert len(found) == 2 and not any(d.flags for d in found)
    assert counting.crops == 2 * 2  # sure readings of cards lying apart: each crop and its half turn, nothing more

    overlapped = _two_overlapping_cards()
    boxes, _scores = reader.detect(overlapped)
    first = reader.classify(overlapped, boxes)
    counting.crops = 0
    raw = reader.read_raw(overlapped)
    assert len(boxes) >= 2 and counting.crops == 2 * len(boxes) + 8 * len(boxes)  # both boxes overlap: 8 views more
    # the second look is the average of all ten views, the first two included
    views = [np.ascontiguousarray(np.rot90(square_crop(overlapped, tuple(map(float, boxes[0])), 160, m), k))
             for m in SECOND_LOOK_MARGINS for k in range(4)]
    by_hand = (2 * first[0] + counting.backend.classify(to_tensor(views)).sum(axis=0)) / 10
    assert np.allclose(raw[0].probabilities, by_hand, atol=1e-5)
    plain = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(second_look=False, index_look=False,
                                                                 outline_boxes=False, straight_look=False))
    assert np.allclose(plain.read_raw(overlapped)[0].probabilities, first[0], atol=1e-5)


def test_only_doubtful_readings_with_an_outline_get_a_straight_look() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(index_look=False))
    assert reader.settings.straight_look  # on by default
    counting = _CountingBackend(reader.backend)
    reader.backend = counting
    apart = _two_cards_apart()
    assert len(reader.read(apart)) == 2 and counting.crops == 2 * 2  # sure readings: no straight look
    assert counting.straight == 0

    overlapped = _two_overlapping_cards()
    without = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(index_look=False, straight_look=False))
    before = without.read_raw(overlapped)
    counting.crops = 0
    raw = reader.read_raw(overlapped)
    boxes = np.array([r.box for r in raw], np.float32)
    found = reader.outlines(overlapped)[0]
    paired = pair_outlines(boxes, found, reader.settings.outline_match)
    assert len(raw) >= 2 and set(paired) == set(range(len(raw)))  # both overlapped, both outlined
    assert counting.crops == 2 * len(raw)  # the first look only: the second look is off by default
    assert counting.straight == 2 * len(raw)  # the straightened card, both ways up
    weight = reader.settings.straight_weight
    for i, (reading, plain) in enumerate(zip(raw, before, strict=True)):
        view = straightened_card(overlapped, found[paired[i]], 160, CROP_MARGIN)
        both_ways = to_tensor([view, np.ascontiguousarray(view[::-1, ::-1])])
        straight = counting.backend.classify_straight(both_ways).mean(axis=0)
        assert np.allclose(reading.probabilities, (plain.probabilities + weight * straight) / (1 + weight), atol=1e-5)


def test_a_turned_card_straightened_by_its_true_corners_reads_as_itself(reader: CardReader) -> None:
    # the straightened crop is an upright card filling it, the kind of crop the classifiers were trained on
    scene = render_scene(7_000_011)
    shown = [p for p in scene.labelled_cards if p.visible > 0.95]
    turned = [p for p in shown if abs(np.degrees(np.arctan2(*(p.corners[1] - p.corners[0])[::-1]))) % 90 > 15]
    assert turned  # a scene deals some cards turned well off square
    views = [straightened_card(scene.image, p.corners.astype(np.float64), 160, CROP_MARGIN) for p in turned]
    for classify in (reader.backend.classify, reader.backend.classify_straight):
        probs = classify(to_tensor(views + [np.ascontiguousarray(v[::-1, ::-1]) for v in views]))
        named = [reader.cards[int(k)] for k in ((probs[: len(views)] + probs[len(views) :]) / 2).argmax(axis=1)]
        assert named == [p.card for p in turned]


def test_every_reading_gets_an_index_look_weighed_in_as_the_decks_familiarity_says() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, backend="onnx", threads=2, settings=ReaderSettings(familiar_deck="known"))
    assert reader.index_columns is not None  # the shipped models have an index reader
    counting = _CountingBackend(reader.backend)
    reader.backend = counting
    apart = _two_cards_apart()
    assert len(reader.read(apart)) == 2 and counting.any_patches == 2 * 4  # sure readings: their boxes' corners
    assert counting.outline_looks == 0  # no outline model: no card can lie under a sure one
    assert counting.patches == 0  # the known deck's index reader looks again at doubtful readings only

    overlapped = _two_overlapping_cards()
    raw = reader.read_raw(overlapped)
    assert counting.outline_looks == 1  # doubtful readings: the outline model looks once, for finds and corners
    # four index patches each from the box, 10 more where the card's outline was found (its two index corners,
    # the outline also moved both ways along and across the card)
    found = reader.outlines(overlapped)[0]
    paired = pair_outlines(np.array([r.box for r in raw], np.float32), found, ReaderSettings().outline_match)
    outlines = [found[paired[i]] if i in paired else None for i in range(len(raw))]
    assert any(o is not None for o in outlines)
    every_patch = sum(4 + 10 * (o is not None) for o in outlines)
    assert len(raw) >= 2 and counting.any_patches == 8 + every_patch and counting.patches == every_patch
    # by hand: the face's probabilities with the surest index patch averaged in, index_weight on a known deck (the
    # card classifier's looks; both readings here are doubtful), unseen_index_weight on a deck never seen (the
    # any-deck face reader's first look, and the any-deck index reader)
    looked = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(index_look=False)).read_raw(overlapped)
    unseen_reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="unseen"))
    unseen = unseen_reader.read_raw(overlapped)
    any_faces = unseen_reader.classify(overlapped, np.array([r.box for r in unseen], np.float32), any_deck=True)
    for reading, index_first, before, any_face, outline in zip(raw, unseen, looked, any_faces, outlines,
                                                                strict=True):
        patches = to_tensor(index_patches(overlapped, reading.box) + outline_patches(overlapped, outline, 64, 0.1))
        for read, face, rows, columns, weight in (
                (reading, before.probabilities, reader.backend.read_index(patches), reader.index_columns,
                 ReaderSettings().index_weight),
                (index_first, any_face, reader.backend.read_any_index(patches), reader.any_index_columns,
                 ReaderSettings().unseen_index_weight)):
            expected = fuse_index(face, rows, columns, weight)
            assert np.allclose(read.probabilities, expected, atol=1e-5)
        assert reading.face_card == int(before.probabilities.argmax()) and reading.index_sure > 0


def test_on_an_unfamiliar_deck_a_reading_goes_unflagged_only_when_its_index_is_sure_of_it() -> None:
    frame = _table(4)
    frame[250:420, 500:620] = 245  # a lone card's stock: nothing but the looks can flag it
    cards = tuple(parse_card(n) for n in ("7S", "9D", "8S"))

    def flags_of(index_card: int, index_sure: float, familiar: bool) -> frozenset[str]:
        reading = RawReading((500.0, 250.0, 620.0, 420.0), 0.9, np.array([0.97, 0.02, 0.01], np.float32), 0, 0.97,
                             index_card, index_sure, familiar, index_must_agree=not familiar)
        return flag_readings(frame, [reading], cards, ReaderSettings())[0].flags

    assert LOW_CONFIDENCE not in flags_of(0, 0.95, familiar=False)  # the index names the 7S surely
    assert LOW_CONFIDENCE in flags_of(0, 0.7, familiar=False)  # the index is unsure
    assert LOW_CONFIDENCE in flags_of(2, 0.95, familiar=False)  # the index reads an 8S
    assert LOW_CONFIDENCE not in flags_of(0, 0.7, familiar=True)  # a familiar deck trusts its face

    def with_face(face_card: int, face_prob: float) -> frozenset[str]:  # the index sure of the 7S
        probs = np.array([0.9, 0.05, 0.05], np.float32)  # the looks fused: the index outweighs the face
        reading = RawReading((500.0, 250.0, 620.0, 420.0), 0.9, probs, face_card, face_prob, 0, 0.95, False,
                             index_must_agree=True)
        return flag_readings(frame, [reading], cards, ReaderSettings())[0].flags

    assert LOW_CONFIDENCE in with_face(2, 0.6)  # the any-deck face reader is fairly sure of the 8S
    assert LOW_CONFIDENCE not in with_face(2, 0.3)  # it only guesses
    assert LOW_CONFIDENCE not in with_face(0, 0.6)  # it agrees


def test_a_second_low_scored_box_over_a_sure_card_does_not_make_the_frame_doubtful(reader: CardReader) -> None:
    boxes = np.array([[0, 0, 100, 140], [5, 5, 95, 135], [400, 0, 500, 140]], np.float32)
    scores = np.array([0.8, 0.33, 0.9], np.float32)  # the second box: the same card, boxed again, unsurely
    probs = np.full((3, len(reader.cards)), 0.0001, np.float32)
    probs[[0, 1], 0] = probs[2, 1] = 0.99
    assert reader.doubtful(boxes, scores, probs) == []  # merged into one sure reading later: nothing to look over
    plain = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(double_box_not_doubtful=False))
    assert plain.doubtful(boxes, scores, probs) == [0, 1]
    probs[1] = 0.0001
    probs[1, 2] = 0.99  # another card under the first: both doubtful, as before
    assert reader.doubtful(boxes, scores, probs) == [0, 1]
    overlapping = np.concatenate([boxes, [[40, 40, 140, 180]]]).astype(np.float32)  # a third card over the first
    probs[1, 2], probs[1, 0] = 0.0001, 0.99
    more_probs = np.concatenate([probs, probs[2:3]])
    more_probs[3] = 0.0001
    more_probs[3, 3] = 0.99
    assert 0 in reader.doubtful(overlapping, np.append(scores, 0.9).astype(np.float32), more_probs)


def test_an_index_reader_that_learnt_the_deck_flags_a_sure_face_it_contradicts() -> None:
    frame = _table(4)
    frame[250:420, 500:620] = 245  # a lone card's stock, face sure of the 7S
    cards = tuple(parse_card(n) for n in ("7S", "9D", "8S"))

    def flags_of(index_card: int, index_sure: float, index_knows_deck: bool) -> frozenset[str]:
        reading = RawReading((500.0, 250.0, 620.0, 420.0), 0.9, np.array([0.97, 0.02, 0.01], np.float32), 0, 0.97,
                             index_card, index_sure, True, index_knows_deck=index_knows_deck)
        return flag_readings(frame, [reading], cards, ReaderSettings())[0].flags

    assert LOW_CONFIDENCE in flags_of(2, 0.95, index_knows_deck=True)  # an enrolled deck's index reads an 8S
    assert LOW_CONFIDENCE not in flags_of(0, 0.95, index_knows_deck=True)  # it agrees
    assert LOW_CONFIDENCE not in flags_of(2, 0.6, index_knows_deck=True)  # it only guesses
    assert LOW_CONFIDENCE not in flags_of(2, 0.95, index_knows_deck=False)  # the shipped index never saw the deck


def test_an_unsure_overlapped_face_that_a_deck_learnt_index_reads_alike_is_not_flagged() -> None:
    frame = _table(4)
    frame[250:420, 500:700] = 245  # two overlapping cards' stock
    cards = tuple(parse_card(n) for n in ("7S", "9D", "8S"))
    face = np.array([0.55, 0.05, 0.40], np.float32)  # the face leans to the 7S, unsure

    def read(index_card: int, index_sure: float, knows: bool, familiar: bool = True, **settings: float) -> Detection:
        under = RawReading((500.0, 250.0, 620.0, 420.0), 0.9, face, 0, 0.55, index_card, index_sure, familiar,
                           index_knows_deck=knows)
        over = RawReading((560.0, 250.0, 700.0, 420.0), 0.9, np.array([0.0, 1.0, 0.0], np.float32), 1, 1.0, 1,
                          1.0, familiar, index_knows_deck=knows)
        return flag_readings(frame, [under, over], cards, ReaderSettings(**settings))[0]

    agreed = read(0, 0.995, knows=True)
    assert str(agreed.card) == "7S" and not agreed.flags and agreed.confidence >= 0.99
    assert read(0, 0.995, knows=True, deck_agree_index=1.0).flags == {LOW_CONFIDENCE, PARTLY_COVERED}  # off
    assert read(2, 0.995, knows=True).flags >= {LOW_CONFIDENCE, PARTLY_COVERED}  # the index names the 8S
    assert read(0, 0.95, knows=True).flags == {LOW_CONFIDENCE, PARTLY_COVERED}  # the index not sure enough
    assert read(0, 0.995, knows=True, deck_agree_face=0.6).flags == {LOW_CONFIDENCE, PARTLY_COVERED}  # nor the face
    # the known deck: the shipped index reader learnt it too; a deck the face never saw: the face is no second look
    assert not read(0, 0.995, knows=False).flags
    assert read(0, 0.995, knows=False, familiar=False).flags == {LOW_CONFIDENCE, PARTLY_COVERED}


def test_an_index_that_learnt_the_deck_gives_the_suit_when_it_reads_the_faces_rank_in_another_suit() -> None:
    cards = tuple(parse_card(n) for n in ("7C", "7S", "8S", "7H"))
    face = np.array([0.60, 0.38, 0.01, 0.01], np.float32)  # the fused look leans to the 7C

    def first(index_card: int, index_sure: float, at_least: float = 0.99) -> str:
        share = np.eye(len(cards), dtype=np.float32)[index_card]
        fused = suit_from_index(face, IndexEvidence(share, index_card, index_sure), cards, at_least)
        assert sorted(fused.tolist()) == sorted(face.tolist())  # the chances are moved, none made up
        return str(cards[int(fused.argmax())])

    assert first(1, 0.995) == "7S"  # the index reads the 7's suit pip as a spade
    assert first(3, 0.995) == "7H"  # any other suit too
    assert first(1, 0.95) == "7C"  # not sure enough
    assert first(1, 0.995, at_least=1.0) == "7C"  # off
    assert first(2, 0.999) == "7C"  # another rank: the index may be a neighbour's corner
    assert first(0, 0.999) == "7C"  # it agrees


def test_on_a_familiar_deck_a_sure_face_is_not_flagged_for_an_overlap_unless_its_index_names_another_card() -> None:
    frame = _table(4)
    frame[250:420, 500:620] = 245  # two cards' stock, overlapping: an overlap alone flagged both before step 43
    frame[300:470, 560:680] = 245
    cards = tuple(parse_card(n) for n in ("7S", "9D", "8S"))
    under = (500.0, 250.0, 620.0, 420.0)
    on_top = RawReading((560.0, 300.0, 680.0, 470.0), 0.9, np.array([0.01, 0.98, 0.01], np.float32), 1, 0.98,
                        1, 0.99)

    def flags_of(face: float, index_card: int, index_sure: float, familiar: bool = True,
                 settings: ReaderSettings | None = None) -> frozenset[str]:
        probs = np.array([face, (1 - face) / 2, (1 - face) / 2], np.float32)
        reading = RawReading(under, 0.9, probs, 0, face, index_card, index_sure, familiar)
        return flag_readings(frame, [reading, on_top], cards, settings or ReaderSettings())[0].flags

    assert ReaderSettings().sure_clears_cover == 0.8
    assert PARTLY_COVERED not in flags_of(0.85, -1, 0.0)  # a sure face, no index corner seen
    assert PARTLY_COVERED not in flags_of(0.85, 2, 0.3)  # the index only guesses at another card
    assert ReaderSettings().cover_contradiction == 0.9
    assert PARTLY_COVERED not in flags_of(0.85, 2, 0.6)  # the index is fairly sure of the 8S: it misreads now and then
    assert PARTLY_COVERED in flags_of(0.85, 2, 0.95)  # it is sure of the 8S
    assert PARTLY_COVERED in flags_of(0.7, -1, 0.0)  # the face itself is doubtful
    assert PARTLY_COVERED in flags_of(0.85, -1, 0.0, familiar=False)  # on a deck never seen the face is no witness
    assert PARTLY_COVERED in flags_of(0.85, -1, 0.0, settings=ReaderSettings(sure_clears_cover=1.0))  # off


def test_a_fresh_reader_doubts_the_face_until_face_and_index_agree_on_enough_cards() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR)  # familiar_deck: auto
    apart = _two_cards_apart()  # a deck the card classifier trained on
    first = reader.read_raw(apart)
    assert not any(r.familiar for r in first)
    for _ in range(4):
        later = reader.read_raw(apart)
    assert all(r.familiar for r in later) and reader.familiarity.share() >= 0.8
    reader.forget_deck()
    assert not any(r.familiar for r in reader.read_raw(apart))


def test_the_outline_model_finds_each_cards_corners() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR)
    assert reader.backend.has_outline_model  # shipped
    errors = []
    for seed in UNSEEN_SEEDS[:4]:
        scene = render_scene(seed)
        outlines, scores = reader.outlines(scene.image)
        assert len(outlines) == len(scores) and all(0.0 <= s <= 1.0 for s in scores)
        for placed in scene.cards:
            if placed.visible < 0.95 or not placed.labelled:
                continue
            corners = np.asarray(placed.corners, np.float64)
            box = (*corners.min(axis=0), *corners.max(axis=0))
            h, w = scene.image.shape[:2]
            if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
                continue  # cut by the picture's edge
            paired = pair_outlines(np.array([box], np.float32), outlines, 0.5)
            assert 0 in paired, (seed, str(placed.card))
            found = outlines[paired[0]]
            upright = upright_outline(found)
            width = float(np.linalg.norm(corners[1] - corners[0]))
            # the card's own corners, the card either way up
            off = min(float(np.abs(np.roll(upright, -turn, axis=0) - corners).max()) for turn in (0, 2))
            errors.append(off / width)
    assert len(errors) >= 5
    assert float(np.median(errors)) < 0.08  # a whole card lying apart: its corners within a few pixels


def test_partly_covered_cards_boxes_move_towards_their_outlines() -> None:
    fused = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(outline_boxes=True))
    plain = CardReader(DEFAULT_MODEL_DIR)
    fits: dict[str, list[float]] = {"fused": [], "plain": []}
    moved = 0
    for seed in UNSEEN_SEEDS:
        scene = render_scene(seed)
        boxes = {name: [r.box for r in reader.read_raw(scene.image)] for name, reader in
                 (("fused", fused), ("plain", plain))}
        moved += sum(1 for a, b in zip(boxes["fused"], boxes["plain"], strict=False) if a != b)
        for card, truth in _truth(scene):
            if next(p for p in scene.cards if p.card == card).visible >= 0.9:
                continue
            for name, found in boxes.items():
                fits[name].append(max((iou(truth, box) for box in found), default=0.0))
    assert moved > 0 and len(fits["fused"]) >= 20
    # the boxes of cards under others fit them better (measured: mean IoU 0.862 against 0.851 on these scenes)
    assert float(np.mean(fits["fused"])) > float(np.mean(fits["plain"]))


def _folder_without(folder: Path, model: str, manifest_key: str) -> Path:
    """A copy of the shipped ONNX models in ``folder`` without one optional model and its manifest entry."""
    import json
    import shutil

    for path in DEFAULT_MODEL_DIR.iterdir():
        if path.suffix == ".onnx" and not path.name.startswith(model):
            shutil.copy(path, folder / path.name)
    manifest = json.loads((DEFAULT_MODEL_DIR / "reader.json").read_text())
    manifest.pop(manifest_key, None)
    (folder / "reader.json").write_text(json.dumps(manifest))
    return folder


def _two_overlapping_cards() -> np.ndarray:
    frame = _table(6)
    faces = load_deck(FIVE_CARD_DRAW)
    paste_card(frame, faces[parse_card("7S")], _card_corners(560, 360))
    paste_card(frame, faces[parse_card("9D")], _card_corners(625, 380))
    return frame


def test_a_model_folder_without_an_outline_model_cuts_index_corners_from_boxes(tmp_path: Path) -> None:
    bare = CardReader(_folder_without(tmp_path, "card-outline", "outline"))
    assert not bare.backend.has_outline_model and bare.outlines(_table(6))[0] == []
    counting = _CountingBackend(bare.backend)
    bare.backend = counting
    frame = _two_overlapping_cards()
    raw = bare.read_raw(frame)
    assert len(raw) >= 2 and counting.any_patches == 4 * len(raw)
    no_outline = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(outline_look=False)).read_raw(frame)
    assert all(np.allclose(a.probabilities, b.probabilities, atol=1e-5) for a, b in zip(raw, no_outline, strict=True))


def test_an_any_deck_index_reader_of_another_patch_size_is_refused(tmp_path: Path) -> None:
    import json

    from vision.reader_models import ModelManifest

    data = json.loads((DEFAULT_MODEL_DIR / "reader.json").read_text())
    data["index_any"] = {**data["index"], "imgsz": 96}
    (tmp_path / "reader.json").write_text(json.dumps(data))
    with pytest.raises(InputError, match="any-deck index reader"):
        ModelManifest.load(tmp_path)


def test_a_model_folder_without_an_index_reader_reads_without_one(tmp_path: Path) -> None:
    bare = CardReader(_folder_without(tmp_path, "card-index", "index"))
    assert bare.index_columns is None
    frame = _two_overlapping_cards()
    plain = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(index_look=False))
    assert [str(d.card) for d in bare.read(frame)] == [str(d.card) for d in plain.read(frame)]


def _raw(box: tuple[float, float, float, float], card_index: int, probability: float, score: float) -> RawReading:
    probabilities = np.full(53, (1.0 - probability) / 52, np.float32)
    probabilities[card_index] = probability
    return RawReading(box, score, probabilities)


def test_one_card_boxed_twice_is_one_reading_over_both_boxes() -> None:
    whole = _raw((100, 100, 300, 340), 5, 0.70, 0.9)
    part = _raw((150, 120, 290, 300), 5, 0.99, 0.7)  # inside the whole box, naming the same card
    (merged,) = merge_double_boxes([whole, part], 0.5)
    assert merged.box == (100, 100, 300, 340)
    assert merged.detector_score == 0.9
    assert float(merged.probabilities[5]) == pytest.approx(0.99)  # the surer reading's probabilities


def test_boxes_naming_different_cards_or_lying_apart_are_kept() -> None:
    whole = _raw((100, 100, 300, 340), 5, 0.9, 0.9)
    other_card = _raw((150, 120, 290, 300), 7, 0.9, 0.9)
    same_card_elsewhere = _raw((600, 100, 800, 340), 5, 0.9, 0.9)
    half_over = _raw((250, 100, 450, 340), 5, 0.9, 0.9)  # a quarter of it inside: a second copy, not a part
    kept = merge_double_boxes([whole, other_card, same_card_elsewhere, half_over], 0.5)
    assert len(kept) == 4


def test_low_confidence_is_flagged_not_dropped() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(confident=1.0))  # nothing is that sure
    scene = render_scene(UNSEEN_SEEDS[0])
    found = reader.read(scene.image)
    assert found and all(LOW_CONFIDENCE in d.flags for d in found)


def test_bad_frames_are_refused_with_a_message(reader: CardReader) -> None:
    with pytest.raises(InputError, match="8-bit"):
        reader.read(np.zeros((100, 100, 3), np.float32))  # type: ignore[arg-type]
    with pytest.raises(InputError, match="BGR"):
        reader.read(np.zeros((100, 100, 5), np.uint8))


def test_gray_and_bgra_frames_are_accepted(reader: CardReader) -> None:
    frame = _table(5, (640, 360))
    import cv2

    assert reader.read(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)) == []
    assert reader.read(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)) == []


def test_missing_model_folder_says_what_to_do(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="export"):
        CardReader(tmp_path)


@pytest.mark.slow
def test_onnx_runtime_and_pytorch_read_the_same() -> None:
    from vision.train import prepare_offline_ultralytics

    prepare_offline_ultralytics()
    onnx = CardReader(DEFAULT_MODEL_DIR, backend="onnx")
    torch = CardReader(DEFAULT_MODEL_DIR, backend="torch")
    compared = 0
    for seed in UNSEEN_SEEDS[:6]:
        frame = render_scene(seed).image
        a, b = onnx.read(frame), torch.read(frame)
        assert [str(d.card) for d in a] == [str(d.card) for d in b]
        for x, y in zip(a, b, strict=True):
            assert np.allclose(x.box, y.box, atol=1.0)
            assert abs(x.confidence - y.confidence) < 0.01
            assert x.flags == y.flags
            compared += 1
        (outlines_a, scores_a), (outlines_b, scores_b) = onnx.outlines(frame), torch.outlines(frame)
        assert len(outlines_a) == len(outlines_b) and np.allclose(scores_a, scores_b, atol=0.01)
        for p, q in zip(outlines_a, outlines_b, strict=True):
            assert np.abs(upright_outline(p) - upright_outline(q)).max() < 1.5
    assert compared >= 10


def test_detection_type_validates() -> None:
    card = parse_card("AH")
    with pytest.raises(ValueError, match="confidence"):
        Detection(card, 1.5, (0, 0, 1, 1))
    with pytest.raises(ValueError, match="box"):
        Detection(card, 0.5, (5, 0, 1, 1))
    with pytest.raises(ValueError, match="flags"):
        Detection(card, 0.5, (0, 0, 1, 1), flags=frozenset({"smudged"}))
    d = Detection(card, 0.5, (0, 0, 10, 20), flags=frozenset({DUPLICATE}))
    assert d.to_json() == {"card": "AH", "confidence": 0.5, "box": [0, 0, 10, 20], "flags": ["duplicate"]}
    assert not d.is_certain and d.center == (5.0, 10.0)


def test_scoring_counts_right_wrong_missed_and_extra() -> None:
    ah, ks, qd = parse_card("AH"), parse_card("KS"), parse_card("QD")
    truth = [(ah, (0.0, 0.0, 10.0, 10.0)), (ks, (20.0, 0.0, 30.0, 10.0)), (qd, (40.0, 0.0, 50.0, 10.0))]
    found = [Detection(ah, 0.9, (0, 0, 10, 10)), Detection(qd, 0.8, (21, 0, 31, 10)),
             Detection(ks, 0.7, (100, 100, 110, 110)),
             Detection(ah, 0.3, (60, 60, 70, 70), flags=frozenset({LOW_CONFIDENCE}))]
    result = EvalResult()
    score_image(result, truth, found)
    assert (result.right, result.wrong, result.missed, result.extra) == (1, 1, 1, 2)
    assert result.extra_unflagged == 1  # the sure reading of a card not there; the doubtful one was flagged
    assert result.set_recall == 1.0  # every true card was named somewhere…
    assert result.set_precision == 1.0  # …and nothing named is absent, though one box was misread


def test_a_card_showing_too_little_to_be_labelled_is_not_counted_as_extra() -> None:
    ah, ks = parse_card("AH"), parse_card("KS")
    truth = [(ah, (0.0, 0.0, 10.0, 10.0))]
    under = [(ks, (20.0, 0.0, 30.0, 14.0))]  # drawn in the scene, but a third of it shows: no label
    found = [Detection(ah, 0.9, (0, 0, 10, 10)), Detection(ks, 0.6, (20, 0, 30, 13), flags=frozenset({PARTLY_COVERED}))]
    result = EvalResult()
    score_image(result, truth, found, under)
    assert (result.right, result.extra, result.under_label) == (1, 0, 1)
    misnamed = [Detection(ah, 0.9, (0, 0, 10, 10)), Detection(parse_card("QS"), 0.6, (20, 0, 30, 13))]
    result = EvalResult()
    score_image(result, truth, misnamed, under)  # a name the card there does not have is a card that is not there
    assert (result.extra, result.under_label) == (1, 0)


def test_eval_finds_the_unlabelled_cards_a_scene_records(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from vision.eval import shown_shares, unlabelled_cards
    from vision.synth.dataset import write_scenes

    seeds = range(2_000_000, 2_000_012)
    write_scenes(tmp_path, seeds)
    found = unlabelled_cards(tmp_path / "images")
    assert sorted(found) == [f"scene_{s:07d}.jpg" for s in seeds]
    scenes = [render_scene(s) for s in seeds]
    expected = [sorted(str(p.card) for p in sc.cards if not p.labelled and p.visible > 0) for sc in scenes]
    assert [sorted(str(c) for c, _ in found[f"scene_{s:07d}.jpg"]) for s in seeds] == expected
    assert any(expected)  # these scenes do hold cards under the labelling share
    assert unlabelled_cards(tmp_path / "elsewhere" / "images") == {}
    shown = shown_shares(tmp_path / "images")
    assert {str(c): v for c, v in shown["scene_2000000.jpg"].items()} == {
        str(p.card): round(p.visible, 4) for p in scenes[0].cards}
    assert shown_shares(tmp_path / "elsewhere" / "images") == {}


def test_cards_are_also_counted_by_how_much_of_them_shows() -> None:
    ah, ks, qd = parse_card("AH"), parse_card("KS"), parse_card("QD")
    truth = [(ah, (0.0, 0.0, 10.0, 10.0)), (ks, (20.0, 0.0, 30.0, 10.0)), (qd, (40.0, 0.0, 50.0, 10.0))]
    found = [Detection(ah, 0.9, (0, 0, 10, 10)), Detection(qd, 0.8, (21, 0, 31, 10))]  # KS misread, QD missed
    result = EvalResult()
    score_image(result, truth, found, shown={ah: 1.0, ks: 0.45, qd: 0.5})
    bands = result.summary()["by_shown"]
    assert bands["showing 60% or more"] == {"cards": 1, "right": 1, "share_right": 1.0}
    assert bands["showing under 60%"] == {"cards": 2, "right": 0, "share_right": 0.0}
    plain = EvalResult()
    score_image(plain, truth, found)  # real photos: no shares known, no bands
    assert plain.summary()["by_shown"] == {}


def test_named_in_place_accepts_a_whole_card_box_over_a_visible_part_label() -> None:
    # The real photos label an overlapped card by the part that shows; the reader boxes the whole card.
    seven, nine = parse_card("7H"), parse_card("9H")
    truth = [(seven, (0.0, 0.0, 60.0, 40.0)), (nine, (0.0, 40.0, 60.0, 120.0))]
    whole_seven = Detection(seven, 0.9, (0, 0, 60, 100))  # covers all of the 7's label: IoU only 0.4
    elsewhere = Detection(nine, 0.9, (200, 200, 260, 280))  # the right name, far from the 9
    result = EvalResult()
    score_image(result, truth, [whole_seven, elsewhere])
    assert result.right == 0  # the strict measure counts neither
    assert result.in_place == 1 and result.named_in_place == 0.5
    result = EvalResult()
    score_image(result, truth, [Detection(nine, 0.9, (0, 0, 60, 45))])  # a 9 read where the 7 shows
    assert result.in_place == 0  # it covers 1/16 of the 9's label: not the 9's place


def test_outline_finds_adds_a_fanned_card_only_the_outline_model_found_when_its_index_reads() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR)
    assert reader.settings.outline_finds  # on by default
    frame = _two_overlapping_cards()  # the 9D lies on the 7S: the 7S's index corner shows
    under, top = _card_corners(560, 360).astype(np.float64), _card_corners(625, 380).astype(np.float64)
    felt_only = _card_corners(1100, 200).astype(np.float64)  # a sure outline over bare felt: no index
    boxes = np.array([outline_box(top)], np.float32)  # the detector boxed only the top card
    scores = np.array([0.9], np.float32)
    outlines = [top, under, felt_only]
    more_boxes, more_scores = reader.found_by_outline(frame, boxes, scores, outlines,
                                                      np.array([0.9, 0.8, 0.9], np.float32))
    assert more_boxes.tolist() == [list(outline_box(top)), list(outline_box(under))]
    assert np.allclose(more_scores, [0.9, 0.8])
    # the outline model scores a card mostly under another low: its index, not the score, lets it in
    low = reader.found_by_outline(frame, boxes, scores, outlines, np.array([0.9, 0.15, 0.9], np.float32))
    assert low[0].tolist() == [list(outline_box(top)), list(outline_box(under))]
    # an outline under outline_find_min is not taken, nor one the box claims
    same = reader.found_by_outline(frame, boxes, scores, outlines, np.array([0.9, 0.05, 0.9], np.float32))
    assert same[0] is boxes and same[1] is scores
    # the fanned card is read: its box comes from the outline and the reading names it
    readings = reader.read(frame)
    assert {str(d.card) for d in readings} >= {"7S", "9D"}


def _found_under(reader: CardReader, outline: np.ndarray) -> bool:
    """Whether ``reader`` takes ``outline`` as a card the detector missed beside the boxed 9D of the fan."""
    frame = _two_overlapping_cards()
    top = _card_corners(625, 380).astype(np.float64)
    boxes, scores = np.array([outline_box(top)], np.float32), np.array([0.9], np.float32)
    found, _ = reader.found_by_outline(frame, boxes, scores, [top, outline], np.array([0.9, 0.8], np.float32))
    return len(found) == 2


def test_an_outline_a_little_off_the_card_is_found_by_its_index_at_the_shifted_places() -> None:
    off = _card_corners(560, 360).astype(np.float64) + np.array([16.0, 0.0])  # an eighth of the card's width off
    known = ReaderSettings(familiar_deck="known")  # the index reader checks the finds (the any-deck one, surer of
    # a corner partly in view, checks them too while the deck is not familiar)
    assert _found_under(CardReader(DEFAULT_MODEL_DIR, settings=known), off)  # outline_shift 0.1: a patch on the index
    unshifted = dataclasses.replace(known, outline_shift=0.0)
    assert not _found_under(CardReader(DEFAULT_MODEL_DIR, settings=unshifted), off)


def test_an_outline_as_wide_as_long_is_not_taken_for_a_card() -> None:
    square = _card_corners(560, 360).astype(np.float64)
    square[2:, 1] = square[0, 1] + (square[1, 0] - square[0, 0])  # the 7S's outline cut to a square over its index
    assert not _found_under(CardReader(DEFAULT_MODEL_DIR), square)  # outline_find_ratio 1.1
    assert _found_under(CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(outline_find_ratio=1.0)), square)


def test_a_model_folder_without_a_straight_classifier_reads_straightened_cards_with_the_card_classifier(
        tmp_path: Path) -> None:
    bare = CardReader(_folder_without(tmp_path, "card-straight", "straight"))
    scene = render_scene(7_000_031)
    views = [straightened_card(scene.image, p.corners.astype(np.float64), 160, CROP_MARGIN)
             for p in scene.labelled_cards[:3]]
    batch = to_tensor(views)
    assert np.allclose(bare.backend.classify_straight(batch), bare.backend.classify(batch), atol=1e-6)


def test_the_networks_input_is_the_images_rgb_channels_first_in_0_to_1() -> None:
    images = [np.random.default_rng(k).integers(0, 256, (64, 48, 3), dtype=np.uint8) for k in range(3)]
    batch = to_tensor(images)
    assert batch.shape == (3, 3, 64, 48) and batch.dtype == np.float32 and batch.flags.c_contiguous
    for image, planes in zip(images, batch, strict=True):
        assert np.allclose(planes, image[:, :, ::-1].transpose(2, 0, 1) / 255.0, atol=1e-6)  # BGR → RGB planes


def test_an_unfamiliar_decks_faces_are_read_by_the_any_deck_face_reader(tmp_path: Path) -> None:
    overlapped = _two_overlapping_cards()
    unseen = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="unseen"))
    assert unseen.backend.has_any_classifier  # shipped since step 43
    raw = unseen.read_raw(overlapped)
    boxes = np.array([r.box for r in raw], np.float32)
    faces = unseen.classify(overlapped, boxes, any_deck=True)
    assert not np.allclose(faces, unseen.classify(overlapped, boxes), atol=1e-3)  # another reader
    assert [r.face_card for r in raw] == [int(f.argmax()) for f in faces]
    assert np.allclose([r.face_prob for r in raw], faces.max(axis=1), atol=1e-5)
    # a folder without one reads an unfamiliar deck's faces with the card classifier, as before
    bare = CardReader(_folder_without(tmp_path, "card-classifier-any", "classifier_any"),
                      settings=ReaderSettings(familiar_deck="unseen"))
    assert not bare.backend.has_any_classifier
    first_look = bare.read_raw(overlapped)
    assert [r.face_card for r in first_look] != [int(f.argmax()) for f in faces] or not np.allclose(
        [r.face_prob for r in first_look], faces.max(axis=1), atol=1e-3)


def test_an_any_deck_face_reader_with_other_classes_is_refused_by_name(tmp_path: Path) -> None:
    import json

    folder = _folder_without(tmp_path, "card-straight", "straight")
    manifest = json.loads((folder / "reader.json").read_text())
    manifest["classifier_any"] = {"imgsz": 160, "names": manifest["classifier"]["names"][::-1]}
    (folder / "reader.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError, match="the any-deck face reader's classes are not the card classifier's"):
        CardReader(folder)


def test_a_straight_classifier_with_other_classes_is_refused_by_name(tmp_path: Path) -> None:
    import json

    folder = _folder_without(tmp_path, "card-straight", "straight")
    manifest = json.loads((folder / "reader.json").read_text())
    manifest["straight"] = {"imgsz": 160, "names": manifest["classifier"]["names"][::-1]}
    (folder / "reader.json").write_text(json.dumps(manifest))
    with pytest.raises(InputError, match="the straight classifier's classes are not the card classifier's"):
        CardReader(folder)


def test_a_low_scored_box_is_a_card_when_the_deck_learnt_index_reads_a_card_no_other_reading_names(
        reader: CardReader) -> None:
    frame = _table(11)
    faces = load_deck(FIVE_CARD_DRAW)
    paste_card(frame, faces[parse_card("7S")], _card_corners(300, 360))
    paste_card(frame, faces[parse_card("QH")], _card_corners(800, 360))
    kept = np.array([[800 - 65, 360 - 91, 800 + 65, 360 + 91]], np.float32)  # the queen, boxed surely
    scores = np.array([0.9], np.float32)
    queen = np.zeros((1, len(reader.cards)), np.float32)
    queen[0, reader.cards.index(parse_card("QH"))] = 1.0
    seven = np.array([[300 - 65, 360 - 91, 300 + 65, 360 + 91]], np.float32)
    felt_only = np.array([[500, 100, 630, 282]], np.float32)

    def found(low: np.ndarray, probs: np.ndarray = queen, **settings: float) -> int:
        shipped = reader.settings
        reader.settings = ReaderSettings(**settings)
        try:
            boxes, _ = reader.found_by_deck_index(frame, kept, scores, probs, low, np.full(len(low), 0.1, np.float32))
        finally:
            reader.settings = shipped
        return len(boxes) - len(kept)

    assert found(seven) == 1  # the 7S's corners read surely, and no reading names it
    assert found(felt_only) == 0  # bare felt reads no index
    named_seven = np.zeros_like(queen)
    named_seven[0, reader.cards.index(parse_card("7S"))] = 1.0
    assert found(seven, named_seven) == 0  # one deck: a card already read is not found twice
    assert found(kept + np.float32(4)) == 0  # a box over a kept one is the same card
    assert found(np.concatenate([seven, seven + np.float32(3)])) == 1  # a low box twice is one card
    assert found(seven, deck_box_index=1.0) == 0  # the index must be that sure
