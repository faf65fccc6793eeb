"""Training sets for the card reader: the real photographs split by source photo, in Ultralytics' layouts."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from engine.cards import Card
from engine.errors import InputError

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REAL_PHOTOS = REPO_ROOT.parent / "shared" / "data" / "real-cards-train"
WORK_DIR = REPO_ROOT / ".cache" / "vision"
SPLITS = ("train", "val", "test")
# Fractions of source photographs (not of images) per split.
SPLIT_FRACTIONS = {"train": 0.70, "val": 0.15}
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
Labelled = list[tuple[Card, tuple[float, float, float, float]]]  # cards with their boxes (x1, y1, x2, y2), pixels


def source_photo_of(image: Path) -> str:
    """The source photograph an exported image came from: ``IMG_20220316_134551`` for all three of its versions."""
    return re.split(r"_(?:jpe?g|png)\.rf\.", image.name, maxsplit=1, flags=re.IGNORECASE)[0]


def split_of_source(source: str) -> str:
    """The split a source photograph belongs to: a stable hash, so the split never changes between runs."""
    value = int.from_bytes(hashlib.sha256(source.encode()).digest()[:8], "big") / 2.0**64
    if value < SPLIT_FRACTIONS["train"]:
        return "train"
    if value < SPLIT_FRACTIONS["train"] + SPLIT_FRACTIONS["val"]:
        return "val"
    return "test"


def list_images(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def split_real_photos(source_dir: Path = DEFAULT_REAL_PHOTOS) -> dict[str, list[Path]]:
    """The real photographs' images per split, every version of one source photo in the same split."""
    images_dir = source_dir / "images"
    if not images_dir.is_dir():
        raise InputError(f"no images folder in {source_dir}; point --real at the real-cards-train folder")
    splits: dict[str, list[Path]] = defaultdict(list)
    for image in list_images(images_dir):
        splits[split_of_source(source_photo_of(image))].append(image)
    return {name: splits.get(name, []) for name in SPLITS}


# Labels of the real photographs that the photographs themselves show to be wrong: (source photo, the class name as
# labelled) → the card it is. Found where the reader disagreed with a label at high confidence, each checked by eye.
# IMG_20220316_171837 lays the 5, 6, 7 and 8 of clubs in a row; its 5 of clubs is labelled the 5 of spades.
LABEL_FIXES: dict[tuple[str, str], str] = {("IMG_20220316_171837", "5 of spades"): "5 of clubs"}


def label_path_of(image: Path) -> Path:
    return image.parent.parent / "labels" / (image.stem + ".txt")


def real_labels(image: Path, names: list[str]) -> list[tuple[int, float, float, float, float]]:
    """The labels of one real photograph (``names``: the dataset's class names), with ``LABEL_FIXES`` applied."""
    rows = read_yolo_labels(label_path_of(image))
    source = source_photo_of(image)
    fixed = []
    for c, *box in rows:
        right = LABEL_FIXES.get((source, names[c])) if 0 <= c < len(names) else None
        fixed.append((names.index(right) if right else c, *box))
    return fixed  # type: ignore[return-value]


def real_class_names(source_dir: Path = DEFAULT_REAL_PHOTOS) -> list[str]:
    """The real photographs' class names, in class order (``'10 of clubs'`` …)."""
    try:
        names = yaml.safe_load((source_dir / "data.yaml").read_text())["names"]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as error:
        raise InputError(f"cannot read the class names of {source_dir / 'data.yaml'}: {error}") from error
    return [str(names[i]) for i in sorted(names)] if isinstance(names, dict) else [str(n) for n in names]


def read_yolo_labels(path: Path) -> list[tuple[int, float, float, float, float]]:
    """YOLO box labels ``class cx cy w h`` (normalised); an absent file means no objects."""
    if not path.exists():
        return []
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise InputError(f"{path}:{number}: expected 'class cx cy w h', got {line!r}")
        rows.append((int(parts[0]), *(float(v) for v in parts[1:])))
    return rows  # type: ignore[return-value]


def _link(src: Path, dst: Path) -> None:
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.symlink(src.resolve(), dst)
    except OSError:
        shutil.copy2(src, dst)


