"""Reading the cards in a frame: card detector → crop → card classifier → flagged detections.

Doubt is reported, never resolved: ``low_confidence`` under the threshold, ``duplicate`` on every copy of a card
read more than once (with one deck on the table, only when the less sure reading has no other likely card: otherwise
it is named by that card and flagged ``low_confidence``), ``partly_covered`` when the card's box is overlapped by
another card's or its face is mostly not card-coloured (a hand, a chip). The reader itself never drops a card
because of a flag. One card boxed twice by the detector (two boxes that name the same card, the smaller one mostly
inside the larger) is one reading, not a duplicate: two copies of a card cannot lie on top of each other.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import threading
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.errors import InputError
from vision.coarse_look import coarse_size, merge_coarse
from vision.corner_look import apply_corner_look
from vision.corner_reader import CORNER_IMGSZ, CornerReader
from vision.detection import (
    DUPLICATE,
    LOW_CONFIDENCE,
    PARTLY_COVERED,
    Detection,
    Point,
    box_area,
    covered_share,
    iou,
    one_card_twice,
    union_box,
)
from vision.frame_noise import without_impulse_noise
from vision.reader_classes import card_of_class_name
from vision.reader_crops import CROP_MARGIN, SECOND_LOOK_MARGINS, square_crop
from vision.reader_familiar import FAMILIAR_MODES, DeckFamiliarity, IndexEvidence, fuse, index_evidence
from vision.reader_index import index_columns, index_patches
from vision.reader_models import (
    DEFAULT_MODEL_DIR,
    Backend,
    ModelManifest,
    decode_detections,
    letterbox,
    open_backend,
    to_tensor,
)
from vision.reader_outline import (
    Quad,
    decode_outlines,
    fused_boxes,
    outline_aspect,
    outline_box,
    outline_patches,
    pair_outlines,
    straightened_card,
    unclaimed_outlines,
)

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class ReaderSettings:
    """Thresholds of the reader, each with one line of why; the measurements that chose them, step by step, are in
    models/HISTORY.md (the step named), all on validation sets, never on test photos."""

    detect_min: float = 0.30  # a box scored under this is no card (real validation: 0.20 gave 20 more extra boxes)
    confident: float = 0.80  # a reading under this is flagged low_confidence (98.4 % of the rest right, step 4)
    nms_iou: float = 0.6  # boxes overlapping more are one card
    input_stride: int = 32  # pad the detector's input to this multiple, not to a square: 40 % fewer pixels (step 46)
    covered_overlap: float = 0.30  # a box overlapped over this share by another card's is partly_covered
    same_card_overlap: float = 0.60  # two boxes of one card, the smaller this far inside, are one reading (step 34)
    double_box_not_doubtful: bool = True  # a card boxed twice sends no frame to the slower looks (step 45)
    turned_too: bool = True  # each crop is also read turned half a turn, and averaged (+1 % on real crops)
    second_look: bool = False  # 8 more crops of a doubtful card: no help once every index is read (step 43)
    index_look: bool = True  # a doubtful reading is also read by its index corners (``vision.reader_index``)
    index_weight: float = 0.75  # how much the surest index patch weighs against the face (steps 15, 22)
    outline_look: bool = True  # index corners are also cut at the outline model's outline of the card (step 17)
    outline_match: float = 0.5  # a box and an outline are one card from this IoU on
    outline_min: float = 0.10  # a covered card's outline scores low but lies right: the index decides (step 26)
    outline_shift: float = 0.10  # an outline's corners also cut moved this share of a card, since it guesses (step 19)
    outline_finds: bool = True  # an outline no box claims is a card when its index reads as one (fans, step 19)
    outline_find_min: float = 0.10
    outline_find_index: float = 0.8  # the index check keeps out outlines across two cards or over felt (step 35)
    outline_find_ratio: float = 1.1  # cards are 1.4-1.56 long for wide; an outline across two was 1.04
    outline_boxes: bool = False  # boxes moved to outlines read the real test photos 3 cards worse (step 24)
    outline_box_ratio: float = 1.3
    straight_look: bool = True  # a fanned card straightened by its outline fills the crop (step 29)
    straight_weight: float = 0.75
    one_deck: bool = True  # one deck on the table: of two readings of a card the less sure takes its next card
    one_deck_alternative: float = 0.05  # ... when that card is at least this likely; else both are duplicate
    familiar_deck: str = "auto"  # auto: count whether face and index agree; known: trust the face; unseen: index first
    familiar_agreement: float = 0.8  # the deck counts as familiar once this share of sure readings agree (step 42)
    unseen_index_weight: float = 1.0  # on an unseen deck the index weighs as much as the any-deck face (step 44)
    unseen_contradiction: float = 0.5  # on an unseen deck, an index this sure of another card flags the reading
    unseen_needs_index: float = 0.9  # ... and a reading goes out unflagged only if its index is this sure of it
    unseen_settled: int = 10  # sure readings before a deck counts as unseen: a known deck's first frames stay read
    agree_clears_cover: float = 0.9  # face and index both this sure: an overlap alone does not flag (two looks agree)
    sure_clears_cover: float = 0.8  # on a familiar deck a face this sure is not flagged for an overlap (step 43)
    cover_contradiction: float = 0.9  # ... unless its index is this sure of another card (step 48)
    neighbour_corner: float = 0.5  # an index corner read as a touching card is that card's, not evidence (step 48)
    no_card_detector: float = 0.45  # a lone low box that neither look can read is a pattern on cloth (step 48)
    no_card_face: float = 0.4
    no_card_index: float = 0.2
    duplicate_sure_copy: bool = True  # of a card read twice, the copy both looks vouch for is not flagged (step 48)
    deck_index_contradiction: float = 0.9  # an enrolled deck's index this sure of another card makes it doubtful
    deck_agree_face: float = 0.5  # face and a deck-trained index agreeing (face this sure, index ...) clear a flag
    deck_agree_index: float = 0.99  # ... this sure (enrollment bench, step 46: 53 right cleared, none wrong)
    deck_index_suit: float = 0.99  # an enrolled index this sure of the face's rank in another suit gives the suit
    deck_box_min: float = 0.05  # a low box whose enrolled index reads a card nobody names is that card (step 47)
    deck_box_index: float = 0.9
    deck_box_overlap: float = 0.7
    unseen_face_reader: bool = True  # an unseen deck's faces are read by the any-deck face reader (step 43)
    unseen_face_contradiction: float = 0.5  # ... and a face this sure of another card flags the reading
    impulse_noise: float = 0.0005  # a frame with this share of salt-and-pepper pixels is median-filtered (step 49)
    close_up_cards: float = 100.0  # cards bigger than this at the input (px) are detected again smaller (step 49)
    close_up_target: float = 64.0  # ... so that they come to about this size (0 in close_up_cards: off)
    far_cards: float = 32.0  # cards smaller than this at the input are read from the frame enlarged (step 50)
    far_target: float = 50.0  # ... to about this size
    far_enlarge: float = 2.0  # ... at most this many times
    coarse_look: float = 0.5  # the detector also reads at this share of its input: close-ups boxed whole (issue 53)
    coarse_part: float = 0.35  # a coarse box replaces fine boxes each at most this share of it: pips, indices
    corner_look: bool = True  # an unfamiliar deck's readings checked by its index corners, ranks read by OCR (issue 53)
    corner_rank_sure: float = 0.99  # a corner counts when the OCR is this sure of its rank ...
    corner_suit_sure: float = 0.8  # ... and the index reader of its suit
    corner_inside: float = 0.8  # a corner this far inside a reading's box is that card's
    corner_new_cards: bool = True  # a sure corner no reading claims is a card (flagged partly_covered)
    # a corner's upright turn is the one the corner index reader is surest of, read once by the OCR; else the one of
    # every turn the box allows where the OCR and it agree most. Chosen on card-designs' test corners
    # (bench/vision_corners.py): the turn right 85 % against 66 %, the rank 83 % against 70 %, 2.4 times faster.
    corner_turn_by_network: bool = True

    def __post_init__(self) -> None:
        shares_and_scores = ("detect_min", "confident", "nms_iou", "covered_overlap", "same_card_overlap",
                             "outline_match", "outline_min", "outline_find_min", "outline_find_index",
                             "one_deck_alternative", "familiar_agreement", "unseen_contradiction",
                             "unseen_needs_index", "agree_clears_cover", "sure_clears_cover",
                             "cover_contradiction", "unseen_face_contradiction", "deck_index_contradiction",
                             "deck_agree_face", "deck_agree_index", "deck_index_suit", "deck_box_min",
                             "deck_box_index", "deck_box_overlap", "neighbour_corner", "no_card_detector",
                             "no_card_face", "no_card_index", "impulse_noise", "coarse_look", "coarse_part",
                             "corner_rank_sure", "corner_suit_sure", "corner_inside")
        for name in shares_and_scores:  # all within 0..1
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InputError(f"reader setting {name} must be within 0..1, got {value}")
        if not 0.0 <= self.outline_shift <= 0.5:
            raise InputError(f"reader setting outline_shift must be within 0..0.5 (a share of a card's width), "
                             f"got {self.outline_shift}")
        for name in ("outline_box_ratio", "outline_find_ratio"):
            if not 1.0 <= getattr(self, name) <= 2.0:
                raise InputError(f"reader setting {name} must be within 1..2 (a card outline's length over its "
                                 f"width), got {getattr(self, name)}")
        if self.input_stride < 0 or self.input_stride % 32:
            raise InputError(f"reader setting input_stride must be 0 (pad the frame to a square) or a multiple of 32 "
                             f"(the detector's largest stride), got {self.input_stride}")
        if self.far_cards and not (0.0 < self.far_cards <= self.far_target <= 1000.0
                                   and 1.0 < self.far_enlarge <= 4.0):
            raise InputError(f"reader settings far_cards (0: off, else px), far_target (px, at least far_cards) and "
                             f"far_enlarge (over 1, at most 4 times) got {self.far_cards}, {self.far_target} and "
                             f"{self.far_enlarge}")
        if self.close_up_cards and not 0.0 < self.close_up_target <= self.close_up_cards <= 1000.0:
            raise InputError(f"reader settings close_up_cards (0: off, else up to 1000 px) and close_up_target (px, "
                             f"0 < target <= close_up_cards) got {self.close_up_cards} and {self.close_up_target}")
        if self.unseen_settled < 0:
            raise InputError(f"reader setting unseen_settled is a number of readings, 0 or more, "
                             f"got {self.unseen_settled}")
        if self.familiar_deck not in FAMILIAR_MODES:
            raise InputError(f"reader setting familiar_deck must be one of {', '.join(FAMILIAR_MODES)}, "
                             f"got {self.familiar_deck!r}")
        for name in ("index_weight", "straight_weight", "unseen_index_weight"):
            if not 0.0 <= getattr(self, name) <= 10.0:
                raise InputError(f"reader setting {name} must be within 0..10, got {getattr(self, name)}")


@dataclass(frozen=True)
class RawReading:
    box: tuple[float, float, float, float]
    detector_score: float
    probabilities: npt.NDArray[np.float32]
    # What the two independent looks said before they were fused (``vision.reader_familiar``): the face's card and
    # probability, the index's card and sureness (-1 / 0: not read), and whether the deck counted as familiar.
    face_card: int = -1
    face_prob: float = 0.0
    index_card: int = -1
    index_sure: float = 0.0
    familiar: bool = True
    # an unfamiliar deck, counted over enough readings to be sure of it: unflagged only when the index is sure
    index_must_agree: bool = False
    # a familiar deck read by an index reader that learnt it (an enrolled model): a sure index is a second opinion
    index_knows_deck: bool = False


class CardReader:
    """The two networks and the rules that turn their outputs into detections."""

    def __init__(self, model_dir: Path = DEFAULT_MODEL_DIR, backend: str = "onnx",
                 settings: ReaderSettings | None = None, threads: int = 2) -> None:
        self.model_dir = Path(model_dir)
        self.manifest = ModelManifest.load(self.model_dir)
        self.backend: Backend = open_backend(backend, self.model_dir, threads)
        self.settings = settings or ReaderSettings()
        self.cards: tuple[Card, ...] = tuple(card_of_class_name(n) for n in self.manifest.class_names)
        self.index_columns = (index_columns(self.manifest.class_names, self.manifest.index_names)
                              if self.backend.has_index_reader else None)
        self.any_index_columns = (index_columns(self.manifest.class_names, self.manifest.any_index_names)
                                  if self.backend.has_any_index_reader else self.index_columns)
        self.familiarity = DeckFamiliarity(self.settings.familiar_agreement)
        self._lock = threading.Lock()
        self._corner_reader: CornerReader | None = None

    def corner_reader(self) -> CornerReader | None:
        """The index-corner reader, when the settings use it and the model folder has its detector (opened on first
        use: a familiar deck never needs it)."""
        index_names = self.manifest.any_index_names or self.manifest.index_names
        if not self.settings.corner_look or not index_names or not CornerReader.available(self.model_dir):
            return None
        if self._corner_reader is None:
            self._corner_reader = CornerReader(self.model_dir, self.backend.read_any_index, index_names,
                                               imgsz=self.manifest.corner_imgsz or CORNER_IMGSZ,
                                               turn_by_network=self.settings.corner_turn_by_network)
        return self._corner_reader

    def deck_familiar(self) -> bool:
        """Whether the deck counts as one the card classifier knows, as ``familiar_deck`` says (counted so far)."""
        mode = self.settings.familiar_deck
        return mode == "known" or (mode == "auto" and self.familiarity.familiar())

    def index_knows_deck(self) -> bool:
        """Whether the index reader learnt the deck the face knows (an enrolled model's, ``deck_index_contradiction``)
        and the deck on the table counts as that one."""
        return bool(self.manifest.index_deck) and self.settings.deck_index_contradiction < 1.0 and self.deck_familiar()

    def deck_verdict(self) -> tuple[bool, bool]:
        """How the next frame is read as the count stands: whether the deck counts as familiar, and whether an
        unfamiliar deck is settled enough that a reading needs its index to agree (``unseen_settled`` readings, or
        from the first frame when ``familiar_deck`` is "unseen")."""
        familiar = self.deck_familiar()
        declared_unseen = self.settings.familiar_deck == "unseen"  # nothing to count: the dealer said so
        return familiar, not familiar and (declared_unseen or self.familiarity.seen >= self.settings.unseen_settled)

    def forget_deck(self) -> None:
        """Count the deck's familiarity afresh (another deck on the table)."""
        with self._lock:
            self.familiarity.forget()

    def close_up_size(self, frame: Image, boxes: npt.NDArray[np.float32], size: int) -> int:
        """The detector's input size for ``frame`` once ``boxes`` were found at ``size``: smaller when the cards
        came bigger than it learnt them, or none came (``close_up_cards``), else ``size``."""
        floor, settings = self.manifest.detector_imgsz, self.settings
        if not settings.close_up_cards or size <= floor:
            return size
        if not len(boxes):
            return floor
        card = card_at_input(frame, boxes, size)
        if card <= settings.close_up_cards:
            return size
        return max(floor, round(size * settings.close_up_target / card / 32) * 32)

    def far_enlargement(self, frame: Image, boxes: npt.NDArray[np.float32], size: int) -> float:
        """How many times ``frame`` is enlarged before it is read, once ``boxes`` were found at ``size``: more than
        once when the cards came smaller than the detector learnt them (``far_cards``), else 1."""
        settings = self.settings
        if not settings.far_cards or not len(boxes):
            return 1.0
        card = card_at_input(frame, boxes, size)
        return min(settings.far_enlarge, settings.far_target / card) if card < settings.far_cards else 1.0

    def detect(self, frame: object, at_least: float | None = None, size: int | None = None,
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Card boxes (xyxy in frame pixels) and detector scores, of the boxes scored at least ``at_least``
        (``detect_min`` by default), the frame seen at ``size`` (``detector_input_size`` by default)."""
        image = check_frame(frame)
        size = size or self.manifest.detector_input_size(*image.shape[:2])
        padded, scale, (pad_x, pad_y) = letterbox(image, size, self.settings.input_stride)
        raw = self.backend.detect_raw(to_tensor([padded]))
        floor = self.settings.detect_min if at_least is None else at_least
        boxes, scores = decode_detections(raw, floor, self.settings.nms_iou)
        boxes = (boxes - np.array([pad_x, pad_y, pad_x, pad_y], np.float32)) / np.float32(scale)
        h, w = image.shape[:2]
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        return boxes, scores

    def classify(self, frame: Image, boxes: npt.NDArray[np.float32], any_deck: bool = False,
                 ) -> npt.NDArray[np.float32]:
        """Class probabilities (N x classes) of the crops around ``boxes``, read by the card classifier, or with
        ``any_deck`` by the any-deck face reader (the card classifier where the folder has none)."""
        size = self.manifest.classifier_imgsz
        crops = [square_crop(frame, (float(b[0]), float(b[1]), float(b[2]), float(b[3])), size) for b in boxes]
        if not crops:
            return np.zeros((0, len(self.cards)), np.float32)
        read = self.backend.classify_any if any_deck else self.backend.classify
        if not self.settings.turned_too:
            return read(to_tensor(crops))
        # A card reads the same turned half a turn (its indices are in opposite corners): ask both ways.
        both = read(to_tensor(crops + [np.ascontiguousarray(c[::-1, ::-1]) for c in crops]))
        return (both[: len(crops)] + both[len(crops) :]) / 2.0

    def doubtful(self, boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32],
                 probs: npt.NDArray[np.float32]) -> list[int]:
        """The readings under the confidence threshold or whose box another box overlaps."""
        box_list = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in boxes]
        settings = self.settings
        sure = [reading_confidence(float(p.max()), float(s)) >= settings.confident for p, s in zip(probs, scores,
                                                                                                   strict=True)]
        cards = probs.argmax(axis=1)
        doubles = [{j for j in range(len(box_list)) if j != i and cards[j] == cards[i]
                    and one_card_twice(box_list[i], box_list[j], settings.same_card_overlap)}
                   if settings.double_box_not_doubtful else set() for i in range(len(box_list))]
        return [i for i in range(len(box_list))
                if not any(sure[j] for j in doubles[i])
                and (not sure[i] or overlapped_by_another(i, box_list, settings.covered_overlap, doubles[i]))]

    def second_look(self, frame: Image, boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32],
                    probs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``probs`` with every doubtful reading's averaged with 8 more views of its card (``second_look``)."""
        box_list = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in boxes]
        doubtful = self.doubtful(boxes, scores, probs)
        if not doubtful:
            return probs
        size = self.manifest.classifier_imgsz
        views = [np.ascontiguousarray(np.rot90(square_crop(frame, box_list[i], size, margin), turns))
                 for margin in SECOND_LOOK_MARGINS for turns in range(4) for i in doubtful]
        more = self.backend.classify(to_tensor(views)).reshape(len(views) // len(doubtful), len(doubtful), -1)
        first_views = 2 if self.settings.turned_too else 1
        out = probs.copy()
        out[doubtful] = (first_views * probs[doubtful] + more.sum(axis=0)) / (first_views + len(more))
        return out

    def outlines(self, frame: Image, size: int | None = None) -> tuple[list[Quad], npt.NDArray[np.float32]]:
        """The cards' outlines in ``frame`` pixels from the outline model, and their scores (none without one); the
        frame seen at ``size`` (``detector_input_size`` by default)."""
        if not (self.backend.has_outline_model and self.settings.outline_look):
            return [], np.zeros(0, np.float32)
        size = size or self.manifest.detector_input_size(*frame.shape[:2])
        padded, scale, (pad_x, pad_y) = letterbox(frame, size, self.settings.input_stride)
        raw = self.backend.outline_raw(to_tensor([padded]))
        found, scores = decode_outlines(raw, self.settings.outline_min, self.settings.nms_iou)
        return [(quad - np.array([pad_x, pad_y])) / scale for quad in found], scores

    def found_by_outline(self, frame: Image, boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32],
                         outlines: list[Quad], outline_scores: npt.NDArray[np.float32],
                         ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``boxes`` and ``scores`` with the boxes of the cards only the outline model found added
        (``outline_finds``): card-shaped outlines no box claims, with an index corner that reads as a card."""
        settings = self.settings
        candidates = [o for o in unclaimed_outlines(boxes, outlines, settings.outline_match)
                      if outline_scores[o] >= settings.outline_find_min
                      and outline_aspect(outlines[o]) >= settings.outline_find_ratio]
        if not candidates or self.index_columns is None:
            return boxes, scores
        size = self.manifest.index_imgsz
        shift = settings.outline_shift
        patches = [patch for o in candidates for patch in outline_patches(frame, outlines[o], size, shift)]
        batch = to_tensor(patches)
        sureness = self.backend.read_index(batch)[:, self.index_columns].max(axis=1)
        if self.backend.has_any_index_reader and self.any_index_columns is not None and not self.deck_familiar():
            # a deck the index reader never saw reads surely by the any-deck one
            sureness = np.maximum(sureness, self.backend.read_any_index(batch)[:, self.any_index_columns].max(axis=1))
        index_sureness = sureness.reshape(len(candidates), -1).max(axis=1)
        found = [o for o, sure in zip(candidates, index_sureness, strict=True) if sure >= settings.outline_find_index]
        if not found:
            return boxes, scores
        return (np.concatenate([boxes, np.array([outline_box(outlines[o]) for o in found], np.float32).reshape(-1, 4)]),
                np.concatenate([scores, outline_scores[found].astype(np.float32)]))

    def found_by_deck_index(self, frame: Image, boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32],
                            probs: npt.NDArray[np.float32], low_boxes: npt.NDArray[np.float32],
                            low_scores: npt.NDArray[np.float32],
                            ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``boxes`` and ``scores`` with the low-scored boxes added whose index corners the index reader that learnt
        the deck reads surely as a card no other reading names (``deck_box_*``)."""
        settings = self.settings
        assert self.index_columns is not None
        free = [i for i, box in enumerate(low_boxes)
                if all(iou(box, other) < settings.deck_box_overlap for other in boxes)]
        size = self.manifest.index_imgsz
        patch_sets = [index_patches(frame, (float(b[0]), float(b[1]), float(b[2]), float(b[3])), size)
                      for b in low_boxes[free]]
        named = {int(p.argmax()) for p in probs}
        added: list[npt.NDArray[np.float32]] = []
        added_scores: list[float] = []
        for i, rows in zip(free, self.read_patch_sets(self.backend.read_index, patch_sets), strict=True):
            evidence = index_evidence(rows, self.index_columns)
            if (evidence.card >= 0 and evidence.sure >= settings.deck_box_index and evidence.card not in named
                    and all(iou(low_boxes[i], other) < settings.deck_box_overlap for other in added)):
                added.append(low_boxes[i])
                added_scores.append(float(low_scores[i]))
                named.add(evidence.card)
        if not added:
            return boxes, scores
        return (np.concatenate([boxes, np.array(added, np.float32).reshape(-1, 4)]),
                np.concatenate([scores, np.array(added_scores, np.float32)]))

    def fuse_boxes(self, frame: Image, boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32],
                   probs: npt.NDArray[np.float32], outlines: list[Quad], outline_scores: npt.NDArray[np.float32],
                   ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``boxes`` moved towards their cards' outlines (``outline_boxes``), and the boxes that moved classified
        again from their new crops."""
        settings = self.settings
        fused = fused_boxes(boxes, scores, outlines, outline_scores, settings.outline_match, settings.outline_box_ratio)
        moved = np.flatnonzero(np.abs(fused - boxes).max(axis=1) > 1.0)
        if not len(moved):
            return fused, probs
        probs = probs.copy()
        probs[moved] = self.classify(frame, fused[moved])
        return fused, probs

    def straight_look(self, frame: Image, boxes: npt.NDArray[np.float32], probs: npt.NDArray[np.float32],
                      doubtful: list[int], outlines: list[Quad]) -> npt.NDArray[np.float32]:
        """``probs`` with the doubtful readings paired with an outline averaged with their straightened card's
        (``straight_look``)."""
        paired = pair_outlines(boxes, outlines, self.settings.outline_match)
        which = [i for i in doubtful if i in paired]
        if not which:
            return probs
        size = self.manifest.classifier_imgsz
        views = [straightened_card(frame, outlines[paired[i]], size, CROP_MARGIN) for i in which]
        read = self.backend.classify_straight(to_tensor(views + [np.ascontiguousarray(v[::-1, ::-1]) for v in views]))
        straight = (read[: len(which)] + read[len(which) :]) / 2.0
        weight = self.settings.straight_weight
        out = probs.copy()
        out[which] = (probs[which] + weight * straight) / (1.0 + weight)
        return out

    def index_patch_sets(self, frame: Image, boxes: npt.NDArray[np.float32], outlines: list[Quad]) -> list[list[Image]]:
        """Each reading's index patches: cut at the corners its box allows, and at its card's outline where the
        outline model found one."""
        size = self.manifest.index_imgsz
        paired = pair_outlines(boxes, outlines, self.settings.outline_match)
        shift = self.settings.outline_shift
        return [index_patches(frame, (float(b[0]), float(b[1]), float(b[2]), float(b[3])), size)
                + outline_patches(frame, outlines[paired[i]] if i in paired else None, size, shift)
                for i, b in enumerate(boxes)]

    @staticmethod
    def read_patch_sets(read: Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]],
                        patch_sets: list[list[Image]]) -> list[npt.NDArray[np.float32]]:
        """The patch sets read in one batch by ``read``: one array of rows per set."""
        flat = [patch for patches in patch_sets for patch in patches]
        if not flat:
            return [np.zeros((0, 0), np.float32) for _ in patch_sets]
        rows = read(to_tensor(flat))
        starts = np.cumsum([0] + [len(patches) for patches in patch_sets])
        return [rows[a:b] for a, b in itertools.pairwise(int(v) for v in starts)]

    def index_first(self, frame: Image, boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32],
                    probs: npt.NDArray[np.float32], outlines: list[Quad] | None, size: int | None = None,
                    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], list[IndexEvidence], bool]:
        """Every reading's index read (``familiar_deck``): ``probs`` with the index weighed in as the deck's
        familiarity says, the face look it was weighed into, each reading's index evidence, and whether the deck
        counts as familiar. The any-deck index reader (the index reader where a folder has none) reads every
        reading, counts the familiarity and reads an unfamiliar deck, whose faces the any-deck face reader reads
        where the folder has one (``unseen_face_reader``); on a familiar deck the index reader reads the doubtful
        readings again, and its look is the one weighed in."""
        assert self.index_columns is not None and self.any_index_columns is not None
        settings = self.settings
        if outlines is None:  # a frame of sure readings (cards lying apart) is cut at the boxes alone
            outlines = self.outlines(frame, size)[0] if self.doubtful(boxes, scores, probs) else []
        patch_sets = self.index_patch_sets(frame, boxes, outlines)
        backend = self.backend
        any_read = backend.read_any_index if backend.has_any_index_reader else backend.read_index
        any_deck = [index_evidence(rows, self.any_index_columns)
                    for rows in self.read_patch_sets(any_read, patch_sets)]
        self.familiarity.update([int(p.argmax()) for p in probs], any_deck)
        familiar = self.deck_familiar()
        if not familiar:
            faces = probs
            if settings.unseen_face_reader and backend.has_any_classifier:
                faces = self.classify(frame, boxes, any_deck=True)
            fused = np.stack([fuse(faces[i], any_deck[i], settings.unseen_index_weight) for i in range(len(boxes))])
            return fused, faces, any_deck, False
        fused = probs.copy()
        doubtful = self.doubtful(boxes, scores, probs)
        if self.index_knows_deck():
            doubtful = sorted(set(doubtful) | {i for i, e in enumerate(any_deck) if names_another(
                e.card, e.sure, int(probs[i].argmax()), settings.deck_index_contradiction)})
        evidence = list(any_deck)
        if backend.has_any_index_reader:
            known_rows = self.read_patch_sets(backend.read_index, [patch_sets[i] for i in doubtful])
            for i, rows in zip(doubtful, known_rows, strict=True):
                evidence[i] = index_evidence(rows, self.index_columns, neighbour_cards(i, boxes, probs,
                                                                                       settings.neighbour_corner))
        suit_from_learnt_index = self.index_knows_deck() and settings.deck_index_suit < 1.0
        for i in doubtful:
            fused[i] = fuse(probs[i], evidence[i], settings.index_weight)
            if suit_from_learnt_index:
                fused[i] = suit_from_index(fused[i], evidence[i], self.cards, settings.deck_index_suit)
        return fused, probs, evidence, True

    def read_raw(self, frame: Image) -> list[RawReading]:
        with self._lock:
            settings = self.settings
            deck_boxes = (settings.deck_box_min < settings.detect_min and self.index_columns is not None
                          and self.index_knows_deck())
            floor = settings.deck_box_min if deck_boxes else None
            size = self.manifest.detector_input_size(*frame.shape[:2])
            boxes, scores = self.detect(frame, floor, size)
            enlarge = self.far_enlargement(frame, boxes[scores >= settings.detect_min], size)
            if enlarge > 1.0:
                frame = cv2.resize(frame, None, fx=enlarge, fy=enlarge, interpolation=cv2.INTER_CUBIC)
                size = min(FAR_INPUT_MAX, round(size * enlarge / 32) * 32)  # the cards come enlarged to it too
                boxes, scores = self.detect(frame, floor, size)
            closer = self.close_up_size(frame, boxes[scores >= settings.detect_min], size)
            if closer != size:
                size = closer
                boxes, scores = self.detect(frame, floor, size)
            low = scores < settings.detect_min
            low_boxes, low_scores, boxes, scores = boxes[low], scores[low], boxes[~low], scores[~low]
            if settings.coarse_look:
                coarse_boxes, coarse_scores = self.detect(frame, None, coarse_size(size, settings.coarse_look))
                boxes, scores = merge_coarse(boxes, scores, coarse_boxes, coarse_scores, settings.coarse_part)
            probs = self.classify(frame, boxes)
            outlines = None
            # The cards the detector misses lie under others, whose readings are then doubtful: a frame of sure
            # readings (cards lying apart) or of none is not looked over by the outline model.
            if len(low_boxes) and len(boxes) and self.doubtful(boxes, scores, probs):
                found, found_scores = self.found_by_deck_index(frame, boxes, scores, probs, low_boxes, low_scores)
                if len(found) > len(boxes):
                    probs = np.concatenate([probs, self.classify(frame, found[len(boxes) :])])
                    boxes, scores = found, found_scores
            looks_over = settings.outline_finds or settings.outline_boxes
            if looks_over and len(boxes) and self.doubtful(boxes, scores, probs):
                outlines, outline_scores = self.outlines(frame, size)
                if settings.outline_boxes:
                    boxes, probs = self.fuse_boxes(frame, boxes, scores, probs, outlines, outline_scores)
                found, found_scores = boxes, scores
                if settings.outline_finds:
                    found, found_scores = self.found_by_outline(frame, boxes, scores, outlines, outline_scores)
                if len(found) > len(boxes):
                    probs = np.concatenate([probs, self.classify(frame, found[len(boxes) :])])
                    boxes, scores = found, found_scores
            doubtful = self.doubtful(boxes, scores, probs) if settings.straight_look and len(boxes) else []
            if self.settings.second_look and len(boxes):
                probs = self.second_look(frame, boxes, scores, probs)
            if doubtful:
                if outlines is None:
                    outlines = self.outlines(frame, size)[0]
                probs = self.straight_look(frame, boxes, probs, doubtful, outlines)
            if self.settings.index_look and len(boxes) and self.index_columns is not None:
                probs, faces, evidence, familiar = self.index_first(frame, boxes, scores, probs, outlines, size)
                strict = self.deck_verdict()[1]
                knows = familiar and self.index_knows_deck()
                return [RawReading(tuple(float(v) / enlarge for v in b), float(s), p,  # type: ignore[arg-type]
                                   int(face.argmax()), float(face.max()), e.card, e.sure, familiar, strict, knows)
                        for b, s, p, face, e in zip(boxes, scores, probs, faces, evidence, strict=True)]
        return [RawReading(tuple(float(v) / enlarge for v in b), float(s), p)  # type: ignore[arg-type]
                for b, s, p in zip(boxes, scores, probs, strict=True)]

    def read(self, frame: object) -> list[Detection]:
        """The cards in ``frame`` (BGR), with flags for every doubt."""
        image = without_impulse_noise(check_frame(frame), self.settings.impulse_noise)
        raw = self.read_raw(image)
        if self.settings.index_look and self.index_columns is not None:
            raw = [r for r in raw if not no_card(r, raw, self.settings)]
        raw = merge_double_boxes(raw, self.settings.same_card_overlap)
        detections = flag_readings(image, raw, self.cards, self.settings)
        # only on a deck counted as unseen: a known deck's first frames are not slowed by a look they do not need
        corner_reader = self.corner_reader() if self.deck_verdict()[1] else None
        if corner_reader is None:
            return detections
        s = self.settings
        return apply_corner_look(detections, corner_reader.read(image), rank_sure=s.corner_rank_sure,
                                 suit_sure=s.corner_suit_sure, inside=s.corner_inside, new_cards=s.corner_new_cards,
                                 same_card=s.same_card_overlap)


FAR_INPUT_MAX = 1280  # the largest detector input a frame of far cards is read at (4 times the cost of 640)


def card_at_input(frame: Image, boxes: npt.NDArray[np.float32], size: int) -> float:
    """How big the cards came to the detector's input, ``frame`` seen at ``size``: the median shorter side of
    ``boxes`` (xyxy, frame pixels), in input pixels."""
    shorter = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    return float(np.median(shorter)) * size / max(frame.shape[:2])


def check_frame(frame: object) -> Image:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise InputError("a frame must be an 8-bit image (numpy uint8 array, as OpenCV reads it)")
    if frame.ndim == 2:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), np.uint8)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR), np.uint8)
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.shape[0] < 8 or frame.shape[1] < 8:
        raise InputError(f"a frame must be a BGR image of at least 8x8 pixels, got an array of shape {frame.shape}")
    return frame


def merge_double_boxes(raw: list[RawReading], inside_share: float) -> list[RawReading]:
    """Readings with every card boxed twice made one: two boxes whose classifier names the same card, the smaller
    at least ``inside_share`` inside the larger, become one reading over their union box, with the detector score
    of the surer box and the probabilities of the more confident reading."""
    readings = list(raw)
    merged = True
    while merged:
        merged = False
        for i, j in ((i, j) for i in range(len(readings)) for j in range(len(readings)) if i != j):
            small, large = readings[i], readings[j]
            if box_area(small.box) > box_area(large.box) or int(np.argmax(small.probabilities)) != int(
                    np.argmax(large.probabilities)):
                continue
            if not one_card_twice(small.box, large.box, inside_share):
                continue
            union = union_box(small.box, large.box)
            surer = max((small, large), key=lambda r: float(r.probabilities.max()) * r.detector_score)
            readings[j] = dataclasses.replace(surer, box=union,
                                              detector_score=max(small.detector_score, large.detector_score))
            del readings[i]
            merged = True
            break
    return readings


def overlapped_by_another(i: int, boxes: list[tuple[float, float, float, float]], share: float,
                          ignore: Collection[int] = ()) -> bool:
    """Whether another box (not one of ``ignore``) covers more than ``share`` of box ``i``."""
    return any(covered_share(boxes[i], other) > share for j, other in enumerate(boxes) if j != i and j not in ignore)


def neighbour_cards(i: int, boxes: npt.NDArray[np.float32], probs: npt.NDArray[np.float32],
                    face_least: float) -> set[int]:
    """The cards that the readings whose boxes touch box ``i`` name by their face at least ``face_least`` surely,
    other than the card reading ``i`` names itself: an index corner cut from box ``i`` that reads as one of them is
    that card's corner lying over it."""
    if face_least >= 1.0:
        return set()
    own = int(probs[i].argmax())
    box = tuple(float(v) for v in boxes[i])
    return {int(p.argmax()) for j, (b, p) in enumerate(zip(boxes, probs, strict=True))
            if j != i and float(p.max()) >= face_least and int(p.argmax()) != own
            and covered_share(box, tuple(float(v) for v in b)) > 0.0}


def no_card(reading: RawReading, raw: list[RawReading], settings: ReaderSettings) -> bool:
    """Whether a box is no card at all (``no_card_*``): lying apart from every other box, scored low by the
    detector, with a face read unsurely and index corners that show no card."""
    return (reading.detector_score < settings.no_card_detector
            and float(reading.probabilities.max()) < settings.no_card_face
            and reading.index_sure < settings.no_card_index
            and not any(covered_share(reading.box, other.box) > 0.0 for other in raw if other is not reading))


def reading_confidence(probability: float, detector_score: float) -> float:
    """How sure a reading is: the classifier's probability, lowered for a box the detector was unsure of."""
    return probability * min(1.0, detector_score / 0.5)


def one_deck_picks(raw: list[RawReading], alternative_min: float) -> list[int]:
    """The class each reading names when the cards come from one deck: (reading, card) pairs are taken surest
    first, each reading and each card once, so that a card read twice stays with the reading that holds it more
    surely and the other reading gets its next most likely card that is still free. A reading whose next free card
    is under ``alternative_min`` likely keeps its own first choice (a duplicate, flagged as such)."""
    if not raw:
        return []
    probs = np.stack([r.probabilities for r in raw])
    firsts = [int(np.argmax(p)) for p in probs]
    picks: list[int | None] = [None] * len(raw)
    taken: set[int] = set()
    for flat in np.argsort(-probs, axis=None, kind="stable"):
        i, c = divmod(int(flat), probs.shape[1])
        if picks[i] is not None or c in taken:
            continue
        if c != firsts[i] and probs[i, c] < alternative_min:
            picks[i] = firsts[i]  # nothing likely left: read as it was, a duplicate
            continue
        picks[i] = c
        taken.add(c)
    return [firsts[i] if pick is None else pick for i, pick in enumerate(picks)]


def suit_from_index(probs: npt.NDArray[np.float32], evidence: IndexEvidence, cards: tuple[Card, ...],
                    at_least: float) -> npt.NDArray[np.float32]:
    """``probs`` with its first card's and the index's card's chances swapped, where the index names the first
    card's rank in another suit at least ``at_least`` surely (``deck_index_suit``)."""
    top = int(probs.argmax())
    if evidence.card in (-1, top) or evidence.sure < at_least or cards[evidence.card].rank is not cards[top].rank:
        return probs
    swapped = probs.copy()
    swapped[[top, evidence.card]] = probs[[evidence.card, top]]
    return swapped


def names_another(card: int, sure: float, pick: int, at_least: float) -> bool:
    """Whether a look (its card, -1 when it read none, and how sure it is) names a card other than ``pick`` at
    least ``at_least`` surely."""
    return card not in (-1, pick) and sure >= at_least


GUESSES = 3
GUESS_LEAST = 0.01  # a class less likely than this is no guess worth offering


def next_guesses(probabilities: npt.NDArray[np.float32], pick: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The likeliest cards after ``pick`` (up to ``GUESSES``, each at least ``GUESS_LEAST`` likely)."""
    order = np.argsort(-probabilities)
    return tuple(cards[c] for c in order if c != pick and c < len(cards)
                 and probabilities[c] >= GUESS_LEAST)[:GUESSES]


def flag_readings(frame: Image, raw: list[RawReading], cards: tuple[Card, ...],
                  settings: ReaderSettings) -> list[Detection]:
    if settings.one_deck:
        picks = one_deck_picks(raw, settings.one_deck_alternative)
    else:
        picks = [int(np.argmax(r.probabilities)) for r in raw]
    counts = Counter(picks)
    # the readings whose face and index both name their card surely (two looks vouch for it), and per card how many
    vouched = [both_looks_name(reading, pick, settings.agree_clears_cover, settings.agree_clears_cover)
               for reading, pick in zip(raw, picks, strict=True)]
    vouched_copies = Counter(pick for pick, sure in zip(picks, vouched, strict=True) if sure)
    detections = []
    for i, (reading, pick) in enumerate(zip(raw, picks, strict=True)):
        confidence = reading_confidence(float(reading.probabilities[pick]), reading.detector_score)
        flags = set()
        renamed = pick != int(np.argmax(reading.probabilities))  # one deck: its first card went to a surer reading
        # a familiar deck: the face and an index reader that learnt the deck agree (``deck_agree_*``)
        deck_agrees = (reading.familiar and settings.deck_agree_index < 1.0
                       and both_looks_name(reading, pick, settings.deck_agree_face, settings.deck_agree_index))
        if deck_agrees:
            confidence = max(confidence, looks_agreement(reading))
        if confidence < settings.confident or renamed:
            flags.add(LOW_CONFIDENCE)
        sole_sure_copy = settings.duplicate_sure_copy and vouched[i] and vouched_copies[pick] == 1
        if counts[pick] > 1 and not sole_sure_copy:
            flags.add(DUPLICATE)
        if not reading.familiar and names_another(reading.index_card, reading.index_sure, pick,
                                                  settings.unseen_contradiction):
            flags.add(LOW_CONFIDENCE)  # an unfamiliar deck's index says another card
        if (reading.index_must_agree
                and not (reading.index_card == pick and reading.index_sure >= settings.unseen_needs_index)):
            flags.add(LOW_CONFIDENCE)  # an unfamiliar deck's index is not sure of it
        if not reading.familiar and names_another(reading.face_card, reading.face_prob, pick,
                                                  settings.unseen_face_contradiction):
            flags.add(LOW_CONFIDENCE)  # an unfamiliar deck's face says another card
        if reading.index_knows_deck and names_another(reading.index_card, reading.index_sure, pick,
                                                      settings.deck_index_contradiction):
            flags.add(LOW_CONFIDENCE)  # the index reader learnt this deck, and it says another card
        overlapped = overlapped_by_another(i, [r.box for r in raw], settings.covered_overlap)
        corners = card_outline(frame, reading.box)
        face_sure = (reading.familiar and reading.face_card == pick and settings.sure_clears_cover < 1.0
                     and confidence >= settings.sure_clears_cover
                     and not names_another(reading.index_card, reading.index_sure, pick,
                                           settings.cover_contradiction))
        hidden = overlapped or (corners is None and _card_coloured_share(frame, reading.box) < 0.45)
        if hidden and not (vouched[i] or face_sure or deck_agrees):
            flags.add(PARTLY_COVERED)
        detections.append(Detection(cards[pick], min(max(confidence, 0.0), 1.0), reading.box, corners,
                                    frozenset(flags), next_guesses(reading.probabilities, pick, cards)))
    detections.sort(key=lambda d: (d.box[1], d.box[0]))
    return detections


def looks_agreement(reading: RawReading) -> float:
    """The chance that at least one of a reading's two looks is right, were they independent."""
    return 1.0 - (1.0 - reading.face_prob) * (1.0 - reading.index_sure)


def both_looks_name(reading: RawReading, pick: int, face_least: float, index_least: float) -> bool:
    """Whether the face and the index both name ``pick``, at least ``face_least`` and ``index_least`` surely."""
    return (reading.face_card == pick == reading.index_card
            and reading.face_prob >= face_least and reading.index_sure >= index_least)


def _card_coloured_share(frame: Image, box: tuple[float, float, float, float]) -> float:
    """The share of the box's middle that is bright and unsaturated, as a card's face mostly is."""
    x1, y1, x2, y2 = (round(v) for v in box)
    mx, my = (x2 - x1) // 4, (y2 - y1) // 4
    patch = frame[y1 + my : y2 - my, x1 + mx : x2 - mx]
    if patch.size == 0:
        return 0.0
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    value_floor = max(60.0, float(np.percentile(hsv[:, :, 2], 90)) * 0.6)
    card_like = (hsv[:, :, 2] >= value_floor) & (hsv[:, :, 1] < 90)
    return float(card_like.mean())


def card_outline(frame: Image, box: tuple[float, float, float, float]) -> tuple[Point, Point, Point, Point] | None:
    """The card's four corners when its outline stands out from the table as one convex quadrilateral."""
    h, w = frame.shape[:2]
    x1, y1, x2, y2 = box
    pad = 0.06 * max(x2 - x1, y2 - y1)
    ax1, ay1 = int(max(x1 - pad, 0)), int(max(y1 - pad, 0))
    ax2, ay2 = int(min(x2 + pad, w)), int(min(y2 + pad, h))
    region = frame[ay1:ay2, ax1:ax2]
    if region.shape[0] < 8 or region.shape[1] < 8:
        return None
    gray = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    _, mask = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    box_area = (x2 - x1) * (y2 - y1)
    hull = cv2.convexHull(contour)
    quad = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    if len(quad) != 4 or not cv2.isContourConvex(quad):
        return None
    area = cv2.contourArea(quad)
    if not 0.35 * box_area <= area <= 1.3 * box_area or cv2.contourArea(contour) < 0.85 * area:
        return None
    rect = cv2.minAreaRect(quad.astype(np.float32))
    long_side, short_side = max(rect[1]), max(min(rect[1]), 1e-6)
    if not 1.2 <= long_side / short_side <= 1.65:
        return None
    pts = quad.reshape(4, 2).astype(np.float64) + np.array([ax1, ay1], np.float64)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise in image coordinates (y down), starting at the smallest angle
    start = int(np.argmin(pts.sum(axis=1)))  # the top-left-most corner first
    pts = np.roll(pts, -start, axis=0)
    return tuple((float(x), float(y)) for x, y in pts)  # type: ignore[return-value]


@functools.cache
def _default_reader() -> CardReader:
    from vision.active_model import active_model_dir

    return CardReader(active_model_dir())


def default_reader() -> CardReader:
    """The active model on ONNX Runtime, loaded once per process: the shipped one, unless a model learnt for the
    casino's own deck was activated (``dealer-assist vision enroll activate``; ``vision.active_model``)."""
    return _default_reader()


def reload_default_reader() -> None:
    """Forget the loaded model, so that the next read loads the active one (after an activation)."""
    _default_reader.cache_clear()
