"""Learning from play, simulated on real photos (issue 53 goal 3): named right and flags after 0, 20, 50, 100 rounds.

    .venv/bin/python bench/vision_play.py [--checkpoints 0,20,50,100] [--epochs 3] [--index-epochs 3] [--work DIR]

A real deck's photos, `../shared/data/real-unseen-phone/test` (150 photos sorted by file name), read in order as a
table's rounds, the labels standing in for the dealer's corrections:

- **rounds**: photos 1-100, one round a photo. The shipped reader reads them (together, as one table's frames, the
  way `dealer-assist vision read` and `bench/vision_real.py` read a batch). Each of its readings becomes the example
  the dealer confirms: the card whose index-corner label box lies inside the reading's box (at least ``INSIDE`` of
  the label box's area; exactly one such card, two corners of it counting once), labelled with that true card
  whatever the reader said (the dealer's correction); a reading over no labelled card or over two is a ghost and
  gives no example. A card the reader did not read gives none either (a dealer sets it by hand: no box). The
  evidence frame is the photo as the reader read it (stretched back to its camera's shape where the batch was read
  so, ``vision.photo_batch``), the box in its pixels.
- **measured**: photos 101-150, which never serve as rounds, read with `bench/vision_real.py`'s scoring (a photo is
  scored on the set of cards it holds; a card named right when some reading names it; flagged: share of readings
  with any flag; unflagged wrong: unflagged readings naming a card the photo does not hold) after 0 rounds (the
  shipped models) and after N rounds: the shipped models' any-deck face and index readers fine-tuned on the
  examples of rounds 1..N by the product's own learning (``vision.enroll.from_play.learn_from_play``, what
  `dealer-assist vision learn-from-play` runs), each checkpoint from the shipped models, not chained, so each
  figure stands alone.

`real-unseen-phone` is otherwise never trained on; learning from its first two-thirds here is the same exception
issue 53 grants enrollment (enroll from the first half, sorted by file name, through the product's own flow, and
read the second half), and no setting is chosen on photos 101-150. The work folder (default
`.cache/vision/play-bench/`) keeps the round readings and each checkpoint's model: a rerun reuses them (delete it,
or give ``--fresh``, to start over).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.vision_real import UNSEEN_PHONE, SetScore, canonical_unseen, unseen_phone_photos  # noqa: E402

ROUND_PHOTOS = 100
MEASURED = (100, 150)  # photos 101-150 (0-based slice)
INSIDE = 0.8  # share of a label box's area inside a reading's box for the reading to be of that card
Box = tuple[float, float, float, float]


def labelled_photos(root: Path = UNSEEN_PHONE) -> list[tuple[Path, list[tuple[str, Box]]]]:
    """Every photo (sorted by file name) with its index-corner label boxes in pixels, by the reader's card names."""
    import yaml

    from vision.image_files import read_image

    names = [str(n) for n in yaml.safe_load((root / "data.yaml").read_text())["names"]]
    photos = []
    for image in sorted((root / "test" / "images").glob("*.jpg")):
        height, width = read_image(image).shape[:2]
        label = root / "test" / "labels" / (image.stem + ".txt")
        boxes = []
        for row in (label.read_text().splitlines() if label.exists() else []):
            if not row.strip():
                continue
            c, cx, cy, w, h = row.split()[:5]
            card = canonical_unseen(names[int(c)])
            if card is not None:
                x, y, bw, bh = float(cx) * width, float(cy) * height, float(w) * width, float(h) * height
                boxes.append((card, (x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)))
        photos.append((image, boxes))
    return photos


def share_inside(inner: Box, outer: Box) -> float:
    """How much of ``inner``'s area lies inside ``outer``."""
    w = max(0.0, min(inner[2], outer[2]) - max(inner[0], outer[0]))
    h = max(0.0, min(inner[3], outer[3]) - max(inner[1], outer[1]))
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    return w * h / area if area > 0 else 0.0