def prepare_real_detector_set(out: Path, source_dir: Path = DEFAULT_REAL_PHOTOS) -> Path:
    """A 1-class ('card') detection set from the real photos, split by source photo; returns its data.yaml."""
    splits = split_real_photos(source_dir)
    for split, images in splits.items():
        (out / split / "images").mkdir(parents=True, exist_ok=True)
        (out / split / "labels").mkdir(parents=True, exist_ok=True)
        for image in images:
            _link(image, out / split / "images" / image.name)
            rows = read_yolo_labels(label_path_of(image))
            text = "".join(f"0 {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}\n" for _c, cx, cy, w, h in rows)
            (out / split / "labels" / (image.stem + ".txt")).write_text(text)
    data = {"path": str(out), "train": "train/images", "val": "val/images", "test": "test/images",
            "names": {0: "card"}}
    data_yaml = out / "data.yaml"
    data_yaml.write_text(yaml.safe_dump(data, sort_keys=False))
    return data_yaml


def labelled_real_photos(split: str, source_dir: Path = DEFAULT_REAL_PHOTOS) -> Iterator[tuple[Path, Any, Labelled]]:
    """Each real photograph of ``split`` as (path, BGR image, its labelled cards with their boxes in pixels)."""
    import cv2

    from vision.reader_classes import card_of_class_name

    names = real_class_names(source_dir)
    cards = [card_of_class_name(n) for n in names]
    for path in split_real_photos(source_dir)[split]:
        image = cv2.imread(str(path))
        if image is None:
            raise InputError(f"cannot read the image {path}")
        h, w = image.shape[:2]
        yield path, image, [(cards[c], ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
                            for c, cx, cy, bw, bh in real_labels(path, names)]


def real_crops(out: Path, split: str, source_dir: Path = DEFAULT_REAL_PHOTOS, copies: int = 1, jitter: float = 0.06,
               seed: int = 0, stem_suffix: str = "") -> int:
    """Classifier crops (``out/<card>/<photo><stem_suffix>_…jpg``) of the real photos' labelled cards in one split."""
    import numpy as np

    from vision.synth.dataset import write_crops

    rng = np.random.default_rng(seed)
    count = 0
    for path, image, labelled in labelled_real_photos(split, source_dir):
        boxes = [(str(card), box) for card, box in labelled]
        count += write_crops(image, boxes, out, path.stem + stem_suffix, rng, copies, jitter)
    return count


def prepare_eval_sets(work: Path = WORK_DIR, source_dir: Path = DEFAULT_REAL_PHOTOS) -> dict[str, Path]:
    """Data files for measuring the reader: ``real-test.yaml`` (the real photos' val and test splits with their own
    '10 of clubs' class names) and ``synth-test.yaml`` (the synthetic val and test scenes, our class names; and the
    second validation scenes as ``val2`` where they are rendered)."""
    from vision.reader_classes import CLASS_NAMES

    splits = split_real_photos(source_dir)
    names = real_class_names(source_dir)
    for split in ("val", "test"):
        (work / "real-eval" / split / "images").mkdir(parents=True, exist_ok=True)
        (work / "real-eval" / split / "labels").mkdir(parents=True, exist_ok=True)
        for image in splits[split]:
            _link(image, work / "real-eval" / split / "images" / image.name)
            label = work / "real-eval" / split / "labels" / (image.stem + ".txt")
            label.unlink(missing_ok=True)  # an earlier run linked the photo's own file: never write through it
            label.write_text("".join(f"{c} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}\n"
                                     for c, cx, cy, bw, bh in real_labels(image, names)))
    real = work / "real-test.yaml"
    real.write_text(yaml.safe_dump({"path": str(work / "real-eval"), "val": "val/images", "test": "test/images",
                                    "names": names}, sort_keys=False))
    synth = work / "synth-test.yaml"
    splits_found = {"val": "val/images", "test": "test/images"}
    if (work / "synth" / "val2" / "images").is_dir():  # the second validation scenes, where rendered
        splits_found["val2"] = "val2/images"
    synth.write_text(yaml.safe_dump({"path": str(work / "synth"), **splits_found,
                                     "names": dict(enumerate(CLASS_NAMES))}, sort_keys=False))
    return {"real": real, "synth": synth}
