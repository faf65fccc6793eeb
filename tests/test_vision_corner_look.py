"""The corner look: ranks read by the pretrained OCR recogniser, and how sure index corners check an unfamiliar
deck's readings (issue 53)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from engine.cards import parse_card
from vision.corner_look import apply_corner_look
from vision.corner_reader import CornerReading, quarter_turns, rank_crop
from vision.detection import DUPLICATE, LOW_CONFIDENCE, PARTLY_COVERED, Detection
from vision.rank_ocr import RANK_TEXTS, RankReader, spelling_log_probability, spellings_log_probability

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def printed_rank(text: str, ink: tuple[int, int, int] = (200, 30, 30)) -> np.ndarray:  # ink in RGB
    image = Image.new("RGB", (70, 60), (245, 245, 240))
    ImageDraw.Draw(image).text((6, 4), text, font=ImageFont.truetype(FONT, 44), fill=ink)
    return np.asarray(image)[:, :, ::-1].copy()


@pytest.fixture(scope="module")
def ranks() -> RankReader:
    return RankReader()


def test_every_rank_printed_in_a_font_is_read_surely(ranks: RankReader) -> None:
    probs = ranks.read([printed_rank(text) for text in RANK_TEXTS])
    assert [RANK_TEXTS[i] for i in probs.argmax(axis=1)] == list(RANK_TEXTS)
    assert probs.max(axis=1).min() > 0.95
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)


def test_bare_card_paper_and_noise_read_as_no_rank(ranks: RankReader) -> None:
    noise = (np.random.default_rng(0).random((60, 60, 3)) * 255).astype(np.uint8)
    assert ranks.read([np.full((60, 60, 3), 240, np.uint8), noise]).max(axis=1).max() < 0.9


def test_the_upright_quarter_turn_of_a_turned_corner_reads_its_rank(ranks: RankReader) -> None:
    frame = np.full((200, 200, 3), 90, np.uint8)
    corner = np.rot90(printed_rank("7"), 1)  # the card lies a quarter turn anticlockwise: 70 high, 60 wide
    frame[60:130, 70:130] = corner
    views = quarter_turns(frame, (70.0, 60.0, 130.0, 130.0))
    probs = ranks.read([rank_crop(view, box) for view, box in views])
    best = int(probs.max(axis=1).argmax())
    assert RANK_TEXTS[int(probs[best].argmax())] == "7"
    assert best == 3  # three more anticlockwise quarter turns bring it upright


def test_ctc_spelling_probability_counts_every_alignment() -> None:
    # two columns, blank = 0, "1" = 1: the spellings of "1" are "1 1", "1 -", "- 1"
    probs = np.array([[0.5, 0.5], [0.5, 0.5]])
    assert np.exp(spelling_log_probability(np.log(probs), [1])) == pytest.approx(0.75)
    assert np.exp(spelling_log_probability(np.log(probs), [1, 1])) == pytest.approx(0.0, abs=1e-12)  # needs a blank


def detection(card: str, box: tuple[float, float, float, float], flags: set[str]) -> Detection:
    return Detection(parse_card(card), 0.5, box, None, frozenset(flags))


def corner(card: str, box: tuple[float, float, float, float], rank_sure: float = 0.999,
           ink_told: bool = True, by_corner_index: bool = False) -> CornerReading:
    return CornerReading(box, card, rank_sure, 0.95, 0.8, ink_told, by_corner_index)


SETTINGS = dict(rank_sure=0.99, suit_sure=0.8, inside=0.8, new_cards=True)


def test_a_sure_corner_that_agrees_clears_the_doubt_and_one_of_another_rank_renames_flagged() -> None:
    readings = [detection("7H", (0, 0, 100, 140), {LOW_CONFIDENCE}), detection("9S", (200, 0, 300, 140), set()),
                detection("5D", (400, 0, 500, 140), {LOW_CONFIDENCE})]
    out = apply_corner_look(readings, [corner("7H", (5, 5, 25, 40)), corner("8C", (270, 100, 295, 135)),
                                       corner("5H", (405, 5, 425, 40))], **SETTINGS)
    assert (str(out[0].card), out[0].flags) == ("7H", frozenset())
    assert str(out[1].card) == "8S" and LOW_CONFIDENCE in out[1].flags  # the OCR's rank, the reading's suit
    assert out[2] == readings[2]  # the same rank in another suit: the reading stands, still doubted
    # a grey picture: the corner's suit has no second witness (the ink's colour), so the doubt stays
    grey = apply_corner_look(readings[:1], [corner("7H", (5, 5, 25, 40), ink_told=False)], **SETTINGS)
    assert grey == readings[:1]


def test_a_sure_corner_whose_suit_the_suit_reader_read_is_the_card_and_confirms_even_in_grey() -> None:
    readings = [detection("7H", (0, 0, 100, 140), {LOW_CONFIDENCE}), detection("9S", (200, 0, 300, 140), set()),
                detection("5D", (400, 0, 500, 140), {LOW_CONFIDENCE}), detection("JK", (600, 0, 700, 140), set())]
    corners = [corner("7H", (5, 5, 25, 40), ink_told=False, by_corner_index=True),
               corner("8C", (270, 100, 295, 135), by_corner_index=True),
               corner("5H", (405, 5, 425, 40), by_corner_index=True),
               corner("QD", (605, 5, 625, 40), by_corner_index=True)]
    out = apply_corner_look(readings, corners, **SETTINGS)
    assert (str(out[0].card), out[0].flags) == ("7H", frozenset())  # confirmed without the ink: a grey picture
    assert [str(d.card) for d in out[1:]] == ["8C", "5H", "QD"]  # the corner's rank and suit
    assert all(LOW_CONFIDENCE in d.flags for d in out[1:])  # two looks disagreed: still the dealer's to confirm
    # the index reader's suit (a folder without a suit reader) is not enough to change a reading's suit
    fallback = apply_corner_look(readings[2:3], [corner("5H", (405, 5, 425, 40))], **SETTINGS)
    assert fallback == readings[2:3]


def test_a_rename_to_a_card_another_box_reads_marks_both_duplicate() -> None:
    # IMG_20220921_194129 read alone: one box read 8H, the corner renamed a second box's 5H to 8H
    readings = [detection("8H", (0, 0, 100, 140), set()), detection("5H", (200, 0, 300, 140), {LOW_CONFIDENCE}),
                detection("2C", (400, 0, 500, 140), set())]
    out = apply_corner_look(readings, [corner("8H", (205, 5, 225, 40))], **SETTINGS)
    assert [str(d.card) for d in out] == ["8H", "8H", "2C"]
    assert DUPLICATE in out[0].flags and DUPLICATE in out[1].flags and LOW_CONFIDENCE in out[1].flags
    assert out[2] == readings[2]
    # a rename to a card no other box reads is not a duplicate
    alone = apply_corner_look(readings[1:], [corner("8H", (205, 5, 225, 40))], **SETTINGS)
    assert str(alone[0].card) == "8H" and DUPLICATE not in alone[0].flags


def test_unsure_corners_and_corners_of_two_cards_in_one_box_change_nothing() -> None:
    readings = [detection("7H", (0, 0, 100, 140), {LOW_CONFIDENCE})]
    unsure = apply_corner_look(readings, [corner("7H", (5, 5, 25, 40), rank_sure=0.6)], **SETTINGS)
    assert unsure == readings
    two = apply_corner_look(readings, [corner("7H", (5, 5, 25, 40)), corner("2C", (70, 100, 95, 135))], **SETTINGS)
    assert two == readings


def test_a_sure_corner_no_reading_claims_is_a_card_seen_only_by_its_corner() -> None:
    readings = [detection("7H", (0, 0, 100, 140), set())]
    out = apply_corner_look(readings, [corner("AD", (400, 300, 430, 340)), corner("7H", (500, 300, 530, 340))],
                            **SETTINGS)
    assert [str(d.card) for d in out] == ["7H", "AD"]  # a second 7H is not added: one deck
    assert out[1].flags == frozenset({PARTLY_COVERED}) and out[1].box == (400, 300, 430, 340)
    assert apply_corner_look(readings, [corner("AD", (400, 300, 430, 340))], **{**SETTINGS, "new_cards": False}) \
        == readings


def test_the_inks_colour_tells_red_suits_from_black_unless_the_picture_is_grey() -> None:
    from vision.corner_reader import ink_is_red, is_grey_picture

    red, black = printed_rank("Q", ink=(190, 30, 40)), printed_rank("Q", ink=(25, 25, 25))  # RGB
    assert ink_is_red(red) is True and ink_is_red(black) is False
    assert ink_is_red(np.full((40, 40, 3), 240, np.uint8)) is None  # bare paper: no ink to tell
    grey = np.repeat(red.mean(axis=2, keepdims=True).astype(np.uint8), 3, axis=2)
    assert is_grey_picture(grey) and not is_grey_picture(red)


def test_the_shipped_corner_reader_finds_and_reads_the_corners_of_a_deck_no_model_trained_on() -> None:
    import cv2

    from vision.corner_reader import CornerReader
    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR
    from vision.synth.procedural import TEST_DECK_SEEDS, procedural_deck

    reader = CardReader(DEFAULT_MODEL_DIR)
    corners = reader.corner_reader()
    assert isinstance(corners, CornerReader)
    deck = procedural_deck(TEST_DECK_SEEDS + 3, index_size="large")  # a held-out design: never trained on
    ranks_read = cards_read = 0
    for card in ("AS", "KH", "5D", "10D", "JS"):
        face = next(image for c, image in deck.items() if str(c) == card)
        table = np.full((480, 640, 3), (40, 110, 40), np.uint8)
        scale = 300 / face.shape[0]
        laid = cv2.resize(face, (round(face.shape[1] * scale), 300))
        table[90 : 90 + laid.shape[0], 200 : 200 + laid.shape[1]] = laid
        found = corners.read(table)
        assert 1 <= len(found) <= 2  # its two index corners, nothing on the felt
        ranks_read += any(r.card[:-1] == card[:-1] and r.rank_sure > 0.99 for r in found)
        cards_read += any(r.card == card and r.by_corner_index for r in found)
    assert ranks_read >= 4
    assert cards_read >= 4  # the suit too, by the shipped suit reader


def test_a_deck_the_dealer_names_unseen_is_checked_by_its_corners_from_the_first_frame() -> None:
    from vision.reader import CardReader, ReaderSettings
    from vision.reader_models import DEFAULT_MODEL_DIR

    counted = CardReader(DEFAULT_MODEL_DIR)
    named = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="unseen"))
    assert counted.deck_verdict() == (False, False)  # nothing counted yet: a known deck's first frames stay fast
    assert named.deck_verdict() == (False, True)  # `vision read --deck unseen` on one photo: the corner look runs
    named.read(np.full((480, 640, 3), (40, 110, 40), np.uint8))  # an empty felt counts nothing
    assert named.deck_verdict() == (False, True) and counted.deck_verdict() == (False, False)


def test_a_close_up_cards_large_index_corner_is_found_and_read() -> None:
    """A phone close-up: the card cut by the frame's edges, its index corner a quarter of the frame's height (larger
    than nearly every corner the detector learnt from: its smallest look brings it to their size)."""
    import cv2

    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR
    from vision.synth.procedural import TEST_DECK_SEEDS, procedural_deck

    corners = CardReader(DEFAULT_MODEL_DIR).corner_reader()
    assert corners is not None
    deck = procedural_deck(TEST_DECK_SEEDS + 3, index_size="large")  # a held-out design: never trained on
    ranks_read = 0
    for card in ("AS", "KH", "5D", "10D", "JS", "8C"):
        face = next(image for c, image in deck.items() if str(c) == card)
        table = np.full((853, 640, 3), (120, 150, 170), np.uint8)  # a wooden desk's colour
        laid = cv2.resize(face, (round(face.shape[1] * 800 / face.shape[0]), 800))[:813, :580]
        table[40 : 40 + laid.shape[0], 60 : 60 + laid.shape[1]] = laid
        found = corners.read(table)
        ranks_read += any(r.card[:-1] == card[:-1] and r.rank_sure > 0.99 for r in found)
    assert ranks_read >= 5


def test_ctc_spellings_of_every_length_are_scored_together_as_each_alone() -> None:
    rng = np.random.default_rng(3)
    log_probs = np.log(rng.dirichlet(np.ones(5), (4, 7)))  # 4 lines, 7 columns, blank + 4 characters
    spellings = [[1], [2, 3], [4, 4], [3]]
    together = spellings_log_probability(log_probs, spellings)
    alone = [[spellings_log_probability(line[None], [s])[0, 0] for s in spellings] for line in log_probs]
    assert together == pytest.approx(np.array(alone))
    assert np.exp(together).sum(axis=1).max() < 1.0  # the spellings are some of the line's readings, not all


def test_a_card_boxed_twice_and_renamed_by_its_corner_shows_once() -> None:
    # a whole-card box read as 8D and a box of its lower half read as 9D; the sure corner (by the corner index
    # reader) in the half box names 9D: renamed, the two readings name one card boxed twice
    whole = detection("9D", (0, 0, 200, 280), {LOW_CONFIDENCE})
    half = detection("8D", (0, 140, 200, 280), {LOW_CONFIDENCE})
    apart = detection("5S", (400, 0, 600, 280), set())
    sure = corner("9D", (160, 220, 195, 275), by_corner_index=True)
    out = apply_corner_look([whole, half, apart], [sure], same_card=0.6, **SETTINGS)
    assert sorted(str(d.card) for d in out) == ["5S", "9D"]
    [nine] = [d for d in out if str(d.card) == "9D"]
    assert nine.box == (0, 0, 200, 280) and DUPLICATE not in nine.flags and LOW_CONFIDENCE in nine.flags
    # boxes of two places are two cards: both stay, in doubt
    far = detection("8D", (400, 300, 600, 580), {LOW_CONFIDENCE})
    out = apply_corner_look([whole, far], [corner("9D", (560, 520, 595, 575), by_corner_index=True)],
                            same_card=0.6, **SETTINGS)
    assert [str(d.card) for d in out] == ["9D", "9D"] and all(DUPLICATE in d.flags for d in out)