def confirmed_card(reading_box: Box, labels: list[tuple[str, Box]]) -> str | None:
    """The one card whose index-corner label lies inside the reading's box; None for none or several (a ghost)."""
    cards = {card for card, box in labels if share_inside(box, reading_box) >= INSIDE}
    return cards.pop() if len(cards) == 1 else None


def read_rounds(photos: list[tuple[Path, list[tuple[str, Box]]]], models: Path, work: Path) -> list[dict[str, Any]]:
    """The round photos read by ``models``; per reading its card, flags, box and the card the dealer confirms.
    Cached in ``work/rounds.json`` (by the models' hash); the frames as read are written under ``work/frames``."""
    import cv2

    from vision.active_model import model_hash
    from vision.image_files import read_image
    from vision.photo_batch import aspect_name, read_photos, stretch_frame
    from vision.reader import CardReader

    cache = work / "rounds.json"
    digest = model_hash(models)
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("models") == digest and len(saved["rounds"]) == len(photos):
            return list(saved["rounds"])
    reader = CardReader(models)
    start = time.perf_counter()
    batch = read_photos(reader, range(len(photos)), lambda k: read_image(photos[k][0]))
    print(f"rounds: {len(photos)} photos read by the shipped reader in {time.perf_counter() - start:.0f} s"
          + (f" (square photos read stretched {aspect_name(batch.aspect)})" if batch.stretched else ""))
    wide, tall = batch.aspect
    frames = work / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    rounds = []
    for k, detections in batch.readings:
        image, labels = photos[k]
        frame = frames / f"round{k + 1:03d}.png"
        cv2.imwrite(str(frame), stretch_frame(read_image(image), batch.aspect))
        readings = []
        for d in detections:
            box = (float(d.box[0]), float(d.box[1]), float(d.box[2]), float(d.box[3]))
            readings.append({"card": str(d.card), "flags": sorted(str(f) for f in d.flags), "box": box,
                             "frame_box": (box[0] * wide, box[1] * tall, box[2] * wide, box[3] * tall),
                             "confirmed": confirmed_card(box, labels)})
        rounds.append({"round": k + 1, "photo": image.name, "frame": str(frame), "readings": readings,
                       "holds": sorted({card for card, _ in labels})})
    cache.write_text(json.dumps({"models": digest, "rounds": rounds}, indent=1))
    return rounds


def examples_of(rounds: list[dict[str, Any]], count: int) -> list[Any]:
    """The examples of rounds 1..``count``: each reading over one labelled card, labelled with that card."""
    from engine.cards import parse_card
    from vision.enroll.from_play import Example

    examples = []
    for record in rounds[:count]:
        for reading in record["readings"]:
            if reading["confirmed"] is not None:
                x1, y1, x2, y2 = (float(v) for v in reading["frame_box"])
                examples.append(Example(Path(record["frame"]), (x1, y1, x2, y2), parse_card(reading["confirmed"]),
                                        int(record["round"]), str(reading["card"])))
    return examples


