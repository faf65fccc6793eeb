"""Measuring the reader on a YOLO-format set: per-image card-set precision and recall, cards identified right,
per-class accuracy and a confusion plot."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from engine.cards import Card
from engine.errors import InputError
from vision.detection import Detection, covered_share, iou
from vision.photo_batch import read_photos
from vision.reader import CardReader
from vision.reader_classes import CLASS_NAMES, card_of_class_name
from vision.synth.dataset import SCENES_FILE
from vision.train_data import IMAGE_SUFFIXES, read_yolo_labels

MATCH_IOU = 0.5
# A second, box-convention-free measure: a truth card counts as named in place when a reading of that very card
# covers this share of its labelled box. The real photos label overlapped cards by their visible part while the
# reader boxes whole cards, so IoU alone counts some cards named right in the right place as missed.
IN_PLACE_COVER = 0.7
# Synthetic scenes record how much of each card's face shows; the figures are also given for cards showing at least
# this share and for the rest (a card is labelled from 40 %).
WELL_SHOWN = 0.6


@dataclass
class EvalResult:
    images: int = 0
    truth_cards: int = 0
    reported: int = 0
    right: int = 0  # truth cards matched by a box of the same card
    wrong: int = 0  # truth cards matched by a box read as another card
    missed: int = 0  # truth cards no box matched
    extra: int = 0  # reported boxes matching no truth card
    extra_unflagged: int = 0  # of those, reported with no flag: a card the reader claims, sure, that is not there
    # Readings, named right, of cards that lie there but show less of their face than a label needs (synthetic scenes
    # record every card drawn): not counted as extra, since the card is there.
    under_label: int = 0
    set_precision_sum: float = 0.0
    set_recall_sum: float = 0.0
    flagged: int = 0
    certain: int = 0  # reported without any flag
    certain_right: int = 0  # of those, matched to a true card of the same name
    in_place: int = 0  # truth cards named by a reading covering IN_PLACE_COVER of their box (or IoU >= MATCH_IOU)
    per_class: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # right, total
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)  # (truth, read) incl. "missed"/"extra"
    # How square photos were stretched before they were read (``vision.photo_batch``; 1, 1: as they are).
    aspect: tuple[float, float] = (1.0, 1.0)
    # Truth cards by how much of their face shows (synthetic scenes only): [right, total] per share band.
    by_shown: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))

    @property
    def cards_right(self) -> float:
        return self.right / self.truth_cards if self.truth_cards else 1.0

    @property
    def named_in_place(self) -> float:
        return self.in_place / self.truth_cards if self.truth_cards else 1.0

    @property
    def set_precision(self) -> float:
        return self.set_precision_sum / self.images if self.images else 1.0

    @property
    def set_recall(self) -> float:
        return self.set_recall_sum / self.images if self.images else 1.0

    def summary(self) -> dict[str, Any]:
        return {
            "images": self.images, "truth_cards": self.truth_cards, "reported": self.reported,
            "cards_right": round(self.cards_right, 4), "right": self.right, "wrong": self.wrong,
            "named_in_place": round(self.named_in_place, 4),
            "missed": self.missed, "extra": self.extra, "extra_unflagged": self.extra_unflagged,
            "under_label": self.under_label,
            "flagged": self.flagged,
            "set_precision": round(self.set_precision, 4), "set_recall": round(self.set_recall, 4),
            "certain": self.certain,
            "aspect": [round(v, 4) for v in self.aspect],
            "certain_precision": round(self.certain_right / self.certain, 4) if self.certain else 1.0,
            "per_class_accuracy": {k: round(v[0] / v[1], 4) for k, v in sorted(self.per_class.items()) if v[1]},
            "by_shown": {band: {"cards": total, "right": right, "share_right": round(right / total, 4)}
                         for band, (right, total) in sorted(self.by_shown.items()) if total},
        }


def count_in_place(truth: list[tuple[Card, tuple[float, float, float, float]]], detections: list[Detection]) -> int:
    """Truth cards named in place: each reading serves one truth card of its own name, best cover first."""
    def closeness(box: tuple[float, ...], read: tuple[float, ...]) -> float:  # IoU matches rank above cover ones
        overlap = iou(box, read)
        return 1.0 + overlap if overlap >= MATCH_IOU else covered_share(box, read)

    pairs = sorted(((closeness(box, d.box), t, k)
                    for t, (card, box) in enumerate(truth) for k, d in enumerate(detections) if d.card == card),
                   reverse=True)
    used_truth: set[int] = set()
    used_reading: set[int] = set()
    for score, t, k in pairs:
        if score >= IN_PLACE_COVER and t not in used_truth and k not in used_reading:
            used_truth.add(t)
            used_reading.add(k)
    return len(used_truth)


def shown_band(visible: float) -> str:
    """The share band a truth card is counted in by how much of its face shows."""
    return f"showing {WELL_SHOWN:.0%} or more" if visible >= WELL_SHOWN else f"showing under {WELL_SHOWN:.0%}"


def score_image(result: EvalResult, truth: list[tuple[Card, tuple[float, float, float, float]]],
                detections: list[Detection], unlabelled: Sequence[tuple[Card, tuple[float, ...]]] = (),
                shown: Mapping[Card, float] | None = None) -> None:
    """Add one image to ``result``: boxes matched greedily by IoU, most confident detection first. ``unlabelled``:
    cards known to lie in the image that show too little to be labelled; a reading naming one of them in its place
    is counted as ``under_label``, not as extra. ``shown``: how much of each truth card's face shows, where known
    (a synthetic scene draws each card once), for the figures by share band."""
    result.images += 1
    result.truth_cards += len(truth)
    result.reported += len(detections)
    result.flagged += sum(1 for d in detections if d.flags)
    result.in_place += count_in_place(truth, detections)
    result.certain += sum(1 for d in detections if not d.flags)
    unmatched = set(range(len(truth)))
    for det in sorted(detections, key=lambda d: -d.confidence):
        best, best_iou = None, MATCH_IOU
        for t in unmatched:
            value = iou(det.box, truth[t][1])
            if value >= best_iou:
                best, best_iou = t, value
        if best is None and any(card == det.card and iou(det.box, box) >= MATCH_IOU for card, box in unlabelled):
            result.under_label += 1
            continue
        if best is None:
            result.extra += 1
            result.extra_unflagged += not det.flags
            result.confusion[("extra", str(det.card))] += 1
            continue
        unmatched.discard(best)
        card = truth[best][0]
        stats = result.per_class[str(card)]
        stats[1] += 1
        result.confusion[(str(card), str(det.card))] += 1
        if shown is not None and card in shown:
            band = result.by_shown[shown_band(shown[card])]
            band[0] += det.card == card
            band[1] += 1
        if det.card == card:
            result.right += 1
            stats[0] += 1
            result.certain_right += not det.flags
        else:
            result.wrong += 1
    for t in unmatched:
        if shown is not None and truth[t][0] in shown:
            result.by_shown[shown_band(shown[truth[t][0]])][1] += 1
        result.missed += 1
        result.per_class[str(truth[t][0])][1] += 1
        result.confusion[(str(truth[t][0]), "missed")] += 1
    truth_set = {c for c, _ in truth}
    read_set = {d.card for d in detections}
    result.set_precision_sum += len(truth_set & read_set) / len(read_set) if read_set else 1.0
    result.set_recall_sum += len(truth_set & read_set) / len(truth_set) if truth_set else 1.0


def dataset_images(data_yaml: Path, split: str) -> tuple[list[Path], list[Card]]:
    """The images of one split of a YOLO data.yaml and the card each class index means."""
    try:
        data = yaml.safe_load(data_yaml.read_text())
    except (OSError, yaml.YAMLError) as error:
        raise InputError(f"cannot read the dataset file {data_yaml}: {error}") from error
    if not isinstance(data, dict) or "names" not in data:
        raise InputError(f"{data_yaml} has no 'names': it is not a YOLO dataset file")
    names = data["names"]
    ordered = [names[i] for i in sorted(names)] if isinstance(names, dict) else list(names)
    cards = [card_of_class_name(str(n)) for n in ordered]
    entry = data.get(split)
    if entry is None:
        raise InputError(f"{data_yaml} has no '{split}' split; choose one of: "
                         f"{', '.join(k for k in data if k not in ('path', 'names', 'nc', 'download'))}")
    base = Path(data.get("path") or data_yaml.parent)
    if not base.is_absolute():
        base = (data_yaml.parent / base).resolve()
    images: list[Path] = []
    for item in entry if isinstance(entry, list) else [entry]:
        folder = Path(item) if Path(item).is_absolute() else (base / item)
        if not folder.exists():
            folder = (data_yaml.parent / item).resolve()
        if not folder.is_dir():
            raise InputError(f"the '{split}' images folder {folder} named in {data_yaml} does not exist")
        images += sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    return images, cards


def truth_of(image_path: Path, shape: tuple[int, ...], cards: list[Card]) -> list[tuple[Card, tuple[float, ...]]]:
    label = image_path.parent.parent / "labels" / (image_path.stem + ".txt")
    h, w = shape[:2]
    rows = read_yolo_labels(label)
    for row in rows:
        if not 0 <= row[0] < len(cards):
            raise InputError(f"{label}: class {row[0]} is not in the dataset's names")
    return [(cards[c], ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
            for c, cx, cy, bw, bh in rows]


def _scene_records(images_dir: Path) -> dict[str, dict[str, Any]]:
    """Per image name, its record in the ``scenes.jsonl`` that ``write_scenes`` keeps beside the images (every card
    drawn, its corners and how much of it shows); empty for any other dataset."""
    records = images_dir.parent / SCENES_FILE
    if not records.exists():
        return {}
    found = {}
    for line in records.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            found[Path(record["image"]).name] = record
    return found


def shown_shares(images_dir: Path) -> dict[str, dict[Card, float]]:
    """Per image name of a synthetic scene set, how much of each card's face shows."""
    return {name: {card_of_class_name(placed["card"]): float(placed["visible"]) for placed in record["cards"]}
            for name, record in _scene_records(images_dir).items()}


def unlabelled_cards(images_dir: Path) -> dict[str, list[tuple[Card, tuple[float, ...]]]]:
    """Per image name of a synthetic scene set, the cards drawn that show too little of their face to be labelled,
    with their whole-card boxes."""
    found: dict[str, list[tuple[Card, tuple[float, ...]]]] = {}
    for name, record in _scene_records(images_dir).items():
        cards = []
        for placed in record["cards"]:
            if not placed["labelled"] and placed["visible"] > 0:
                pts = np.array(placed["corners"], np.float64)
                cards.append((card_of_class_name(placed["card"]),
                              (*(float(v) for v in pts.min(axis=0)), *(float(v) for v in pts.max(axis=0)))))
        found[name] = cards
    return found


def evaluate(reader: CardReader, data_yaml: Path, split: str = "val", limit: int | None = None,
             progress: bool = False, unsquash: bool = True) -> EvalResult:
    """The reader's figures on one split, its photos read together (``vision.photo_batch``: square photos also
    stretched back to camera shapes, unless ``unsquash`` is off)."""
    images, cards = dataset_images(data_yaml, split)
    if limit:
        images = images[:limit]
    result = EvalResult()
    unlabelled: dict[str, list[tuple[Card, tuple[float, ...]]]] = {}
    shown: dict[str, dict[Card, float]] = {}
    for folder in {p.parent for p in images}:
        unlabelled.update(unlabelled_cards(folder))
        shown.update(shown_shares(folder))
    from rich.progress import Progress

    shapes: dict[Path, tuple[int, ...]] = {}
    with Progress(transient=True, disable=not progress) as bar:
        task = bar.add_task(f"reading {len(images)} images", total=None)

        def load(path: Path) -> object:
            frame = cv2.imread(str(path))
            if frame is None:
                raise InputError(f"cannot read the image {path}")
            shapes[path] = frame.shape
            bar.advance(task)
            return frame

        batch = read_photos(reader, images, load, unsquash)
        result.aspect = batch.aspect
        for path, detections in batch.readings:
            score_image(result, truth_of(path, shapes[path], cards), detections,
                        unlabelled.get(path.name, []), shown.get(path.name))
    return result