def measure(photos: list[tuple[Path, set[str]]], models: Path, name: str) -> SetScore:
    """Photos (with the cards each holds) read together by ``models`` (``read_photos``, as bench/vision_real.py
    reads a set), scored by its ``SetScore``."""
    from vision.image_files import read_image
    from vision.photo_batch import read_photos
    from vision.reader import CardReader

    reader = CardReader(models)
    score = SetScore(name)
    start = time.perf_counter()
    batch = read_photos(reader, range(len(photos)), lambda k: read_image(photos[k][0]))
    score.seconds = time.perf_counter() - start
    for k, detections in batch.readings:
        score.add(photos[k][1], [d.to_json() for d in detections])
    return score


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--checkpoints", default="0,20,50,100", help="after how many rounds to measure")
    parser.add_argument("--models", type=Path, default=None, help="the shipped models (default: models/)")
    parser.add_argument("--work", type=Path, default=REPO / ".cache" / "vision" / "play-bench")
    parser.add_argument("--epochs", type=int, default=None, help="the face reader's epochs (default: the product's)")
    parser.add_argument("--index-epochs", type=int, default=None, help="the index reader's (default: the product's)")
    parser.add_argument("--minutes", type=float, default=None, help="time box a checkpoint (default: the product's)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--fresh", action="store_true", help="read the rounds and learn every checkpoint again")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    from vision.active_model import model_hash
    from vision.enroll.from_play import PlaySettings, learn_from_play
    from vision.reader_models import DEFAULT_MODEL_DIR

    shipped = args.models or DEFAULT_MODEL_DIR
    checkpoints = sorted({int(n) for n in args.checkpoints.split(",")})
    if any(not 0 <= n <= ROUND_PHOTOS for n in checkpoints):
        parser.error(f"checkpoints are 0 to {ROUND_PHOTOS} rounds")
    if args.fresh:
        shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True, exist_ok=True)
    settings = PlaySettings(threads=args.threads)
    changes = {k: v for k, v in (("epochs", args.epochs), ("index_epochs", args.index_epochs),
                                 ("minutes", args.minutes)) if v is not None}
    settings = replace(settings, **changes)
    photos = labelled_photos()
    rounds_photos, measured = photos[:ROUND_PHOTOS], unseen_phone_photos()[MEASURED[0]:MEASURED[1]]
    assert [p for p, _ in measured] == [p for p, _ in photos[MEASURED[0]:MEASURED[1]]]
    print(f"shipped models {shipped} ({model_hash(shipped)}); rounds: photos 1-{ROUND_PHOTOS}, measured: photos "
          f"{MEASURED[0] + 1}-{MEASURED[1]} ({len(measured)} photos, {sum(len(t) for _, t in measured)} cards); "
          f"learning: {settings}")
    rounds = read_rounds(rounds_photos, shipped, args.work)
    results = []
    for n in checkpoints:
        examples = examples_of(rounds, n)
        corrected = sum(str(e.card) != e.read_as for e in examples)
        readings = sum(len(r["readings"]) for r in rounds[:n])
        learnt_s = 0.0
        if n == 0:
            folder = shipped
        else:
            folder = args.work / "models" / f"after-{n:03d}"
            if not (folder / "reader.json").exists():
                start = time.perf_counter()
                shutil.rmtree(args.work / "jobs" / f"after-{n:03d}", ignore_errors=True)
                learn_from_play(examples, shipped, folder, args.work / "jobs" / f"after-{n:03d}", settings,
                                info={"bench": "vision_play", "rounds_upto": n})
                learnt_s = time.perf_counter() - start
        score = measure(measured, folder, f"after {n} rounds")
        r = score.rates()
        learnt = f"; learnt in {learnt_s / 60:.1f} min" if learnt_s else "; learnt before" if n else ""
        print(f"after {n:3d} rounds ({len(examples)} examples from {readings} readings, {corrected} corrected"
              f"{learnt}): named right {r['named']:.1%} "
              f"({score.named} of {score.held}); flagged {r['flagged']:.1%} ({score.flagged} of {score.readings}); "
              f"unflagged wrong {r['unflagged_wrong']:.1%} ({score.unflagged_wrong} of {score.unflagged}); ghosts "
              f"{r['ghosts']:.1%}; {score.seconds / max(score.photos, 1):.2f} s a photo", flush=True)
        results.append({"rounds": n, "examples": len(examples), "corrected": corrected, "learn_s": round(learnt_s),
                        "models": str(folder), **{k: round(v, 4) for k, v in r.items()},
                        "named": score.named, "held": score.held, "flagged": score.flagged,
                        "readings": score.readings, "unflagged_wrong": score.unflagged_wrong,
                        "unflagged": score.unflagged})
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