def confusion_plot(result: EvalResult, path: Path) -> Path:
    """A confusion matrix (truth rows × read columns, plus 'missed' and 'extra') as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [*CLASS_NAMES]
    rows = [*labels, "extra"]
    cols = [*labels, "missed"]
    matrix = np.zeros((len(rows), len(cols)))
    for (truth, read), n in result.confusion.items():
        if truth in rows and read in cols:
            matrix[rows.index(truth), cols.index(read)] += n
    sums = matrix.sum(axis=1, keepdims=True)
    shown = np.divide(matrix, sums, out=np.zeros_like(matrix), where=sums > 0)
    fig, ax = plt.subplots(figsize=(14, 13))
    ax.imshow(shown, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(cols)), cols, rotation=90, fontsize=7)
    ax.set_yticks(range(len(rows)), rows, fontsize=7)
    ax.set_xlabel("read as")
    ax.set_ylabel("truth")
    ax.set_title(f"cards right {result.cards_right:.1%} of {result.truth_cards}; "
                 f"missed {result.missed}, extra {result.extra}")
    for (i, j), n in np.ndenumerate(matrix):
        if n and i != j:
            ax.text(j, i, int(n), ha="center", va="center", fontsize=6, color="red")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def write_report(result: EvalResult, path: Path) -> None:
    path.write_text(json.dumps(result.summary(), indent=1) + "\n")
